"""Invariants of the controller under any sequence of commands, garbage included: the worker
never dies, every command gets an Outcome, the state always equals the replay of the log's
record, chips are conserved, and the public state never carries concealed dice."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import replay
from engine.actions import dice_count
from firmware.camera.simulation import random_presses
from firmware.table.commands import Act, Correct, EnterDice, Outcome, Press, Reread, Settle

SEATS = st.sampled_from(["Ann", "Bob", "Cid", "Zed"])
DIE = st.integers(0, 7)
COMMANDS = st.one_of(
    st.builds(Press, SEATS, st.sampled_from(["THROW", "BET", "CALL", "PASS", "ROLL"]),
              st.booleans()),
    st.builds(Act, SEATS, st.sampled_from(["throw", "roll", "stand", "bet", "raise", "call",
                                           "pass", "drop", "betpot", "callpot", "fly"]),
              st.one_of(st.none(), st.integers(-1, 4))),
    st.builds(EnterDice, SEATS, st.lists(DIE, min_size=0, max_size=4).map(tuple)),
    st.builds(Reread, SEATS),
    st.builds(Correct, st.sampled_from(["undo", "void-hand", "fix-dice", "rewind"]),
              st.sampled_from(["Ref", ""]), st.sampled_from(["misread", ""]),
              seat=st.one_of(st.none(), SEATS),
              values=st.lists(DIE, min_size=1, max_size=3).map(tuple),
              position=st.one_of(st.none(), st.integers(-1, 40))),
    st.just("legal"),  # one random legal move, to get deep into games
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(commands=st.lists(COMMANDS, min_size=1, max_size=60), seed=st.integers(0, 1000),
       variant=st.sampled_from(["two-hand", "multi-hand"]))
def test_any_command_sequence_keeps_state_equal_to_the_log_replay(fake, make, commands, seed,
                                                                   variant):
    players = ("Ann", "Bob") if variant == "two-hand" else ("Ann", "Bob", "Cid")
    total = 9 if variant == "two-hand" else 18
    rng = random.Random(seed)
    c = make(fake, variant=variant, players=players)
    try:
        for command in commands:
            if command == "legal":
                if c.game.over:
                    continue
                if c.game.unsettled():  # exposed dice wait: a player says them (D-S3)
                    owner = c.game.unsettled()[0]
                    said = tuple(rng.randint(1, 6) for _ in range(c.game.settle_dice()))
                    command = Settle(owner, said, rng.choice(
                        (owner, *c.game.settle_witnesses(owner))), "phone")
                else:
                    seat, presses = random_presses(c.game, rng)
                    command = Press(seat, *presses[0])
            if isinstance(command, Press) and command.button == "THROW" and \
                    command.seat in players:
                kind = "roll" if c.game.expects == "roll" else "throw"
                fake.put(command.seat, [rng.randint(1, 6) for _ in range(dice_count(kind))],
                         at=rng.randint(0, 20))
            out = c.submit(command, timeout=10)
            assert isinstance(out, Outcome) and isinstance(out.message, str) and out.message
            state = c.game.state()
            assert replay(c.record(c.row.id)).state() == state
            assert sum(state["chips"].values()) + state["centre"] + state["pot"] + \
                state["removed"] == total
            public = c.public_state()
            assert "dice" not in public
            for seat in public["seats"]:
                assert seat["exposed"] is None or seat["exposed"] == list(
                    c.game.concealed_dice(seat["name"]) or seat["exposed"])
        assert c.worker.running
    finally:
        c.stop()
