"""Logging in another device from a console already open: a link that works once, for five
minutes, without the PIN.

Why: wrong PINs from every address are paced for the whole table (one PIN every 3 seconds
past 20 a minute, ``auth.RateLimiter``), so that more addresses buy no more guesses; a flood
of guesses from many addresses can then keep the referee waiting for a slot. A console
already logged in needs no PIN, and can always let another device in: "Log in
another device" shows a link and its QR code; the device that opens it gets a button (a link
preview that fetches the page spends nothing) and, pressed, a console session. The link is
32 random bytes; a wrong one counts as a wrong token for the address. Logout (or a restart)
ends every link not yet used, with every session.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from firmware.words.phrases import N_
from table_server.access.devices import COOKIE as DEVICE_COOKIE
from table_server.access.guards import (
    client_address,
    csrf_ok,
    csrf_protected,
    csrf_token,
    expired_form,
    referee_required,
)
from table_server.console.referee import base_url, log_in_here, qr_svg
from table_server.context import ctx, error_page
from table_server.words.i18n import say

bp = Blueprint("referee_pass", __name__, url_prefix="/referee/pass")

SPENT = N_("This link has been used, has expired (links last 5 minutes) or was ended by a "
           "logout; on a console that is logged in, press “Log in another device” for a new one, "
           "or log in with the PIN.")


@bp.post("")
@referee_required
@csrf_protected
def issue() -> Any:
    """A new link for another device, shown with its QR code on this console."""
    c = ctx()
    url = base_url() + url_for("referee_pass.open_pass",
                               secret=c.passes.issue(c.referee_sessions.current))
    return render_template("referee_pass.html", url=url, qr=qr_svg(url),
                           minutes=int(c.passes.lifetime // 60))


def _refused(secret: str) -> Any | None:
    """The answer when the address is blocked or ``secret`` is not a live link (then counted
    as a wrong token); None when it is one."""
    c = ctx()
    address = client_address()
    message = c.limiter.blocked_message(address)
    if message:
        page, status = error_page(429, message)
        return page, status, {"Retry-After": str(int(c.limiter.retry_after(address)) + 1)}
    if not c.passes.valid(secret, c.referee_sessions.current):
        c.limiter.fail(address)
        return error_page(400, say(SPENT))
    return None


@bp.get("/<secret>")
def open_pass(secret: str) -> Any:
    """The device that opened the link: a button that logs it in (nothing spent yet)."""
    refused = _refused(secret)
    if refused is not None:
        return refused
    return render_template("referee_pass_open.html", csrf=csrf_token(), secret=secret)


@bp.post("/<secret>")
def use(secret: str) -> Any:
    """Spend the link: this browser gets a console session, as with the PIN."""
    if not csrf_ok():
        return expired_form()
    refused = _refused(secret)
    if refused is not None:
        return refused
    c = ctx()
    if not c.passes.spend(secret, c.referee_sessions.current):  # another device was quicker
        return error_page(400, say(SPENT))
    return log_in_here(c.devices.device_of(request.cookies.get(DEVICE_COOKIE)))
