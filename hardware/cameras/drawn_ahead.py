"""The simulated camera's next frames' backdrops, drawn on a thread before their dice are thrown.

Why: a frame's surface and sensor noise (:func:`simulator.table_scenes.table_backdrop`) are
most of its drawing and need only its seed, which the camera knows before the dice. Drawn
here, a THROW waits for its dice to be drawn and not for the whole table. More than one is
kept ready: throws can follow each other faster than one backdrop is drawn beside the
presses, and a backdrop drawn while the table was idle is waiting when they do.

A thread draws the seeds wanted, lowest first, and ends when none is missing; another is
started when more are wanted. Nothing here decides a pixel: a frame whose backdrop is not
ready (or failed) draws its own, the same pixels.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from simulator.light import Backdrop


class DrawnAhead:
    """Backdrops by seed: :meth:`want` names the next ones, :meth:`take` hands one out."""

    def __init__(self, draw: Callable[[int], Backdrop], depth: int) -> None:
        self._draw = draw
        self._depth = depth
        self._cond = threading.Condition()
        self._wanted = range(0)
        self._ready: dict[int, Backdrop | None] = {}
        self._drawing: int | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    def want(self, first: int) -> None:
        """Have the backdrops of seeds ``first`` to ``first + depth - 1`` drawn (the next
        throws'); the ones of other seeds are let go."""
        with self._cond:
            if self._closed:
                return
            self._wanted = range(first, first + self._depth)
            for seed in [s for s in self._ready if s not in self._wanted]:
                del self._ready[seed]
            if self._thread is None and self._missing() is not None:
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="simulated-camera-ahead")
                self._thread.start()

    def take(self, seed: int) -> Backdrop | None:
        """The backdrop of ``seed``, waiting for it if it is being drawn; None when it was not
        drawn ahead (the frame draws its own). It is drawn for one frame: ``seed`` and the
        ones before it are wanted no more."""
        with self._cond:
            while self._drawing == seed:
                self._cond.wait()
            self._wanted = range(seed + 1, max(seed + 1, self._wanted.stop))
            return self._ready.pop(seed, None)

    def close(self) -> None:
        """Draw no more, and wait for the one being drawn: nothing runs once the camera is
        closed."""
        with self._cond:
            self._closed = True
            self._ready.clear()
            while self._thread is not None:
                self._cond.wait()

    def _missing(self) -> int | None:
        return next((s for s in self._wanted if s not in self._ready and s != self._drawing),
                    None)

    def _run(self) -> None:
        while True:
            with self._cond:
                seed = None if self._closed else self._missing()
                if seed is None:
                    self._thread = None
                    self._cond.notify_all()
                    return
                self._drawing = seed
            drawn: Backdrop | None = None
            with contextlib.suppress(Exception):  # the frame draws its own, and says what fails
                drawn = self._draw(seed)
            with self._cond:
                self._drawing = None
                if seed in self._wanted and not self._closed:
                    self._ready[seed] = drawn
                self._cond.notify_all()
