"""Bad input at the venue, each with real processes: a message that is not a table's entry,
a table name that is not configured, a planted concealed die, a table writing as another, a
table whose log was replaced, a wrong [venue] url or password. Each gives a clear line in
the ingester's log and in the screen's table status, stores nothing, and stops nothing."""

from __future__ import annotations

import asyncio
import json

import nats
import pytest
from venue_harness import Venue, wait_until

from firmware.gamelog.log import Entry, GameRow
from venue.messages import entry_message, inbox_prefix

pytestmark = pytest.mark.slow


async def publish(venue: Venue, user: str, password: str, subject: str,
                  payload: bytes) -> Exception | None:
    """Publish to JetStream as ``user``; the exception the hub answers with, if any."""
    prefix = {} if user == venue.admin[0] else {"inbox_prefix": inbox_prefix(venue.name, user)}
    nc = await nats.connect(venue.url, user=user, password=password, connect_timeout=3,
                            max_reconnect_attempts=0, **prefix)
    try:
        await nc.jetstream().publish(subject, payload, timeout=3)
        return None
    except Exception as e:
        return e
    finally:
        await nc.close()


def planted(table: str, text: str, status: str = "playing", seq: int = 1, *,
            why: str = "", by: str = "web") -> bytes:
    game = GameRow(1, "two-hand", ("Ann", "Bob"), {}, "t0", None, status, None)
    return entry_message("pub", table, "LOGX", Entry(1, seq, "action", text, by, why, "t1"),
                         game).to_bytes()


def _last_text(venue: Venue, table: str) -> str | None:
    """The text of the last entry the venue screen shows for ``table`` (None: none yet)."""
    _, tables = venue.get("/api/tables")
    last = {t["name"]: t for t in tables}.get(table, {}).get("last_entry")
    return last["text"] if last else None


def test_bad_messages_are_refused_with_a_line_and_stop_nothing(venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    venue.start_screen()
    wait_until(lambda: "consuming" in venue.log_text("ingester"), 30,
               "the ingester to make the streams")  # before that, nothing stores a message
    admin = venue.admin
    venue.enroll("t2", "LOGX")
    events = venue.screen_events()
    # t2's log is known to the store: its next entry would be shown live from the hub
    assert asyncio.run(publish(venue, *admin, "bidou.pub.t2.entry",
                               planted("t2", "Ann bet 1"))) is None
    wait_until(lambda: venue.rows("t2") == [(1, 1, "Ann bet 1")], 30, "t2's first entry")
    # a table's first entry reaches the screen by the ingester's notice after its commit,
    # which may come a moment after the row is visible: wait for the screen to show it
    wait_until(lambda: _last_text(venue, "t2") == "Ann bet 1", 30,
               "the screen to show t2's first entry")
    bad = [("bidou.pub.t2.entry", b"hello, not an entry", "is not JSON"),
           ("bidou.pub.ghost.entry", planted("ghost", "Ann bet 1"),
            "'ghost' is not one of this venue's tables"),
           ("bidou.pub.t2.entry", planted("t2", "Ann throw 6 5 4", seq=2), "concealed dice"),
           # dice in the other texts of an entry are dice too
           ("bidou.pub.t2.entry", planted("t2", "Ann bet 2", seq=2, why="Bob hides 6 5 4"),
            "concealed dice (6, 5, 4)"),
           ("bidou.pub.t2.entry", planted("t2", "Ann bet 2", seq=2, by="Bob throw 6 6 6"),
            "concealed dice (throw 6 6 6")]
    for subject, payload, _ in bad:
        assert asyncio.run(publish(venue, *admin, subject, payload)) is None
    for _, _, words in bad:
        wait_until(lambda w=words: w in venue.log_text("ingester"), 30,
                   f"the ingester's line saying {words!r}")
    assert venue.rows("t2") == [(1, 1, "Ann bet 1")] and venue.rows("ghost") == []
    status, tables = venue.get("/api/tables")
    by_name = {t["name"]: t for t in tables}
    # the screen's live view, fed from the hub, showed none of them either
    assert by_name["t2"]["last_entry"]["text"] == "Ann bet 1"
    shown = [(e["table"], e["seq"]) for kind, e in events() if kind == "entry"]
    assert ("t2", 2) not in shown and not any(t == "ghost" for t, _ in shown)
    _, page = venue.get("/games/t2/1")
    assert "Ann bet 1" in page and "6 5 4" not in page and "6 6 6" not in page
    assert "concealed dice" in by_name["t2"]["problem"] or "not JSON" in by_name["t2"]["problem"]
    assert by_name["ghost"]["configured"] is False
    # nothing else stopped: a real table's entries still arrive
    venue.start_table("t1", seed=61)
    wait_until(lambda: venue.finished_games("t1") >= 1, 240, "t1 to finish a game")
    wait_until(lambda: venue.caught_up("t1"), 60, "the venue to hold t1's log")
    venue.check_table("t1")


def test_a_table_cannot_write_as_another(venue: Venue) -> None:
    venue.start_hub()
    venue.start_ingester()
    wait_until(lambda: "consuming" in venue.log_text("ingester"), 30, "the streams made")
    venue.enroll("t1", "LOGX")
    refused = asyncio.run(publish(venue, "t1", venue.passwords["t1"], "bidou.pub.t2.entry",
                                  planted("t2", "Ann bet 1")))
    assert refused is not None, "the hub let t1 publish as t2"
    allowed = asyncio.run(publish(venue, "t1", venue.passwords["t1"], "bidou.pub.t1.entry",
                                  planted("t1", "Ann bet 1")))
    assert allowed is None
    wait_until(lambda: venue.rows("t1") == [(1, 1, "Ann bet 1")], 30, "t1's own entry stored")
    assert venue.rows("t2") == []


def test_a_replaced_log_is_refused_and_shown_on_the_screen(venue: Venue) -> None:
    old = venue.refused_new_log("t1")  # its game ids started again at 1
    venue.check_table("t1", old)  # the old log whole, nothing of the new one over it
    status, tables = venue.get("/api/tables")
    t1 = next(t for t in tables if t["name"] == "t1")
    assert "its log was replaced" in t1["problem"]


@pytest.mark.parametrize("wrong", ["url", "password"])
def test_a_wrong_venue_url_or_password_the_table_plays_and_says_so(venue: Venue,
                                                                  wrong: str) -> None:
    venue.start_hub()
    if wrong == "url":
        venue.start_table("t1", url="nats://127.0.0.1:1", seed=81)
    else:
        venue.start_table("t1", password="not-the-password", seed=81)
    wait_until(lambda: venue.finished_games("t1") >= 1, 240, "t1 to play a whole game")
    state = venue.referee_state("t1")
    assert state["status"] in ("playing", "over")
    status = state["venue"]
    assert status["connected"] is False and status["waiting"] > 0
    assert "cannot reach the hub" in status["sentence"]
    assert f"{status['waiting']} entries wait" in status["sentence"]
    if wrong == "password":
        assert "authorization" in (status["problem"] or "").lower()
    assert json.dumps(state)  # the console's JSON is whole
