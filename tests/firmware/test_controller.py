"""The controller with a fake camera: presses become actions, reads, refusals, corrections,
and the concealment boundary holds."""

from __future__ import annotations

import json
from typing import get_args

from engine.actions import Action
from engine.errors import CameraError
from firmware.camera import pictures
from firmware.table.commands import Act, Command, Correct, EnterDice, Outcome, Press
from firmware.table.controller import HANDLERS
from firmware.table.playing import PENDING_WHY
from firmware.table.roster_seating import Seat
from firmware.words.phrases import english
from hardware.panel import SeatEvent
from vision.zones import Zone, read_seat

ZONES = {"Ann": Zone("Ann", 0, 0, 100, 100)}  # as the fake camera's (tests/firmware/conftest)


def to_throwing(c, fake):
    """Ann rolls 5, Bob rolls 3: Ann is captain and throws first."""
    fake.put("Ann", [5])
    assert c.submit(Press("Ann", "THROW")).ok
    fake.put("Bob", [3])
    assert c.submit(Press("Bob", "THROW")).ok
    assert (c.public_state()["captain"], c.public_state()["expects"]) == ("Ann", "throw")


def test_T2_throw_press_in_captain_roll_reads_one_die_and_rolls(controller, fake):
    fake.put("Ann", [5])
    out = controller.submit(Press("Ann", "THROW"))
    assert out == Outcome(True, "Ann rolls a 5 for captain.")
    assert controller.game.history[-1].numbers == (5,)


def test_throw_with_three_sure_dice_plays_the_throw_read(controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5, 4])
    out = controller.submit(Press("Ann", "THROW"))
    assert out == Outcome(True, "Ann throws (throw 1).")
    assert controller.game.concealed_dice("Ann") == (6, 5, 4)


def test_concealment_public_state_never_holds_a_seats_dice(controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5, 4])
    controller.submit(Press("Ann", "THROW"))
    public = controller.public_state()
    text = json.dumps(public)
    assert "dice" not in public and "6 5 4" not in text and "[6, 5, 4]" not in text
    assert all(seat["exposed"] is None for seat in public["seats"])
    assert controller.seat_state("Ann")["dice"] == [6, 5, 4]
    assert controller.seat_state("Bob")["dice"] is None
    assert controller.referee_state()["dice"]["Ann"] == [6, 5, 4]


def test_D_S1_two_dice_count_as_a_throw_with_values_pending_and_the_referee_may_enter_them(
        controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5])
    out = controller.submit(Press("Ann", "THROW"))
    assert out == Outcome(True, "Ann throws (throw 1).", values_pending=True)
    # why two dice are not a throw is vision.zones.read_seat's to say, in its words
    reason = read_seat(fake.reader(None), ZONES["Ann"], needed=3).reason
    assert reason and "2 dice" in reason
    assert controller.game.history[-1] == Action("Ann", "throw")
    assert controller.game.to_act == "Ann"  # play goes on: Ann throws again or stands
    assert "needs_look" not in controller.public_state()["seats"][0]
    assert controller.referee_state()["needs_look"] == [{"seat": "Ann", "reason": reason}]
    assert controller.seat_state("Ann")["dice_pending"] is True
    assert controller.submit(Press("Ann", "THROW", long=True)).ok  # Ann stands
    assert controller.submit(EnterDice("Ann", (6, 5, 1), by="ref")).ok  # a fix of the throw
    assert controller.game.concealed_dice("Ann") == (6, 5, 1)
    assert controller.referee_state()["needs_look"] == []
    assert controller.log.entries(1)[-1].kind == "fix-dice"


def test_D_S1_an_unsure_die_counts_the_throw_with_values_pending_and_play_goes_on(
        controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5, 4], unsure=("glare on the face",))
    out = controller.submit(Press("Ann", "THROW"))
    assert out.ok and out.values_pending
    assert "glare on the face" in controller.referee_state()["needs_look"][0]["reason"]
    entry = controller.log.entries(1)[-1]
    assert (entry.text, entry.why) == ("Ann throw ?", PENDING_WHY)
    fake.put("Ann", [6, 5, 4], at=30)
    assert controller.submit(Press("Ann", "THROW")).ok  # the next throw, read surely
    assert controller.game.concealed_dice("Ann") == (6, 5, 4)
    assert sum(a.verb == "throw" for a in controller.game.history) == 2
    assert controller.referee_state()["needs_look"] == []


def test_D_S1_four_dice_count_with_values_pending(controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5, 4, 1])
    out = controller.submit(Press("Ann", "THROW"))
    assert out.values_pending and "4 dice" in controller.referee_state()["needs_look"][0]["reason"]


def test_D_S1_a_camera_error_counts_with_values_pending_and_shows_in_camera_status(
        controller, fake):
    to_throwing(controller, fake)
    fake.fail = CameraError("camera 'fake' stopped giving frames: check the cable")
    out = controller.submit(Press("Ann", "THROW"))
    assert out.values_pending
    assert "check the cable" in controller.referee_state()["needs_look"][0]["reason"]
    assert controller.public_state()["camera"]["ok"] is False
    fake.fail = None
    fake.put("Ann", [2, 1, 1])
    assert controller.submit(Press("Ann", "THROW")).ok  # the second throw, read surely
    assert controller.public_state()["camera"]["ok"] is True


