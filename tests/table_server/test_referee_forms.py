"""The referee console's forms: a refused form comes back beside its sentence, in the referee's
words (never an API field name or a Python dict), with what was typed still in it; fix-the-dice
chooses a seat; and the simulated table starts any variant with 2 to 8 players, a zone laid for
each."""

from __future__ import annotations

import html
import re

import pytest

API_WORDS = ('"position"', '"seat"', '"values"', "zones.", "{'x'", "options.")


def form_html(page: str, form_id: str) -> str:
    found = re.search(rf'<form[^>]*id="{form_id}".*?</form>', page, flags=re.S)
    assert found, form_id
    return html.unescape(found.group(0))


def post(table, path: str, data: dict[str, str]):
    response = table.client.post(path, data={**data, "csrf": table.csrf()})
    assert response.status_code == 303
    return table.client.get("/referee").get_data(as_text=True), response


@pytest.mark.parametrize(("path", "form_id", "data", "sentence", "typed"), [
    ("/referee/correct", "fix-dice",
     {"kind": "fix-dice", "seat": "", "position": "", "values": "6 5 4", "why": "misread"},
     "Choose whose latest throw or roll to fix, or type the action number from the log "
     "below.", ["6 5 4", "misread"]),
    ("/referee/correct", "fix-dice",
     {"kind": "fix-dice", "seat": "Ann", "position": "first", "values": "6 5 4", "why": "x"},
     "The action number is the number at the start of a line of the log below (1, 2, 3...), "
     "not “first”.", ["first", "6 5 4"]),
    ("/referee/correct", "fix-dice",
     {"kind": "fix-dice", "seat": "Bob", "position": "", "values": "6 5 9", "why": "x"},
     "“6 5 9” are not dice: type three numbers from 1 to 6, such as 6 5 4, or one for a "
     "captain roll.", ["6 5 9"]),
    ("/referee/dice", "enter-dice", {"seat": "Bob", "values": "seven"},
     "“seven” are not dice: type three numbers from 1 to 6, such as 6 5 4, or one for a "
     "captain roll.", ["seven"]),
    ("/referee/correct", "new-game",
     {"kind": "new-game", "players": "Ann Bob Cy Dee Eve", "variant": "two-hand",
      "ranking": "three-digit", "why": "five came"},
     "The new game cannot start: two-hand is played by exactly 2 players and 5 are named "
     "(Ann, Bob, Cy, Dee, Eve); name 2, or choose multi-hand or montevideo for 3 to 8 "
     "players.", ["Ann Bob Cy Dee Eve", "five came"]),
    ("/referee/correct", "new-game",
     {"kind": "new-game", "players": "Ann Bob Cy", "variant": "montevideo",
      "ranking": "three-digit", "poor_fish": "1", "why": "x"},
     "The new game cannot start: Poor Fish is a rule of multi-hand only; untick it for "
     "montevideo.", ["Ann Bob Cy"]),
    ("/referee/zones", "zones",
     {"Ann.x": "10", "Ann.y": "10", "Ann.w": "300", "Ann.h": "200",
      "Bob.x": "10", "Bob.y": "100", "Bob.w": "wide", "Bob.h": "200"},
     "Bob's width (w) must be a whole number of pixels, 1 or more, not “wide”. Nothing was "
     "changed.", ["wide"]),
    ("/referee/zones", "zones",
     {"Ann.x": "10", "Ann.y": "10", "Ann.w": "300", "Ann.h": "200",
      "Bob.x": "10", "Bob.y": "100", "Bob.w": "300", "Bob.h": "200"},
     "Ann's zone and Bob's overlap, so a die there would belong to both seats; move one of "
     "them. Nothing was changed.", ["100"]),
])
def test_a_refused_form_says_why_in_the_referees_words_and_keeps_what_was_typed(
        table, path, form_id, data, sentence, typed) -> None:
    table.login()
    before = (table.state()["game_id"], table.state()["actions"], table.controller.zones())
    page, response = post(table, path, data)
    assert response.headers["Location"].endswith(f"#{form_id}")
    form = form_html(page, form_id)
    assert f'<p class="flash error" role="alert">{sentence}</p>' in form, form
    for text in typed:
        assert f'value="{text}"' in form, (text, form)
    assert not any(word in sentence for word in API_WORDS)
    assert (table.state()["game_id"], table.state()["actions"],
            table.controller.zones()) == before
    # shown once: the next load is the console as it is
    again = table.client.get("/referee").get_data(as_text=True)
    assert sentence not in html.unescape(again)


