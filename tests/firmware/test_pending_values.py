"""The controller with values pending (docs/rules/pending.md): a throw the camera is unsure of
counts and play goes on; at exposure the camera reads the shown dice again, then the players
settle them (the owner says, the other agrees), a disagreement goes to the referee, and the
referee's entry settles them; the LED of a seat whose shown dice wait is lit."""

from __future__ import annotations

import random

from engine import new_game
from engine.autoplay import random_action
from firmware.gamelog.log import GameLog
from firmware.table.commands import Act, Correct, EnterDice, Press, Settle
from firmware.words.phrases import english


def to_showdown(c, fake, *, bob_sure_at_exposure: bool = False, bob_read=(4, 3, 1)):
    """Ann 6-5-4 read surely, Bob's throw unsure (the camera sure of ``bob_read``); Ann bets,
    Bob calls: Bob's dice shown."""
    fake.put("Ann", [5])
    assert c.submit(Press("Ann", "THROW")).ok
    fake.put("Bob", [3])
    assert c.submit(Press("Bob", "THROW")).ok
    fake.put("Ann", [6, 5, 4])
    assert c.submit(Press("Ann", "THROW")).ok
    assert c.submit(Press("Ann", "THROW", long=True)).ok
    fake.put("Bob", list(bob_read), unsure=("a glint",))
    assert c.submit(Press("Bob", "THROW")).values_pending
    assert c.submit(Press("Bob", "THROW", long=True)).ok  # play went on
    assert c.submit(Press("Ann", "BET")).ok and c.submit(Press("Ann", "CALL")).ok
    if bob_sure_at_exposure:
        fake.put("Bob", [4, 3, 1])  # the cup lifted, the dice straight: read surely
    return c.submit(Press("Bob", "CALL"))


def test_D_S4_the_camera_reads_the_exposed_dice_again_and_a_sure_read_settles_them(
        controller, fake):
    to_showdown(controller, fake, bob_sure_at_exposure=True)
    entries = controller.log.entries(1)
    assert [e.text for e in entries[-2:]][1] == "Bob settle 4 3 1 by camera"
    assert controller.game.unsettled() == () and controller.game.expects == "throw"
    assert controller.public_state()["chips"]["Bob"] == 2  # Bob's worse throw took the pot


def test_D_S4_the_owner_says_the_other_agrees_and_the_values_are_settled_by_players(
        controller, fake):
    to_showdown(controller, fake)
    state = controller.public_state()
    assert state["expects"] == "settle"
    (waiting,) = state["settling"]
    assert (waiting["seat"], waiting["witnesses"], waiting["said"]) == ("Bob", ["Ann"], {})
    assert sorted(waiting["guess"]) == [1, 3, 4]  # the dice the camera is sure of
    out = controller.submit(Settle("Bob", (4, 3, 1), "Bob"))
    assert out.ok and "waits for Ann" in out.message
    assert controller.public_state()["settling"][0]["said"] == {"Bob": [4, 3, 1]}
    assert controller.submit(Settle("Bob", (1, 3, 4), "Ann")).ok  # the same dice, any order
    last = controller.log.entries(1)[-1]
    assert (last.text, last.by) == ("Bob settle 4 3 1 by players", "players (Bob, Ann)")
    assert controller.public_state()["settling"] == []
    (kept,) = controller.log.pictures()  # the picture the players settled: a known throw
    assert kept.picture.seen == (4, 3, 1)


def test_D_S4_a_disagreement_is_refused_and_the_referee_settles(controller, fake):
    to_showdown(controller, fake, bob_read=(4, 3))  # the third die unsure: both words fit
    assert controller.submit(Settle("Bob", (4, 3, 1), "Bob")).ok
    out = controller.submit(Settle("Bob", (4, 3, 2), "Ann"))
    assert not out.ok and out.message == (
        "Ann says Bob's dice show 4-3-2 and Bob says 4-3-1: the players do not agree, so the "
        "referee settles Bob's dice.")
    [dispute] = controller.referee_state()["disputes"]  # a phrase, for the console's language
    assert (dispute["seat"], english(dispute["sentence"])) == ("Bob", out.message)
    assert english(controller.public_state()["settling"][0]["referee"]) == out.message
    again = controller.submit(Settle("Bob", (4, 3, 1), "Ann"))
    assert not again.ok and "with the referee" in again.message
    assert controller.submit(EnterDice("Bob", (4, 3, 1), by="ref")).ok
    last = controller.log.entries(1)[-1]
    assert (last.text, last.by, last.why) == ("Bob settle 4 3 1 by referee", "ref",
                                              "entered by the referee")
    assert controller.referee_state()["disputes"] == []


def test_D_S3_a_word_on_dice_that_are_not_shown_is_refused(controller, fake):
    fake.put("Ann", [5])
    assert controller.submit(Press("Ann", "THROW")).ok
    out = controller.submit(Settle("Ann", (5,), "Ann"))
    assert not out.ok and out.rule == "D-S3"
    assert out.message.startswith("Ann's dice are not waiting to be settled")


