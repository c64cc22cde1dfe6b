"""Who may ask: bearer tokens for the API, the PIN session and CSRF tokens for the console.

The API names its caller with :func:`caller` (a seat's token or the referee's) and refuses
with JSON; the console's pages are wrapped in :func:`referee_required` (logged in with the
PIN) and its forms also in :func:`csrf_protected`, as flaskr wraps views in
``login_required`` instead of repeating the check in each.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import request, session

from table_server.access.auth import bearer_token, new_csrf_token, same_secret
from table_server.context import Refused, ctx, error_page


@dataclass(frozen=True)
class Caller:
    """Who sent a request: the referee, or the holder of one seat's token."""

    referee: bool = False
    seat: str | None = None

    def may_act_for(self, seat: str) -> bool:
        return self.referee or self.seat == seat


def client_address() -> str:
    return request.remote_addr or "unknown"


def check_not_blocked() -> None:
    """Refuse with 429 when this address has failed too many PIN or token checks."""
    limiter = ctx().limiter
    message = limiter.blocked_message(client_address())
    if message:
        raise Refused(429, message, retry_after=int(limiter.retry_after(client_address())) + 1)


def caller(*, allow_session: bool = False) -> Caller:
    """Authenticate the request by its Bearer token (or, for reads, the console session)."""
    check_not_blocked()
    c = ctx()
    header = request.headers.get("Authorization", "")
    if not header:
        if allow_session and logged_in():
            return Caller(referee=True)
        raise Refused(401, "This request needs the header 'Authorization: Bearer TOKEN' with "
                           "a seat's token (from its QR code) or the referee token.")
    token = bearer_token(header)
    if token is None:
        raise Refused(401, "The Authorization header must read 'Bearer TOKEN'; "
                           "other schemes are not accepted.")
    is_referee = same_secret(token, c.settings.referee_token)
    seat = c.tokens.seat_of(token)
    if is_referee:
        return Caller(referee=True)
    if seat is not None:
        return Caller(seat=seat)
    c.limiter.fail(client_address())
    raise Refused(401, "That token is not valid at this table; open the seat page again from "
                       "its QR code on the referee console, or use the referee token.")


def require_referee(*, allow_session: bool = False) -> Caller:
    """The caller, who must be the referee (403 for a seat's token)."""
    who = caller(allow_session=allow_session)
    if not who.referee:
        raise Refused(403, f"Only the referee may do this; the token given is {who.seat}'s "
                           f"seat token.")
    return who


def check_may_act(who: Caller, seat: str) -> None:
    """403 unless ``who`` may act for ``seat`` (its own token, or the referee)."""
    if not who.may_act_for(seat):
        raise Refused(403, f"This token is {who.seat}'s seat token; it can act only for "
                           f"{who.seat}, not for {seat}.")


# --- the console -------------------------------------------------------------------------


def logged_in() -> bool:
    """Whether this browser session logged in to the console with the PIN, since the last
    logout and since the table started (the cookie is signed, but only the server knows
    whether the sessions it names have been ended)."""
    return ctx().referee_sessions.holds(session.get("referee"))


def csrf_token() -> str:
    """This session's CSRF token (made on first use)."""
    if "csrf" not in session:
        session["csrf"] = new_csrf_token()
    token: str = session["csrf"]
    return token


def csrf_ok() -> bool:
    """Whether the form's CSRF token matches this session's."""
    return bool(session.get("csrf")) and same_secret(request.form.get("csrf"),
                                                     session.get("csrf", ""))


def expired_form() -> Any:
    """The 400 page for a form without this session's CSRF token."""
    return error_page(400, "This form has expired or did not come from the referee console; "
                           "reload the console and try again.")


def referee_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """A console view: answer 401 with the login sentence unless logged in with the PIN."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not logged_in():
            return error_page(401, "Log in to the referee console with the PIN first.")
        return view(*args, **kwargs)

    return wrapped


def csrf_protected(view: Callable[..., Any]) -> Callable[..., Any]:
    """A console form: answer 400 unless it carries this session's CSRF token."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not csrf_ok():
            return expired_form()
        return view(*args, **kwargs)

    return wrapped