def test_same_dice_in_the_same_places_after_throw_is_flagged_as_possible_non_throw(
        controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5, 4], at=10)
    controller.submit(Press("Ann", "THROW"))
    controller.submit(Press("Ann", "THROW"))  # nothing moved
    assert controller.referee_state()["flags"] == [
        "Ann's throw 2 shows the same dice in the same places as the throw before: possibly "
        "not thrown."]
    fake.put("Ann", [6, 5, 4], at=40)  # same values, thrown elsewhere: fine
    controller.submit(Press("Ann", "THROW"))
    assert len(controller.referee_state()["flags"]) == 1


def test_refused_press_blinks_the_led_and_is_shown_only_to_its_seat(fake, make):
    """A refusal is the pressing player's alone (their LED, their phone), never on the pub
    screen or in the event list, and it clears when their turn comes."""
    leds = []
    c = make(fake, leds=lambda seat, mode: leds.append((seat, mode)))
    try:
        assert ("Ann", "on") in leds  # Ann rolls first
        out = c.submit(Press("Bob", "THROW"))
        assert out.ok is False and out.rule == "T2"
        assert leds[-1] == ("Bob", "blink")
        assert "refusal" not in c.public_state()["seats"][1]
        assert not any(out.message in english(e) for e in c.public_state()["events"])
        refusal = english(c.seat_state("Bob")["refusal"])
        assert refusal == out.message == "It is Ann's turn to roll " \
            "for captain, not yours."
        assert c.seat_state("Ann")["refusal"] is None
        fake.put("Ann", [5])
        c.submit(Press("Ann", "THROW"))
        assert ("Bob", "on") in leds[-2:]
        assert c.seat_state("Bob")["refusal"] is None  # Bob's turn came: it is gone
    finally:
        c.stop()
    assert leds[-2:] == [("Ann", "off"), ("Bob", "off")]


def test_bet_press_offers_a_stake_shown_publicly_then_call_bets_it(controller, fake):
    to_throwing(controller, fake)
    for seat, dice in (("Ann", [6, 5, 4]), ("Bob", [3, 3, 1])):
        fake.put(seat, dice)
        controller.submit(Press(seat, "THROW"))
        controller.submit(Press(seat, "THROW", long=True))
    assert controller.public_state()["expects"] == "bet"
    out = controller.submit(Press("Ann", "BET"))
    assert out == Outcome(True, "Ann offers 1 chip; CALL commits it, PASS cancels.")
    assert controller.public_state()["seats"][0]["offered"] == 1
    assert controller.submit(Press("Ann", "CALL")) == Outcome(True, "Ann bets 1 chip.")
    assert controller.public_state()["seats"][0]["offered"] == 0
    assert controller.submit(Act("Bob", "call")).ok
    assert controller.public_state()["hand_actions"] == 0 or controller.game.over is False


def test_act_verbs_and_bad_acts(controller, fake):
    assert controller.submit(Act("Zed", "roll")).message == (
        "'Zed' is not a seat at this table; the seats are Ann, Bob.")
    assert controller.submit(Act("Ann", "jump")).message.startswith("'jump' is not a verb")
    assert controller.submit(Act("Ann", "throw")).message == "It is time to roll, not to throw."
    fake.put("Ann", [4])
    assert controller.submit(Act("Ann", "roll")).ok


def test_not_a_command_is_refused_not_raised(controller):
    out = controller.submit("hello")  # type: ignore[arg-type]
    assert out.ok is False and "is not a table command" in out.message


def test_an_error_inside_a_command_is_an_outcome_and_the_table_keeps_running(fake, make):
    def broken(seat, kind, again):
        raise RuntimeError("renderer crashed")

    c = make(fake, before_read=broken)
    try:
        out = c.submit(Press("Ann", "THROW"))
        assert out.ok is False and "renderer crashed" in out.message
        assert c.submit(Press("Ann", "BET")).ok is False  # still answering
    finally:
        c.stop()


def test_undo_is_a_logged_correction_with_who_and_why(controller, fake):
    to_throwing(controller, fake)
    out = controller.submit(Correct("undo", by="Ref", why="Bob pressed by mistake"))
    assert out == Outcome(True, "Ref took back “Bob rolls a 3 for captain”: Bob pressed by "
                                "mistake.")
    last = controller.log.entries(1)[-1]
    assert (last.kind, last.text, last.by, last.why) == (
        "undo", "Bob roll 3", "Ref", "Bob pressed by mistake")
    assert len(controller.game.history) == 1


def test_correction_without_why_is_refused(controller):
    out = controller.submit(Correct("undo", by="Ref", why=" "))
    assert out.message == ("A correction needs who makes it and why; fill in both and send "
                           "it again.")


