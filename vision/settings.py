"""The config's ``[vision]`` table: which dice reader the table uses, and its own thresholds.

Why a module of its own: ``firmware.config`` checks every section before anything starts, and
``bidou-table calibrate --known-throws`` writes the thresholds it chooses into this same table;
both must agree on the keys and what each allows. Pure: no file, no model, no OpenCV.

    [vision]
    reader = "rules"          # "rules" (the default) or "learned"
    min_value = 0.9           # the learned reader's thresholds; absent = the model's own
    min_views = 8
    min_detector_value = 0.5
    detect = 0.3

The thresholds only matter to the learned reader; they are the fields of the same names of
:class:`vision.learned_reader.ReaderSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import ConfigError, reject_unknown_keys

#: the readers ``[vision] reader`` names: the rule reader (the default) and the learned one
READERS = ("rules", "learned")
#: the learned reader's thresholds a table may set, as ``ReaderSettings`` names them
THRESHOLDS = ("min_value", "min_views", "min_detector_value", "detect")
KEYS = ("reader", *THRESHOLDS)


@dataclass(frozen=True)
class VisionSettings:
    """The ``[vision]`` table, checked; a threshold left ``None`` is the model's own."""

    reader: str = "rules"
    min_value: float | None = None
    min_views: int | None = None
    min_detector_value: float | None = None
    detect: float | None = None

    @property
    def thresholds(self) -> dict[str, float | int]:
        """The thresholds this table sets (the keyword arguments of ``ReaderSettings``)."""
        own = {name: getattr(self, name) for name in THRESHOLDS}
        return {name: value for name, value in own.items() if value is not None}


def parse_vision(section: Mapping[str, object] | None) -> VisionSettings:
    """Check the config's ``[vision]`` table (absent: the rule reader, the model's thresholds).

    Raises :class:`ConfigError` naming the key, the value and what is allowed.
    """
    section = dict(section or {})
    reject_unknown_keys("vision", section, KEYS)
    reader = section.get("reader", "rules")
    if reader not in READERS:
        raise ConfigError("vision.reader", reader, '"rules" or "learned"')
    min_views = section.get("min_views")
    if min_views is not None and (isinstance(min_views, bool) or not isinstance(min_views, int)
                                  or not 1 <= min_views <= 8):
        raise ConfigError("vision.min_views", min_views,
                          "a whole number from 1 to 8 (of the 8 views of a die)")
    return VisionSettings(reader=reader, min_value=_fraction(section, "min_value"),
                          min_views=min_views,
                          min_detector_value=_fraction(section, "min_detector_value"),
                          detect=_fraction(section, "detect"))


def _fraction(section: Mapping[str, object], key: str) -> float | None:
    value = section.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ConfigError(f"vision.{key}", value, "a number from 0 to 1, e.g. 0.9")
    return float(value)
