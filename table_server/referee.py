"""The referee console: PIN login, camera picture, needs-a-look queue, corrections, set-up,
export and each seat's QR code.

It is a page of forms, so it logs in by PIN into Flask's signed session cookie (HttpOnly,
SameSite=Strict) and every form carries a CSRF token bound to that session. Wrong PINs count
against the client address like wrong tokens. Everything here may show concealed dice: that
is the referee's job, and nothing here is reachable without the PIN.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import segno
from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from table_server.addresses import public_base
from table_server.api import (
    Refused,
    camera_response,
    client_address,
    commands,
    correction_from,
    dice_values,
    existing_seat,
    finished_games,
    finished_record,
    submit,
    zones_response,
)
from table_server.app import ctx
from table_server.auth import new_csrf_token, same_secret
from table_server.pages import error_page

bp = Blueprint("referee", __name__, url_prefix="/referee")

VARIANT_CHOICES = ("two-hand", "multi-hand", "montevideo")


def csrf_token() -> str:
    """This session's CSRF token (made on first use)."""
    if "csrf" not in session:
        session["csrf"] = new_csrf_token()
    return session["csrf"]


def check_csrf() -> Any | None:
    """None when the form's CSRF token matches the session's, else the 400 page to answer."""
    if not same_secret(request.form.get("csrf"), session.get("csrf", "")) or not session.get(
        "csrf"
    ):
        return error_page(400, "This form has expired or did not come from the referee "
                               "console; reload the console and try again.")
    return None


def logged_in() -> bool:
    return bool(session.get("referee"))


def base_url() -> str:
    """The address phones use: ``[server] public_url``, else the one this request came in on
    (or the LAN address when that is a loopback one and the table listens on every interface)."""
    settings = ctx().settings
    port = str(request.environ.get("SERVER_PORT", "80"))
    return public_base(settings.public_url, settings.host, int(port) if port.isdigit() else 80,
                       request.host)


def seat_url(base: str, seat: str) -> str:
    return f"{base}/seat/{quote(seat)}?token={ctx().tokens.token_for(seat)}"


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno), drawn without any network access."""
    return segno.make(url, micro=False).svg_inline(scale=4, dark="#000", light="#fff")


@bp.get("")
def console() -> Any:
    """The console, or the PIN form when not logged in."""
    if not logged_in():
        return render_template("referee_login.html", csrf=csrf_token())
    c = ctx()
    base = base_url()
    seats = [
        {"name": s, "url": seat_url(base, s), "qr": qr_svg(seat_url(base, s))}
        for s in c.seat_names()
    ]
    return render_template(
        "referee.html",
        csrf=csrf_token(),
        state=c.controller.referee_state(),
        seats=seats,
        variants=VARIANT_CHOICES,
        games=finished_games(),
        zones=c.controller.zones(),
    )


@bp.post("/login")
def login() -> Any:
    limiter = ctx().limiter
    message = limiter.blocked_message(client_address())
    if message:
        return error_page(429, message)
    bad = check_csrf()
    if bad:
        return bad
    if not same_secret(request.form.get("pin", ""), ctx().settings.referee_pin):
        limiter.fail(client_address())
        page = render_template("referee_login.html", csrf=csrf_token(),
                               error="That PIN is not right; try again.")
        return page, 401
    session.clear()
    session["referee"] = True
    session["csrf"] = new_csrf_token()
    return redirect(url_for("referee.console"), code=303)


@bp.post("/logout")
def logout() -> Any:
    bad = check_csrf()
    if bad:
        return bad
    session.clear()
    return redirect(url_for("referee.console"), code=303)


def _guarded() -> Any | None:
    if not logged_in():
        return error_page(401, "Log in to the referee console with the PIN first.")
    return check_csrf()


def _form_to_correction() -> dict[str, Any]:
    """The correction form as the JSON object the API takes (same checks, same sentences)."""
    form = request.form
    data: dict[str, Any] = {"kind": form.get("kind"), "why": form.get("why", "")}
    if form.get("position"):
        position = form["position"].strip()
        data["position"] = int(position) if position.isdigit() else position
    if form.get("values") is not None:
        data["values"] = _numbers(form["values"])
    if data["kind"] == "new-game":
        data["variant"] = form.get("variant")
        data["players"] = form.get("players", "").replace(",", " ").split()
        options: dict[str, Any] = {}
        if form.get("ranking") in ("three-digit", "total"):
            options["ranking"] = form["ranking"]
        if form.get("poor_fish"):
            options["poor_fish"] = True
        data["options"] = options
    return data


def _numbers(text: str) -> Any:
    words = text.replace(",", " ").replace("-", " ").split()
    return [int(w) for w in words] if all(w.isdigit() for w in words) else text


def _submit_form(command_builder: Any) -> Any:
    try:
        response = submit(command_builder())
        flash(response.get_json()["message"] or "Done.", "ok")
    except Refused as e:
        flash(e.sentence + (f" ({e.rule})" if e.rule else ""), "error")
    return redirect(url_for("referee.console"), code=303)


@bp.post("/correct")
def correct() -> Any:
    bad = _guarded()
    if bad:
        return bad
    return _submit_form(lambda: correction_from(_form_to_correction()))


@bp.post("/dice")
def dice() -> Any:
    bad = _guarded()
    if bad:
        return bad
    def build() -> Any:
        seat = existing_seat(request.form.get("seat"))
        return commands().EnterDice(seat, dice_values(_numbers(request.form.get("values", ""))),
                                    "referee")

    return _submit_form(build)


@bp.post("/zones")
def zones() -> Any:
    """The zones form: x, y, w, h per seat, as ``POST /api/referee/zones`` takes them."""
    bad = _guarded()
    if bad:
        return bad
    table: dict[str, Any] = {}
    for seat in ctx().seat_names():
        table[seat] = {}
        for key in ("x", "y", "w", "h"):
            text = request.form.get(f"{seat}.{key}", "").strip()
            table[seat][key] = int(text) if text.isdigit() else text
    try:
        flash(zones_response(table).get_json()["message"], "ok")
    except Refused as e:
        flash(e.sentence, "error")
    return redirect(url_for("referee.console"), code=303)


@bp.post("/reread")
def reread() -> Any:
    bad = _guarded()
    if bad:
        return bad
    return _submit_form(lambda: commands().Reread(existing_seat(request.form.get("seat")),
                                                  "referee"))


@bp.get("/camera.jpg")
def camera() -> Any:
    if not logged_in():
        return error_page(401, "Log in to the referee console with the PIN first.")
    try:
        return camera_response(request.args.get("annotated", "1") != "0")
    except Refused as e:
        return error_page(e.status, e.sentence)


@bp.get("/qr/<seat>.svg")
def qr(seat: str) -> Any:
    if not logged_in():
        return error_page(401, "Log in to the referee console with the PIN first.")
    if seat not in ctx().seat_names():
        return error_page(404, f"There is no seat named {seat!r} at this table.")
    return Response(qr_svg(seat_url(base_url(), seat)), mimetype="image/svg+xml")


@bp.get("/export")
def export() -> Any:
    """Every finished game's record, as one JSON file to download."""
    if not logged_in():
        return error_page(401, "Log in to the referee console with the PIN first.")
    records = []
    for game in finished_games():
        record = finished_record(game["id"])
        if record is not None:
            records.append({"id": game["id"], "record": record})
    return Response(json.dumps(records, ensure_ascii=False, indent=1),
                    mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="bidou-records.json"'})

