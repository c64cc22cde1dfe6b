"""League seats: the referee puts a rostered player (or a guest) in each seat before a game's
first action; the table logs it as a ``seating`` entry that a restart, the venue and the
league all read back (firmware/table/roster_seating.py)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from firmware.gamelog.concealment import entry_is_public
from firmware.gamelog.log import GameLog
from firmware.gamelog.seating_entry import current_seating, id_problem, parse_seating, seating_text
from firmware.table.commands import Press
from firmware.table.roster_seating import Seat
from venue.messages import entry_message, parse_entry

ids = st.from_regex(r"[a-z0-9][a-z0-9-]{0,31}", fullmatch=True).filter(lambda i: i != "guest")


@given(st.lists(ids, min_size=2, max_size=8, unique=True), st.data())
def test_a_seating_text_reads_back_as_the_seating_it_wrote(players_ids, data) -> None:
    players = [f"S{i}" for i in range(len(players_ids))]
    seating = {p: (i if data.draw(st.booleans()) else None)
               for p, i in zip(players, players_ids, strict=True)}
    text = seating_text(players, seating)
    assert parse_seating(text, players) == seating
    assert list(json.loads(text)) == players  # in seat order
    assert entry_is_public(text, "playing")  # it names no dice: it leaves the table at once


def test_a_seating_naming_another_seat_or_one_player_twice_is_no_seating() -> None:
    for text in ('{"Ann": "p1", "Cid": null}', '{"Ann": "p1", "Bob": "p1"}', "Ann=p1 Bob=p2",
                 '{"Ann": "P 1", "Bob": null}', '{"Ann": "guest", "Bob": null}', "[]"):
        try:
            parse_seating(text, ("Ann", "Bob"))
        except ValueError as e:
            assert str(e)
        else:
            raise AssertionError(f"{text!r} was taken as a seating")
    assert id_problem("p0042") is None and id_problem("guest") and id_problem("Ann")


def test_the_referee_seats_players_before_the_first_action_and_the_log_keeps_it(
        make, fake, tmp_path) -> None:
    db = str(tmp_path / "t.db")
    c = make(fake, db)
    out = c.submit(Seat({"Ann": "p0001"}))  # Bob left out: a guest
    assert out.ok, out.message
    assert "Ann as p0001" in out.message
    assert c.seating() == {"Ann": "p0001", "Bob": None}
    out = c.submit(Seat({"Ann": "p0001", "Bob": "p0002"}))  # seated again before play: counts
    assert out.ok and c.seating() == {"Ann": "p0001", "Bob": "p0002"}
    fake.put("Ann", [5])
    assert c.submit(Press("Ann", "THROW")).ok
    refused = c.submit(Seat({"Ann": "p0009", "Bob": None}))
    assert not refused.ok and "before a game's first action" in refused.message
    gid = c.live_game_id
    c.stop()
    log = GameLog(db)
    entries = log.entries(gid)
    assert [e.kind for e in entries] == ["seating", "seating", "action"]  # nothing of the refusal
    assert current_seating(entries, ("Ann", "Bob")) == {"Ann": "p0001", "Bob": "p0002"}
    log.close()
    again = make(fake, db)  # a restart on the same log knows who plays
    assert again.seating() == {"Ann": "p0001", "Bob": "p0002"}
    again.stop()


def test_a_seating_of_unknown_seats_or_a_double_player_is_refused_and_nothing_is_written(
        controller) -> None:
    for ids_, words in (({"Ann": "p1", "Zed": "p2"}, "the seats are Ann, Bob"),
                        ({"Ann": "p1", "Bob": "p1"}, "in two seats"),
                        ({"Ann": "Not An Id"}, "is not a roster id")):
        out = controller.submit(Seat(ids_))
        assert not out.ok and words in out.message, out.message
    assert controller.referee_state()["history"] == []


def test_the_venue_takes_a_seating_entry_while_its_game_is_played(controller) -> None:
    assert controller.submit(Seat({"Ann": "p0001", "Bob": None})).ok
    entry = controller.table.entries[-1]
    row = controller.row
    message = entry_message("pub", "t1", "log-1", entry, row)
    parsed = parse_entry("bidou.pub.t1.entry", message.to_bytes())
    assert parsed.kind == "seating" and parsed.status == "playing"
    assert parse_seating(parsed.text, parsed.players) == {"Ann": "p0001", "Bob": None}
