"""Reading a seat's dice for the controller: the camera read, "needs a look", and the flags.

A THROW (or a captain roll) is read from the camera before it is played. When the dice cannot
be read the seat "needs a look" until it is read again or the referee enters the dice; when a
throw shows the same dice in the same places as the seat's last one, the referee gets a flag
(possibly not thrown). This module keeps that per-seat memory; the controller decides what is
played.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import dice_count
from firmware.publishing import MAX_EVENTS
from firmware.throws import DiceWatcher, SeatRead, same_dice_same_places


class SeatReads:
    """The reads of every seat: the last one, the ones waiting for a look, the flags.

    ``watcher`` reads the camera (None: no camera, every throw needs the referee);
    ``before_read(seat, kind, again)`` runs first (the simulation throws its dice there).
    """

    def __init__(self, watcher: DiceWatcher | None,
                 before_read: Callable[[str, str, bool], None] | None = None) -> None:
        self.watcher = watcher
        self.before_read = before_read
        self.reset()

    @property
    def seats(self) -> list[str] | None:
        """The seats the camera has a zone for, in their order; None without a camera."""
        return None if self.watcher is None else list(self.watcher.zones)

    def reset(self) -> None:
        """Forget everything (a game is loaded)."""
        #: seat -> why its dice could not be read; seat -> what was read ("throw", "roll")
        self.needs_look: dict[str, str] = {}
        self.pending: dict[str, str] = {}
        self.last: dict[str, SeatRead] = {}
        self.last_throw: dict[str, SeatRead] = {}
        self.flags: list[str] = []

    def forget_waiting(self) -> None:
        """A correction changed the game: nothing waits for a look, no throw to compare."""
        self.needs_look.clear()
        self.pending.clear()
        self.last_throw.clear()

    def read(self, seat: str, kind: str, *, again: bool, throw_number: int) -> SeatRead:
        """Read ``seat``'s ``kind`` ("throw" or "roll"); remember it, and why if it failed.

        ``throw_number`` is the throw this would be (for the flag's sentence).
        """
        if self.before_read is not None:
            self.before_read(seat, kind, again)
        if self.watcher is None:
            read = SeatRead(seat, None, "there is no camera")
        else:
            read = self.watcher.read_seat(seat, dice_count(kind))
        self.last[seat] = read
        if read.values is None:
            self.needs_look[seat] = read.reason or "the dice could not be read"
            self.pending[seat] = kind
        elif kind == "throw" and same_dice_same_places(self.last_throw.get(seat), read):
            self.flags.append(f"{seat}'s throw {throw_number} shows the same dice in the same "
                              "places as the throw before: possibly not thrown.")
            del self.flags[:-MAX_EVENTS]
        return read

    def played(self, seat: str, kind: str, read: SeatRead | None = None) -> None:
        """``seat``'s action was played: nothing waits for it; a throw's read is kept to
        compare with the next one."""
        self.needs_look.pop(seat, None)
        self.pending.pop(seat, None)
        if kind == "throw" and read is not None:
            self.last_throw[seat] = read
