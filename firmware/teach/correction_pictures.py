"""The referee's dice corrections as known throws: the camera's picture and the right values.

Why: every misread throw the referee corrects is a picture of this table's dice whose values
are now known, exactly what the table's adaptation learns from (:mod:`vision.calibrate.adapt`). So a
``fix-dice`` of a throw the camera read, and the dice the referee enters for a throw that needs
a look, keep that read's picture of the seat's zone in the log (:mod:`firmware.camera.seat_reads`,
:meth:`firmware.gamelog.log.GameLog.append`), and ``bidou-table calibrate --from-log DB``
reads them back here. A throw corrected twice is known by its last correction; a picture that
cannot hold dice (the camera covered) is left out and named, since nobody can take it again.
"""

from __future__ import annotations

import os

import numpy as np

from firmware.gamelog.log import GameLog
from firmware.gamelog.rows import LoggedPicture
from vision.calibrate.adapt import Known
from vision.calibrate.known import KnownThrowsError, decode_picture


def known_from_log(db: str) -> list[Known]:
    """The corrections with a picture in the log ``db``, as known throws (newest correction
    of each throw only). :class:`KnownThrowsError` when there is no such log file."""
    if not os.path.exists(db):
        raise KnownThrowsError(f"there is no table log {db}: give the --db file of bidou-table "
                               "run (on a Pi, /var/lib/bidou-table/table.db)")
    log = GameLog(db, exclusive=False)  # the table may be running on it
    try:
        logged = log.pictures()
    finally:
        log.close()
    return from_pictures(logged, db)


def from_pictures(logged: list[LoggedPicture], db: str) -> list[Known]:
    """The log's pictures kept with corrections (oldest first) as known throws: the newest
    correction of each throw only (the console's tally counts them from the table's own
    log)."""
    latest: dict[tuple[int, str], LoggedPicture] = {}
    for item in logged:
        position = (f"action {item.text.split(' ', 1)[0]}" if item.kind == "fix-dice"
                    else f"entry {item.seq}")
        latest[(item.game, position)] = item  # oldest first: a later correction wins
    out = []
    for (game, position), item in sorted(latest.items()):
        name = f"game {game} {position} ({item.picture.seat}, {db})"
        out.append(Known(name, item.picture.seen,
                         lambda item=item, name=name: _picture(item, name), optional=True))
    return out


def _picture(item: LoggedPicture, name: str) -> np.ndarray:
    image = decode_picture(item.picture.image)
    if image is None:
        raise KnownThrowsError(f"the picture kept with {name} cannot be decoded")
    return image
