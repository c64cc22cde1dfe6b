"""The HTTP API through Flask's test client, on the real controller in simulation: every
endpoint, and every error path as JSON {"error": sentence, "rule": id or null} with a 4xx."""

from __future__ import annotations

import random

import pytest

from firmware.words.phrases import english
from table_server.access.auth import PressLimiter


def assert_error(response, status: int, sentence: str | None = None, rule=None) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error", "rule"}
    assert body["error"][0].isupper() and body["error"].endswith(".")
    if sentence is not None:
        assert body["error"] == sentence
    assert body["rule"] == rule
    return body


# --- /api/state -----------------------------------------------------------------------


def test_state_is_the_replay_state_plus_seats(table) -> None:
    state = table.state()
    for key in ("variant", "over", "loser", "winner", "round", "rounds_lost", "chips", "centre",
                "pot", "removed", "captain", "to_act", "expects"):
        assert key in state
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob"]
    for seat in state["seats"]:
        assert {"throws", "stake", "to_act", "exposed"} <= set(seat)
    assert state["format"] == "bidou-state/2"  # each text once, a phrase
    assert state["prompt"] == {"t": "%(p)s's turn: %(choices)s.",
                               "a": {"p": "Ann", "choices": {"t": "roll for captain"}}}
    assert english(state["prompt"]) == "Ann's turn: roll for captain."
    assert not [key for key in state if key.endswith("_said")]


def test_state_has_no_dice_key_for_anyone(table) -> None:
    state = table.state()
    assert "dice" not in state and "history" not in state


# --- /api/act: accepted ---------------------------------------------------------------


def test_seat_token_plays_for_its_own_seat(table) -> None:
    response = table.act("Ann", "roll")
    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is True
    assert body["message"].startswith("Ann ") and body["message"].endswith(".")
    assert body["state"]["actions"] == 1
    assert body["state"]["to_act"] == "Bob"


def test_referee_token_plays_for_any_seat(table) -> None:
    table.act("Ann", "roll")
    response = table.act("Bob", "roll", as_="referee")
    assert response.status_code in (200,)


# --- /api/act: refused ----------------------------------------------------------------


def test_rules_refusal_is_409_with_the_rule(table) -> None:
    table.act("Ann", "roll")
    assert_error(table.act("Ann", "roll"), 409,
                 "It is Bob's turn to roll for captain, not yours.", "T2")


def test_bet_during_the_captain_roll_is_refused_by_the_rules(table) -> None:
    response = table.act("Ann", "bet", 1)
    assert response.status_code == 409
    body = response.get_json()
    assert set(body) == {"error", "rule"} and body["error"].endswith(".")
    assert table.state()["actions"] == 0


def test_malformed_json_is_400(table) -> None:
    response = table.client.post("/api/act", data="{not json", headers={
        **table.auth("Ann"), "Content-Type": "application/json"})
    assert_error(response, 400, 'The request body must be a JSON object such as '
                                '{"seat": "Ann", "action": "bet", "chips": 1}.')


def test_json_that_is_not_an_object_is_400(table) -> None:
    response = table.client.post("/api/act", json=["Ann", "roll"], headers=table.auth("Ann"))
    assert_error(response, 400)


def test_unknown_seat_is_404_naming_the_seats(table) -> None:
    assert_error(table.act("Zed", "roll", as_="referee"), 404,
                 "There is no seat named 'Zed' at this table; the seats are Ann, Bob.")


def test_unknown_action_is_400_listing_the_verbs(table) -> None:
    body = assert_error(table.act("Ann", "fold"), 400)
    assert body["error"].startswith('The field "action" must be one of roll, throw, stand, bet')


def test_bet_without_chips_is_400(table) -> None:
    assert_error(table.act("Ann", "bet"), 400,
                 'A bet needs "chips": a whole number of chips, at least 1; none was given.')


@pytest.mark.parametrize("chips", [0, -1, "2", True, 1.5])
def test_bad_chip_counts_are_400(table, chips) -> None:
    response = table.client.post("/api/act", json={"seat": "Ann", "action": "raise",
                                                   "chips": chips}, headers=table.auth("Ann"))
    assert_error(response, 400)


@pytest.mark.parametrize(("chips", "shown"), [
    ("2", '"2"'), (True, "true"), (-1, "-1"), (1.5, "1.5"), (None, None)])
