"""The dice reader a table's config names, with the table's own head and thresholds.

Why one place: ``bidou-table run`` (:mod:`firmware.house`), ``read-dice --config`` and
``calibrate --known-throws`` (which judges an adaptation against the table as it reads now)
must read a table the same way, and fail the same way when the head the config names cannot be
used: one sentence naming the file and what to do, before any throw is read.

``[vision] head`` is a file name relative to the config's folder (``calibrate`` writes
``NAME.head.npz`` beside ``NAME.toml``); its thresholds are ``NAME.reader.json`` beside it
(:func:`vision.face_reader.thresholds_path`). The config's own thresholds win over both.
"""

from __future__ import annotations

import pathlib
import tomllib
from collections.abc import Callable

import numpy as np

from engine.errors import ConfigError, VisionError
from vision import face_reader
from vision.reader import read_dice as rule_reader
from vision.reading import Reading
from vision.settings import VisionSettings, parse_vision
from vision.zone_reader import ZoneReader

Reader = Callable[[np.ndarray], Reading]


def config_vision(config_path: str | pathlib.Path | None) -> VisionSettings:
    """The ``[vision]`` table of the config at ``config_path`` (None: the defaults), checked;
    :class:`ConfigError` when the file cannot be read or the table is wrong. Only ``[vision]``
    is read: the rest of the config is the controller's to check (``firmware.config``)."""
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
                  model: pathlib.Path = face_reader.MODELS) -> face_reader.Settings:
    """The learned reader's settings for this table: its head and the config's thresholds.

    Raises :class:`VisionError` naming the head file when the config names one that is not
    there (the model itself is checked when it is loaded, :func:`check`)."""
    head = head_file(vision, config_path)
    if head is not None and not head.is_file():
        where = f" in {config_path}" if config_path else ""
        raise VisionError(
            f"the table's own dice reader head {head} (head under [vision]{where}) is missing: "
            "calibrate the table again (bidou-table calibrate --config FILE --known-throws "
            "DIR) or remove the head line to read with the model's own head.")
    return face_reader.Settings(model=model, head=head, **vision.thresholds)


def check(settings: face_reader.Settings) -> None:
    """Load the model and the table's head now, so a broken file is a sentence at the start
    and not a failure at the first throw (:class:`VisionError`)."""
    face_reader.load(settings.model, settings.head)


def table_reader(vision: VisionSettings, config_path: str | pathlib.Path | None) -> Reader:
    """The reader ``[vision]`` names: the rule reader by default; ``reader = "learned"`` the
    reader on the pretrained network with the table's own head and thresholds, loaded now
    (:class:`VisionError` naming a file that cannot be used), as a
    :class:`~vision.zone_reader.ZoneReader`: a whole frame when called, a seat's zone alone
    at the table (``read_zone``)."""
    if vision.reader != "learned":
        return rule_reader
    settings = face_settings(vision, config_path)
    check(settings)
    return ZoneReader(settings)
