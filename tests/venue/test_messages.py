"""The message format's checks, without servers: every bad message is refused with a
sentence naming what is wrong, and a concealed die planted in a message is found."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import tomllib

import pytest

from firmware.gamelog.concealment import dice_in_text, entry_is_public
from firmware.gamelog.log import Entry, GameLog, GameRow
from firmware.settings.venue_settings import parse_venue_settings
from venue.messages import BadMessage, entry_message, leaks, msg_id, parse_entry
from venue.outbox import released
from venue.settings import build_venue_config

SUBJECT = "bidou.pub.t1.entry"


def message(text: str = "Ann bet 1", status: str = "playing", **change: object) -> bytes:
    game = GameRow(3, "montevideo", ("Ann", "Bob", "Cy"), {}, "2026-01-01T20:00:00",
                   None, status, None)
    entry = Entry(3, 4, "action", text, "web", "", "2026-01-01T20:01:00")
    data = json.loads(entry_message("pub", "t1", "LOG1", entry, game).to_bytes())
    data.update(change)
    return json.dumps(data).encode()


def test_a_table_entry_round_trips_with_its_dedup_id() -> None:
    m = parse_entry(SUBJECT, message())
    assert (m.table, m.game, m.seq, m.text) == ("t1", 3, 4, "Ann bet 1")
    assert m.id == msg_id("t1", "LOG1", 3, 4) == "t1:LOG1:3:4"


def test_a_concealed_die_planted_in_a_forwarded_message_is_found() -> None:
    planted = message("Ann throw 6 5 4", status="playing")
    with pytest.raises(BadMessage, match=r"concealed dice \(throw 6 5 4\)"):
        parse_entry(SUBJECT, planted)
    assert leaks(parse_entry(SUBJECT, message("Ann throw 6 5 4", status="over"))) is None
    # a fix-dice names its action after a position; an undo repeats the undone throw
    assert dice_in_text("12 Bob throw 3 3 1") == ["throw 3 3 1"]
    assert dice_in_text("Ann roll 5") == ["roll 5"]
    assert dice_in_text("Ann raise 2") == []


def test_dice_leave_the_table_only_once_their_game_is_over_or_abandoned() -> None:
    assert entry_is_public("Ann bet 1", "playing")
    assert not entry_is_public("Ann throw 6 5 4", "playing")
    assert not entry_is_public("Ann roll 3", "playing")
    assert entry_is_public("Ann throw 6 5 4", "over")
    assert entry_is_public("Ann throw 6 5 4", "abandoned")


@pytest.mark.parametrize(("subject", "payload", "words"), [
    (SUBJECT, b"not json", "is not JSON"),
    (SUBJECT, b'{"hello": 1}', "is not a bidou-venue/1 entry"),
    (SUBJECT, message(seq="4"), "seq = '4'"),
    (SUBJECT, message(game=0), "both count from 1"),
    (SUBJECT, message(kind="cheat"), "kind 'cheat'"),
    (SUBJECT, message(status="paused"), "game status 'paused'"),
    (SUBJECT, message(table="t2"), "publishes only under its own name"),
    ("bidou.pub.t1.other", message(), "is not bidou.VENUE.TABLE.entry"),
])
def test_a_message_that_is_not_a_tables_entry_is_refused_with_a_sentence(
        subject: str, payload: bytes, words: str) -> None:
    with pytest.raises(BadMessage, match=words):
        parse_entry(subject, payload)


def test_a_bad_venue_section_names_the_key() -> None:
    with pytest.raises(ValueError, match="venue.url"):
        parse_venue_settings({"url": "http://hub", "table": "t1"})
    with pytest.raises(ValueError, match="venue.table"):
        parse_venue_settings({"url": "nats://hub:4222", "table": "t 1"})
    with pytest.raises(ValueError, match="venue.colour"):
        parse_venue_settings({"url": "nats://hub:4222", "table": "t1", "colour": 1})
    ok = parse_venue_settings({"url": "nats://hub:4222", "table": "t1", "password": "p"})
    assert ok is not None and ok.user == "t1" and ok.venue == "pub"
    assert parse_venue_settings(None) is None


def test_a_bad_venue_config_names_the_key() -> None:
    base = {"hub": {"admin_password": "x"}, "database": {"dsn": "host=x"},
            "tables": {"t1": {"password": "p"}}}
    assert build_venue_config(base).tables == {"t1": "p"}
    with pytest.raises(ValueError, match="tables"):
        build_venue_config({**base, "tables": {}})
    with pytest.raises(ValueError, match="hub.port"):
        build_venue_config({**base, "hub": {"admin_password": "x", "port": 70000}})
    with pytest.raises(ValueError, match="no such section"):
        build_venue_config({**base, "bar": {}})


def test_tls_settings_name_the_key_and_what_is_wrong(tmp_path: pathlib.Path) -> None:
    """A ca needs a tls:// url and a readable file of certificates; the hub's certificate
    needs its key. (Real certificates: test_tls.py.)"""
    pem = tmp_path / "ca.pem"
    pem.write_text("-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----\n")
    table = {"url": "tls://hub:4222", "table": "t1"}
    with pytest.raises(ValueError, match="venue.ca.*OpenSSL cannot read it"):
        parse_venue_settings({**table, "ca": str(pem)})
    with pytest.raises(ValueError, match='venue.ca.*only with a "tls://" url'):
        parse_venue_settings({**table, "url": "nats://hub:4222", "ca": str(pem)})
    with pytest.raises(ValueError, match="venue.ca.*no readable file there"):
        parse_venue_settings({**table, "ca": str(tmp_path / "absent.pem")})
    base = {"hub": {"admin_password": "x"}, "database": {"dsn": "host=x"},
            "tables": {"t1": {"password": "p"}}}
    assert build_venue_config(base).hub_url.startswith("nats://")
    assert build_venue_config(base).client_tls() is None
    with pytest.raises(ValueError, match="hub.tls_key.*given with the other"):
        build_venue_config({**base, "hub": {"admin_password": "x", "tls_cert": str(pem)}})
    with pytest.raises(ValueError, match="hub.tls_cert.*no readable file there"):
        build_venue_config({**base, "hub": {"admin_password": "x", "tls_cert": "/nope.pem",
                                            "tls_key": str(pem)}})
    tls = build_venue_config({**base, "hub": {"admin_password": "x", "tls_cert": str(pem),
                                              "tls_key": str(pem)}})
    assert tls.hub_url.startswith("tls://")
    anywhere = build_venue_config({**base, "hub": {"admin_password": "x", "host": "0.0.0.0"}})
    assert anywhere.hub_url == "nats://127.0.0.1:4222"  # its own clients: on loopback


def test_the_example_configs_venue_section_loads_when_uncommented() -> None:
    """firmware/table.example.toml documents [venue]; its lines, uncommented, are valid."""
    example = pathlib.Path(__file__).resolve().parents[2] / "firmware" / "table.example.toml"
    text = example.read_text().split("# [venue]\n", 1)[1]
    section = "\n".join(line[2:].split("  #")[0] for line in text.splitlines()
                        if line.startswith("# ") and "=" in line)
    settings = parse_venue_settings(tomllib.loads(section))
    assert settings is not None and (settings.table, settings.url) == (
        "t1", "nats://192.168.1.5:4222")


def test_a_table_without_venue_loads_no_broker_or_database_client() -> None:
    """make run needs neither nats-py nor psycopg: the run command and the config load
    without importing them (the forwarder is imported only when [venue] is set)."""
    code = ("import sys, table_server.cmd_run, firmware.settings.config; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('nats', 'psycopg')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=pathlib.Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


def test_a_nul_character_or_an_id_past_the_stores_integers_is_refused() -> None:
    """PostgreSQL stores neither: refused here, the screen does not show it either."""
    with pytest.raises(BadMessage, match="NUL"):
        parse_entry(SUBJECT, message("Ann bet\x001"))
    with pytest.raises(BadMessage, match="NUL"):
        parse_entry(SUBJECT, message(options={"x": "a\x00"}))
    with pytest.raises(BadMessage, match="count from 1"):
        parse_entry(SUBJECT, message(seq=2**31))


def test_a_nul_is_found_in_any_json_encoding_and_a_written_backslash_u_is_not_one() -> None:
    """The NUL check's fast path (two byte searches) decides nothing it should not: a NUL
    in UTF-16 JSON is still found, and the six characters \\u0000 written in a text (JSON
    ``\\\\u0000``) are stored like any other text."""
    nul = json.loads(message("Ann bet\x001"))
    with pytest.raises(BadMessage, match="NUL"):
        parse_entry(SUBJECT, json.dumps(nul).encode("utf-16"))
    assert parse_entry(SUBJECT, message("Ann bet \\u0000")).text == "Ann bet \\u0000"


@pytest.mark.parametrize("field", ["why", "by"])
def test_dice_in_any_text_of_an_entry_are_concealed_on_both_sides(field: str) -> None:
    """``why: "Bob hides 6 5 4"`` and ``by: "Bob throw 6 6 6"`` hide dice as surely as
    ``text``. The table holds such an entry until its game ends; the venue
    refuses it while the game is played, and takes it once over."""
    value = {"why": "Bob hides 6 5 4", "by": "Bob throw 6 6 6"}[field]
    with pytest.raises(BadMessage, match="concealed dice"):
        parse_entry(SUBJECT, message(**{field: value}))
    assert leaks(parse_entry(SUBJECT, message(status="over", **{field: value}))) is None
    entry = Entry(1, 2, "undo", "Ann bet 1", "web", "pressed by mistake", "t1")
    hidden = Entry(**{**entry.__dict__, field: value})
    assert entry_is_public(entry, "playing") and not entry_is_public(hidden, "playing")
    assert entry_is_public(hidden, "over")
    log = GameLog(":memory:")
    game = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    log.append(game, "action", "Ann bet 1", "web", "t1")
    log.append(game, "undo", "Ann bet 1", hidden.by, "t2", why=hidden.why)
    log.append(game, "action", "Bob bet 1", "web", "t3")
    assert [o.entry.text for o in released(log, 0)] == ["Ann bet 1"]  # stops at the die
    log.finish_game(game, "abandoned", None, "t4")
    assert len(released(log, 0)) == 3
