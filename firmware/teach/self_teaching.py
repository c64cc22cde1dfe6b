"""The table keeps learning: when idle, it teaches itself again from the dice settled in play.

Every die the players or the referee settle or correct in play is kept with the camera's
picture in the log (:mod:`firmware.teach.correction_pictures`): each is a known die of this
table, on this cloth, under this light. So when the table is idle (no game action for
:data:`~firmware.settings.learning_settings.IDLE_SECONDS`, or at the time of day ``[learning]
when`` names) and at least :data:`NEW_DICE` known dice have come since its last teaching, it
runs the Dice page's calibration on every known die (:mod:`firmware.teach.learning`: a child
process at a lower priority) and keeps the result only by :mod:`firmware.teach.keep_rule`.
Each teaching is recorded (:mod:`firmware.teach.teachings`) and listed on the Dice page.

Why an observer beside the controller rather than a hook inside it: idleness is read from
the log (its count of entries; every game action is one), so the controller is not touched
and a game action never waits on anything here. A look is cheap (one count); the known dice
are counted only once the table is idle, and again only once a game action or a known throw
from the Dice page has come since. The calibration
runs in its own process, so play goes on meanwhile, and a new game is not refused for it
(unlike the referee's Learn: :func:`table_server.console.dice_teach.new_game_refusal`).

``clock`` (seconds, monotonic) and ``now`` (the wall clock) are given, so the tests drive
idleness and the time of day without sleeping; :meth:`SelfTeaching.look` is one look, which
the thread repeats every :data:`POLL` seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

from firmware.settings.learning_settings import IDLE, IDLE_SECONDS, LearningSettings
from firmware.teach.calibrate_reader import Calibration
from firmware.teach.dice_teacher import DiceTeacher, TeachError
from firmware.teach.keep_rule import Verdict, judge_calibration
from firmware.teach.learning import TABLE
from firmware.teach.teachings import Teaching
from firmware.words.phrases import N_
from vision.calibrate import folds

#: known dice that must have come since the last teaching before the table teaches itself again
NEW_DICE = 30
#: seconds between looks at the log
POLL = 15.0
#: how long after the configured time of day a teaching may still start (seconds)
AT_WINDOW = 3600


class SelfTeaching:
    """The table's own teaching (module docstring), over the Dice page's ``teacher``."""

    def __init__(self, teacher: DiceTeacher, settings: LearningSettings, *,
                 clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now().astimezone(),
                 note: Callable[[str], None] = print) -> None:
        self.teacher = teacher
        self.settings = settings
        self.clock = clock
        self.now = now
        self.note = note
        self._entries = teacher.log.count_entries()  # the table's start counts as activity
        self._active_at = clock()
        #: the log's entries and the known throws in the folder when the dice were last counted
        self._checked: tuple[int, int] | None = None
        self._tried_day = ""  # the day the configured time of day was last acted on
        self._pending: tuple[int, int] | None = None  # (dice, new dice) of the teaching running
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- looking ------------------------------------------------------------------------
    def look(self) -> str:
        """One look: note a game action, and start a teaching when one is due. What it found,
        in a word: ``"off"``, ``"busy"``, ``"playing"``, ``"waiting"`` (not the time yet, or
        nothing new since the last count), ``"few"`` (too few new dice), ``"teaching"``."""
        entries = self.teacher.log.count_entries()
        if entries != self._entries:
            self._entries, self._active_at = entries, self.clock()
        if not self.settings.on or self.teacher.files is None:
            return "off"
        learning = self.teacher.learning
        if learning.running or learning.outcome is not None:
            return "busy"  # a calibration runs, or the referee's awaits Keep
        if self.settings.when == IDLE:
            if self.clock() - self._active_at < IDLE_SECONDS:
                return "playing"
            seen = (entries, self._known_throws())
            if self._checked == seen:
                return "waiting"  # counted already, and no game or known throw came since
            self._checked = seen
        else:
            day = self._time_of_day_come()
            if day is None:
                return "waiting"
            self._tried_day = day
        return self._teach_if_enough()

    def _known_throws(self) -> int:
        """The known throws in the Dice page's folder (a listing, not a reading)."""
        folder = self.teacher.folder
        if folder is None or not folder.path.is_dir():
            return 0
        return sum(1 for _ in folder.path.glob("*.txt"))

    def _time_of_day_come(self) -> str | None:
        """Today's date when the configured time of day has come (within :data:`AT_WINDOW`)
        and was not acted on yet today, else None."""
        assert self.settings.at is not None
        now = self.now()
        hours, minutes = self.settings.at
        at = now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
        day = now.date().isoformat()
        if day == self._tried_day or not 0 <= (now - at).total_seconds() < AT_WINDOW:
            return None
        return day

    def new_dice(self) -> tuple[int, int]:
        """The known dice now, and how many came since the last teaching (any teaching)."""
        total = self.teacher.tally().total
        last = self.teacher.teachings.last() if self.teacher.teachings else None
        return total, max(0, total - (last.dice if last else 0))

    def _teach_if_enough(self) -> str:
        total, new = self.new_dice()
        if new < NEW_DICE:
            return "few"
        self._pending = (total, new)  # before the start: a teaching may end at once
        refusal = self.teacher.learn(by=TABLE, finished=self._finished)
        if refusal is not None:
            self._pending = None
            return "busy"
        self.note(f"{new} known dice came since the table's last teaching: it teaches itself "
                  f"again on {total} known dice, in the background.")
        return "teaching"

    # --- deciding -----------------------------------------------------------------------
    def _finished(self, outcome: Calibration | None, failure: str | None) -> bool:
        """The teaching ended: keep it by the keep rule and record it; nothing is held for
        the referee's Keep (False)."""
        dice, new = self._pending or (0, 0)
        self._pending = None
        verdict = (judge_calibration(outcome) if outcome is not None else
                   Verdict(False, N_("not kept: the calibration stopped (%(error)s)",
                                     error=failure or "")))
        if verdict.kept and outcome is not None:
            try:
                self.teacher.keep_outcome(outcome)
            except TeachError as exc:
                verdict = Verdict(False, N_("not kept: it could not be saved (%(error)s)",
                                            error=str(exc)))
        self._record(outcome, verdict, dice, new)
        return False

    def _record(self, outcome: Calibration | None, verdict: Verdict, dice: int,
                new: int) -> None:
        result = outcome.result if outcome is not None else None
        teaching = Teaching(
            at=self.now().astimezone(UTC).isoformat(timespec="seconds"),
            by=TABLE, dice=dice, new_dice=new, kept=verdict.kept, why=verdict.why.to_json(),
            before=result.before.figures() if result is not None else None,
            after=result.after.figures() if result is not None else None,
            seconds=round(result.seconds, 1) if result is not None else 0.0,
            network=isinstance(result, folds.Teaching))
        self.note(f"The table's own teaching on {dice} known dice: {verdict.why}.")
        self.teacher.record(teaching)

    # --- the thread ---------------------------------------------------------------------
    def start(self) -> None:
        """Look every :data:`POLL` seconds in a thread of its own, until :meth:`stop`."""
        self._thread = threading.Thread(target=self._run, name="self-teaching", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        said = ""
        while not self._stop.wait(POLL):
            try:
                self.look()
            except Exception as exc:  # a look that fails is said once, and tried again later
                if str(exc) != said:
                    said = str(exc)
                    self.note(f"The table could not look whether to teach itself: {exc}")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
