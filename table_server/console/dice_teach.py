"""The referee console's "Dice" page: teach the table its dice (``/referee/dice``).

Everything here is the referee's: a known throw is a picture of a seat's dice, possibly in a
game being played, so every view is behind :func:`referee_required` (the PIN session; a seat
token, or the referee's API token alone, reaches none of it) and every form behind the CSRF
check; the pictures are sent with ``Cache-Control: no-store`` like the rest of ``/referee``.
The page asks :class:`firmware.teach.dice_teacher.DiceTeacher`; a refusal is one sentence, and
nothing is written before every die of a throw is decided.

The calibration's progress comes over Server-Sent Events of its own
(``/referee/dice/progress``, made by :mod:`table_server.streams.sse`) rather than the table's
``/api/events``: that stream is public, and what the table is learning is the referee's.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)

from firmware.teach.dice_teacher import DiceTeacher, TeachError
from firmware.teach.known_folder import NOT_A_DIE
from firmware.teach.learning import REFEREE, learn_extra_here
from firmware.teach.photo_upload import MAX_BYTES, PhotoError
from table_server.access.guards import csrf_protected, csrf_token, referee_required
from table_server.context import ctx, error_page
from table_server.words.i18n import gettext as _
from table_server.words.i18n import ngettext
from vision.calibrate import folds
from web import sse

bp = Blueprint("dice", __name__, url_prefix="/referee/dice")
#: the upload's address, whose body may be as large as a phone's photo (``table_server.app``)
UPLOAD_PATH = "/referee/dice/upload"
UPLOAD_BODY = MAX_BYTES + 64 * 1024
UPLOAD_TOO_LARGE = (f"That photo is larger than the {MAX_BYTES // (1024 * 1024)} MB the table "
                    "takes; send a smaller one (nothing was saved).")


class Changes:
    """Wakes the progress streams when the calibration moves (``DiceTeacher``'s ``changed``)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.version = 0

    def __call__(self) -> None:
        with self._cond:
            self.version += 1
            self._cond.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        with self._cond:
            self._cond.wait_for(lambda: self.version != seen, timeout)
            return self.version


def install(app: Any, teacher: DiceTeacher, changes: Changes) -> None:
    """Give the app its table's teacher (``bidou-table run`` and the tests)."""
    app.config["DICE_TEACHER"] = teacher
    app.config["DICE_CHANGES"] = changes


def teacher() -> DiceTeacher:
    found = current_app.config.get("DICE_TEACHER")
    if found is None:
        raise TeachError("This table cannot be taught from the console: it was built without "
                         "its teacher (bidou-table run builds it).")
    return found  # type: ignore[no-any-return]


def new_game_refusal(kind: object) -> str | None:
    """Why a new game is refused now (the referee's Learn is running), or None. Why refused
    and not queued: the first throws of a game are read by the reader the referee keeps, not
    by the one the calibration is about to replace; and play is answered meanwhile. The
    table's own teaching, when idle, refuses nothing: nobody waits to keep it."""
    found = current_app.config.get("DICE_TEACHER")
    if (kind == "new-game" and found is not None and found.learning.running
            and found.learning.by == REFEREE):
        return _("The table is learning its dice; a new game can start once it has finished "
                 "(the Dice page shows how long is left), and the game in hand plays on.")
    return None


def _refused(exc: Exception, status: int = 400) -> Any:
    return error_page(status, str(exc))


@bp.get("")
@referee_required
def page() -> Any:
    try:
        t = teacher()
    except TeachError as exc:
        return _refused(exc, 404)
    tally = t.tally()
    return render_template("dice_teach.html", csrf=csrf_token(), tally=tally,
                           needs=tally.needs(), seats=list(t.watcher.zones) if t.watcher else [],
                           throws=t.folder.throws() if t.folder else [],
                           folder=t.folder.path.name if t.folder else None,
                           status=status_of(t), upload_mb=MAX_BYTES // (1024 * 1024),
                           learn_extra=learn_extra_here(), teachings=teachings_of(t))


@bp.post("/take")
@referee_required
@csrf_protected
def take() -> Any:
    try:
        draft = teacher().take(request.form.get("seat", ""))
    except TeachError as exc:
        return _refused(exc)
    return redirect(url_for("dice.draft", draft_id=draft.id), code=303)


@bp.post("/upload")
@referee_required
@csrf_protected
def upload() -> Any:
    photo = request.files.get("photo")
    try:
        draft = teacher().upload(photo.read(MAX_BYTES + 1) if photo is not None else b"")
    except (TeachError, PhotoError) as exc:
        return _refused(exc)
    return redirect(url_for("dice.draft", draft_id=draft.id), code=303)


@bp.get("/draft/<draft_id>")
@referee_required
def draft(draft_id: str) -> Any:
    found = teacher().draft(draft_id)
    if found is None:
        return _no_longer_held()
    height, width = found.image.shape[:2]
    return render_template("dice_draft.html", csrf=csrf_token(), draft=found, width=width,
                           height=height, places=json.dumps(found.places))


@bp.get("/draft/<draft_id>.jpg")
@referee_required
def draft_picture(draft_id: str) -> Any:
    found = teacher().draft(draft_id)
    if found is None:
        return _no_longer_held()
    return Response(found.jpeg(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _no_longer_held() -> Any:
    return error_page(404, "That throw is no longer held (the table keeps the last few, until "
                           "it stops); take it again.")


@bp.post("/save")
@referee_required
@csrf_protected
def save() -> Any:
    try:
        places = json.loads(request.form.get("places", ""))
    except ValueError:
        return error_page(400, _("The dice did not come with the form; reload the page and "
                                 "try again (nothing was saved)."))
    try:
        teacher().save(request.form.get("draft", ""), places)
    except TeachError as exc:
        found = teacher().draft(request.form.get("draft", ""))
        if found is None:
            return _refused(exc)
        # the same throw again, the dice as they were sent, the sentence beside Save
        height, width = found.image.shape[:2]
        sent = isinstance(places, list) and all(isinstance(p, dict) for p in places)
        return render_template("dice_draft.html", csrf=csrf_token(), draft=found, width=width,
                               height=height, places=json.dumps(places if sent else found.places),
                               error=str(exc)), 400
    values = sorted(p["value"] for p in places if p["value"] != NOT_A_DIE)
    flash(ngettext("Known throw saved: %(num)s die (%(values)s).",
                   "Known throw saved: %(num)s dice (%(values)s).", len(values),
                   values=" ".join(map(str, values)) or _("none")), "ok")
    return redirect(url_for("dice.page"), code=303)


#: A known throw's name as the folder writes it: its moment (UTC), then the seat it was taken
#: at ("photo" for a phone's photo), then a count when two share the second.
_KNOWN_NAME = re.compile(r"^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-([A-Za-z0-9]+?)(?:-\d+)?$")


@bp.app_template_global()
def known_taken(name: str) -> dict[str, str] | None:
    """Where and when a known throw was taken, read from its name ("20261206-051706-Ann": at
    Ann's seat, 05:17:06 UTC), for the pages to say instead of a file's name; None for a name
    the folder did not write so."""
    found = _KNOWN_NAME.match(name)
    if found is None:
        return None
    y, mo, d, h, mi, sec, seat = found.groups()
    return {"seat": seat, "at": f"{y}-{mo}-{d}T{h}:{mi}:{sec}+00:00"}


@bp.get("/known/<name>")
@referee_required
def known(name: str) -> Any:
    t = teacher()
    found = t.folder.throw(name) if t.folder else None
    if found is None:
        return error_page(404, _("There is no known throw “%(name)s”.", name=name))
    return render_template("dice_known.html", csrf=csrf_token(), throw=found,
                           places=json.dumps([m.to_json() for m in found.marked]))


@bp.get("/known/<name>.jpg")
@referee_required
def known_picture(name: str) -> Any:
    t = teacher()
    data = t.folder.picture(name) if t.folder else None
    if data is None:
        return error_page(404, _("There is no known throw “%(name)s”.", name=name))
    kind = "image/png" if data[:4] == b"\x89PNG" else "image/jpeg"
    return Response(data, mimetype=kind, headers={"Cache-Control": "no-store"})


@bp.post("/known/<name>/delete")
@referee_required
@csrf_protected
def delete(name: str) -> Any:
    t = teacher()
    if t.folder is None or not t.folder.delete(name):
        return error_page(404, _("There is no known throw “%(name)s”; nothing was deleted.",
                                 name=name))
    taken = known_taken(name)
    if taken is None:
        flash(_("Deleted the known throw %(name)s.", name=name), "ok")
    elif taken["seat"] == "photo":
        flash(_("Deleted a known throw from a photo."), "ok")
    else:
        flash(_("Deleted %(seat)s's known throw.", seat=taken["seat"]), "ok")
    return redirect(url_for("dice.page"), code=303)


@bp.post("/learn")
@referee_required
@csrf_protected
def learn() -> Any:
    try:
        refusal = teacher().learn()
    except TeachError as exc:
        refusal = str(exc)
    if refusal is not None:
        return error_page(409, refusal)
    flash(_("Learning these dice: the table plays on meanwhile."), "ok")
    return redirect(url_for("dice.page"), code=303)


@bp.post("/keep")
@referee_required
@csrf_protected
def keep() -> Any:
    return _reader_change(lambda t: t.keep())


@bp.post("/go-back")
@referee_required
@csrf_protected
def go_back() -> Any:
    return _reader_change(lambda t: t.go_back())


def _reader_change(change: Callable[[DiceTeacher], str]) -> Any:
    """Keep, or go back: its sentence on the page, or the refusal's (409)."""
    try:
        flash(change(teacher()), "ok")
    except TeachError as exc:
        return _refused(exc, 409)
    return redirect(url_for("dice.page"), code=303)


@bp.get("/status.json")
@referee_required
def status() -> Any:
    return status_of(teacher())


@bp.get("/progress")
@referee_required
def progress() -> Any:
    """The calibration's progress as Server-Sent Events: its state now, then every change."""
    t = teacher()
    changes: Changes = current_app.config["DICE_CHANGES"]
    stopping = ctx().stopping
    keepalive = ctx().settings.keepalive

    def events() -> Iterator[str]:
        yield sse.RETRY
        seen, said = -1, time.monotonic()
        while not stopping.is_set():  # looked at every second: a stopping table ends it
            if changes.version != seen or t.learning.running:  # its seconds move on their own
                seen, said = changes.version, time.monotonic()
                yield sse.message(status_of(t), "progress")
            elif time.monotonic() - said >= keepalive:
                said = time.monotonic()
                yield sse.KEEP_ALIVE
            changes.wait(seen, 1.0)

    return sse.response(stream_with_context(events()))


def teachings_of(t: DiceTeacher) -> list[dict[str, Any]]:
    """The table's teachings, newest first, as the page's list shows them (its script
    redraws the list when one ends)."""
    rows = []
    for item in reversed(t.teachings.all() if t.teachings else []):
        rows.append({"at": item.at[:16].replace("T", " "), "by": item.by, "dice": item.dice,
                     "new_dice": item.new_dice, "kept": item.kept, "why": item.why,
                     "before": _right_wrong(item.before), "after": _right_wrong(item.after)})
    return rows


def _right_wrong(figures: dict[str, Any] | None) -> str:
    """Held-out figures as "right / wrong" (dice read where none lay count as wrong)."""
    if figures is None:
        return "–"
    return f"{figures['right']} / {figures['wrong'] + figures['extra']}"


def status_of(t: DiceTeacher) -> dict[str, Any]:
    """The calibration as the page shows it: its progress, and its outcome once finished."""
    learning = t.learning
    reader = t.reader_now()
    out: dict[str, Any] = {"progress": learning.progress.to_json(time.monotonic()),
                           "failure": learning.failure, "outcome": None,
                           "reader": str(reader), "reader_said": reader.to_json(),
                           "previous": bool(t.files is not None and t.files.has_previous()),
                           # the list, once no calibration runs (not each second of one)
                           "teachings": None if learning.running else teachings_of(t)}
    done = learning.outcome
    if done is not None:
        result, choice = done.result, done.choice
        out["outcome"] = {
            "error": done.error, "changes": done.changes,
            "lines": learning.progress.lines,
            "before": result.before.figures() if result else None,
            "after": result.after.figures() if result else None,
            "head_kept": bool(result and result.kept),
            "network": isinstance(result, folds.Teaching),
            "reader": choice.chosen if choice else None,
            "reader_changed": bool(choice and choice.changed),
            "rules": choice.rules.figures() if choice else None,
            "learned": choice.learned.figures() if choice else None,
        }
    return out
