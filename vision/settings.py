"""The config's ``[vision]`` table: which dice reader the table uses, and its own thresholds.

Why a module of its own: ``firmware.settings.config`` checks every section before anything starts,
and ``bidou-table calibrate --known-throws`` names the table's own head in this same table; both
must agree on the keys and what each allows. Pure: no file, no model, no OpenCV.

    [vision]
    reader = "learned"        # "rules" or "learned"; absent: the default for the camera
    head = "table.head.npz"   # the table's own head, beside the config (written by calibrate)
    min_value = 0.9           # the learned reader's thresholds; absent = the head's or model's
    not_a_die = 0.5
    detect = 0.3

Which reader a table reads with when its config names none is decided here and nowhere else
(:func:`default_reader`, its reasons in its docstring): every part that opens or names the
table's reader asks :meth:`VisionSettings.reader_for`, saying only whether the pictures are
the simulated camera's drawings.

The thresholds and the head only matter to the learned reader (:mod:`vision.learned.face_reader`,
whose :class:`~vision.learned.face_reader.Settings` fields they are); which files the table then
reads
is :mod:`vision.reader`'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import ConfigError, reject_unknown_keys

#: the readers ``[vision] reader`` names: the rule reader and the learned one
READERS = ("rules", "learned")
RULES, LEARNED = READERS
#: the learned reader's thresholds a table may set, as ``vision.learned.face_reader.Settings``
#: names them
THRESHOLDS = ("min_value", "not_a_die", "detect", "sure_die")
KEYS = ("reader", "head", *THRESHOLDS)
#: the keys of the old learned reader's thresholds, which its successor does not take
RETIRED = ("min_views", "min_detector_value")


def default_reader(drawn: bool) -> str:
    """The reader of a table whose config names none: the rule reader for the simulated
    camera's drawn dice (``drawn``), the learned reader for photographs (a Pi camera, a USB
    camera, a folder or video of pictures, ``read-dice``'s files).

    Why the learned reader for photographs: it reads real dice far better, the white dice with
    black pips a table is built for included. On white dice, black pips, black felt, in
    photographs from outside the project, the rule reader read 20.8% of the dice and the
    learned reader 92.8%, none wrong. On the shared sets' Valid splits
    (docs/vision-model.md): topdown-colour 17.9% against 84.7%; oblique-colour 17.7% with 17
    wrong values (2.71%) against 51.0% with 4 (0.64%), and a wrong sure value is the worst
    failure a table can make. Only webcam-wood, the set the rule reader was tuned on, reads
    better with rules (99.2%, 1 wrong, against 93.7%).

    Why the rule reader for drawn dice: on the simulated camera's pictures
    (benchmarks/results/2026-12-06-readers-on-drawn-dice.md) it reads 100% of nearly every
    condition with none wrong (88.9-96.7% of throws with two dice touching), the learned
    reader 94-100% (69-78% touching) with a few wrong values (glare 2, side faces 1).

    What it costs: the learned reader loads onnxruntime and the model when the table starts
    (benchmarks/results/2026-12-06-reader-start.md: opened in 0.23 s against
    0.15 s, 110 MiB of peak memory against 62, 154 against 86 after a first read).

    A config that names a reader keeps it, and ``bidou-table calibrate --known-throws``
    writes the one that reads the table's own dice better."""
    return RULES if drawn else LEARNED


@dataclass(frozen=True)
class VisionSettings:
    """The ``[vision]`` table, checked; a threshold left ``None`` is the model's own."""

    #: the reader the config names; None: it names none, and the table reads with the
    #: default for its pictures (:meth:`reader_for`)
    reader: str | None = None
    min_value: float | None = None
    not_a_die: float | None = None
    detect: float | None = None
    sure_die: float | None = None
    #: the table's own head as the config writes it (relative: to the config's folder)
    head: str | None = None

    def reader_for(self, *, drawn: bool) -> str:
        """The reader this table reads with: the one its config names, else the default for
        its pictures (:func:`default_reader`; ``drawn``: the simulated camera's)."""
        return self.reader if self.reader is not None else default_reader(drawn)

    @property
    def thresholds(self) -> dict[str, float]:
        """The thresholds this table sets (the keyword arguments of ``ReaderSettings``)."""
        own = {name: getattr(self, name) for name in THRESHOLDS}
        return {name: value for name, value in own.items() if value is not None}


def parse_vision(section: Mapping[str, object] | None) -> VisionSettings:
    """Check the config's ``[vision]`` table (absent: the default reader, the model's
    thresholds).

    Raises :class:`ConfigError` naming the key, the value and what is allowed.
    """
    section = dict(section or {})
    for key in RETIRED:
        if key in section:
            raise ConfigError(f"vision.{key}", section[key],
                              "no longer a key: it was the old learned reader's threshold; "
                              "delete the line (bidou-table calibrate --known-throws adapts "
                              "the new reader)")
    reject_unknown_keys("vision", section, KEYS)
    reader = section.get("reader")
    if reader is not None and reader not in READERS:
        raise ConfigError("vision.reader", reader, '"rules" or "learned"')
    head = section.get("head")
    if head is not None and (not isinstance(head, str) or not head.strip()
                             or not head.endswith(".npz")):
        raise ConfigError("vision.head", head, 'the file name of the table\'s own head, e.g. '
                          '"table.head.npz", as bidou-table calibrate --known-throws writes it')
    return VisionSettings(reader=reader, min_value=_fraction(section, "min_value"),
                          not_a_die=_fraction(section, "not_a_die"),
                          detect=_fraction(section, "detect"),
                          sure_die=_fraction(section, "sure_die"), head=head)


def _fraction(section: Mapping[str, object], key: str) -> float | None:
    value = section.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ConfigError(f"vision.{key}", value, "a number from 0 to 1, e.g. 0.9")
    return float(value)
