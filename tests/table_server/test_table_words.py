"""The words the table view adds to the public state (``table_server.words.seat_words`` and
``table_server.words.banner``): pure functions checked on hand-made states and on a real table."""

from __future__ import annotations

import random

from engine.messages import THE_POT, because, cited, say
from firmware.words.engine_words import sentence
from firmware.words.phrases import english
from table_server.words.banner import REMINDERS, announcements, banner, progress
from table_server.words.present import decorate
from table_server.words.seat_words import action_words, showdown_marks


def seat(name: str, exposed: list[int] | None = None, **more) -> dict:
    return {"name": name, "exposed": exposed, **more}


def test_the_worse_throw_is_marked_at_a_two_hand_showdown_and_the_best_in_montevideo() -> None:
    seats = [seat("Ann", [6, 5, 4]), seat("Bob", [2, 1, 1])]
    assert showdown_marks(seats, "two-hand", "three-digit") == {"Ann": "worse"}
    assert showdown_marks(seats, "montevideo", "three-digit") == {"Bob": "best"}
    assert showdown_marks(seats[:1], "two-hand", "three-digit") == {}  # one throw: no showdown


def test_tied_worst_throws_are_all_marked() -> None:
    seats = [seat("Ann", [6, 5, 2]), seat("Bob", [2, 5, 6]), seat("Cy", [1, 1, 1])]
    assert showdown_marks(seats, "multi-hand", "three-digit") == {"Ann": "worse", "Bob": "worse"}


def test_a_seat_card_names_its_last_action_as_the_panel_does() -> None:
    assert action_words({"verb": "bet", "chips": 2}) == "BET 2"
    assert action_words({"verb": "drop", "chips": None}) == "DROP"
    assert action_words({"verb": "betpot", "chips": None}) == "BET THE POT"
    assert action_words(None) is None


def test_decorate_says_the_throw_its_place_the_score_and_the_result() -> None:
    state = {"variant": "two-hand", "over": True, "loser": "Bob", "winner": "Ann", "round": 3,
             "hand": 2, "rounds_lost": {"Ann": 1, "Bob": 2}, "chips": {"Ann": 0, "Bob": 9},
             "seats": [seat("Ann", [2, 1, 1]), seat("Bob", [6, 6, 6])], "settled": []}
    shown = decorate(state)
    ann, bob = shown["seats"]
    assert (english(ann["exposed_name"]), english(ann["exposed_rank"])) == ("Bidou",
                                                                          "the best throw")
    assert (english(bob["exposed_name"]), english(bob["exposed_rank"])) == ("three sixes",
                                                                          "4th best of 56")
    assert bob["mark"] == "worse" and ann["mark"] is None
    assert (bob["score"], english(bob["score_label"])) == (2, "rounds lost")
    assert (ann["score"], english(ann["score_label"])) == (1, "round lost")
    assert (ann["result"], bob["result"]) == ("winner", "loser")
    assert english(shown["prompt"]) == "Game over: Bob loses to Ann."
    assert english(shown["hint"]).startswith("Referee: start a new game")
    assert shown["reminder"] == REMINDERS["two-hand"].to_json()


def test_the_banner_counts_hands_and_rounds() -> None:
    assert progress({"variant": "two-hand", "round": 2, "hand": 3}) == "Round 2 · hand 3"
    assert progress({"variant": "multi-hand", "hand": 5}) == "Hand 5"
    assert progress({"variant": "multi-hand", "hand": 0}) == ""


def test_the_banner_announces_an_open_throw_a_player_out_m8_and_a_side_pot_only() -> None:
    def effect(kind, said, rule=None, detail=None):
        return {"kind": kind, "text": sentence(said).to_json(), "rule": rule, "detail": detail}

    best = say("best throw")
    opening = [
        effect("note", because(say("%(p)s has no chips left", p="Cy"),
                               say("he is out, and has won")), "M7"),
        effect("note", because(say("%(names)s hold %(n)s chips together", names=("Ann", "Bob"),
                                   n=9),
                               say("from now on they play two-hand rules with no centre")),
               "M8"),
        effect("move", cited(because(say("%(p)s takes %(chips)s from %(where)s", p="Ann",
                                         chips=2, where=say("side pot %(n)s", n=1)), best),
                             "V4"), "V4", "side pot 1"),
        effect("move", cited(because(say("%(p)s takes %(chips)s from %(where)s", p="Bob",
                                         chips=3, where=THE_POT), best), "V4"), "V4"),
        effect("captain", say("%(p)s is captain", p="Ann"), "M9"),
        effect("hand", say("Hand %(hand)s of round %(round)s: %(p)s is captain and throws "
                           "first", hand=4, round=1, p="Ann"), "M3", "normal"),
        effect("hand", say("Open throw: %(p)s holds %(chips)s and the last is with %(where)s; "
                           "no betting, %(q)s throws first, exposed", p="Ann", chips=8,
                           where="Bob", q="Bob"), "T10", "open throw"),
    ]
    said = [str(s) for s in announcements({"opening": opening})]
    assert said == ["Cy has no chips left: they are out, and have won.",
                    "Ann and Bob hold 9 chips together: from now on they play by the two-hand "
                    "rules, with no centre.",
                    "Ann takes 2 chips from side pot 1: the best throw.",
                    "Open throw: Ann holds 8 chips and the last one is with Bob; no betting, Bob "
                    "throws first, dice shown."]
    assert announcements({"opening": opening, "over": True}) == []
    assert english(banner({"variant": "montevideo"})["reminder"]).startswith(
        "Chips are good here")


def test_a_real_table_gives_each_seat_its_last_action_this_hand(table) -> None:
    rng = random.Random(3)
    while not any(s["last_action"] and s["last_action"]["verb"] in ("stand", "throw")
                  for s in table.state()["seats"]):
        table.play_one(rng)
    state = table.state()
    played = [english(s["last_words"]) for s in state["seats"] if s["last_words"]]
    assert played and all(said in ("THREW", "STANDS", "ROLLED") for said in played)
    assert state["hand"] >= 1 and english(state["progress"]).startswith("Round 1 · hand ")


def test_the_event_list_opens_without_a_load_line_and_says_each_bet_once(table) -> None:
    rng = random.Random(5)
    assert table.state()["events"] == []  # a fresh game: nothing "loaded with 0 actions"
    while not any(" bets " in english(e) for e in table.state()["events"]):
        table.play_one(rng)
    events = [english(e) for e in table.state()["events"]]
    bet = next(e for e in events if " bets " in e)
    assert " and stakes " in bet  # the stake is said with its bet, not on a line of its own
    assert not any(e.split(" ", 1)[1].startswith("stakes ") for e in events)
