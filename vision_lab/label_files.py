"""The shared sets' label files: which sets there are, the pictures of a folder, and each
picture's labelled dice in pixels.

Why its own module: the evaluator (:mod:`vision_lab.evaluate`) and the learned reader's view
of a labelled die (:mod:`vision_lab.labels`) both read the labels, and neither should import
the other to do so.

Labels are YOLO-style, one ``NAME.txt`` beside each ``NAME.jpg``: ``CLASS XC YC W H``
normalised to 0-1, CLASS = value - 1; the box covers the top face's pip pattern (webcam-wood)
or the whole die (the other sets).
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterable
from dataclasses import dataclass

from vision_lab.label_corrections import corrected

#: the shared sets, as ``../shared/dice`` holds them
SETS = ("webcam-wood", "topdown-colour", "oblique-colour")


@dataclass(frozen=True)
class Label:
    value: int
    box: tuple[float, float, float, float]  # x, y, w, h in pixels


def load_labels(path: pathlib.Path, width: int, height: int) -> list[Label]:
    """Labels of one picture from its YOLO ``.txt`` (missing file: no dice), with the few
    corrections of :mod:`vision_lab.label_corrections`."""
    labels = []
    if not path.exists():
        return labels
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 5:
            raise ValueError(f"{path}:{number}: expected 'CLASS XC YC W H', got {line!r}.")
        cls, xc, yc, w, h = int(parts[0]), *map(float, parts[1:])
        if not 0 <= cls <= 5:
            raise ValueError(f"{path}:{number}: class {cls} is not a die value 0-5 (value - 1).")
        bw, bh = w * width, h * height
        value = corrected(path, number, cls + 1)
        labels.append(Label(value, (xc * width - bw / 2, yc * height - bh / 2, bw, bh)))
    return labels


def pictures(dirs: Iterable[pathlib.Path]) -> list[pathlib.Path]:
    """Every .jpg/.png picture in the folders, sorted."""
    found: list[pathlib.Path] = []
    for d in dirs:
        found.extend(p for p in d.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    return sorted(found)
