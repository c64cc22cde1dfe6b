"""The ``bidou-record/1`` format (GAME_RECORD.md): reading, writing, and every malformed case.

A malformed record is a RecordError whose one-line message says what is wrong and where.
"""

from __future__ import annotations

import json

import pytest

from engine import Action, Record, RecordError, ReplayError, parse_record, record_of, replay

EXAMPLE = """{
  "format": "bidou-record/1",
  "variant": "two-hand",
  "options": {},
  "players": ["Ann", "Bob"],
  "actions": [
    "Ann roll 5", "Bob roll 3",
    "Ann throw 6 5 4", "Ann stand",
    "Bob throw 3 3 1", "Bob throw 2 1 1", "Bob stand",
    "Ann bet 1", "Bob raise 1", "Ann call"
  ]
}"""


def doc(**changes: object) -> str:
    """The example record as JSON text, with some keys changed (None removes a key)."""
    data = json.loads(EXAMPLE)
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return json.dumps(data)


def test_the_example_of_GAME_RECORD_md_reads_and_replays() -> None:
    record = parse_record(EXAMPLE)
    assert record.variant == "two-hand" and record.players == ("Ann", "Bob")
    assert record.actions[5] == Action("Bob", "throw", (2, 1, 1))
    state = replay(record).state()
    # Ann threw once, Bob twice: Ann opens; Ann's run loses to bidou and takes the 4 chips.
    assert (state["chips"], state["centre"], state["captain"]) == ({"Ann": 4, "Bob": 0}, 5, "Bob")


def test_writing_then_reading_gives_the_same_record() -> None:
    record = parse_record(EXAMPLE)
    assert parse_record(record.to_json()) == record
    assert json.loads(record.to_json()) == json.loads(EXAMPLE)


def test_replaying_and_exporting_again_gives_the_same_record() -> None:
    record = parse_record(EXAMPLE)
    assert record_of(replay(record)) == record


def test_options_are_optional_and_round_trip() -> None:
    assert parse_record(doc(options=None)).options == {}
    record = parse_record(doc(options={"ranking": "total"}))
    assert parse_record(record.to_json()).options == {"ranking": "total"}


def test_an_empty_game_is_a_valid_record() -> None:
    record = Record("two-hand", ("Ann", "Bob"))
    assert parse_record(record.to_json()) == record
    assert replay(record).state()["expects"] == "roll"


def test_action_text_round_trips() -> None:
    for text in ("Ann roll 5", "Bob throw 3 3 1", "Ann stand", "Bob raise 1", "Ann betpot"):
        assert str(Action.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON: Expecting property name enclosed in double quotes at line 1, column 2"),
        ("[]", "a game record is a JSON object"),
        (doc(actions=None), "the record has no 'actions'"),
        (doc(moves=[]), "unknown key 'moves'; a record has format, variant, options, players, "
                        "actions"),
        (doc(format="bidou-record/3"), "format must be 'bidou-record/1' or 'bidou-record/2', "
                                        "not 'bidou-record/3'"),
        (doc(variant="poker"), "variant must be one of two-hand, multi-hand, montevideo, "
                               "not 'poker'"),
        (doc(variant=2), "variant must be a string, not 2"),
        (doc(players=["Ann", "Bob", "Cy"]), "two-hand takes exactly 2 players, not 3"),
        (doc(players=["Ann", "Ann"]), "player name 'Ann' appears twice; names must be unique"),
        (doc(players=["Ann", "Bob Smith"]), "player name 'Bob Smith' must be non-empty and "
                                            "without spaces"),
        (doc(players=["Ann", ""]), "player name '' must be non-empty and without spaces"),
        (doc(players="Ann,Bob"), "players must be a list of names"),
        (doc(options={"ranking": "sum"}), "options.ranking must be 'three-digit' or 'total', "
                                          "not 'sum'"),
        (doc(options={"poor_fish": True}), "options.poor_fish is an option of multi-hand only "
                                           "(P1)"),
        (doc(options={"speed": 2}), "unknown option 'speed'; the options are ranking and "
                                    "poor_fish"),
        (doc(options=[]), "options must be a JSON object"),
        (doc(actions="Ann roll 5"), "actions must be a list of strings"),
        (doc(actions=["Ann roll 5", "Bob fold"]), "action 2: 'fold' is not a verb; the verbs "
         "are roll, throw, stand, bet, raise, call, pass, drop, betpot, callpot, settle"),
        (doc(actions=["Ann roll 5", "Bob roll 3", "Ann throw 7 1 1"]),
         "action 3: a die shows 1 to 6, not 7, in 'Ann throw 7 1 1'"),
        (doc(actions=["Ann roll 0"]), "action 1: a die shows 1 to 6, not 0, in 'Ann roll 0'"),
        (doc(actions=["Ann throw 6 5"]), "action 1: throw takes 3 numbers, not 2, in "
                                         "'Ann throw 6 5'"),
        (doc(actions=["Ann stand 1"]), "action 1: stand takes 0 numbers, not 1, in "
                                       "'Ann stand 1'"),
        (doc(actions=["Ann bet 0"]), "action 1: a bet is at least one chip, not 0, in "
                                     "'Ann bet 0'"),
        (doc(actions=["Ann roll 05"]), "action 1: '05' is not a whole number in 'Ann roll 05'"),
        (doc(actions=["Ann roll ²"]), "action 1: '²' is not a whole number in 'Ann roll ²'"),
        (doc(actions=["Ann roll -1"]), "action 1: '-1' is not a whole number in 'Ann roll -1'"),
        (doc(actions=["Ann  roll 5"]), "action 1: 'Ann  roll 5' is not an action: write NAME "
                                       "VERB [NUMBERS] with single spaces"),
        (doc(actions=["Ann"]), "action 1: 'Ann' is not an action: write NAME VERB [NUMBERS] "
                               "with single spaces"),
        (doc(actions=[5]), "action 1: an action is a string like 'Ann bet 1', not 5"),
        (doc(actions=["Ann roll 5", "Carl roll 3"]), "action 2 (Carl roll 3): 'Carl' is not "
                                                     "one of the players"),
        (doc(actions=["An\tn roll 3"]), "action 1: 'An\\tn' is not a player name: names have "
         "no spaces, tabs or line breaks, in 'An\\tn roll 3'"),
    ],
)
def test_a_malformed_record_is_a_RecordError_saying_what_and_where(text, message) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert str(info.value) == message
    assert "\n" not in str(info.value)


def test_a_refused_action_stops_the_replay_naming_its_position_and_rule() -> None:
    record = parse_record(doc(actions=[
        "Ann roll 5", "Bob roll 3", "Ann throw 6 5 4", "Ann stand", "Bob throw 3 3 1",
        "Bob stand", "Ann bet 1", "Bob raise 2", "Ann call",
    ]))
    with pytest.raises(ReplayError) as info:
        replay(record)
    assert str(info.value) == "action 8 (Bob raise 2): a raise is one chip in two-hand Bidou (T5)"
    assert (info.value.position, info.value.violation.rule) == (8, "T5")