def test_refusals_quote_the_value_as_json_not_python(table, chips, shown) -> None:
    """Clients speak JSON: a refusal says "2", true or that nothing was given, never Python's
    '2', True or None."""
    response = table.client.post("/api/act", json={"seat": "Ann", "action": "bet",
                                                   "chips": chips}, headers=table.auth("Ann"))
    end = f", not {shown}." if shown else "; none was given."
    assert_error(response, 400, f'A bet needs "chips": a whole number of chips, at least 1{end}')


def test_chips_on_a_verb_without_chips_is_400(table) -> None:
    assert_error(table.act("Ann", "call", 2), 400, 'A call takes no chips; leave "chips" out.')


def test_unknown_field_is_400(table) -> None:
    response = table.client.post("/api/act", json={"seat": "Ann", "action": "roll", "x": 1},
                                 headers=table.auth("Ann"))
    assert_error(response, 400, "Unknown field 'x'; the fields are seat, action, chips, id.")


def test_missing_token_is_401(table) -> None:
    response = table.client.post("/api/act", json={"seat": "Ann", "action": "roll"})
    assert_error(response, 401, "This request needs the header 'Authorization: Bearer TOKEN' "
                                "with a seat's token (from its QR code) or the referee token.")


def test_wrong_token_is_401(table) -> None:
    response = table.client.post("/api/act", json={"seat": "Ann", "action": "roll"},
                                 headers={"Authorization": "Bearer not-a-token"})
    assert_error(response, 401, "That token is not valid at this table; open the seat page "
                                "again from its QR code on the referee console, or use the "
                                "referee token.")


def test_other_scheme_is_401(table) -> None:
    response = table.client.post("/api/act", json={"seat": "Ann", "action": "roll"},
                                 headers={"Authorization": f"Basic {table.token('Ann')}"})
    assert_error(response, 401)


def test_seat_token_cannot_act_for_another_seat(table) -> None:
    table.act("Ann", "roll")
    assert_error(table.act("Bob", "roll", as_="Ann"), 403,
                 "This token is Ann's seat token; it can act only for Ann, not for Bob.")
    assert table.state()["to_act"] == "Bob"  # nothing happened


def test_get_on_act_is_405_json(table) -> None:
    assert_error(table.client.get("/api/act"), 405)


def test_unknown_endpoint_is_404_json(table) -> None:
    assert_error(table.client.get("/api/nothing"), 404)


def test_body_too_large_is_413_json(table) -> None:
    response = table.client.post("/api/act", data="x" * 100_000, headers={
        **table.auth("Ann"), "Content-Type": "application/json"})
    assert_error(response, 413)


def test_refusal_loses_nothing_already_recorded(table) -> None:
    table.act("Ann", "roll")
    before = table.state()
    table.act("Ann", "roll")
    table.client.post("/api/act", data="junk", headers=table.auth("Ann"))
    after = table.state()
    assert after["actions"] == before["actions"] == 1
    assert after["chips"] == before["chips"]


# --- /api/press -----------------------------------------------------------------------


def test_press_throw_rolls_for_captain(table) -> None:
    response = table.client.post("/api/press", json={"seat": "Ann", "button": "THROW"},
                                 headers=table.auth("Ann"))
    assert response.status_code == 200
    assert table.state()["to_act"] == "Bob"


def test_press_refused_out_of_turn_is_told_to_that_seat_only(table) -> None:
    """A refusal is on the player's own page, not on the pub's screen."""
    response = table.client.post("/api/press", json={"seat": "Bob", "button": "THROW"},
                                 headers=table.auth("Bob"))
    body = assert_error(response, 409, rule="T2")
    bob = next(s for s in table.state()["seats"] if s["name"] == "Bob")
    assert "refusal" not in bob and not any(body["error"] in english(e)
                                            for e in table.state()["events"])
    mine = table.client.get("/api/seat/Bob", headers=table.auth("Bob")).get_json()
    assert english(mine["refusal"]) == body["error"]
    assert mine["refusal"]["a"]["said"]["t"] == "it is %(q)s's turn to %(verb)s, not yours"


def test_a_double_tap_is_one_press_with_one_answer(table) -> None:
    """The same press id again (a double tap) gets the first answer and plays nothing; a
    press without an id is a new press, as for clients that send none."""
    tap = {"seat": "Ann", "button": "THROW", "id": "tap-1"}
    first = table.client.post("/api/press", json=tap, headers=table.auth("Ann"))
    version = table.state()["version"]
    second = table.client.post("/api/press", json=tap, headers=table.auth("Ann"))
    assert first.status_code == second.status_code == 200
    assert second.get_json()["message"] == first.get_json()["message"]
    assert table.state()["version"] == version and table.state()["to_act"] == "Bob"
    mine = table.client.get("/api/seat/Ann", headers=table.auth("Ann")).get_json()
    assert mine["refusal"] is None
    again = table.client.post("/api/press", json={"seat": "Ann", "button": "THROW"},
                              headers=table.auth("Ann"))
    assert again.status_code == 409  # no id: a press of its own, refused as before


