"""End to end: the table as ``firmware.table.house`` builds it for ``bidou-table run`` -- gpiozero
mock pins, rendered camera frames, the engine and SQLite.

Whole games are played by panel presses: each move is chosen at random among what the game
allows, turned into presses (``firmware.camera.simulation.presses_for``), and each press is
put on the panels' queue as the seat panel reports it (a ``SeatEvent``, as gpiozero's
callbacks put it), so a long press costs no real hold. Pressing the mock pins themselves,
short and long, is checked here on single presses, and the panel's timings in
tests/hardware/test_panel.py. A throw the camera cannot read surely counts with its values
pending, and exposed dice the camera still cannot read are settled by the players
(``Settle``, as from their phones: a panel has no display to say values on). The record
exported from the log must replay to the same state.

The two-hand match is THE end-to-end test of the real dice reader on rendered frames; the
other tests here read the scene's dice with ``SceneReader``, so they test the wiring and the
presses, not the reader. Whole games are marked slow (``make test-fast`` leaves them out).
"""

from __future__ import annotations

import random
import time

import pytest

from engine import replay
from firmware.camera.simulation import SceneReader, players_settle, random_presses
from firmware.settings.config import build_config, default_config
from firmware.table.commands import Act
from firmware.table.house import build_house, real_reader
from firmware.words.phrases import english
from hardware.panel import SeatEvent

#: seconds a panel button must stay down to be a long press, where a test presses the mock
#: pins. These tests are about what the presses play, not about telling short from long
#: (tests/hardware/test_panel.py is): a short press here is held down for 7.5 ms, but on a
#: loaded machine the pressing thread can wait longer than that for a core and the GIL before
#: it lets go, and gpiozero then reports it as held. 0.5 s leaves such a wait a wide margin;
#: each long press on a pin costs that long.
HOLD_TIME = 0.5


def press(table, seat: str, button: str, long: bool = False) -> None:
    """One press as ``seat``'s panel reports it, put on the panels' queue, and wait until the
    controller has handled it (TimeoutError if it does not within 10 s)."""
    c = table.controller
    before = c.processed
    table.panels.events.put(SeatEvent(seat, button, long, time.monotonic()))
    if not c.wait_processed(before + 1, 10.0):
        raise TimeoutError(f"the press of {seat}'s {button} was not handled")


def play_by_presses(tmp_path, variant, players, seed, reader, unsure=0.0):
    config = build_config({"table": {"variant": variant, "players": players}}, environ={})
    table = build_house(config, db=str(tmp_path / "e2e.db"), seed=seed, reader=reader,
                        hold_time=HOLD_TIME, bounce_time=0.005, unsure=unsure)
    settles = 0
    c = table.controller
    rng = random.Random(seed)
    lit = set()
    presses = 0
    try:
        while not c.game.over:
            assert presses < 2000, "the game should be over by now"
            settles += players_settle(c, table.dice)  # the players say the dice they see
            if c.game.over:
                break
            seat, moves = random_presses(c.game, rng, stand_chance=0.6)
            lit.add(table.panels.led_state(seat))
            for button, long in moves:
                before = len(c.game.history)
                press(table, seat, button, long)
                presses += 1
                refusal = c.seat_state(seat)["refusal"]
                assert refusal is None, refusal
                if button in ("BET",) and not long:
                    assert len(c.game.history) == before  # an offered stake is not an action
        state = c.game.state()
        record = c.record(c.public_state()["game_id"])
        assert replay(record).state() == state
        assert [g["status"] for g in c.games()] == ["over"]
        assert all(e.by == "panel" or e.text.split()[1] == "settle" for e in c.log.entries(1))
        assert lit == {"on"}  # the seat to act always had its light on
        if unsure:
            assert settles >= 3 and any(e.text.endswith(" ?") for e in c.log.entries(1))
        return state, presses
    finally:
        table.close()


@pytest.mark.slow
def test_whole_two_hand_match_played_by_presses_alone_read_by_the_real_reader(tmp_path):
    state, presses = play_by_presses(tmp_path, "two-hand", ["Ann", "Bob"], seed=11,
                                     reader=real_reader)
    assert state["over"] and state["loser"] in ("Ann", "Bob")
    assert max(state["rounds_lost"].values()) == 2  # T1: two rounds lost
    assert sum(state["chips"].values()) + state["centre"] + state["pot"] + state["removed"] == 9
    print(f"two-hand match: {presses} presses")


@pytest.mark.slow
def test_whole_multi_hand_game_played_by_presses_alone(tmp_path):
    state, presses = play_by_presses(tmp_path, "multi-hand", ["Ann", "Bob", "Cid"], seed=5,
                                     reader=SceneReader)
    assert state["over"] and state["loser"] in ("Ann", "Bob", "Cid")
    assert sum(state["chips"].values()) + state["pot"] + state["removed"] == 18  # M1
    print(f"multi-hand game: {presses} presses")


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", [("two-hand", ["Ann", "Bob"]),
                                             ("multi-hand", ["Ann", "Bob", "Cid"])])
def test_D_S1_games_at_30_percent_unsure_dice_end_by_presses_and_the_players_word(
        tmp_path, variant, players):
    state, presses = play_by_presses(tmp_path, variant, players, seed=8, reader=SceneReader,
                                     unsure=0.3)
    assert state["over"]
    print(f"{variant} at 30% unsure: {presses} presses")


@pytest.mark.parametrize("button", ["BET", "CALL", "PASS"])
def test_a_refused_panel_press_blinks_that_seats_led(tmp_path, button):
    table = build_house(default_config(), db=str(tmp_path / "r.db"), seed=1,
                        reader=SceneReader, hold_time=HOLD_TIME, bounce_time=0.005)
    c = table.controller
    try:
        assert table.panels.led_state("Ann") == "on"
        table.press("Bob", button)
        assert table.panels.led_state("Bob") == "blink"
        assert english(c.seat_state("Bob")["refusal"]).startswith("It is Ann's turn")
    finally:
        table.close()
    assert table.panels.led_state("Ann") == "off"


def test_a_long_throw_held_on_its_mock_pin_stands(tmp_path):
    """The pins, which the whole games' presses skip: a short THROW pressed on the mock pin
    throws (or rolls), and a THROW held past the hold time stands."""
    table = build_house(default_config(), db=str(tmp_path / "l.db"), seed=3,
                        reader=SceneReader, hold_time=HOLD_TIME, bounce_time=0.005)
    c = table.controller
    try:
        for _ in range(20):
            stands = [a for a in c.game.allowed() if a.verb == "stand"]
            if stands:
                break
            thrower = next(a for a in c.game.allowed() if a.verb in ("throw", "roll"))
            table.press(thrower.player, "THROW")
            assert c.game.history[-1].verb == thrower.verb, c.game.history
        table.press(stands[0].player, "THROW", long=True)
        assert c.game.history[-1].verb == "stand", c.game.history
        assert {e.by for e in c.log.entries(1)} == {"panel"}
    finally:
        table.close()


def test_simulation_act_roll_throws_one_die_that_is_read_and_played(tmp_path):
    table = build_house(default_config(), db=str(tmp_path / "a.db"), seed=4,
                        reader=SceneReader, panels=False)
    c, dice = table.controller, table.dice
    try:
        out = c.submit(Act("Ann", "roll", source="web"))
        seat, kind, values = dice.thrown[-1]
        assert (seat, kind, len(values)) == ("Ann", "roll", 1)
        assert dice.camera.dice()["Ann"] == values
        assert out.ok, out
        assert c.game.history[-1].numbers == values
    finally:
        table.close()