def test_fix_the_dice_of_a_seat_chosen_from_the_list(table) -> None:
    table.login()
    assert table.act("Ann", "roll").status_code == 200
    page, _ = post(table, "/referee/correct", {"kind": "fix-dice", "seat": "Ann",
                                               "position": "", "values": "2",
                                               "why": "the die fell"})
    assert "referee fixed the dice of action 1: the die fell." in page
    assert str(table.controller.game.history[0]) == "Ann roll 2"
    assert '<option value="">choose a seat</option><option >Ann</option>' in form_html(
        page, "fix-dice").replace("\n", "")


def test_the_poor_fish_box_sits_in_its_label(table) -> None:
    table.login()
    form = form_html(table.client.get("/referee").get_data(as_text=True), "new-game")
    assert re.search(r'<label class="check"><input type="checkbox" name="poor_fish"[^>]*> '
                     r'<span>Poor Fish', form), form


def test_the_simulated_table_starts_multi_hand_for_five_and_reads_every_seat(table) -> None:
    """Any variant from `make run`: the simulated camera lays a zone for each of 5 players,
    and every seat's captain roll is thrown on the simulated table and read."""
    table.login()
    page, _ = post(table, "/referee/correct", {
        "kind": "new-game", "players": "Ann Bob Cy Dee Eve", "variant": "multi-hand",
        "ranking": "three-digit", "why": "five came"})
    assert "Game 2 started." in page
    assert list(table.controller.zones()) == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    for seat in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        assert table.act(seat, "roll").status_code == 200
        assert table.controller.reads.last[seat].values == table.sim.camera.dice()[seat]


def test_the_roller_sees_their_captain_roll_and_no_one_elses_dice(table) -> None:
    """The captain roll shown to the roller: each roller's own state carries their
    die until they throw; nobody's state carries another seat's roll, and the public state none."""
    assert table.act("Ann", "roll").status_code == 200
    ann_die = table.controller.game.history[-1].numbers[0]

    def seat(name: str) -> dict:
        return table.client.get(f"/api/seat/{name}", headers=table.auth(name)).get_json()

    assert seat("Ann")["captain_roll"] == ann_die and seat("Ann")["dice"] is None
    assert seat("Bob")["captain_roll"] is None  # Bob has not rolled: Ann's die is not his
    assert "captain_roll" not in table.state()
    while table.controller.game.expects == "roll":  # to the end of the roll, ties and all
        assert table.act(table.controller.game.to_act, "roll").status_code == 200
    rolls = {a.player: a.numbers[0] for a in table.controller.game.history}
    assert {name: seat(name)["captain_roll"] for name in ("Ann", "Bob")} == rolls
    captain = table.controller.game.to_act
    assert table.act(captain, "throw").status_code == 200
    assert seat(captain)["captain_roll"] is None and len(seat(captain)["dice"]) == 3


@pytest.mark.parametrize(("language", "heading", "sentence"), [
    ("fr", "Console de l'arbitre", "Le numéro de l'action est celui qui commence une ligne du "
                                   "journal ci-dessous (1, 2, 3…), pas « first »."),
    ("es", "Consola del árbitro", "El número de la acción es el que empieza una línea del "
                                  "registro de abajo (1, 2, 3…), no «first»."),
])
def test_the_console_and_its_refusals_speak_the_chosen_language(table, language, heading,
                                                                 sentence) -> None:
    table.login()
    page = html.unescape(table.client.get(f"/referee?lang={language}").get_data(as_text=True))
    assert f"<h1>{heading}</h1>" in page
    page, _ = post(table, "/referee/correct", {"kind": "fix-dice", "seat": "", "values": "6 5 4",
                                               "position": "first", "why": "x"})
    assert sentence in html.unescape(form_html(page, "fix-dice"))


@pytest.mark.parametrize(("path", "form_id", "data", "sentence"), [
    ("/referee/correct", "new-game",
     {"kind": "new-game", "players": "Ann Bob Cy", "variant": "two-hand",
      "ranking": "three-digit", "why": "x"},
     "La nouvelle partie ne peut pas commencer : le Bidou à deux se joue à exactement 2 joueurs "
     "et 3 sont nommés (Ann, Bob, Cy) ; nommez-en 2, ou choisissez le Bidou à plusieurs ou "
     "Montevideo pour 3 à 8 joueurs."),
    ("/referee/zones", "zones",
     {"Ann.x": "10", "Ann.y": "10", "Ann.w": "700", "Ann.h": "200",
      "Bob.x": "10", "Bob.y": "250", "Bob.w": "300", "Bob.h": "200"},
     "La zone d'Ann dépasse le bord droit de l'image de 640 sur 480 : elle finit à 710 pixels "
     "et peut finir au plus à 640. Rien n'a été changé."),
])
def test_the_tables_own_refusals_reach_the_console_in_its_language(table, path, form_id,
                                                                   data, sentence) -> None:
    table.login()
    table.client.get("/referee?lang=fr")
    page, _ = post(table, path, data)
    assert sentence in html.unescape(form_html(page, form_id))
    assert table.state()["game_id"] == 1
