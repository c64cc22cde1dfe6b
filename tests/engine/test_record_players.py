"""The game record's contract for players as GAME_RECORD.md writes it (reviewed independently).

GAME_RECORD.md says two-hand takes exactly 2 players "the others 3 or more"; the physical
table's 8 seats are a limit of the table's config (firmware/settings/config.py), not of the rules,
so a record of a bigger game must still replay.
"""

from __future__ import annotations

import json

import pytest

from engine import RecordError, new_game, parse_record, replay


def record(variant: str, players: list[str], actions: list[str]) -> str:
    return json.dumps({"format": "bidou-record/1", "variant": variant, "options": {},
                       "players": players, "actions": actions})


@pytest.mark.parametrize("variant", ["multi-hand", "montevideo"])
def test_record_format_the_others_take_three_or_more_players_nine_included(variant):
    """S-B2: two players play two-hand Bidou, more play multi-hand Bidou."""
    players = [f"P{i}" for i in range(1, 10)]
    rolls = [f"{p} roll {1 + i % 5}" for i, p in enumerate(players)]  # P5 alone rolls 5
    game = replay(parse_record(record(variant, players, rolls)))
    state = game.state()
    assert state["captain"] == "P5" and state["expects"] == "throw"
    assert sum(state["chips"].values()) + state["pot"] == 6 * 9


@pytest.mark.parametrize("variant", ["multi-hand", "montevideo"])
def test_record_format_fewer_than_three_players_is_an_invalid_record(variant):
    """S-B2: two players play two-hand Bidou, more play multi-hand Bidou."""
    with pytest.raises(RecordError, match=f"{variant} takes 3 or more players, not 2"):
        new_game(variant, ["Ann", "Bob"])


@pytest.mark.parametrize("variant,players", [
    ("two-hand", ["centre", "Bob"]),
    ("multi-hand", ["pot", "Bob", "Cy"]),
    ("montevideo", ["Ann", "removed", "Cy"]),
])
def test_a_player_named_after_a_place_of_the_chips_is_an_invalid_record(variant, players):
    # A player called "pot" or "centre" made chip moves ambiguous: the multi-hand pot went
    # negative and a two-hand "centre" could not bet. The record is refused with a sentence.
    name = next(p for p in players if p in ("centre", "pot", "removed"))
    with pytest.raises(RecordError, match=rf"^player name '{name}' is the name of a place on "
                       r"the table \(centre, pot, removed\) in the game's chip moves; choose "
                       r"another name$"):
        parse_record(record(variant, players, []))
