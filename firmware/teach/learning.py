""""Learn these dice": the table's calibration run in the background, one at a time.

Why a process of its own: the calibration reads every known picture with two readers and fits
(minutes of full CPU with the network's training), and the table must keep answering its
players and its screens meanwhile. In a thread it would share the interpreter with the
dashboard and the controller; in a child process (a fresh interpreter, at a lower
priority) it shares only the cores. The child runs the very function the command runs
(:func:`firmware.teach.calibrate_reader.calibrate`, mode ``"hold"``: it saves nothing) and sends its
progress and its result back through a pipe; the referee then keeps it or not
(:mod:`firmware.teach.reader_keeping`). A table killed meanwhile loses only the calibration in hand:
nothing is written until "Keep", and the child dies with the table (``PR_SET_PDEATHSIG``, and
the pipe it writes to closes).

At most one runs at a time; a second request gets a sentence (:meth:`Learning.start`). Who
started it is kept (``by``: the referee's Learn, or the table teaching itself when idle,
:mod:`firmware.teach.self_teaching`, which decides by itself through ``finished``).

The calibration's stages are English words (:mod:`vision.calibrate`'s, and
:mod:`firmware.teach.calibrate_reader`'s); :data:`STAGES` marks them for the catalogues, and
:func:`stage_parts` splits "fold 2 of 3: ..." so that the page says each part in its language.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import pathlib
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from firmware.teach.calibrate_reader import Calibration, Request, calibrate
from firmware.words.phrases import N_
from vision.calibrate import folds

#: how much lower than the table the child runs (nice)
NICENESS = 10
#: how often, at most, a change of progress is told to the page (seconds)
TELL_EVERY = 0.25
PR_SET_PDEATHSIG = 1
#: the folder the package is in: the child imports it from there, as the table did
ROOT = pathlib.Path(__file__).resolve().parents[2]
#: who started a calibration
REFEREE, TABLE = "referee", "table"
#: the stages the teaching of the table's own network says (vision.calibrate's words), for the
#: catalogues: the page says them in its language
STAGES = (N_("reading the known throws as the table reads now"),
          N_("fitting the head to the table's dice"),
          N_("teaching the network the table's dice"),
          N_("teaching the finder where the table's dice lie"))
FOLD = re.compile(r"^fold (\d+) of (\d+): (.+)$")
FINAL = "the table's network: "

#: told when a calibration has ended (its outcome, or None and the sentence saying why);
#: returns whether the outcome is held for the referee's Keep
Finished = Callable[[Calibration | None, str | None], bool]


def learn_extra_here() -> bool:
    """Whether the learn extra (PyTorch, onnx, onnx2torch) is installed for this interpreter,
    the one the calibration's process runs: looked up, not imported (PyTorch would cost the
    table hundreds of megabytes for nothing)."""
    return all(importlib.util.find_spec(name) is not None
               for name in ("torch", "onnx", "onnx2torch"))


def stage_parts(stage: str) -> dict[str, Any]:
    """A stage as the page says it: the stage's own words, and the fold it is in (``fold``
    of ``folds``) or ``final`` (the network taught once more on every known throw)."""
    found = FOLD.match(stage)
    if found is not None:
        return {"stage": found.group(3), "fold": int(found.group(1)),
                "folds": int(found.group(2)), "final": False}
    if stage.startswith(FINAL):
        return {"stage": stage[len(FINAL):], "fold": None, "folds": None, "final": True}
    return {"stage": stage, "fold": None, "folds": None, "final": False}


@dataclass
class Progress:
    """Where the calibration is: what the page's progress bar shows."""

    running: bool = False
    stage: str = ""
    step: int = 0
    steps: int = 0
    started: float = 0.0
    stage_started: float = 0.0
    finished: float = 0.0
    lines: list[str] = field(default_factory=list)
    by: str = REFEREE

    def to_json(self, now: float) -> dict[str, Any]:
        """The figures the page shows: stage, step of steps, seconds so far and left."""
        end = self.finished if not self.running and self.finished else now
        elapsed = max(0.0, end - self.started) if self.started else 0.0
        left = None
        if self.running and self.steps and self.step:
            in_stage = now - self.stage_started
            left = round(in_stage / self.step * (self.steps - self.step), 1)
        return {"running": self.running, **stage_parts(self.stage), "step": self.step,
                "steps": self.steps, "elapsed": round(elapsed, 1), "left": left, "by": self.by}