def test_a_one_tap_bet_sent_twice_with_its_id_is_one_bet(table) -> None:
    """The seat page's one-tap bet is an act with the press's id: tapped twice, one bet."""
    for seat, verb in (("Ann", "roll"), ("Bob", "roll")):
        assert table.act(seat, verb).status_code == 200
    rng = random.Random(3)
    while table.controller.game.expects != "bet":
        table.play_one(rng)
    seat = table.controller.game.to_act
    mine = table.client.get(f"/api/seat/{seat}", headers=table.auth(seat)).get_json()
    assert mine["bet_at_once"] == {"action": "bet", "chips": 1}
    assert english(mine["buttons"]["BET"]) == "BET 1"
    tap = {"seat": seat, **mine["bet_at_once"], "id": "tap-bet"}
    first = table.client.post("/api/act", json=tap, headers=table.auth(seat))
    second = table.client.post("/api/act", json=tap, headers=table.auth(seat))
    assert first.status_code == second.status_code == 200
    bets = [a for a in table.controller.game.history if a.verb == "bet"]
    assert len(bets) == 1 and str(bets[0]) == f"{seat} bet 1"
    other = table.controller.game.to_act
    theirs = table.client.get(f"/api/seat/{other}", headers=table.auth(other)).get_json()
    assert english(theirs["facing"]) == f"Facing you: {seat}'s bet of 1 chip."
    assert english(theirs["buttons"]["BET"]) == "RAISE 1"


def test_a_press_id_is_a_short_text(table) -> None:
    response = table.client.post("/api/press", json={"seat": "Ann", "button": "THROW",
                                                     "id": 7}, headers=table.auth("Ann"))
    assert_error(response, 400)
    assert "\"id\"" in response.get_json()["error"]


@pytest.mark.parametrize(("body", "sentence"), [
    ({"seat": "Ann", "button": "JUMP"},
     'The field "button" must be one of THROW, BET, CALL, PASS, not "JUMP".'),
    ({"seat": "Ann", "button": "BET", "long": "yes"},
     'The field "long" must be true or false, not "yes".'),
])
def test_press_bad_body_is_400(table, body, sentence) -> None:
    response = table.client.post("/api/press", json=body, headers=table.auth("Ann"))
    assert_error(response, 400, sentence)


# --- /api/seat/NAME -------------------------------------------------------------------


def test_seat_state_shows_own_dice_after_a_throw(table) -> None:
    rng = random.Random(3)
    while table.state()["expects"] != "throw":
        table.play_one(rng)
    seat = table.state()["to_act"]
    table.act(seat, "throw")
    mine = table.client.get(f"/api/seat/{seat}", headers=table.auth(seat)).get_json()
    assert mine["seat"] == seat
    assert len(mine["dice"]) == 3
    assert mine["dice"] == list(table.controller.game.concealed_dice(seat))


def test_seat_state_of_another_seat_is_403(table) -> None:
    assert_error(table.client.get("/api/seat/Bob", headers=table.auth("Ann")), 403)


def test_seat_state_unknown_seat_is_404(table) -> None:
    assert_error(table.client.get("/api/seat/Zed", headers=table.auth("referee")), 404)


# --- referee endpoints ----------------------------------------------------------------


def test_referee_state_needs_the_referee(table) -> None:
    assert_error(table.client.get("/api/referee/state"), 401)
    assert_error(table.client.get("/api/referee/state", headers=table.auth("Ann")), 403,
                 "Only the referee may do this; the token given is Ann's seat token.")
    body = table.client.get("/api/referee/state", headers=table.auth("referee")).get_json()
    assert set(body["dice"]) == {"Ann", "Bob"}


def test_referee_enters_dice(table) -> None:
    response = table.client.post("/api/referee/dice", json={"seat": "Ann", "values": [4]},
                                 headers=table.auth("referee"))
    assert response.status_code == 200
    referee = table.client.get("/api/referee/state", headers=table.auth("referee")).get_json()
    assert referee["history"][-1].startswith("1 action Ann roll 4 (by referee")


