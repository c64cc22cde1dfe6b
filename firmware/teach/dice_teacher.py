"""Teaching the table its dice from the referee console: known throws, the tally, learning.

Why one object: the console's "Dice" page (``table_server/console/dice_teach.py``) needs the camera
(a known throw is a picture of one seat's zone, read with the table's reader now), the folder
of known throws beside the log (:mod:`firmware.teach.known_folder`), the referee's corrections in
the log (they are known throws too), the calibration in the background
(:mod:`firmware.teach.learning`) and the reader's files (:mod:`firmware.teach.reader_keeping`). This
is where they meet; the page only asks and shows.

A throw taken or uploaded is a *draft* in memory until the referee saves it: nothing reaches
the disk before every die on it is decided (a value 1-6, or "not a die"). Drafts are few
(:data:`MAX_DRAFTS`, the oldest forgotten) and die with the table.
"""

from __future__ import annotations

import itertools
import math
import pathlib
import random
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import cv2
import numpy as np

from engine.errors import CameraError, ConfigError, VisionError
from firmware.camera.throws import DiceWatcher
from firmware.gamelog.log import GameLog
from firmware.teach.calibrate_reader import Calibration, Request
from firmware.teach.correction_pictures import from_pictures
from firmware.teach.known_folder import FOLDER, KnownFolder, Marked, TallyOfDice
from firmware.teach.learning import REFEREE, Finished, Learning
from firmware.teach.photo_upload import checked_photo
from firmware.teach.reader_keeping import ReaderFiles
from firmware.teach.teachings import Teaching, Teachings, record_path
from firmware.words.phrases import N_, Phrase
from vision.calibrate import folds
from vision.reader import Reader, open_reader
from vision.reading import Reading
from vision.zones import Zone

#: drafts kept at once (a phone and a laptop each with a throw or two in hand)
MAX_DRAFTS = 8
#: a die's size when the referee adds one the reader missed, as a share of the short side
ADDED_SIZE = 0.2
DICE_PER_THROW = 3


class TeachError(ValueError):
    """A request the teacher refuses: one sentence saying what is wrong and what to do."""


