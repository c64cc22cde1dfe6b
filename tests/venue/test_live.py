"""The screen's live view (``venue_screen.live.Live``): it shows an entry from the hub
before the ingester stores it, so it must show only what the store will hold, in the order
the store holds it. These drive its two inputs (the hub's entries, the ingester's notices)
directly: the rules, without the network (the flow tests run them against the real hub)."""

from __future__ import annotations

import queue

from firmware.gamelog.log import Entry, GameRow
from venue.messages import entry_message
from venue.settings import build_venue_config
from venue_screen.live import Live

SUBJECT = "bidou.pub.t1.entry"


def live() -> tuple[Live, queue.Queue]:
    config = build_venue_config({"venue": {"name": "pub"}, "hub": {"admin_password": "x"},
                                 "database": {"dsn": "host=127.0.0.1"},
                                 "tables": {"t1": {"password": "a"}, "t2": {"password": "b"}}})
    view = Live(config)
    view._seeded = True  # as if PostgreSQL held nothing yet
    view._log_ids["t1"] = "LOG1"
    return view, view.listen()


def message(seq: int, text: str = "Ann bet 1", *, table: str = "t1", log: str = "LOG1",
            game: int = 1, status: str = "playing") -> bytes:
    row = GameRow(game, "two-hand", ("Ann", "Bob"), {}, "t0", None, status, None)
    return entry_message("pub", table, log, Entry(game, seq, "action", text, "web", "", "t1"),
                         row).to_bytes()


def shown(q: queue.Queue) -> list[tuple[str, int, int, bool]]:
    out = []
    while not q.empty():
        for kind, body in q.get_nowait():
            if kind == "entry":
                out.append((body["table"], body["game"], body["seq"], body["stored"]))
    return out


def test_entries_from_the_hub_are_shown_in_order_once() -> None:
    view, q = live()
    for seq in (1, 2, 2, 4, 3):  # a repeat, and 4 before 3 (a publish retried)
        view.on_hub_entry(SUBJECT, message(seq))
    assert shown(q) == [("t1", 1, 1, False), ("t1", 1, 2, False), ("t1", 1, 3, False)]
    # 4 was held back: the store's notice shows it, after 3
    view.on_stored({"table": "t1", "log_id": "LOG1", "game": 1, "seq": 3})
    view.on_stored({"table": "t1", "log_id": "LOG1", "game": 1, "seq": 4, "text": "Bob bet 1"})
    assert shown(q) == [("t1", 1, 4, True)]
    assert view.last_entry["t1"]["seq"] == 4 and view.last_entry["t1"]["stored"] is True


def test_what_the_store_would_refuse_is_never_shown() -> None:
    view, q = live()
    view.on_hub_entry(SUBJECT, message(1))
    shown(q)
    view.on_hub_entry(SUBJECT, message(2, "Ann throw 6 5 4"))  # a concealed die
    view.on_hub_entry(SUBJECT, b"not an entry")
    view.on_hub_entry(SUBJECT, message(2, log="REPLACED"))  # a replaced log
    view.on_hub_entry("bidou.pub.ghost.entry", message(1, table="ghost"))  # not configured
    view.on_hub_entry("bidou.pub.t2.entry", message(1, table="t2"))  # log not stored yet
    assert shown(q) == []
    assert view.last_entry["t1"]["seq"] == 1
    # t2's first entry is shown once stored; its log is then known and it goes live
    view.on_stored({"table": "t2", "log_id": "LOG2", "game": 1, "seq": 1})
    view.on_hub_entry("bidou.pub.t2.entry", message(2, table="t2", log="LOG2"))
    assert shown(q) == [("t2", 1, 1, True), ("t2", 1, 2, False)]


def test_an_accepted_new_log_starts_the_tables_games_again_on_the_screen() -> None:
    """After bidou-venue accept-log the store holds the new log under the table's name, its
    game 1 from seq 1 again: the ingester's first notice of it resets what was shown."""
    view, q = live()
    for seq in (1, 2, 3):
        view.on_hub_entry(SUBJECT, message(seq))
    shown(q)
    view.on_hub_entry(SUBJECT, message(1, log="NEW"))  # still refused: not yet accepted
    assert shown(q) == []
    view.on_stored({"table": "t1", "log_id": "NEW", "game": 1, "seq": 1, "text": "Cy bet 2"})
    view.on_hub_entry(SUBJECT, message(2, log="NEW"))
    assert shown(q) == [("t1", 1, 1, True), ("t1", 1, 2, False)]
    assert view.last_entry["t1"]["seq"] == 2


def test_a_screen_not_yet_seeded_from_postgres_waits_for_the_store() -> None:
    view, q = live()
    view._seeded = False  # PostgreSQL not read yet: the seqs held are unknown
    view.on_hub_entry(SUBJECT, message(5))
    assert shown(q) == []
    view.on_stored({"table": "t1", "log_id": "LOG1", "game": 1, "seq": 5})
    assert shown(q) == [("t1", 1, 5, True)]