@pytest.mark.parametrize("values", [[7], [1, 2], "6 5 4", [0, 1, 2], None])
def test_referee_bad_dice_are_400(table, values) -> None:
    response = table.client.post("/api/referee/dice", json={"seat": "Ann", "values": values},
                                 headers=table.auth("referee"))
    assert_error(response, 400)


def test_seat_cannot_enter_dice(table) -> None:
    response = table.client.post("/api/referee/dice", json={"seat": "Ann", "values": [6]},
                                 headers=table.auth("Ann"))
    assert_error(response, 403)


def test_referee_undo(table) -> None:
    table.act("Ann", "roll")
    response = table.client.post("/api/referee/correct",
                                 json={"kind": "undo", "why": "pressed by mistake"},
                                 headers=table.auth("referee"))
    assert response.status_code == 200
    assert table.state()["actions"] == 0


def test_referee_undo_with_nothing_to_undo_is_409(table) -> None:
    response = table.client.post("/api/referee/correct", json={"kind": "undo", "why": "test"},
                                 headers=table.auth("referee"))
    assert_error(response, 409, "There is no action to undo in this game.")


def test_referee_fix_dice_by_position(table) -> None:
    table.act("Ann", "roll")
    response = table.client.post("/api/referee/correct",
                                 json={"kind": "fix-dice", "why": "misread", "position": 1,
                                       "values": [6]}, headers=table.auth("referee"))
    assert response.status_code == 200
    record = table.client.get("/api/referee/state", headers=table.auth("referee")).get_json()
    assert any("fix-dice 1 Ann roll 6" in line for line in record["history"])


def test_referee_new_game(table_factory) -> None:
    table = table_factory(variant="multi-hand", players=("Ann", "Bob", "Cy"))  # three places
    two = table.client.post("/api/referee/correct", json={
        "kind": "new-game", "why": "two came first", "variant": "two-hand",
        "players": ["Ann", "Bob"]}, headers=table.auth("referee"))
    assert two.status_code == 200
    response = table.client.post("/api/referee/correct", json={
        "kind": "new-game", "why": "three players came", "variant": "multi-hand",
        "players": ["Ann", "Bob", "Cy"], "options": {"poor_fish": True}},
        headers=table.auth("referee"))
    assert response.status_code == 200
    state = table.state()
    assert state["variant"] == "multi-hand" and state["players"] == ["Ann", "Bob", "Cy"]
    # the new seat gets a token and its page
    assert table.client.get("/api/seat/Cy", headers=table.auth("Cy")).status_code == 200


def test_referee_new_game_with_bad_setup_is_409(table) -> None:
    response = table.client.post("/api/referee/correct", json={
        "kind": "new-game", "why": "x", "variant": "two-hand", "players": ["Ann"]},
        headers=table.auth("referee"))
    body = assert_error(response, 409)
    assert body["error"].startswith("The new game cannot start: two-hand is played by "
                                    "exactly 2 players and 1 is named (Ann)")


@pytest.mark.parametrize(("body", "start"), [
    ({"kind": "redo", "why": "x"},
     'The field "kind" must be one of fix-dice, undo, void-hand, new-game'),
    ({"kind": "undo"}, 'Say why in "why"'),
    ({"kind": "undo", "why": "x", "position": 1}, "Unknown field 'position'"),
    ({"kind": "fix-dice", "why": "x", "values": [1]}, "Say which dice to fix"),
    ({"kind": "fix-dice", "why": "x", "position": 0, "values": [1]},
     'The field "position" must be'),
    ({"kind": "new-game", "why": "x", "variant": "two-hand", "players": "Ann Bob"},
     'The field "players" must be a list'),
])
def test_referee_bad_corrections_are_400(table, body, start) -> None:
    response = table.client.post("/api/referee/correct", json=body, headers=table.auth("referee"))
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(start)


def test_camera_picture_is_a_jpeg_for_the_referee_only(table) -> None:
    assert_error(table.client.get("/api/referee/camera.jpg"), 401)
    response = table.client.get("/api/referee/camera.jpg", headers=table.auth("referee"))
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.data[:2] == b"\xff\xd8"


# --- finished games -------------------------------------------------------------------


