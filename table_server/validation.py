"""Checking what a request sent, and turning it into a table command: 400/404 with a sentence.

The API's JSON bodies and the console's forms ask for the same things (a seat, dice, a
correction), so both check them here, with the same sentences. What the rules then say is
the controller's answer (409), never decided here.
"""

from __future__ import annotations

import json
from typing import Any

from flask import request

from engine.actions import DICE_VERBS, dice_count, is_die
from firmware.table.commands import CORRECTIONS, Correct
from table_server.context import Refused, ctx

#: How many dice an entered list may hold: one (a captain roll) or three (a throw).
DICE_COUNTS = tuple(sorted({dice_count(v) for v in DICE_VERBS}))
#: a correction's reason, in characters: a sentence. It is kept in the log and sent to the venue,
#: whose hub takes an entry of 8 KiB at most (``venue.hub.MAX_ENTRY_BYTES``)
MAX_WHY = 300


def json_body(example: str) -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what to send."""
    try:
        data = request.get_json(silent=True, force=True)
    except RecursionError:  # nested past Python's limit: not a request anyone means to send
        data = None
    if not isinstance(data, dict):
        raise Refused(400, f"The request body must be a JSON object such as {example}.")
    return data


def given(value: Any) -> str:
    """The end of a refusal saying what the client sent, in JSON's words (null, true,
    "2"), not Python's (None, True, '2'): ``; none was given`` or ``, not VALUE``."""
    if value is None:
        return "; none was given"
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 40:
        text = text[:37] + "..."
    return f", not {text}"


def no_unknown_keys(data: dict[str, Any], known: tuple[str, ...]) -> None:
    for key in data:
        if key not in known:
            raise Refused(400, f"Unknown field {key!r}; the fields are {', '.join(known)}.")


def form_number(text: str) -> int | str:
    """A form field's whole number, written in the digits 0-9 only; any other text is
    given back as it is, for the check that follows to refuse with its sentence.

    ``str.isdigit`` is true of superscripts (``²``), which ``int`` refuses (a 500 before issue
    37), and of other scripts' digits (Arabic-Indic ``٣``, fullwidth ``３``), which ``int``
    takes. The console takes 0-9 only, as the JSON API (whose numbers are 0-9) and the PIN do:
    a value the referee reads back on the console is the one the table plays."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else text


def form_numbers(text: str) -> list[int] | str:
    """A form field of whole numbers (``6 5 4``, ``6,5,4``, ``6-5-4``) in the digits 0-9; any
    other text is given back as it is, for the check that follows to refuse."""
    words = text.replace(",", " ").replace("-", " ").split()
    if all(w.isascii() and w.isdigit() for w in words):
        return [int(w) for w in words]
    return text


def existing_seat(value: Any) -> str:
    """``value`` as a seat of the current game, or 400/404 naming the seats."""
    seats = ctx().seat_names()
    if not isinstance(value, str) or not value:
        raise Refused(400, f"The field \"seat\" must be a seat's name, one of {', '.join(seats)}.")
    if value not in seats:
        raise Refused(404, f"There is no seat named {value!r} at this table; the seats are "
                           f"{', '.join(seats)}.")
    return value


def dice_values(values: Any) -> tuple[int, ...]:
    """``values`` as dice: a list of three (one for a captain roll), each 1 to 6; else 400."""
    if (not isinstance(values, list) or len(values) not in DICE_COUNTS
            or not all(is_die(v) for v in values)):
        raise Refused(400, f"The field \"values\" must be a list of three dice (one for a "
                           f"captain roll), each 1 to 6{given(values)}.")
    return tuple(values)


def correction_from(data: dict[str, Any]) -> Correct:
    """A controller Correct command from a JSON object or form; 400 naming what is wrong."""
    kind = data.get("kind")
    if kind not in CORRECTIONS:
        raise Refused(400, f"The field \"kind\" must be one of {', '.join(CORRECTIONS)}"
                           f"{given(kind)}.")
    why = data.get("why")
    if not isinstance(why, str) or not why.strip():
        raise Refused(400, "Say why in \"why\": every correction is kept in the log with its "
                           "reason.")
    if len(why) > MAX_WHY:
        raise Refused(400, f"The reason in \"why\" has {len(why)} characters; say it in "
                           f"{MAX_WHY} at most (it is kept in the log and sent to the venue).")
    known = {"fix-dice": ("position", "seat", "values"), "undo": (), "void-hand": (),
             "new-game": ("variant", "players", "options")}[kind]
    no_unknown_keys(data, ("kind", "why", *known))
    extra = {k: data[k] for k in known if k in data}
    if kind == "fix-dice":
        position = data.get("position")
        if position is None and "seat" not in data:
            raise Refused(400, "Say which dice to fix: \"position\" (the action's number in "
                               "the game record) or \"seat\" (that seat's latest throw).")
        if position is not None and (isinstance(position, bool)
                                     or not isinstance(position, int) or position < 1):
            raise Refused(400, "The field \"position\" must be the number (from 1) of the "
                               "action to fix in the game record.")
        if "seat" in data:
            extra["seat"] = existing_seat(data["seat"])
        extra["values"] = dice_values(data.get("values"))
    if kind == "new-game":
        players = data.get("players")
        if players is not None:
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise Refused(400, "The field \"players\" must be a list of names in seat "
                                   "order (or left out for the table's usual players).")
            extra["players"] = tuple(players)
        if "variant" in data and not isinstance(data["variant"], str):
            raise Refused(400, "The field \"variant\" must be two-hand, multi-hand or "
                               "montevideo.")
        if "options" in data and not isinstance(data["options"], dict):
            raise Refused(400, "The field \"options\" must be a JSON object.")
    return Correct(kind, "referee", why.strip(), **extra)
