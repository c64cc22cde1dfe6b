"""A table's own files beside its config: its head, its thresholds, its taught networks.

``bidou-table calibrate`` (:mod:`vision.calibrate.adapt`, :mod:`vision.calibrate.folds`)
saves a table's head as ``NAME.head.npz`` and its thresholds as ``NAME.reader.json`` beside
the config ``NAME.toml``; the thresholds file names the table's own face network and die
finder when it has them, the fingerprint of the network its head was fitted on, and the
sizes of its dice. Here they are found and checked before the reader
(:class:`vision.learned.face_reader.Model`) loads them: a file missing, damaged or fitted for
another network is a :class:`VisionError` saying what to do.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterable

from engine.errors import VisionError
from vision.learned.decision import DEFAULTS
from vision.learned.face_model import fingerprint


def thresholds_path(head: pathlib.Path) -> pathlib.Path:
    """Where a table's own thresholds lie beside its head: ``NAME.head.npz`` has
    ``NAME.reader.json`` (so two tables' configs may share a folder), any other head a
    ``reader.json`` beside it."""
    if head.name.endswith(".head.npz"):
        return head.with_name(head.name[: -len(".head.npz")] + ".reader.json")
    return head.with_name("reader.json")


def check_fitted_for(own: pathlib.Path, network: pathlib.Path, head: pathlib.Path) -> None:
    """A table's head fits only the face network it was fitted on: the network's fingerprint
    is in its thresholds file (:mod:`vision.calibrate.adapt`); another network (the model was
    updated)
    would read its features as noise, with the confidence of a fit, so it is refused."""
    try:
        fitted = json.loads(own.read_text()).get("network")
    except (OSError, ValueError, AttributeError):
        return  # read_thresholds has said what is wrong with the file
    if fitted is not None and fitted != fingerprint(network):
        raise VisionError(f"{head} was fitted for another face network than the one installed "
                          f"in {network.parent} (the model was updated since): calibrate the "
                          "table again (bidou-table calibrate --known-throws) or remove head "
                          "from [vision] in the config.")


#: the keys of a table's thresholds file that name its own networks, and what each is
FACES, FINDER = "faces", "detector"
WHAT = {FACES: "face network", FINDER: "die finder"}


def table_network(own: pathlib.Path, head: pathlib.Path, key: str = FACES,
                   ) -> pathlib.Path | None:
    """The table's own network that its thresholds file names (``key``: ``"faces"`` or
    ``"detector"``, beside it), or None (a head fitted alone, or a table that kept the
    model's finder); a named network that is not there is a :class:`VisionError` saying to
    calibrate again."""
    try:
        name = json.loads(own.read_text()).get(key)
    except (OSError, ValueError, AttributeError):
        return None  # read_thresholds says what is wrong with the file
    if name is None:
        return None
    path = own.parent / str(name)
    if not path.is_file():
        raise VisionError(f"the table's own {WHAT[key]} {path} (named in {own}) is missing: "
                          "calibrate the table again (bidou-table calibrate --known-throws) or "
                          f"remove head from [vision] in the config to read without {head.name}.")
    return path


def read_thresholds(path: pathlib.Path, keys: Iterable[str]) -> dict[str, float]:
    """The thresholds named ``keys`` that the file at ``path`` gives; VisionError saying what
    to do when it is not a thresholds file."""
    try:
        data = json.loads(path.read_text())
        return {k: float(data[k]) for k in keys if k in data}
    except (OSError, ValueError, TypeError) as exc:
        raise VisionError(f"{path} is not the dice reader's thresholds ({exc}); calibrate the "
                          "table again or delete the file.") from exc


def die_sizes(path: pathlib.Path) -> tuple[float, float] | None:
    """A table's ``die_sizes`` (smallest, largest), when its thresholds file records them."""
    try:
        low, high = json.loads(path.read_text())["die_sizes"]
        return (float(low), float(high))
    except (OSError, ValueError, TypeError, KeyError):
        return None


#: the floor a model folder ships with beside its ``reader.json``
#: (:func:`vision.learned.decision.floored`): thresholds no reader of a make the model was
#: not trained on goes looser than, chosen across makes by
#: :mod:`vision_lab.new_make_floor`. A file of its own, not a key of ``reader.json``: that
#: file is written again from the model's calibration split whenever the model is made
#: (:mod:`vision_lab.choose_thresholds`), and a floor lost with it would let a retrained
#: model read a new make at thresholds already measured not to hold there
FLOOR_FILE = "new_make_floor.json"


def read_floor(folder: pathlib.Path, keys: Iterable[str]) -> dict[str, float] | None:
    """The floor of the model in ``folder`` (its thresholds named ``keys``), None when it
    ships none; VisionError saying what to do when the file is damaged."""
    path = folder / FLOOR_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        return {k: float(data["floor"][k]) for k in keys if k in data["floor"]}
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise VisionError(f"{path} is not the dice reader's floor ({exc}); reinstall "
                          "bidou-table.") from exc


def floor_of(folder: pathlib.Path, own: pathlib.Path | None, own_finder: bool,
             ) -> dict[str, float] | None:
    """The floor a reader's thresholds are kept no looser than: the model's
    (:data:`FLOOR_FILE`, None when it ships none), but for a table whose own calibration
    showed its wrong share under the target on its known dice (``"shows_target"`` in its
    thresholds file ``own``'s record), which keeps its own choice: its dice are measured, the
    floor only guesses at them from other makes. Without ``detect`` for a table with its own
    die finder (``own_finder``), whose scores are its own, not the model's detector's."""
    floor = read_floor(folder, DEFAULTS)
    if floor is None or own is None or not own.is_file():
        return floor
    try:
        shown = json.loads(own.read_text()).get("calibration", {}).get("shows_target") is True
    except (OSError, ValueError, AttributeError):
        shown = False  # read_thresholds says what is wrong with the file
    if shown:
        return None
    return {k: v for k, v in floor.items() if not (own_finder and k == "detect")}