class Learning:
    """The table's one background calibration (module docstring). ``changed()`` is called
    (from the watching thread) when the progress or the outcome changes."""

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self.changed = changed
        self._lock = threading.Lock()
        self.progress = Progress()
        self.outcome: Calibration | None = None
        self.failure: str | None = None
        self._process: Any = None

    @property
    def running(self) -> bool:
        with self._lock:
            return self.progress.running

    def start(self, request: Request, *, by: str = REFEREE,
              finished: Finished | None = None) -> str | None:
        """Start calibrating on ``request`` in the background; None, or the sentence saying
        why not (one is already running). ``finished`` is told the outcome at the end (from
        the watching thread)."""
        with self._lock:
            if self.progress.running:
                return ("The table is already learning its dice; wait until it has finished "
                        "(the progress bar shows how long is left), then try again.")
            now = time.monotonic()
            self.progress = Progress(True, "starting", 0, 1, now, now, by=by)
            _forget(self.outcome)
            self.outcome, self.failure = None, None
        threading.Thread(target=self._run, args=(request, finished), name="learn-dice",
                         daemon=True).start()
        self.changed()
        return None

    @property
    def by(self) -> str:
        """Who started the calibration running or last run."""
        with self._lock:
            return self.progress.by

    def _run(self, request: Request, finished: Finished | None = None) -> None:
        outcome: Calibration | None = None
        failure: str | None = None
        receive = None
        try:
            process, receive = _spawn(request)
            self._process = process
            told = 0.0
            while True:
                try:
                    message = receive.recv()
                except (EOFError, OSError):
                    break
                kind = message[0]
                if kind == "progress":
                    _, stage, step, steps = message
                    with self._lock:
                        p = self.progress
                        if stage != p.stage:
                            p.stage_started = time.monotonic()
                        p.stage, p.step, p.steps = stage, step, steps
                    if time.monotonic() - told >= TELL_EVERY or step == steps:
                        told = time.monotonic()
                        self.changed()
                elif kind == "say":
                    with self._lock:
                        self.progress.lines.append(message[1])
                elif kind == "done":
                    outcome = message[1]
            code = process.wait(timeout=30)
            if outcome is None:
                failure = (f"The calibration stopped before its end (its process ended with "
                           f"code {code}); the table reads as before. Try again, and if it "
                           "stops again, run bidou-table calibrate on the table's known "
                           "throws to see why.")
        except Exception as exc:  # a failure to start or follow the process: said, not raised
            failure = f"The calibration could not be run ({exc}); the table reads as before."
        finally:
            if receive is not None:
                receive.close()
        # told before the end is: whoever waits for the end sees what it decided
        if finished is not None:
            try:
                held = finished(outcome, failure)
            except Exception as exc:  # said on the page; the calibration still ends
                failure, held = f"The calibration's outcome could not be used ({exc}).", False
            if not held:
                _forget(outcome)  # decided already: nothing is held for Keep
                outcome = None
        with self._lock:
            self.outcome, self.failure = outcome, failure
            self.progress.running = False
            self.progress.finished = time.monotonic()
            if outcome is not None and outcome.error is None:
                self.progress.stage, self.progress.step = "done", self.progress.steps
        self.changed()

    def wait(self, timeout: float) -> bool:
        """Wait until no calibration runs; False when one still does after ``timeout``."""
        deadline = time.monotonic() + timeout
        while self.running:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def stop(self) -> None:
        """End a calibration in hand (the table stops), and remove the taught files of an
        outcome not kept."""
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=5)
        self.drop()

    def drop(self) -> None:
        """Forget the outcome (kept, or the referee went back); its taught files, unless
        keeping it moved them beside the config, are removed."""
        with self._lock:
            _forget(self.outcome)
            self.outcome = None


def _forget(outcome: Calibration | None) -> None:
    """Remove an outcome's taught network, held in a temporary folder until it is kept
    (:func:`vision.calibrate.folds.discard`; nothing once kept)."""
    if outcome is not None and isinstance(outcome.result, folds.Teaching):
        folds.discard(outcome.result)


def _spawn(request: Request) -> tuple[subprocess.Popen[bytes], Connection]:
    """The child process (``python -m firmware.teach.learning``), given ``request`` on its stdin,
    and the pipe its messages come back through. A fresh interpreter rather than
    ``multiprocessing``: nothing of the table's process (its threads, its main module) is
    carried over or run again."""
    read_end, write_end = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "firmware.teach.learning", str(write_end)],
            stdin=subprocess.PIPE, pass_fds=(write_end,), cwd=ROOT)
    except OSError:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    assert process.stdin is not None
    process.stdin.write(pickle.dumps(request))
    process.stdin.close()
    return process, Connection(read_end, writable=False)


def child(request: Request, pipe: Connection) -> None:
    """The calibration's own process: lower priority, dies with the table, tells the pipe."""
    done = calibrate(request,
                     say=lambda line: pipe.send(("say", line)),
                     progress=lambda stage, step, steps: pipe.send(("progress", stage, step,
                                                                    steps)))
    pipe.send(("done", done))
    pipe.close()


def main(argv: list[str]) -> int:
    """``python -m firmware.teach.learning FD``: the request on stdin, messages on pipe ``FD``."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the table died before the line above
        return 1
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    request = pickle.loads(sys.stdin.buffer.read())  # from the table itself, never a client
    child(request, Connection(int(argv[0]), readable=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
