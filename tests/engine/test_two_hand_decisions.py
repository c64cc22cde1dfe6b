"""Project decisions where the source and RULINGS are silent (docs/rules/two-hand.md, D-T..)."""

from __future__ import annotations

from engine import Action


def stand_each(first: str, first_dice: str, second: str, second_dice: str) -> tuple[str, ...]:
    return (f"{first} throw {first_dice}", f"{first} stand",
            f"{second} throw {second_dice}", f"{second} stand")


#: Hand 1: Ann drops and takes a penalty chip (Ann 1, centre 8). Hand 2: Bob captains but
#: throws more, so Ann opens; five one-chip steps: Ann's fifth takes the last centre chip
#: and one of her own, and Bob, holding nothing, can only call short.
SHORT_CALL = (
    "Ann roll 5", "Bob roll 3", *stand_each("Ann", "6 5 4", "Bob", "2 1 1"),
    "Ann bet 1", "Bob raise 1", "Ann drop",
    "Bob throw 3 2 2", "Bob throw 6 6 5", "Bob stand", "Ann throw 2 1 1", "Ann stand",
    "Ann bet 1", "Bob raise 1", "Ann raise 1", "Bob raise 1", "Ann raise 1",
)


def test_D_T3_a_call_is_open_after_a_bet_even_with_nothing_to_put_in(two_hand) -> None:
    g = two_hand(*SHORT_CALL)
    s = g.state()
    assert (s["chips"], s["centre"], s["pot"]) == ({"Ann": 0, "Bob": 0}, 0, 9)
    assert [a.verb for a in g.allowed()] == ["call", "drop", "pass"]


def test_D_T6_the_unmatched_part_is_the_last_chips_staked_and_goes_back_there(
    two_hand, play
) -> None:
    g = two_hand(*SHORT_CALL)
    effects = play(g, "Bob call")
    assert "1 chip of Ann's stake goes back to Ann: the part of the stake not called" in [
        e.text for e in effects
    ]
    # Bob's 6-6-5 is worse than Ann's bidou: he takes the 8 matched chips.
    s = g.state()
    assert (s["chips"], s["centre"], s["pot"]) == ({"Ann": 1, "Bob": 8}, 0, 0)


def test_D_T4_the_short_player_captains_the_open_throw_and_its_winner_the_next_hand(
    two_hand, play
) -> None:
    g = two_hand(*SHORT_CALL, "Bob call")
    assert (g.state()["captain"], g.to_act, g.expects) == ("Ann", "Ann", "throw")
    play(g, "Ann throw 3 2 2", "Ann stand", "Bob throw 2 1 1", "Bob stand")
    s = g.state()
    assert (s["chips"], s["captain"], s["to_act"]) == ({"Ann": 2, "Bob": 7}, "Bob", "Bob")


def test_D_T7_two_passes_give_the_captaincy_to_the_player_who_was_not_captain(two_hand) -> None:
    """S-T22: two passes: no chips move, the captaincy changes."""
    g = two_hand("Ann roll 5", "Bob roll 3", "Ann throw 3 2 2", "Ann throw 6 5 4", "Ann stand",
                 "Bob throw 2 1 1", "Bob stand")
    assert g.state()["captain"] == "Bob"  # T4 made Bob captain for the betting
    g.apply(Action.parse("Bob pass"))
    g.apply(Action.parse("Ann pass"))
    assert g.state()["captain"] == "Ann"


def test_D_T13_tied_open_throws_stay_shown_until_the_replays_first_throw(
    two_hand, play
) -> None:
    g = two_hand(*SHORT_CALL, "Bob call", "Ann throw 6 5 4", "Ann stand", "Bob throw 4 5 6",
                 "Bob stand")
    assert [v.exposed for v in g.views()] == [(6, 5, 4), (6, 5, 4)]
    assert (g.to_act, g.state()["chips"]) == ("Ann", {"Ann": 1, "Bob": 8})
    play(g, "Ann throw 3 3 3")
    assert [v.exposed for v in g.views()] == [(3, 3, 3), None]


def test_D_T9_the_views_show_throw_counts_stakes_and_the_captain(two_hand) -> None:
    g = two_hand(*SHORT_CALL)
    ann, bob = g.views()
    assert (ann.name, ann.stake, ann.throws, ann.is_captain, ann.to_act) == (
        "Ann", 5, 1, True, False
    )
    assert (bob.name, bob.stake, bob.throws, bob.is_captain, bob.to_act) == (
        "Bob", 4, 2, False, True
    )
    assert g.concealed_dice("Ann") == (2, 1, 1) and ann.exposed is None
