"""parse_server_settings: safe defaults, the referee token's three sources, every bad value
refused with a ConfigError naming key, value and what is allowed."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from firmware.settings.server_settings import ServerSettings, parse_server_settings


def test_defaults_listen_on_this_machine_only_port_8080() -> None:
    s = parse_server_settings({}, {}, {}, simulate=True)
    assert (s.host, s.port, s.public_url) == ("127.0.0.1", 8080, None)


def test_referee_token_from_config_wins_over_environment() -> None:
    s = parse_server_settings({}, {"token": "c" * 20, "pin": "123456"},
                              {"BIDOU_REFEREE_TOKEN": "e" * 20})
    assert s.referee_token == "c" * 20 and not s.token_generated


def test_referee_token_from_environment_when_config_has_none() -> None:
    s = parse_server_settings({}, {"pin": "123456"}, {"BIDOU_REFEREE_TOKEN": "e" * 20})
    assert s.referee_token == "e" * 20 and not s.token_generated


def test_referee_token_generated_when_neither_gives_one() -> None:
    a = parse_server_settings({}, {}, {}, simulate=True)
    b = parse_server_settings({}, {}, {}, simulate=True)
    assert a.token_generated and len(a.referee_token) >= 16
    assert a.referee_token != b.referee_token


def test_pin_generated_in_simulation_and_six_digits() -> None:
    s = parse_server_settings({}, {}, {}, simulate=True)
    assert s.pin_generated and s.referee_pin.isdigit() and len(s.referee_pin) == 6


def test_pin_required_on_a_real_table() -> None:
    with pytest.raises(ConfigError) as e:
        parse_server_settings({}, {}, {}, simulate=False)
    assert e.value.key == "referee.pin"
    assert "a referee PIN is required on a real table" in str(e.value)


def test_config_values_are_kept() -> None:
    s = parse_server_settings({"host": "0.0.0.0", "port": 9000,
                               "public_url": "http://192.168.1.20:9000/"},
                              {"pin": "004217", "token": "t" * 16}, {})
    assert (s.host, s.port, s.public_url, s.referee_pin) == (
        "0.0.0.0", 9000, "http://192.168.1.20:9000", "004217")


@pytest.mark.parametrize(("server", "referee", "key"), [
    ({"port": 70000}, {"pin": "123456"}, "server.port"),
    ({"port": "8080"}, {"pin": "123456"}, "server.port"),
    ({"port": True}, {"pin": "123456"}, "server.port"),
    ({"host": ""}, {"pin": "123456"}, "server.host"),
    ({"host": "a b"}, {"pin": "123456"}, "server.host"),
    ({"public_url": "192.168.1.2"}, {"pin": "123456"}, "server.public_url"),
    ({"keepalive": 0}, {"pin": "123456"}, "server.keepalive"),
    ({"colour": "red"}, {"pin": "123456"}, "server.colour"),
    ({}, {"pin": "12"}, "referee.pin"),
    ({}, {"pin": "12ab"}, "referee.pin"),
    ({}, {"pin": 1234}, "referee.pin"),
    ({}, {"pin": "123456", "token": "short"}, "referee.token"),
    ({}, {"pin": "123456", "user": "x"}, "referee.user"),
])
def test_bad_values_raise_config_error_naming_the_key(server: dict, referee: dict,
                                                      key: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_server_settings(server, referee, {})
    assert e.value.key == key
    assert str(e.value).startswith(f"{key} = ")


def test_short_token_from_environment_is_refused_naming_the_variable() -> None:
    with pytest.raises(ConfigError) as e:
        parse_server_settings({}, {"pin": "123456"}, {"BIDOU_REFEREE_TOKEN": "abc"})
    assert e.value.key == "BIDOU_REFEREE_TOKEN"
    assert "abc" not in str(e.value)  # a secret is never echoed


def test_integer_pin_message_says_to_quote_it() -> None:
    with pytest.raises(ConfigError) as e:
        parse_server_settings({}, {"pin": 1234}, {})
    assert str(e.value) == ('referee.pin = 1234 is not allowed: a PIN written in quotes, such '
                            'as pin = "482913", so that leading zeros are kept')


def test_secrets_are_not_in_repr() -> None:
    s = ServerSettings(referee_token="x" * 20, referee_pin="9999")
    assert "x" * 20 not in repr(s) and "9999" not in repr(s)


@pytest.mark.parametrize("pin", ["1234", "12345", "１２３４５６"])
def test_a_pin_shorter_than_six_ascii_digits_is_refused(pin) -> None:
    with pytest.raises(ConfigError) as e:
        parse_server_settings({}, {"pin": pin}, {})
    assert str(e.value) == ("referee.pin = '<hidden>' is not allowed: a string of 6 to 12 digits "
                            "(a shorter PIN is guessed too soon)")


def test_a_non_ascii_referee_token_is_refused_at_start() -> None:
    with pytest.raises(ConfigError) as e:
        parse_server_settings({}, {"pin": "123456", "token": "schlüssel-geheim-1234"}, {})
    assert e.value.key == "referee.token"
    assert "printable ASCII characters" in str(e.value)
