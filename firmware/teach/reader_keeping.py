"""Keeping a calibration from the console, and going back to the reader before it.

Why apart from the calibration itself (:mod:`firmware.teach.calibrate_reader`): the command saves
what it kept at once, but the console shows the figures first and the referee decides. "Keep"
first puts the table's reader as it is aside (``NAME.previous.json``: its ``[vision]`` reader
and head, and copies of the head's files: the head, the table's own face network and die
finder, and the thresholds file that names them), then saves the calibration as the command would,
then opens the new reader; "Go back to the previous reader" puts the aside copy back. The copy
put aside stays on disk until the next calibration is kept. Both take effect at the next read,
without a restart (``DiceWatcher.set_reader``).

A table started without ``--config`` has no file to keep its reader in: its reader is kept in
a file of its own beside the log (``NAME-kept.toml`` for the log ``NAME.db``, holding only
``[vision]``, written afresh at every start, so it says what this run reads with), and lasts
until the table stops.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil

from firmware.teach.calibrate_reader import Calibration, save_calibration
from hardware.config_edit import save_vision
from vision.calibrate import adapt
from vision.learned import face_reader, table_files
from vision.reader import Reader, config_vision, head_file, open_reader
from vision.settings import VisionSettings


class ReaderFiles:
    """The table's reader on disk: ``config`` (None: started without one, see the module
    docstring, with ``own`` the file kept beside the log instead). ``drawn``: the table's
    camera is the simulated one, which decides the reader of a config naming none
    (:func:`vision.settings.default_reader`)."""

    def __init__(self, config: pathlib.Path | None, own: pathlib.Path, *,
                 drawn: bool) -> None:
        self.drawn = drawn
        self.owned = config is None
        self.config = config if config is not None else own
        if self.owned:
            write_atomically(self.config, b"# The dice reader this table kept from the referee "
                                          b"console; rewritten at each start.\n")

    @property
    def previous(self) -> pathlib.Path:
        return self.config.with_name(f"{self.config.stem}.previous.json")

    def vision(self) -> VisionSettings:
        """The ``[vision]`` the table reads with now (ConfigError when it cannot be read)."""
        return config_vision(self.config)

    def open(self) -> Reader:
        """The reader ``[vision]`` names now (VisionError naming a file that cannot be used)."""
        face_reader.load.cache_clear()  # a head file at the same path may be another now
        return open_reader(self.vision(), self.config, drawn=self.drawn)

    def keep(self, done: Calibration) -> list[pathlib.Path]:
        """Put the reader now aside, then save ``done``; the files written. ConfigError or
        OSError when it cannot be (the reader now stays)."""
        self.put_aside()
        return save_calibration(done, self.config, head=adapt.head_path(self.config))

    def has_previous(self) -> bool:
        return self.previous.is_file()

    def go_back(self) -> None:
        """Put the reader set aside at the last keep back in force (ConfigError, OSError)."""
        try:
            record = json.loads(self.previous.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise OSError(f"the previous reader's record {self.previous} cannot be read "
                          f"({exc})") from None
        head = record.get("head")
        reader = record.get("reader")  # None: the config named none, nor names one again
        keys: dict[str, str] = {"reader": reader} if reader else {}
        remove = () if reader else ("reader",)
        if head:
            now = head_file(VisionSettings(head=head), self.config)
            assert now is not None
            for aside, path in _pairs(now):  # the thresholds file, naming the rest, last
                if aside.is_file():
                    aside_tmp = path.with_name(f".{path.name}.tmp")
                    shutil.copyfile(aside, aside_tmp)
                    aside_tmp.replace(path)
            keys["head"] = head
        save_vision(self.config, keys, remove=(*remove, *(() if head else ("head",))))

    def put_aside(self) -> None:
        """Copy the reader in force aside (``NAME.previous.json`` and the head's files), for
        :meth:`go_back`."""
        vision = self.vision()
        now = head_file(vision, self.config)
        if now is not None:
            for aside, path in _pairs(now):
                if path.is_file():
                    shutil.copyfile(path, aside)
                else:  # no such file in force: no older copy may come back in its place
                    aside.unlink(missing_ok=True)
        record = {"reader": vision.reader, "head": vision.head}
        write_atomically(self.previous, json.dumps(record).encode())


def _pairs(head: pathlib.Path) -> list[tuple[pathlib.Path, pathlib.Path]]:
    """(the copy put aside, the file in force) for a head, the table's own networks a
    calibration saves beside it (``NAME.faces.onnx``, ``NAME.detector.onnx``,
    :func:`vision.calibrate.folds.save`) and its thresholds file, which names them, last."""
    own = table_files.thresholds_path(head)
    pairs = [(head.with_name(head.name.replace(".head.npz", ".previous.head.npz")), head)]
    if head.name.endswith(".head.npz"):
        name = head.name[: -len(".head.npz")]
        for kind in ("faces", "detector"):
            path = head.with_name(f"{name}.{kind}.onnx")
            pairs.append((head.with_name(f"{name}.previous.{kind}.onnx"), path))
    return [*pairs, (own.with_name(f"{own.stem}.previous{own.suffix}"), own)]


def write_atomically(path: pathlib.Path, data: bytes) -> None:
    """Write ``data`` aside and rename it over ``path``: never half a file."""
    aside = path.with_name(f".{path.name}.tmp")
    try:
        aside.write_bytes(data)
        os.replace(aside, path)
    finally:
        aside.unlink(missing_ok=True)

