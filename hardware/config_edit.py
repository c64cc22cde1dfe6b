"""The table's TOML config, read and rewritten with the pub's comments kept.

Both calibrations write into the config: ``bidou-table calibrate`` (and the dashboard, for the
zones the referee draws) the ``[zones.SEAT]`` tables, ``calibrate --known-throws`` the learned
reader's head under ``[vision]``. The reading and the one-step rewrite live here, apart
from either command, so neither calibration has to import the other to save what it found.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import stat
import tempfile
from collections.abc import Iterable, Mapping

import tomlkit

from engine.errors import ConfigError
from vision.zones import Zone, check_overlap


def read_config(path: str | os.PathLike[str]) -> tomlkit.TOMLDocument:
    """The config as a tomlkit document (comments kept). Raises ConfigError if unreadable."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("--config", str(path), "an existing TOML file; copy "
                          "firmware/table.example.toml and edit it") from None
    except OSError as exc:
        raise ConfigError("--config", str(path), f"a readable file ({exc.strerror})") from None
    try:
        return tomlkit.parse(text)
    except tomlkit.exceptions.TOMLKitError as exc:
        raise ConfigError("--config", str(path), f"valid TOML ({exc})") from None


def save_zones(config_path: str | os.PathLike[str], zones: Iterable[Zone]) -> None:
    """Write ``zones`` as the config's ``[zones.SEAT]`` tables, replacing the old ones.

    Everything else in the file, comments included, is kept. The zones are checked first
    (no overlap: ``ConfigError``), and the file is replaced in one step, so a crash never
    leaves half a config.
    """
    zones = list(zones)
    if not zones:
        raise ValueError("save_zones needs at least one zone")
    check_overlap(zones)
    document = read_config(config_path)
    existing = document.get("zones")
    if isinstance(existing, tomlkit.items.Table):  # update in place: comments stay
        wanted = {zone.seat for zone in zones}
        carried = []  # comments at the end of a removed table belong to what follows it
        for seat in [seat for seat in existing if seat not in wanted]:
            old = existing[seat]
            if isinstance(old, tomlkit.items.Table):
                carried += [item for key, item in old.value.body
                            if key is None and isinstance(item, tomlkit.items.Comment)]
            del existing[seat]
        for zone in zones:
            values = {key: int(getattr(zone, key)) for key in ("x", "y", "w", "h")}
            old = existing.get(zone.seat)
            if isinstance(old, tomlkit.items.Table):
                for key in [key for key in old if key not in values]:
                    del old[key]
                for key, value in values.items():
                    old[key] = value
            else:
                table = _zone_table(zone)
                table.add(tomlkit.nl())
                existing.add(zone.seat, table)
        last = existing[list(existing)[-1]]  # the table now just before the next section
        for comment in carried:
            if isinstance(last, tomlkit.items.Table):
                last.add(comment)
    else:
        if existing is not None:
            del document["zones"]
        table = tomlkit.table(is_super_table=True)
        for zone in zones:
            table.add(zone.seat, _zone_table(zone))
        document.add(tomlkit.nl())
        document.add(tomlkit.comment("Seat zones in camera pixels, written by "
                                     "`bidou-table calibrate`."))
        document.add("zones", table)
    write_config(config_path, document)


def save_vision(config_path: str | os.PathLike[str],
                thresholds: Mapping[str, float | int | str],
                remove: Iterable[str] = ()) -> None:
    """Write ``thresholds`` (keys of ``[vision]``: the table's head, its reader) into the
    config's ``[vision]`` table.

    A key already there keeps its place and its comment; a new one goes after the table's last
    key (not after the comments that end the table: they introduce the next section). The
    table's other keys (``reader``) and the rest of the file, comments included, are kept; the
    file is replaced in one step, as by :func:`save_zones`. Keys in ``remove`` are taken out
    (going back to a reader without the table's own head).
    """
    document = read_config(config_path)
    existing = document.get("vision")
    if isinstance(existing, (tomlkit.items.Table, tomlkit.items.InlineTable)):
        for key in remove:
            if key in existing:
                del existing[key]
    if isinstance(existing, tomlkit.items.Table):
        for key, value in thresholds.items():
            keys = [k for k, _ in existing.value.body if k is not None]
            if key in existing or not keys:
                existing[key] = value
            else:  # tomlkit's public add would put it after the closing comments
                _insert_after_last_key(existing.value, key, value)
    else:
        table = tomlkit.table()
        if existing is not None:  # an inline table: its keys carried over
            for key, value in existing.items():
                table.add(key, value)
            del document["vision"]
        for key, value in thresholds.items():
            table[key] = value
        document.add(tomlkit.nl())
        document.add(tomlkit.comment("The dice reader, adapted to this table by "
                                     "`bidou-table calibrate --known-throws`."))
        document.add("vision", table)
    write_config(config_path, document)


def _insert_after_last_key(container: tomlkit.container.Container, key: str,
                           value: object) -> None:
    """Put ``key`` right after the table's last key (private tomlkit API: ``_insert_after``
    before tomlkit 0.14, ``_insert_at`` since; tomlkit has no public way to do this)."""
    body = container.body
    last = max(i for i, (k, _) in enumerate(body) if k is not None)
    if last + 1 >= len(body):  # nothing after it: the public way is the same
        container.append(key, value)
    elif hasattr(container, "_insert_after"):
        container._insert_after(body[last][0], key, value)
    else:
        container._insert_at(last + 1, key, value)


def write_config(config_path: str | os.PathLike[str], document: tomlkit.TOMLDocument) -> None:
    """Replace the config with ``document`` in one step: a crash never leaves half a config.
    A config that was there keeps its mode and, where this user may set it, its owner and
    group (a venue config is readable by its service's group only, and holds passwords)."""
    path = pathlib.Path(config_path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(tomlkit.dumps(document))
        if path.exists():
            was = path.stat()
            os.chmod(temporary, stat.S_IMODE(was.st_mode))
            with contextlib.suppress(PermissionError):
                os.chown(temporary, was.st_uid, was.st_gid)
        os.replace(temporary, path)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise


def _zone_table(zone: Zone) -> tomlkit.items.Table:
    table = tomlkit.table()
    for key in ("x", "y", "w", "h"):
        table.add(key, int(getattr(zone, key)))
    return table