def test_games_lists_only_finished_games(table) -> None:
    assert table.client.get("/api/games").get_json() == {"games": []}
    table.act("Ann", "roll")
    table.client.post("/api/referee/correct", json={"kind": "new-game", "why": "restart"},
                      headers=table.auth("referee"))
    games = table.client.get("/api/games").get_json()["games"]
    assert [(g["id"], g["status"]) for g in games] == [(1, "abandoned")]
    record = table.client.get("/api/games/1").get_json()
    assert record["format"] == "bidou-record/1" and len(record["actions"]) == 1


def test_game_in_progress_has_no_record(table) -> None:
    table.act("Ann", "roll")
    assert_error(table.client.get(f"/api/games/{table.state()['game_id']}"), 404)


def test_referee_reread_with_nothing_waiting_is_409(table) -> None:
    response = table.client.post("/api/referee/reread", json={"seat": "Ann"},
                                 headers=table.auth("referee"))
    body = assert_error(response, 409)
    assert body["error"].startswith("Ann has no exposed dice waiting to be read")


def test_D_S4_the_referee_reads_exposed_dice_again_and_a_sure_read_settles_them(table) -> None:
    original = table.controller.reads.before_read
    blind = {"Ann": 2}  # the roll, and the controller's own read again at exposure

    def cup_still_on(seat: str, kind: str, *again: bool) -> None:
        if blind.get(seat):
            blind[seat] -= 1
            table.sim.camera.clear(seat)  # the camera sees no dice there
        else:
            original(seat, kind, *again)

    table.controller.reads.before_read = cup_still_on
    assert table.act("Ann", "roll").status_code == 200  # counted, its die pending
    assert table.state()["to_act"] == "Bob"  # play went on
    assert table.act("Bob", "roll").status_code == 200
    state = table.state()
    assert state["expects"] == "settle" and [s["seat"] for s in state["settling"]] == ["Ann"]
    assert table.client.get("/api/settle/Ann.jpg").status_code == 200
    assert_error(table.client.get("/api/settle/Bob.jpg"), 404)
    response = table.client.post("/api/referee/reread", json={"seat": "Ann"},
                                 headers=table.auth("referee"))
    assert response.status_code == 200, response.get_json()
    assert table.state()["settling"] == []
    last = table.controller.log.entries(table.state()["game_id"])[-1].text
    assert last.startswith("Ann settle ") and last.endswith(" by camera")
    assert_error(table.client.get("/api/settle/Ann.jpg"), 404)


@pytest.mark.parametrize("body", ["[" * 30000 + "]" * 30000,
                                  '{"seat": ' + "[" * 30000 + "]" * 30000 + "}"])
def test_json_nested_past_the_parsers_depth_is_400_not_500(table, body) -> None:
    response = table.client.post("/api/act", data=body, content_type="application/json",
                                 headers=table.auth("Ann"))
    assert_error(response, 400, 'The request body must be a JSON object such as {"seat": '
                                '"Ann", "action": "bet", "chips": 1}.')


def settling_ann(table) -> None:
    """Ann's roll counted with its dice pending, Bob's roll exposing them: settling Ann."""
    original = table.controller.reads.before_read
    blind = {"Ann": 2}

    def cup_still_on(seat: str, kind: str, *again: bool) -> None:
        if blind.get(seat):
            blind[seat] -= 1
            table.sim.camera.clear(seat)
        else:
            original(seat, kind, *again)

    table.controller.reads.before_read = cup_still_on
    assert table.act("Ann", "roll").status_code == 200
    assert table.act("Bob", "roll").status_code == 200
    assert [s["seat"] for s in table.state()["settling"]] == ["Ann"]


def test_a_settle_has_its_own_pace_not_the_presses(table_factory, clock) -> None:
    """A settle is one word per player and seat: a seat whose presses are spent can still
    settle, and a flood of settles is refused by the settle's own bucket with its sentence."""
    table = table_factory(presses=PressLimiter(rate=5.0, burst=10, clock=clock),
                          settles=PressLimiter(rate=1.0, burst=2, clock=clock))
    settling_ann(table)
    while table.context.presses.take("Bob") == 0:  # Bob's phone pressed all it may
        pass
    say = {"seat": "Ann", "player": "Bob", "values": [1, 1, 1]}
    first = table.client.post("/api/settle", json=say, headers=table.auth("Bob"))
    assert first.status_code != 429, first.get_json()
    table.client.post("/api/settle", json=say, headers=table.auth("Bob"))
    third = table.client.post("/api/settle", json=say, headers=table.auth("Bob"))
    assert_error(third, 429, "Too many words from Bob on Ann's dice; wait a moment and say "
                             "them again.")
