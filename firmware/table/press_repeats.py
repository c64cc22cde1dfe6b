"""A press repeated within a moment is the same press: it gets the first one's outcome.

A double tap on a phone sent two presses; the second was refused ("It is Bob's turn...")
and the refusal was shown to the whole pub. Now a press may carry an id: the seat page gives
the same id to taps of one button in quick succession while it still says the same thing
(``static/seat.js``). The controller answers a repeat of an id it has seen in the last
:data:`WINDOW` seconds with the outcome it gave, and does nothing else: nothing is played,
refused, published or lit. An id is optional (``None``: always a new press), so old clients
and scripts behave as before. A panel press has none: its contacts are debounced by
``hardware.panel``, and two short BET presses in a row are two chips offered, not one.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from firmware.table.commands import Outcome

#: How long an id's outcome is kept (a repeat arrives within a second; ids are not reused).
WINDOW = 10.0
#: The most ids kept at once (each a few dozen bytes; a flood of ids pushes out the oldest).
MOST = 256


class Repeats:
    """The outcomes of recent presses by (seat, id), for :data:`WINDOW` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seen: OrderedDict[tuple[str, str], tuple[float, Outcome]] = OrderedDict()

    def outcome(self, seat: str, press_id: str | None) -> Outcome | None:
        """The outcome already given to this press, or None for a new press."""
        if press_id is None:
            return None
        self._forget_old()
        kept = self._seen.get((seat, press_id))
        return kept[1] if kept else None

    def remember(self, seat: str, press_id: str | None, outcome: Outcome) -> None:
        if press_id is None or outcome.busy:  # a press the table did not take may come again
            return
        self._seen[(seat, press_id)] = (self.clock(), outcome)
        while len(self._seen) > MOST:
            self._seen.popitem(last=False)

    def _forget_old(self) -> None:
        now = self.clock()
        while self._seen:
            at, _ = next(iter(self._seen.values()))
            if now - at <= WINDOW:
                break
            self._seen.popitem(last=False)