@dataclass
class Draft:
    """A picture in hand: where it came from, the picture, and its places (None: undecided;
    ``sure``: the reader read it surely)."""

    id: str
    seat: str | None
    image: np.ndarray
    places: list[dict[str, Any]] = field(default_factory=list)

    def jpeg(self) -> bytes:
        ok, data = cv2.imencode(".jpg", self.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        return bytes(data) if ok else b""


class DiceTeacher:
    """The table's teaching (module docstring). ``throw(seat)``: the simulated table puts
    fresh dice in the seat's zone first (None on a real table: the referee throws them).
    ``drawn``: the table's camera is the simulated one, so a config naming no reader reads
    with the rule reader (:func:`vision.settings.default_reader`); by default, whether
    ``throw`` is given."""

    def __init__(self, log: GameLog, watcher: DiceWatcher | None, config: str | None, *,
                 throw: Callable[[str], None] | None = None,
                 changed: Callable[[], None] = lambda: None,
                 drawn: bool | None = None) -> None:
        self.log = log
        self.watcher = watcher
        self.throw = throw
        self.drawn = throw is not None if drawn is None else drawn
        where = pathlib.Path(log.path).resolve().parent if log.path != ":memory:" else None
        self.folder = KnownFolder(where / FOLDER) if where is not None else None
        # not NAME.toml: a config of that name beside the log must never be written over
        own = (where or pathlib.Path.cwd()) / f"{pathlib.Path(log.path).stem}-kept.toml"
        self.files = ReaderFiles(pathlib.Path(config) if config else None, own,
                                 drawn=self.drawn) if where is not None else None
        #: every teaching, the referee's and the table's own, beside the reader's config
        self.teachings = (Teachings(record_path(self.files.config))
                          if self.files is not None else None)
        self.learning = Learning(changed)
        self._drafts: dict[str, Draft] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    # --- drafts ----------------------------------------------------------------------
    def _folder(self) -> KnownFolder:
        if self.folder is None:
            raise TeachError("This table keeps its log in memory (no --db file), so it has no "
                             "folder for known throws; start it with --db FILE to teach it.")
        return self.folder

    def take(self, seat: str) -> Draft:
        """Photograph ``seat``'s zone once still, and read it with the table's reader now."""
        self._folder()
        watcher = self.watcher
        if watcher is None:
            raise TeachError("This table has no camera; upload a photo of the dice instead.")
        zone = watcher.zones.get(seat)
        if zone is None:
            raise TeachError(f"There is no camera zone for {seat!r}; the zones are "
                             f"{', '.join(watcher.zones) or 'none'} (Camera zones on the "
                             "console).")
        if self.throw is not None:
            self.throw(seat)
        try:
            frame = watcher.still_picture(seat)
        except CameraError as exc:
            raise TeachError(f"The camera gave no picture ({exc}); check it and try again.") \
                from None
        except TimeoutError as exc:
            raise TeachError(f"No still picture: {exc}; let the dice settle and try again.") \
                from None
        crop = frame[zone.y:zone.y + zone.h, zone.x:zone.x + zone.w].copy()
        return self._draft(seat, crop, self._read(frame, zone, watcher.reader), zone)

    def upload(self, data: bytes) -> Draft:
        """A photo from the phone (checked, :mod:`firmware.teach.photo_upload`), read whole."""
        self._folder()
        image = checked_photo(data)
        # no camera: the photo is read as read-dice reads one (the default for photographs)
        reader = self.watcher.reader if self.watcher is not None else open_reader(drawn=False)
        try:
            reading = reader(image)
        except VisionError as exc:
            raise TeachError(f"The photo could not be read ({exc}); take it again.") from None
        return self._draft(None, image, reading, None)

    @staticmethod
    def _read(frame: np.ndarray, zone: Zone, reader: Reader) -> Reading:
        try:
            reading: Reading = reader.read_zone(frame, zone, DICE_PER_THROW)
        except VisionError:
            return Reading()
        return reading

    def _draft(self, seat: str | None, image: np.ndarray, reading: Reading,
               zone: Zone | None) -> Draft:
        dx, dy = (zone.x, zone.y) if zone is not None else (0, 0)
        places: list[dict[str, Any]] = []
        height, width = image.shape[:2]
        for value, box, sure in ([(d.value, d.box, True) for d in reading.dice]
                                 + [(None, u.box, False) for u in reading.unsure]):
            x, y, w, h = box
            cx, cy = x + w / 2 - dx, y + h / 2 - dy
            if 0 <= cx < width and 0 <= cy < height:
                places.append({"box": [int(x - dx), int(y - dy), int(w), int(h)],
                               "value": value, "sure": sure})
        draft = Draft(f"{next(self._ids)}-{secrets.token_hex(4)}", seat, image, places)
        with self._lock:
            self._drafts[draft.id] = draft
            while len(self._drafts) > MAX_DRAFTS:
                del self._drafts[next(iter(self._drafts))]
        return draft

    def draft(self, draft_id: str) -> Draft | None:
        with self._lock:
            return self._drafts.get(draft_id)

    def save(self, draft_id: str, places: Any) -> str:
        """Save the draft with the referee's ``places`` (``[{"box": [x, y, w, h], "value":
        0-6 or None}]``): its name. TeachError, with nothing written, for a die undecided, a
        value or box that is not one, or a draft no longer held."""
        folder = self._folder()
        draft = self.draft(draft_id)
        if draft is None:
            raise TeachError("That throw is no longer held (the table keeps the last "
                             f"{MAX_DRAFTS} and forgets them when it stops); take it again.")
        height, width = draft.image.shape[:2]
        marked = checked_places(places, width, height)
        try:
            name = folder.save(draft.image, marked, draft.seat)
        except OSError as exc:
            raise TeachError(f"The throw could not be saved in {folder.path} ({exc}); nothing "
                             "was saved. Check the disk, then save it again.") from None
        with self._lock:
            self._drafts.pop(draft_id, None)
        return name

    # --- the tally ----------------------------------------------------------------------
    def tally(self) -> TallyOfDice:
        """The known dice: the folder's and the referee's corrections in the log."""
        corrections = [k.values for k in from_pictures(self.log.pictures(), self.log.path)]
        folder = self.folder or KnownFolder(pathlib.Path("/nonexistent"))
        return folder.tally(corrections)

    # --- learning -----------------------------------------------------------------------
    def learn(self, seed: int = 0, *, by: str = REFEREE,
              finished: Finished | None = None) -> str | None:
        """Start the calibration on every known throw; None, or why not (a sentence).
        ``by`` the referee (the page's Learn, recorded when it ends and kept only by the
        referee's Keep) or the table itself (``finished`` decides,
        :mod:`firmware.teach.self_teaching`)."""
        folder = self._folder()
        assert self.files is not None
        tally = self.tally()
        if tally.total < 30:
            return (f"The table knows {tally.total} dice; it needs at least 30 to learn them: "
                    f"take about {math.ceil((30 - tally.total) / 3)} more throws first.")
        if finished is None:
            def finished(outcome: Calibration | None, failure: str | None,
                         dice: int = tally.total) -> bool:
                self._referee_learned(outcome, dice)
                return True  # held until the referee keeps it or goes back
        return self.learning.start(Request(
            self.files.config, folder.path if tally.throws else None,
            self.log.path if tally.corrections else None, seed, "hold", self.drawn), by=by,
            finished=finished)

    def _referee_learned(self, outcome: Calibration | None, dice: int) -> None:
        """Record the referee's Learn once it has ended (the referee keeps it or not)."""
        if outcome is None or outcome.result is None:
            return
        result = outcome.result
        last = self.teachings.last() if self.teachings else None
        self.record(Teaching(
            at=datetime.now(UTC).isoformat(timespec="seconds"), by=REFEREE, dice=dice,
            new_dice=max(0, dice - (last.dice if last else 0)), kept=None,
            why=N_("the referee's Learn: kept only by pressing Keep").to_json(),
            before=result.before.figures(), after=result.after.figures(),
            seconds=round(result.seconds, 1), network=isinstance(result, folds.Teaching)))

    def record(self, teaching: Teaching) -> None:
        """Add ``teaching`` to the table's record (said, not raised, when it cannot be
        written: it stays listed until the table stops)."""
        if self.teachings is None:
            return
        try:
            self.teachings.add(teaching)
        except OSError as exc:
            print(f"The table's teaching could not be recorded in {self.teachings.path} "
                  f"({exc}); it is listed on the Dice page until the table stops.")

    def keep_outcome(self, outcome: Calibration) -> None:
        """Save ``outcome`` as the table's reader and read with it from the next throw;
        TeachError, the reader unchanged, when it cannot be."""
        assert self.files is not None
        try:
            self.files.keep(outcome)
            self._swap()
        except (ConfigError, OSError, VisionError) as exc:
            raise TeachError(f"The calibration could not be kept ({exc}); the table reads as "
                             "before.") from None

    def keep(self) -> str:
        """Keep the calibration's outcome: saved, and read with from the next throw."""
        outcome = self.learning.outcome
        if outcome is None or self.learning.running:
            raise TeachError("There is no finished calibration to keep; press Learn first.")
        if not outcome.changes:
            raise TeachError("This calibration changes nothing (the table reads as well "
                             "without it), so there is nothing to keep.")
        self.keep_outcome(outcome)
        self.learning.drop()
        return ("Kept: the table reads with the new reader from its next throw; the previous "
                "one stays on disk (Go back to the previous reader).")

    def go_back(self) -> str:
        """Read with the reader set aside at the last keep (or drop an outcome not kept)."""
        if self.learning.running:
            raise TeachError("A calibration is running; wait until it has finished.")
        if self.learning.outcome is not None:
            self.learning.drop()
            return "The calibration was dropped: the table reads as it did before it."
        if self.files is None or not self.files.has_previous():
            raise TeachError("There is no previous reader: no calibration has been kept.")
        try:
            self.files.go_back()
            self._swap()
        except (ConfigError, OSError, VisionError) as exc:
            raise TeachError(f"The previous reader could not be put back ({exc}).") from None
        return "The table reads with the previous reader again, from its next throw."

    def _swap(self) -> None:
        assert self.files is not None
        if self.watcher is not None:
            self.watcher.set_reader(self.files.open())

    def reader_now(self) -> Phrase:
        """The reader the table reads with now, in words (said in the console's language)."""
        if self.files is None:
            return N_("the pip counter")
        try:
            vision = self.files.vision()
        except ConfigError:
            return N_("the reader its config names")
        if vision.reader_for(drawn=self.drawn) == "learned":
            return (N_("the trained reader, taught this table's dice") if vision.head
                    else N_("the trained reader"))
        return N_("the pip counter")

    def stop(self) -> None:
        self.learning.stop()


def checked_places(places: Any, width: int, height: int) -> list[Marked]:
    """The referee's places as :class:`Marked`; TeachError naming the first that is wrong."""
    if not isinstance(places, list) or len(places) > 60:
        raise TeachError("The dice must come as a list of at most 60 places; reload the page "
                         "and try again.")
    marked = []
    for n, place in enumerate(places, 1):
        value = place.get("value") if isinstance(place, dict) else None
        box = place.get("box") if isinstance(place, dict) else None
        if value is None:
            raise TeachError(f"Die {n} has no value yet: tap it and choose its value (1-6, or "
                             "not a die); nothing was saved.")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 6:
            raise TeachError(f"Die {n}'s value {value!r} is not 1 to 6 or \"not a die\"; "
                             "nothing was saved.")
        if (not isinstance(box, list) or len(box) != 4
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in box)
                or box[2] < 2 or box[3] < 2 or box[0] + box[2] <= 0 or box[1] + box[3] <= 0
                or box[0] >= width or box[1] >= height):
            raise TeachError(f"Die {n}'s box {box!r} is not a box on the picture; reload the "
                             "page and try again.")
        marked.append(Marked((box[0], box[1], box[2], box[3]), value))
    return marked


def simulated_throw(camera: Any, seed: int | None = None) -> Callable[[str], None]:
    """For the simulated table: put three fresh dice in the seat's zone before a picture."""
    rng = random.Random(seed)

    def throw(seat: str) -> None:
        camera.set_dice(seat, [rng.randint(1, 6) for _ in range(DICE_PER_THROW)])

    return throw

