"""What a calibration teaches from the known pictures whose every die is boxed (as the
referee console's Dice page marks them), besides their values: the die finder, and pictures
made by pasting their dice onto the table's cloth.

Why apart from the folds (:mod:`vision.calibrate.folds`): both are asked of each fold and
of the last teaching alike, on the pictures that fold may see, never a held-out one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from vision.calibrate import finder, paste, teach
from vision.calibrate.adapt import Known
from vision.calibrate.teach import Example, Progress
from vision.learned.face_reader import Settings

#: the die finder is taught only from this many boxed pictures
FEWEST_BOXED = 4


def boxed(known: Sequence[Known], among: Iterable[int]) -> list[int]:
    """The pictures among ``among`` whose every die is boxed (``NAME.json``): the finder is
    taught on those alone, since a die without a box would be taught as background."""
    out = []
    for i in among:
        boxes = known[i].boxes
        if boxes is not None and sorted(v for _, v in boxes if v > 0) == sorted(known[i].values):
            out.append(i)
    return out


def teach_finder(settings: Settings, known: Sequence[Known], pictures: Sequence[np.ndarray],
                 among: Iterable[int], seed: int, progress: Progress,
                 made: Sequence[paste.Pasted] = ()) -> object | None:
    """The model's detector taught on the boxed pictures among ``among``
    (:mod:`vision.calibrate.finder`) and the pictures ``made`` of them, or None when fewer
    than :data:`FEWEST_BOXED` are boxed."""
    chosen = boxed(known, among)
    if len(chosen) < FEWEST_BOXED:
        return None
    det = finder.trainable(settings.model / "detector.onnx")
    spots = [finder.boxed_dice(known[i].boxes or ()) for i in chosen]
    spots += [[(c, s) for c, s, _ in m.dice] for m in made]
    return finder.fine_tune(det, [pictures[i] for i in chosen] + [m.image for m in made],
                            spots, steps=finder.STEPS, seed=seed, progress=progress)


def pasted(known: Sequence[Known], pictures: Sequence[np.ndarray], among: Iterable[int],
           backgrounds: Sequence[np.ndarray], seed: int,
           ) -> tuple[list[paste.Pasted], list[Example]]:
    """Pictures made of the boxed known pictures among ``among`` (:mod:`vision.calibrate.
    paste`) and what they teach the face network (their dice, near misses, background),
    numbered after ``pictures``: a fold pastes only dice it is taught, never a held-out one."""
    rng = np.random.default_rng(seed)
    chosen = [(i, [(((x + w / 2), (y + h / 2)), float(math.sqrt(w * h)), v)
                   for (x, y, w, h), v in known[i].boxes or () if v > 0])
              for i in boxed(known, among)]
    made = paste.paste_pictures(pictures, chosen, backgrounds, seed)
    ex = paste.examples(made, len(pictures))
    for k, m in enumerate(made):
        dice = [e for e in ex if e.picture == len(pictures) + k]
        ex += teach.near_misses(dice, rng) + teach.background(m.image.shape, dice,
                                                              len(pictures) + k, rng,
                                                              teach.BACKGROUND)
    return made, ex
