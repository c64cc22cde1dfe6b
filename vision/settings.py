"""The config's ``[vision]`` table: which dice reader the table uses, and its own thresholds.

Why a module of its own: ``firmware.settings.config`` checks every section before anything starts,
and ``bidou-table calibrate --known-throws`` names the table's own head in this same table; both
must agree on the keys and what each allows. Pure: no file, no model, no OpenCV.

    [vision]
    reader = "learned"        # "rules" (the default) or "learned"
    head = "table.head.npz"   # the table's own head, beside the config (written by calibrate)
    min_value = 0.9           # the learned reader's thresholds; absent = the head's or model's
    not_a_die = 0.5
    detect = 0.3

The thresholds and the head only matter to the learned reader (:mod:`vision.learned.face_reader`,
whose :class:`~vision.learned.face_reader.Settings` fields they are); which files the table then
reads
is :mod:`vision.reader`'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import ConfigError, reject_unknown_keys

#: the readers ``[vision] reader`` names: the rule reader (the default) and the learned one
READERS = ("rules", "learned")
#: the learned reader's thresholds a table may set, as ``vision.learned.face_reader.Settings``
#: names them
THRESHOLDS = ("min_value", "not_a_die", "detect", "sure_die")
KEYS = ("reader", "head", *THRESHOLDS)
#: the keys of the old learned reader's thresholds, which its successor does not take
RETIRED = ("min_views", "min_detector_value")


@dataclass(frozen=True)
class VisionSettings:
    """The ``[vision]`` table, checked; a threshold left ``None`` is the model's own."""

    reader: str = "rules"
    min_value: float | None = None
    not_a_die: float | None = None
    detect: float | None = None
    sure_die: float | None = None
    #: the table's own head as the config writes it (relative: to the config's folder)
    head: str | None = None

    @property
    def thresholds(self) -> dict[str, float]:
        """The thresholds this table sets (the keyword arguments of ``ReaderSettings``)."""
        own = {name: getattr(self, name) for name in THRESHOLDS}
        return {name: value for name, value in own.items() if value is not None}


def parse_vision(section: Mapping[str, object] | None) -> VisionSettings:
    """Check the config's ``[vision]`` table (absent: the rule reader, the model's thresholds).

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
    reader = section.get("reader", "rules")
    if reader not in READERS:
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