def test_fix_dice_replaces_the_seats_latest_throw(controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5, 4])
    controller.submit(Press("Ann", "THROW"))
    out = controller.submit(Correct("fix-dice", by="Ref", why="a 3 read as 4", seat="Ann",
                                    values=(6, 5, 3)))
    assert out.ok, out
    assert controller.game.concealed_dice("Ann") == (6, 5, 3)
    assert controller.log.entries(1)[-1].text == "3 Ann throw 6 5 3"
    bad = controller.submit(Correct("fix-dice", by="Ref", why="x", position=1, values=(7,)))
    assert bad.message == "A roll is one die, each 1 to 6, not [7]."


def test_void_hand_takes_back_the_hand_being_played(controller, fake):
    to_throwing(controller, fake)
    fake.put("Ann", [6, 5, 4])
    controller.submit(Press("Ann", "THROW"))
    fake.put("Ann", [2, 2, 3])
    controller.submit(Press("Ann", "THROW"))
    out = controller.submit(Correct("void-hand", by="Ref", why="dice fell off the table"))
    assert out.ok, out
    assert controller.public_state()["actions"] == 2  # back to the two captain rolls
    again = controller.submit(Correct("void-hand", by="Ref", why="again"))
    assert again.ok is False


def test_new_game_abandons_the_current_one_and_starts_fresh(controller, fake):
    to_throwing(controller, fake)
    out = controller.submit(Correct("new-game", by="Ref", why="players changed",
                                    variant="multi-hand", players=("Ann", "Bob", "Cid")))
    assert out == Outcome(True, "Game 2 started.")
    games = controller.games()
    assert [(g["id"], g["status"]) for g in games] == [(1, "abandoned"), (2, "playing")]
    assert controller.public_state()["variant"] == "multi-hand"
    assert controller.log.entries(1)[-1].kind == "new-game"
    assert [str(a) for a in controller.record(1).actions] == ["Ann roll 5", "Bob roll 3"]
    assert controller.record(99) is None
    bad = controller.submit(Correct("new-game", by="Ref", why="x", players=("Ann",)))
    assert bad.message.startswith("The new game cannot start: ")


def test_restart_rebuilds_the_same_state_from_the_log(tmp_path, fake, make):
    db = str(tmp_path / "t.db")
    c = make(fake, db)
    to_throwing(c, fake)
    fake.put("Ann", [6, 5, 4])
    c.submit(Press("Ann", "THROW"))
    c.submit(Correct("fix-dice", by="Ref", why="misread", seat="Ann", values=(1, 1, 2)))
    before = c.public_state()
    dice = c.seat_state("Ann")["dice"]
    c.stop()
    c2 = make(fake, db)
    try:
        after = c2.public_state()
        for key in ("version", "events"):
            before.pop(key)
            after.pop(key)
        assert after == before
        assert c2.seat_state("Ann")["dice"] == dice == [2, 1, 1]
    finally:
        c2.stop()


def test_subscribers_get_the_current_state_then_one_per_change(controller, fake):
    sub = controller.subscribe()
    first = sub.get(timeout=5)
    fake.put("Ann", [5])
    controller.submit(Press("Ann", "THROW"))
    nxt = sub.get(timeout=5)
    assert nxt["version"] == first["version"] + 1 and nxt["actions"] == 1
    sub.close()
    assert sub.get(timeout=0.01) is None


def test_camera_jpeg_is_a_jpeg_of_the_last_frame(controller, fake):
    fake.put("Ann", [5])
    controller.submit(Press("Ann", "THROW"))
    assert controller.camera_jpeg(False)[:2] == b"\xff\xd8"


def test_annotated_picture_under_a_glass_table_labels_seats_with_top_values(
        fake, make, monkeypatch):
    """The referee's picture must show the values the table plays (7 - pips seen), not the
    bottom faces the camera sees through the glass."""
    seen = {}

    def spy(frame, reading, zones=(), seat_readings=()):
        seen["verdicts"] = list(seat_readings)
        return frame

    monkeypatch.setattr(pictures, "annotate", spy)
    c = make(fake)
    try:
        c.watcher.bottom_faces = True
        fake.put("Ann", [2])  # the camera sees a 2 underneath: the top face is a 5
        assert c.submit(Press("Ann", "THROW")).message == "Ann rolls a 5 for captain."
        assert c.camera_jpeg(annotated=True)[:2] == b"\xff\xd8"
        ann = next(v for v in seen["verdicts"] if v.seat == "Ann")
        assert [d.value for d in ann.dice] == [5]
    finally:
        c.stop()


def test_stop_turns_leds_off_closes_the_log_and_later_commands_are_refused(fake, make):
    leds = []
    c = make(fake, leds=lambda s, m: leds.append((s, m)))
    c.stop()
    c.stop()
    assert leds[-2:] == [("Ann", "off"), ("Bob", "off")]
    assert c.submit(Press("Ann", "THROW")).message == (
        "The table is not running; start it with bidou-table run.")


def test_each_command_has_one_handler_stated_in_the_dispatch():
    """Every command the table takes (the players', the referee's, the panels' events and
    the league's seating) is handed to its one handler by the controller's dispatch."""
    assert set(HANDLERS) == {*get_args(Command), Seat, SeatEvent}
    assert all(h.__module__.startswith("firmware.table.") for h in HANDLERS.values())
