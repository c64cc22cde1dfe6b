"""The table config: the example loads, and every bad value names its key, value and rule."""

from __future__ import annotations

import pathlib

import pytest

from engine.errors import ConfigError
from firmware.settings.config import build_config, default_config, load_config

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "firmware" / "table.example.toml"


def _cfg(**table):
    base = {"variant": "two-hand", "players": ["Ann", "Bob"]}
    base.update(table)
    return {"table": base}


def test_example_config_loads_with_every_section():
    config = load_config(str(EXAMPLE), environ={})
    assert config.variant == "two-hand"
    assert config.players == ("Ann", "Bob")
    assert config.options == {"ranking": "three-digit"}
    assert config.pins.seats == ("Ann", "Bob")
    assert config.pins.button_pin("Ann", "THROW") == 4
    assert config.camera.kind == "simulated"
    assert [z.seat for z in config.zones] == ["Ann", "Bob"]
    assert config.server.referee_pin == "246813"
    assert config.server.port == 8080


def test_default_config_is_a_simulated_two_hand_table_for_ann_and_bob():
    config = default_config(environ={})
    assert (config.variant, config.players, config.simulate) == ("two-hand", ("Ann", "Bob"), True)
    assert config.server.pin_generated


def test_unknown_variant_names_key_value_and_choices():
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(variant="poker"), environ={})
    assert str(e.value) == ("table.variant = 'poker' is not allowed: one of two-hand, "
                            "multi-hand, montevideo")


def test_two_hand_needs_exactly_two_players():
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(players=["Ann", "Bob", "Cid"]), environ={})
    assert str(e.value) == ("table.players = ['Ann', 'Bob', 'Cid'] is not allowed: exactly 2 "
                            "players for two-hand")


def test_missing_players_says_what_to_write():
    with pytest.raises(ConfigError) as e:
        build_config({"table": {"variant": "multi-hand"}}, environ={})
    assert e.value.key == "table.players"
    assert "clockwise seat order" in str(e.value)


def test_player_names_without_spaces_and_unique():
    with pytest.raises(ConfigError, match="without spaces"):
        build_config(_cfg(players=["Ann Lee", "Bob"]), environ={})
    with pytest.raises(ConfigError, match="names must be unique"):
        build_config(_cfg(players=["Ann", "Ann"]), environ={})


def test_a_reserved_player_name_is_reported_under_table_players():
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(players=["pot", "Bob"]), environ={})
    assert e.value.key == "table.players"


def test_poor_fish_is_multi_hand_only_P1():
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(options={"poor_fish": True}), environ={})
    assert e.value.key == "table.options"
    assert "(P1)" in str(e.value)


def test_ranking_option_names_the_allowed_values():
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(options={"ranking": "sum"}), environ={})
    assert str(e.value) == ("table.options.ranking = 'sum' is not allowed: "
                            '"three-digit" or "total"')


def test_unknown_section_and_unknown_table_key_are_refused():
    with pytest.raises(ConfigError) as e:
        build_config({**_cfg(), "tabel": {}}, environ={})
    assert e.value.key == "tabel"
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(seats=3), environ={})
    assert str(e.value) == ("table.seats = 3 is not allowed: no such key; [table] has "
                            "variant, players, options, language")


def test_pins_section_is_checked_by_the_pin_map_owner():
    data = {**_cfg(), "pins": {"Cid": {"throw": 4, "bet": 17, "call": 27, "pass": 22,
                                       "led": 18}}}
    with pytest.raises(ConfigError) as e:
        build_config(data, environ={})
    assert e.value.key == "pins.Cid"


def test_zone_for_a_seat_that_is_not_a_player_is_refused():
    data = {**_cfg(), "zones": {"Cid": {"x": 0, "y": 0, "w": 10, "h": 10}}}
    with pytest.raises(ConfigError) as e:
        build_config(data, environ={})
    assert e.value.key == "zones.Cid"
    assert "seats are Ann, Bob" in str(e.value)


def test_camera_and_server_sections_are_checked_by_their_owners():
    with pytest.raises(ConfigError) as e:
        build_config({**_cfg(), "camera": {"kind": "webcam"}}, environ={})
    assert e.value.key == "camera.kind"
    with pytest.raises(ConfigError) as e:
        build_config({**_cfg(), "server": {"port": "eighty"}}, environ={})
    assert e.value.key == "server.port"


def test_referee_pin_is_required_on_a_real_table():
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(), simulate=False, environ={})
    assert e.value.key == "referee.pin"


def test_broken_toml_and_missing_file_name_the_file(tmp_path):
    bad = tmp_path / "table.toml"
    bad.write_text("[table\nvariant = 'two-hand'\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(bad), environ={})
    assert e.value.key == "--config"
    assert "valid TOML" in str(e.value)
    with pytest.raises(ConfigError) as e:
        load_config(str(tmp_path / "nope.toml"), environ={})
    assert "copy firmware/table.example.toml" in str(e.value)


def test_a_zone_must_lie_inside_the_camera_frame():
    data = {**_cfg(), "camera": {"width": 640, "height": 480},
            "zones": {"Ann": {"x": 600, "y": 0, "w": 100, "h": 100}}}
    with pytest.raises(ConfigError) as e:
        build_config(data, environ={})
    assert e.value.key == "zones.Ann.w"
    assert "inside the 640x480 frame" in str(e.value)


def test_the_simulated_cameras_share_of_unsure_dice_is_0_to_1():
    config = build_config({**_cfg(), "camera": {"kind": "simulated", "unsure": 0.3}},
                          environ={})
    assert config.camera.unsure == 0.3
    with pytest.raises(ConfigError) as e:
        build_config({**_cfg(), "camera": {"unsure": 1.5}}, environ={})
    assert str(e.value) == ("camera.unsure = 1.5 is not allowed: a share from 0 to 1, such as "
                            "0.3")
def test_the_teach_table_s_config_loads_with_dice_the_rule_reader_misses() -> None:
    """`make teach` runs firmware/table.teach.toml: a simulated table with red-green dice."""
    config = load_config(str(EXAMPLE.with_name("table.teach.toml")), environ={})
    assert config.camera.kind == "simulated" and config.camera.dice == "red-green"


def test_the_pub_screens_language_is_one_the_dashboard_speaks():
    assert build_config(_cfg(language="fr"), environ={}).server.language == "fr"
    with pytest.raises(ConfigError) as e:
        build_config(_cfg(language="de"), environ={})
    assert e.value.key == "table.language" and "French" in str(e.value)
