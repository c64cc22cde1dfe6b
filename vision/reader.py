"""The one door to the dice readers: the :class:`Reader` every part reads through, and the
reader a table's config names, with the table's own head and thresholds.

Why one door: ``bidou-table run`` (:mod:`firmware.table.house`), ``read-dice``, the zone calibration
(:mod:`hardware.calibrate`) and ``calibrate --known-throws`` (which judges an adaptation
against the table as it reads now) must read a table the same way, and fail the same way when
the head the config names cannot be used: one sentence naming the file and what to do, before
any throw is read. And a reader's dependencies load only when that reader is chosen: a table
reading with rules never loads onnxruntime. Which reader a config that names none reads with
is :func:`vision.settings.default_reader`'s one decision.

``[vision] head`` is a file name relative to the config's folder (``calibrate`` writes
``NAME.head.npz`` beside ``NAME.toml``); its thresholds are ``NAME.reader.json`` beside it
(:func:`vision.learned.table_files.thresholds_path`). The config's own thresholds win over both,
none looser than the model's floor for a new make (:func:`vision.learned.face_reader.
thresholds_of`).
"""

from __future__ import annotations

import pathlib
import tomllib
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import numpy as np

from engine.errors import ConfigError, VisionError
from vision.reading import Reading
from vision.settings import LEARNED, VisionSettings, parse_vision
from vision.zones import NEEDED, Zone

if TYPE_CHECKING:
    from vision.learned import face_reader


class Reader(Protocol):
    """A dice reader at the table: a whole frame, or one seat's zone of it."""

    def __call__(self, frame: np.ndarray) -> Reading:
        """The dice in the whole frame (the referee's view, the zone calibration, read-dice)."""
        ...

    def read_zone(self, frame: np.ndarray, zone: Zone, expected: int = NEEDED) -> Reading:
        """The dice of ``frame`` around ``zone`` (where ``expected`` dice lie), in the frame's
        pixels. A reader may read more of the frame than the zone: the caller keeps the dice
        the zone holds (:func:`vision.zones.read_seat`)."""
        ...


class WholeFrame:
    """A :class:`Reader` from a function of a whole frame: a seat's zone is read as the whole
    frame is. The rule reader at the table, and the simulated table's reader."""

    def __init__(self, read: Callable[[np.ndarray], Reading]) -> None:
        self.read = read

    def __call__(self, frame: np.ndarray) -> Reading:
        return self.read(frame)

    def read_zone(self, frame: np.ndarray, zone: Zone, expected: int = NEEDED) -> Reading:
        return self.read(frame)


def config_vision(config_path: str | pathlib.Path | None) -> VisionSettings:
    """The ``[vision]`` table of the config at ``config_path`` (None: the defaults), checked;
    :class:`ConfigError` when the file cannot be read or the table is wrong. Only ``[vision]``
    is read: the rest of the config is the controller's to check (``firmware.settings.config``)."""
    if config_path is None:
        return VisionSettings()
    try:
        with open(config_path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError("--config", str(config_path), "an existing TOML file; copy "
                          "firmware/table.example.toml and edit it") from None
    except OSError as e:
        raise ConfigError("--config", str(config_path),
                          f"a readable file ({e.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError("--config", str(config_path), f"valid TOML in UTF-8 ({e})") from None
    section = data.get("vision", {})
    if not isinstance(section, dict):
        raise ConfigError("vision", section, "a table: write [vision] on a line of its own")
    return parse_vision(section)


def head_file(vision: VisionSettings, config_path: str | pathlib.Path | None,
              ) -> pathlib.Path | None:
    """The table's own head as a path (relative to the config's folder), or None."""
    if vision.head is None:
        return None
    head = pathlib.Path(vision.head).expanduser()
    if not head.is_absolute() and config_path is not None:
        head = pathlib.Path(config_path).resolve().parent / head
    return head


def face_settings(vision: VisionSettings, config_path: str | pathlib.Path | None,
                  model: pathlib.Path | None = None) -> face_reader.Settings:
    """The learned reader's settings for this table: its head and the config's thresholds
    (``model``: the folder of the networks, the shipped ones by default).

    Raises :class:`VisionError` naming the head file when the config names one that is not
    there (the model itself is checked when it is loaded, :func:`check`)."""
    # lazy: onnxruntime loads only for a table that reads with the learned reader
    from vision.learned import face_reader

    head = head_file(vision, config_path)
    if head is not None and not head.is_file():
        where = f" in {config_path}" if config_path else ""
        raise VisionError(
            f"the table's own dice reader head {head} (head under [vision]{where}) is missing: "
            "calibrate the table again (bidou-table calibrate --config FILE --known-throws "
            "DIR) or remove the head line to read with the model's own head.")
    return face_reader.Settings(model=model or face_reader.MODELS, head=head,
                                **vision.thresholds)


def check(settings: face_reader.Settings) -> None:
    """Load the model and the table's head now, so a broken file is a sentence at the start
    and not a failure at the first throw (:class:`VisionError`)."""
    # lazy: onnxruntime loads only for a table that reads with the learned reader
    from vision.learned import face_reader

    face_reader.load(settings.model, settings.head)


def rule_reader() -> Reader:
    """The rule reader (:mod:`vision.rules.reader`): OpenCV and numpy only."""
    # lazy: the rule reader's modules load only for a table that reads with it
    from vision.rules.reader import read_dice

    return WholeFrame(read_dice)


def open_reader(vision: VisionSettings | None = None,
                config_path: str | pathlib.Path | None = None, *, drawn: bool) -> Reader:
    """The reader this table reads with (:meth:`VisionSettings.reader_for`): the one
    ``[vision]`` names, else the default for its pictures (``drawn``: the simulated camera's
    drawn dice, read with rules; photographs, read with the learned reader). The learned
    reader is the pretrained network with the table's own head and thresholds, loaded now
    (:class:`VisionError` naming a file that cannot be used), reading a seat's zone alone at
    the scale its dice were last seen (:class:`vision.learned.zone_reader.ZoneReader`)."""
    vision = vision or VisionSettings()
    if vision.reader_for(drawn=drawn) != LEARNED:
        return rule_reader()
    settings = face_settings(vision, config_path)
    check(settings)
    # lazy: onnxruntime loads only for a table that reads with the learned reader
    from vision.learned.zone_reader import ZoneReader

    return ZoneReader(settings)
