"""What the table's face network is taught from a boxed known throw: the reader's own places
on its dice, not the boxes.

Why: the network reads the die finder's proposals, each sized by the reader (one of four
sizes round the finder's, :data:`vision.learned.face_reader.SIZES`) and read in four views;
a box is another crop (centred on the pip pattern, sized by a person). So the pictures a
table is taught on are read as the table reads them (its finder, the untaught network sizing
the proposals), each place matched by its centre to a boxed die is taught as that die's value,
at the place's own centre and size, and a place clear of every die as "not a die". A boxed
die no place matched is taught at its box, so that the finder's misses are still taught. The
boxes serve only to match, and to teach the die finder (:mod:`vision.calibrate.finder`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vision.calibrate import teach
from vision.calibrate.adapt import Known, Seen
from vision.calibrate.teach import Example

#: a place is a boxed die's when its centre lies within this much of the die's size of the
#: die's centre, and its size within :data:`SIZE_RATIO` of the die's
CENTRE_WITHIN = 0.35
SIZE_RATIO = (0.6, 1.7)
#: a place this near a die (of its size) that is not its match is taught neither way
NEAR = 0.6


def box_dice(item: Known, picture: int) -> list[Example]:
    """The boxed dice (value 1-6) of a known throw, as examples at their boxes."""
    return [Example(picture, (x + w / 2, y + h / 2), float(math.sqrt(w * h)), value)
            for (x, y, w, h), value in item.boxes or () if value > 0]


def matched(place_centre: tuple[float, float], place_size: float, die: Example) -> bool:
    """Whether a reader's place is the die's: near its centre, about its size."""
    ratio = place_size / die.size
    return (math.dist(place_centre, die.centre) < CENTRE_WITHIN * die.size
            and SIZE_RATIO[0] <= ratio <= SIZE_RATIO[1])


def at_places(item: Known, seen: Seen, picture: int) -> list[Example]:
    """The examples of one boxed picture at the reader's places (module docstring): every
    place matched to a die as its value, a die no place matched at its box, and every place
    clear of the dice as not a die. A place cut by the picture's edge teaches nothing."""
    dice = box_dice(item, picture)
    out: list[Example] = []
    found = [False] * len(dice)
    for place in seen.places:
        if place.cut:
            continue
        mine = [j for j, d in enumerate(dice) if matched(place.centre, place.size, d)]
        if mine:
            j = min(mine, key=lambda j: math.dist(place.centre, dice[j].centre))
            found[j] = True
            out.append(Example(picture, place.centre, place.size, dice[j].cls))
        elif all(math.dist(place.centre, d.centre) > NEAR * max(place.size, d.size)
                 for d in dice):
            out.append(Example(picture, place.centre, place.size, 0))
    out += [d for d, f in zip(dice, found, strict=True) if not f]
    return out


def examples(known: Sequence[Known], seen: Sequence[Seen], pictures: Sequence[np.ndarray],
             among: Sequence[int], seed: int, background: int) -> list[Example]:
    """What the pictures ``among`` teach, each boxed one at the reader's places (``seen``,
    indexed as ``known``) with each die's near misses, side faces and background."""
    rng = np.random.default_rng(seed)
    out: list[Example] = []
    for i in among:
        dice = box_dice(known[i], i)
        out += at_places(known[i], seen[i], i)
        out += teach.side_faces(dice, rng) + teach.near_misses(dice, rng)
        out += teach.background(pictures[i].shape, dice, i, rng, background)
    return out
