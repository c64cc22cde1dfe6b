"""The referee console's forms read in the referee's words, and what was typed kept.

The JSON API names its fields ("position", "seat", "values") in its refusals, as a program
sending it needs; a referee typing into the console needs the words on the form ("the action
number", "the dice"). So each form is read here, field by field, with sentences of its own,
and turned into the same command the API makes. A refused form comes back as the referee left
it: what was typed is kept in the signed session (each field cut to a length that keeps the
cookie small) for the one page load after the redirect, with the sentence beside that form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import redirect, session, url_for

from engine.actions import is_die
from engine.variants import OPTIONS, VARIANTS
from firmware.camera.pictures import frame_size, unchanged, zone_problem
from firmware.camera.throws import DiceWatcher
from firmware.table.commands import Correct, EnterDice
from firmware.table.corrections import refused_new_game
from firmware.table.seating import setup_problem
from table_server.validation import DICE_COUNTS, MAX_WHY, form_number, form_numbers
from table_server.words.i18n import gettext as _
from table_server.words.i18n import say

#: the longest text kept of one field (a reason is at most MAX_WHY), and of one zone number
KEPT_CHARS = MAX_WHY + 20
KEPT_ZONE_CHARS = 12
#: the fields a form may send back (never the CSRF token)
KEPT_FIELDS = ("seat", "position", "values", "why", "players", "variant", "ranking",
               "poor_fish")


class FormError(Exception):
    """A form field the table cannot take: its sentence, in the referee's words."""


def dice_typed(text: str) -> tuple[int, ...]:
    """The dice typed in a form ("6 5 4", "6-5-4", one die for a captain roll)."""
    text = text.strip()
    if not text:
        raise FormError(_("Type the dice, such as 6 5 4 (one die for a captain roll)."))
    numbers = form_numbers(text)
    if (isinstance(numbers, str) or len(numbers) not in DICE_COUNTS
            or not all(is_die(n) for n in numbers)):
        raise FormError(_("“%(typed)s” are not dice: type three numbers from 1 to 6, such as "
                          "6 5 4, or one for a captain roll.", typed=text[:40]))
    return tuple(numbers)


def why_typed(form: Mapping[str, str]) -> str:
    """The reason a correction is made, which the log keeps with it."""
    why = form.get("why", "").strip()
    if not why:
        raise FormError(_("Say why in the Why box: every correction is kept in the log with "
                          "its reason."))
    if len(why) > MAX_WHY:
        raise FormError(_("The reason has %(n)s characters; say it in %(most)s at most (it is "
                          "kept in the log and sent to the venue).", n=len(why), most=MAX_WHY))
    return why


def seat_chosen(value: str, seats: Sequence[str]) -> str:
    """A seat picked from the form's list."""
    if value not in seats:
        raise FormError(_("Choose a seat from the list (%(seats)s).", seats=", ".join(seats)))
    return value


def fix_dice(form: Mapping[str, str], seats: Sequence[str]) -> Correct:
    """Fix the dice: the action numbered in the log, else the chosen seat's latest throw."""
    typed = form.get("position", "").strip()
    values = dice_typed(form.get("values", ""))
    why = why_typed(form)
    if typed:
        position = form_number(typed)
        if not isinstance(position, int) or position < 1:
            raise FormError(_("The action number is the number at the start of a line of the "
                              "log below (1, 2, 3...), not “%(typed)s”.", typed=typed[:40]))
        return Correct("fix-dice", "referee", why, position=position, values=values)
    if not form.get("seat"):
        raise FormError(_("Choose whose latest throw or roll to fix, or type the action "
                          "number from the log below."))
    return Correct("fix-dice", "referee", why, seat=seat_chosen(form["seat"], seats),
                   values=values)


def enter_dice(form: Mapping[str, str], seats: Sequence[str]) -> EnterDice:
    return EnterDice(seat_chosen(form.get("seat", ""), seats), dice_typed(form.get("values", "")),
                     "referee")


def correction(kind: str, form: Mapping[str, str]) -> Correct:
    """Undo the last action, or void the hand: only a reason."""
    return Correct(kind, "referee", why_typed(form))


def new_game(form: Mapping[str, str]) -> Correct:
    """A new game: its players in seat order, the variant and its options. How many players a
    variant takes is the table's to say (``firmware.table.seating.setup_problem``)."""
    variant = form.get("variant", "")
    if variant not in VARIANTS:
        raise FormError(_("Choose a variant from the list: %(variants)s.",
                          variants=", ".join(VARIANTS)))
    players = tuple(form.get("players", "").replace(",", " ").split())
    if not players:
        raise FormError(_("Type the players' names in seat order, such as Ann Bob Cy."))
    options: dict[str, Any] = {}
    if form.get("ranking") in OPTIONS["ranking"]:
        options["ranking"] = form["ranking"]
    if form.get("poor_fish"):
        options["poor_fish"] = True
    problem = setup_problem(variant, players, options)  # the table checks it again
    if problem is not None:
        raise FormError(say(refused_new_game(problem)))
    return Correct("new-game", "referee", why_typed(form), variant=variant, players=players,
                   options=options)


def zones_problem(zones: dict[str, dict[str, Any]], seats: Sequence[str],
                  watcher: DiceWatcher | None) -> str | None:
    """What is wrong with the zones typed, in the referee's language (the table checks them
    again when it takes them), or None."""
    if watcher is None:
        return None  # the table's own refusal says there is no camera
    problem = zone_problem(zones, list(seats), frame_size(watcher))
    return say(unchanged(problem)) if problem is not None else None


def zones_typed(form: Mapping[str, str], seats: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The zones form as ``{seat: {x, y, w, h}}``: whole numbers, or the text as typed for
    ``firmware.camera.pictures.zone_problem`` to refuse."""
    return {seat: {key: form_number(form.get(f"{seat}.{key}", "")) for key in "xywh"}
            for seat in seats}


def keep(form_id: str, form: Mapping[str, str], sentence: str, seats: Sequence[str] = ()
         ) -> Any:
    """Back to the console, at ``form_id``, with ``sentence`` beside it and what was typed
    (the zones of ``seats`` only, so no form can swell the session cookie)."""
    values = {name: form[name][:KEPT_CHARS] for name in KEPT_FIELDS if name in form}
    for seat in seats:
        for key in "xywh":
            if f"{seat}.{key}" in form:
                values[f"{seat}.{key}"] = form[f"{seat}.{key}"][:KEPT_ZONE_CHARS]
    session["kept"] = {"form": form_id, "values": values, "error": sentence}
    return redirect(url_for("referee.console") + f"#{form_id}", code=303)


def kept() -> dict[str, Any]:
    """The form refused on the last post (``form``, ``values``, ``error``), once; else empty."""
    found = session.pop("kept", None)
    return found if isinstance(found, dict) else {}
