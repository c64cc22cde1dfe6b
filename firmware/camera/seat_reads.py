"""Reading a seat's dice for the controller: the camera read, values pending, and the flags.

A THROW (or a captain roll) is read from the camera when it is played. When the dice cannot be
read surely the throw still counts, with its values pending (docs/rules/pending.md, D-S1):
the seat is on the referee's list of values pending, with why, until it throws again or the
values are settled at exposure; when a throw shows the same dice in the same places as the
seat's last one, the referee gets a flag (possibly not thrown). This module keeps that
per-seat memory; the controller decides what is played.

It also keeps the camera's picture of each seat's zone from its last read, and of the last
throw or roll the camera read and was played (with its position in the game), so that the
referee's dice correction of it -- entering the dice of a throw with values pending, or a
``fix-dice`` of a throw read wrong -- is logged with the picture it corrects
(:meth:`picture_for_entry`, :meth:`picture_for_fix`): known throws the table learns its dice
from (``bidou-table calibrate --from-log``).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from engine.actions import Action, dice_count
from firmware.camera.throws import DiceWatcher, SeatRead, same_dice_same_places
from firmware.gamelog.rows import Picture
from firmware.table.publishing import MAX_EVENTS
from firmware.words.phrases import N_, Phrase


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
        #: seat -> why its dice could not be read surely (its values are pending, for the
        #: referee only); seat -> what was read ("throw", "roll")
        self.needs_look: dict[str, str] = {}
        self.pending: dict[str, str] = {}
        self.last: dict[str, SeatRead] = {}
        self.last_throw: dict[str, SeatRead] = {}
        self.flags: list[Phrase] = []  # for the referee, in the console's language
        #: per kind of flag (its sentence's msgid, in the order each first came): the latest
        #: of its kind and how many came this game, however many the list above still keeps
        self.flag_kinds: dict[str, tuple[Phrase, int]] = {}
        #: seat -> its zone in the frame of its last read; seat -> (position, that picture)
        #: of its last throw or roll the camera read and was played
        self.frames: dict[str, np.ndarray] = {}
        self.played_frames: dict[str, tuple[int, np.ndarray]] = {}

    def forget_waiting(self) -> None:
        """A correction changed the game: nothing waits for a look, no throw to compare."""
        self.needs_look.clear()
        self.pending.clear()
        self.last_throw.clear()

    def read(self, seat: str, kind: str, *, again: bool, throw_number: int,
             exposed: bool = False) -> SeatRead:
        """Read ``seat``'s ``kind`` ("throw" or "roll"); remember it, and why if it failed.

        ``throw_number`` is the throw this would be (for the flag's sentence); ``exposed``:
        the dice of a played throw read again at exposure (not a new throw: no flag).
        """
        if self.before_read is not None:
            self.before_read(seat, kind, again)
        if self.watcher is None:
            read = SeatRead(seat, None, "there is no camera")
        else:
            read = self.watcher.read_seat(seat, dice_count(kind))
            crop = self.watcher.zone_crop(seat)
            if crop is None:
                self.frames.pop(seat, None)
            else:
                self.frames[seat] = crop
        self.last[seat] = read
        if read.values is None:
            self.needs_look[seat] = read.reason or "the dice could not be read"
            self.pending[seat] = kind
        elif (kind == "throw" and not exposed
              and same_dice_same_places(self.last_throw.get(seat), read)):
            self.flag(N_("%(p)s's throw %(n)s shows the same dice in the same places as the "
                         "throw before: possibly not thrown.", p=seat, n=throw_number))
        return read

    def flag(self, sentence: Phrase) -> None:
        """Tell the referee ``sentence`` (the latest MAX_EVENTS flags are kept, and every
        kind's count)."""
        self.flags.append(sentence)
        del self.flags[:-MAX_EVENTS]
        _, count = self.flag_kinds.get(sentence.msgid, (sentence, 0))
        self.flag_kinds[sentence.msgid] = (sentence, count + 1)

    def played(self, seat: str, kind: str, read: SeatRead | None = None,
               position: int | None = None) -> None:
        """``seat``'s action was played: nothing waits for it; a throw's read is kept to
        compare with the next one. With the camera's ``read`` and the action's ``position``,
        the read's picture is kept for a correction of it; without, the seat's is dropped
        (the action played was not the camera's). A stand, a bet or a settle leaves the seat's
        last throw, and its picture, as they are."""
        if kind not in ("throw", "roll"):
            if kind == "settle":
                self.needs_look.pop(seat, None)
                self.pending.pop(seat, None)
            return
        self.needs_look.pop(seat, None)
        self.pending.pop(seat, None)
        if kind == "throw" and read is not None:
            self.last_throw[seat] = read
        if read is None or position is None or seat not in self.frames:
            self.played_frames.pop(seat, None)
        else:
            self.played_frames[seat] = (position, self.frames[seat])

    def counted_pending(self, seat: str, kind: str, read: SeatRead,
                        position: int | None = None) -> None:
        """``seat``'s throw (or roll) was played with its values pending (at ``position``):
        it stays on the referee's list, with why, and its picture is kept for the values the
        referee or the players give it."""
        self.needs_look[seat] = read.reason or "the dice could not be read"
        self.pending[seat] = kind
        self.last[seat] = read
        if position is not None and seat in self.frames:
            self.played_frames[seat] = (position, self.frames[seat])

    def picture_for_correction(self, kind: str, text: str) -> Picture | None:
        """The picture to log with a correction whose log text is ``text``: for a
        ``fix-dice`` (``POSITION ACTION``) the camera's picture of the throw it fixes, if the
        camera read it. Any other correction renumbers what follows (an undo, a void-hand):
        no kept picture stands for a position any more."""
        if kind != "fix-dice":
            self.played_frames.clear()
            return None
        position, fixed = text.split(" ", 1)
        action = Action.parse(fixed)
        return self.picture_for_fix(int(position), action.player, action.numbers)

    def picture_for_entry(self, seat: str, values: tuple[int, ...]) -> Picture | None:
        """The picture of ``seat``'s read that was not sure, for the dice the referee enters."""
        if seat not in self.needs_look or seat not in self.frames:
            return None
        return self._picture(seat, self.frames[seat], values)

    def picture_for_fix(self, position: int, seat: str,
                        values: tuple[int, ...]) -> Picture | None:
        """The picture of the camera's read played at ``position`` by ``seat``, for a
        ``fix-dice`` giving it ``values``; None when that action was not the camera's."""
        kept = self.played_frames.get(seat)
        if kept is None or kept[0] != position:
            return None
        return self._picture(seat, kept[1], values)

    def _picture(self, seat: str, crop: np.ndarray, values: tuple[int, ...]) -> Picture | None:
        bottom = bool(self.watcher is not None and self.watcher.bottom_faces)
        return zone_picture(seat, crop, values, bottom_faces=bottom)


def zone_picture(seat: str, crop: np.ndarray, values: tuple[int, ...], *,
                 bottom_faces: bool = False) -> Picture | None:
    """A seat zone's crop as the log keeps it (PNG), with the values the camera sees there:
    the corrected ``values``, or 7 - v under a glass table (the camera sees the bottoms).
    None when the crop cannot be encoded (the correction is still logged, without it)."""
    try:
        ok, png = cv2.imencode(".png", crop)
    except cv2.error:
        return None
    if not ok:
        return None
    seen = tuple(7 - v for v in values) if bottom_faces else tuple(values)
    return Picture(seat, seen, bytes(png))