def test_D_S6_the_referee_fixes_the_values_the_players_settled(controller, fake):
    to_showdown(controller, fake)
    assert controller.submit(Settle("Bob", (4, 3, 1), "Bob")).ok
    assert controller.submit(Settle("Bob", (4, 3, 1), "Ann")).ok
    chips = controller.public_state()["chips"]
    out = controller.submit(Correct("fix-dice", by="Ref", why="they misread a die",
                                    seat="Bob", values=(6, 6, 6)))
    assert out.ok, out
    settles = [a for a in controller.record(1).actions if a.verb == "settle"]
    assert [(a.numbers, a.by) for a in settles] == [((6, 6, 6), "referee")]
    assert chips == {"Ann": 0, "Bob": 2}
    assert controller.public_state()["chips"] == {"Ann": 2, "Bob": 0}  # Bob's triple wins


def test_the_led_of_a_seat_whose_shown_dice_wait_is_lit(fake, make):
    leds: dict[str, str] = {}
    c = make(fake, leds=lambda seat, mode: leds.__setitem__(seat, mode))
    try:
        to_showdown(c, fake)
        assert c.game.to_act == "Bob" and leds["Bob"] == "on"
    finally:
        c.stop()


def round_two_log(tmp_path, seed: int = 3) -> str:
    """A two-hand match's log played at random to round 2's first throw."""
    db = str(tmp_path / "t.db")
    log = GameLog(db)
    gid = log.start_game("two-hand", ("Ann", "Bob"), {}, "t0")
    game, rng = new_game("two-hand", ["Ann", "Bob"]), random.Random(seed)
    while game.state()["round"] < 2 or game.expects != "throw":
        action = random_action(game, rng)
        game.apply(action)
        log.append(gid, "action", str(action), "panel", "t")
    log.close()
    return db


def kept_aside_flag(seat: str, number: int) -> str:
    return (f"{seat}'s throw {number} in round 2 has values pending: the dice kept aside "
            "cannot be checked against it; it counts.")


def test_D_S5_a_pending_throw_in_the_round_that_keeps_dice_is_reported_and_counts(
        tmp_path, fake, make):
    c = make(fake, round_two_log(tmp_path))
    try:
        seat = c.game.to_act
        fake.put(seat, [6, 5, 4], unsure=("a glint",))
        assert c.submit(Press(seat, "THROW")).values_pending
        assert c.referee_state()["flags"] == [kept_aside_flag(seat, 1)]  # no rule code
        assert c.game.to_act == seat  # play goes on
    finally:
        c.stop()


def test_D_S5_each_flag_names_the_throw_it_is_and_a_throw_shown_at_once_has_none(
        tmp_path, fake, make):
    """Every throw of round 2 unsure: a flag names the throw's own number in the hand (never
    "throw 0"); the last throw of a hand, whose dice are shown and settled at once,
    gets none, since the players look at those very dice as they settle them."""
    c = make(fake, round_two_log(tmp_path, seed=5))
    rng = random.Random(5)
    shown_at_once = flagged = 0
    try:
        while c.game.state()["round"] == 2 and not c.game.over and shown_at_once < 2:
            for waiting in c.game.unsettled():
                assert c.submit(EnterDice(waiting, (6, 5, 4), by="ref")).ok
            seat = c.game.to_act
            c.reads.flags.clear()  # the latest 30 are kept: each throw's own are read here
            throws = next(v.throws for v in c.game.views() if v.name == seat)
            options = [a for a in c.game.allowed() if a.player == seat]
            if any(a.verb == "throw" for a in options) and (throws == 0 or rng.random() < 0.7):
                fake.put(seat, [6, 5, 4], unsure=("a glint",))
                assert c.submit(Press(seat, "THROW")).values_pending
                new = c.referee_state()["flags"]
                if seat in c.game.unsettled():
                    assert new == [], new
                    shown_at_once += 1
                else:
                    assert new == [kept_aside_flag(seat, throws + 1)]
                    flagged += 1
            else:
                choice = rng.choice([a for a in options if a.verb != "throw"])
                assert c.submit(Act(seat, choice.verb, choice.min_chips)).ok
        assert shown_at_once >= 1 and flagged >= 2
    finally:
        c.stop()


def test_a_word_that_leaves_out_a_die_the_camera_was_sure_of_goes_to_the_referee(
        controller, fake):
    to_showdown(controller, fake)  # the camera was sure of Bob's 4, 3 and 1
    out = controller.submit(Settle("Bob", (4, 3, 2), "Bob"))
    assert not out.ok and out.message == (
        "Bob says Bob's dice show 4-3-2, but the camera was sure of 4-3-1: the referee "
        "settles Bob's dice.")
    [dispute] = controller.referee_state()["disputes"]  # on the referee's console
    assert (dispute["seat"], english(dispute["sentence"])) == ("Bob", out.message)
    again = controller.submit(Settle("Bob", (4, 3, 1), "Ann"))
    assert not again.ok and "with the referee" in again.message
    assert controller.submit(EnterDice("Bob", (4, 3, 1), by="ref")).ok
    assert controller.public_state()["settling"] == []
