"""The pages everyone sees: the table view (the pub's screen) and the seat controllers.

Both are plain HTML drawn by small vanilla scripts from the public state and its event stream,
so the screen updates the moment something happens. The table view is rendered from the
public state only; a seat page holds no dice in its HTML at all: its script fetches the seat's
own state with the seat token, which stays in the page (never in a cookie another seat's page
could send).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from table_server.context import ctx, error_page
from table_server.words.howto import howto
from table_server.words.i18n import gettext as _
from table_server.words.present import decorate

bp = Blueprint("pages", __name__)


@bp.get("/")
def table() -> str:
    """The table view: seats, chips, centre/pot, captain, turn, events, showdowns."""
    state = ctx().controller.public_state()
    return render_template("table.html", state=decorate(state), howto=howto(state))


@bp.get("/seat/<seat>")
def seat(seat: str) -> Any:
    """A seat controller; its token comes in the link (``?token=``) from the seat's QR code."""
    seats = ctx().seat_names()
    if seat not in seats:
        return error_page(404, _("There is no seat named '%(seat)s' at this table; the seats "
                                 "are %(seats)s. Scan the seat's QR code again.", seat=seat,
                                 seats=", ".join(seats)))
    state = ctx().controller.public_state()
    return render_template("seat.html", seat=seat, state=decorate(state), howto=howto(state))
