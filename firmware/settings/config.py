"""The table's one configuration file (TOML), checked completely before anything starts.

A pub owner edits this file by hand, so a mistake must stop the start with a sentence that
names the key, the value and what is allowed -- never a traceback halfway through opening
the GPIO pins. Each section is checked by the part that owns it (``hardware.pinmap``,
``hardware.cameras``, ``vision.zones``, ``vision.settings``, ``firmware.settings.server_settings``);
this module checks ``[table]`` and ties the sections together (every seat named in ``[pins]``
or ``[zones]`` must be a player). ``firmware/table.example.toml`` documents every key and is
tested to load.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ConfigError, RecordError, reject_unknown_keys
from engine.variants import OPTIONS, VARIANTS, check_setup
from firmware.settings.learning_settings import LearningSettings, parse_learning
from firmware.settings.server_settings import ServerSettings, parse_server_settings
from firmware.settings.venue_settings import VenueSettings, parse_venue_settings
from firmware.table.seating import seating_problem
from hardware.cameras import CameraSettings, parse_camera
from hardware.pinmap import PinMap, parse_pin_map
from vision.settings import VisionSettings, parse_vision
from vision.zones import Zone, parse_zones

SECTIONS = ("table", "pins", "camera", "zones", "vision", "referee", "server", "venue",
            "learning")
TABLE_KEYS = ("variant", "players", "options", "language")
#: The pub screen's languages ([table] language; table_server.words.i18n has the catalogues).
LANGUAGES = ("en", "fr", "es")


@dataclass(frozen=True)
class TableConfig:
    """A checked table configuration.

    ``camera`` is kind "simulated" when ``[camera]`` is absent; ``zones`` empty means laid
    out by ``vision.zones.default_zones`` from the frame size; ``vision`` is the dice reader
    and its thresholds (the rule reader when ``[vision]`` is absent).
    """

    variant: str
    players: tuple[str, ...]
    options: dict[str, Any]
    pins: PinMap
    camera: CameraSettings
    zones: list[Zone]
    server: ServerSettings
    simulate: bool = True
    path: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    vision: VisionSettings = field(default_factory=VisionSettings)
    venue: VenueSettings | None = None  # [venue]: the forwarder to the venue hub (docs/venue.md)
    #: [learning]: when the table teaches itself its dice again (docs/table-adaptation.md)
    learning: LearningSettings = field(default_factory=LearningSettings)


def _table(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(key, value, f"a table: write [{key}] on a line of its own")
    return dict(value)


def _check_table(section: dict[str, Any]) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    reject_unknown_keys("table", section, TABLE_KEYS, verb="has")
    variant = section.get("variant", "two-hand")
    if variant not in VARIANTS:
        raise ConfigError("table.variant", variant, f"one of {', '.join(VARIANTS)}")
    players = section.get("players")
    if players is None:
        raise ConfigError("table.players", None,
                          'a list of player names in clockwise seat order, e.g. ["Ann", "Bob"]')
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ConfigError("table.players", players,
                          'a list of player names in clockwise seat order, e.g. ["Ann", "Bob"]')
    problem = seating_problem(variant, players)  # the referee's new game is checked the same
    if problem:
        raise ConfigError("table.players", players, problem)
    if len(set(players)) != len(players):
        raise ConfigError("table.players", players, "each name once: names must be unique")
    options = section.get("options", {})
    if not isinstance(options, Mapping):
        raise ConfigError("table.options", options,
                          "a table: [table.options] with ranking and poor_fish")
    options = dict(options)
    for key, value in options.items():
        if key == "ranking" and value not in OPTIONS["ranking"]:
            raise ConfigError("table.options.ranking", value, '"three-digit" or "total"')
        if key == "poor_fish" and not isinstance(value, bool):
            raise ConfigError("table.options.poor_fish", value, "true or false")
        if key not in ("ranking", "poor_fish"):
            raise ConfigError(f"table.options.{key}", value,
                              "no such option; the options are ranking and poor_fish")
    try:  # the players first, so a bad name is reported under table.players
        check_setup(variant, players, {})
    except RecordError as e:
        raise ConfigError("table.players", players, str(e)) from None
    try:
        check_setup(variant, players, options)
    except RecordError as e:
        raise ConfigError("table.options", options, str(e)) from None
    return variant, tuple(players), options


def build_config(data: Mapping[str, Any], *, simulate: bool = True, path: str | None = None,
                 environ: Mapping[str, str] | None = None) -> TableConfig:
    """Check a decoded config (as from TOML) and build the TableConfig; ConfigError if not."""
    for key in data:
        if key not in SECTIONS:
            raise ConfigError(key, data[key],
                              f"no such section; the sections are {', '.join(SECTIONS)}")
    variant, players, options = _check_table(_table(data, "table"))
    language = _table(data, "table").get("language", "en")
    if language not in LANGUAGES:
        raise ConfigError("table.language", language,
                          '"en" (English), "fr" (French) or "es" (Spanish)')

    pins = parse_pin_map(_table(data, "pins"), players)

    camera = parse_camera(_table(data, "camera"))

    zones_section = _table(data, "zones")
    zones: list[Zone] = []
    if zones_section:
        zones = parse_zones(zones_section, frame=camera.size)
        for z in zones:
            if z.seat not in players:
                raise ConfigError(f"zones.{z.seat}", {"x": z.x, "y": z.y, "w": z.w, "h": z.h},
                                  f"there is no seat {z.seat!r}; seats are {', '.join(players)}")

    vision = parse_vision(_table(data, "vision"))

    server = parse_server_settings(_table(data, "server"), _table(data, "referee"),
                                   os.environ if environ is None else environ,
                                   simulate=simulate)
    server = dataclasses.replace(server, language=language)
    venue = parse_venue_settings(_table(data, "venue"))
    learning = parse_learning(_table(data, "learning"))
    return TableConfig(variant, players, options, pins, camera, zones, server, simulate, path,
                       dict(data), vision, venue, learning)


def load_config(path: str, *, simulate: bool = True,
                environ: Mapping[str, str] | None = None) -> TableConfig:
    """Read and check the TOML file at ``path``; ConfigError names what is wrong."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError("--config", path, "an existing TOML file; copy "
                          "firmware/table.example.toml and edit it") from None
    except OSError as e:
        raise ConfigError("--config", path, f"a readable file ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("--config", path, f"valid TOML ({e})") from None
    except UnicodeDecodeError as e:
        raise ConfigError("--config", path, f"a TOML file in UTF-8 (byte {e.start} is not "
                                            "UTF-8; save the file as UTF-8)") from None
    return build_config(data, simulate=simulate, path=path, environ=environ)


def default_config(simulate: bool = True,
                   environ: Mapping[str, str] | None = None) -> TableConfig:
    """The config used without a file: a simulated two-hand table for Ann and Bob."""
    return build_config({"table": {"variant": "two-hand", "players": ["Ann", "Bob"]}},
                        simulate=simulate, environ=environ)
