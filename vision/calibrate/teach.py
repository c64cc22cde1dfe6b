"""Teach the face network the table's own dice: crops of its known throws, augmented, and a
short fine-tune of the whole network with a small learning rate.

Why: the network trained on other tables reads a make of dice it never saw poorly,
and no head on its features makes up for it; a few dozen pictures of the table's own dice,
each turned into hundreds of crops, teach the network itself. What is taught:

- **dice**: each known die at its place: a box from ``NAME.json`` when the throw has one,
  else the place the untaught reader matched to a known value
  (:func:`vision.calibrate.adapt.match`);
- **not a die**: the untaught reader's other places clear of every die in a picture whose
  every value found a place, the boxes ``NAME.json`` marks 0, the picture's background away
  from every die, and, where boxes give the dice's true sizes, side faces (a crop whose
  centre lies on a die's edge). A place matched to a value has the detector's rough size,
  so an edge reckoned from it may lie on the die's own top face: without boxes no side face
  is taught.

Each draw is augmented (:func:`augment`): turned up to 45 degrees either way (the picture's up
stays up, as the reader's views keep it), mirrored, resized, moved a little, and its light,
colour, sharpness and JPEG quality changed. Training: the head alone first (the network's
features of a fixed set of draws), then the whole network with the head, AdamW on a cosine
(:data:`STEPS`). What is judged and kept is :mod:`vision.calibrate.folds`' business.

PyTorch is imported inside the functions that train (the ``learn`` extra); building the
examples needs numpy and OpenCV only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.calibrate import network  # noqa: F401 - PyTorch's threads wait asleep (its docs)
from vision.calibrate.augment import camera_changes
from vision.learned.crops import FACE_INPUT, Pyramid, die_crop

Progress = Callable[[str, int, int], None]

#: fine-tuning batches of :data:`BATCH` crops (after the head's own fit)
STEPS = 120
BATCH = 32
#: the network's and the head's learning rates at the top of the cosine
LR, HEAD_LR = 1e-4, 1e-3
#: the head's own fit: draws per example, and passes over them
HEAD_DRAWS, HEAD_EPOCHS = 6, 60
#: a batch's share of dice (the rest: not a die)
DICE_SHARE = 0.65
#: a background crop's centre lies at least this many die sizes from every die
CLEAR_OF_DICE = 1.2
#: a side face's crop is centred this many die sizes from the die's centre
SIDE_OFFSET = 0.85
#: how far a die's draw moves (in its size, any direction) and resizes (log): as far as the
#: reader's places lie from the dice they read. Measured on webcam-wood's 60 known dice (the
#: left-out model's places matched to them, against the sets' boxes): a place lies a median
#: 0.12 of its size from the die's centre, 0.37 at the 90th percentile, and its size spans
#: 0.7-1.7 times the median place's (5th-95th percentile)
DIE_SHIFT, DIE_RESIZE = 0.2, 0.3
#: "not a die" drawn from each known die: off its centre by this much of its size (the die
#: at the crop's edge), and at these sizes times its own (a pip; the die small in a wide crop)
OFF_CENTRE = (0.55, 0.8)
WRONG_SIZES = ((0.08, 0.4), (2.2, 3.0))
#: near misses drawn per known die and picture (:func:`near_misses`)
NEAR_MISSES = 4
#: places of a picture's background taught as "not a die" (:func:`background`)
BACKGROUND = 12
#: which parameters train: all of them, or the first blocks (stem and blocks 0-4) and the head
PARTS = ("all", "first")
FIRST = ("backbone/_conv_stem/", *(f"backbone/_blocks/{i}/" for i in range(5)))


@dataclass(frozen=True)
class Example:
    """One crop to teach: which picture, where, how big, and the class (0 not a die, 1-6)."""

    picture: int
    centre: tuple[float, float]
    size: float
    cls: int


def background(image_shape: tuple[int, ...], dice: Sequence[Example], picture: int,
               rng: np.random.Generator, count: int) -> list[Example]:
    """Up to ``count`` places of the picture's background clear of its dice (no die in the
    crop), at the sizes of its dice."""
    if not dice:
        return []
    h, w = image_shape[:2]
    sizes = [d.size for d in dice]
    out = []
    for _ in range(count * 6):
        size = float(rng.choice(sizes)) * float(np.exp(rng.uniform(-0.2, 0.2)))
        centre = (float(rng.uniform(size / 2, w - size / 2)),
                  float(rng.uniform(size / 2, h - size / 2)))
        if all(math.dist(centre, d.centre) > CLEAR_OF_DICE * max(size, d.size) for d in dice):
            out.append(Example(picture, centre, size, 0))
            if len(out) == count:
                break
    return out


def side_faces(dice: Sequence[Example], rng: np.random.Generator) -> list[Example]:
    """For each die, one crop centred on its edge (below it more often than not, where a
    camera at an angle sees a side face), when no other die lies there."""
    out = []
    for d in dice:
        angle = rng.normal(math.pi / 2, 0.9)  # image y grows downwards: pi/2 is below
        centre = (d.centre[0] + SIDE_OFFSET * d.size * math.cos(angle),
                  d.centre[1] + SIDE_OFFSET * d.size * math.sin(angle))
        if all(math.dist(centre, o.centre) > 0.7 * o.size for o in dice if o is not d):
            out.append(Example(d.picture, centre, d.size, 0))
    return out


def near_misses(dice: Sequence[Example], rng: np.random.Generator,
                count: int = NEAR_MISSES) -> list[Example]:
    """For each die, ``count`` crops that hold it but are no die's place: centred off it
    (:data:`OFF_CENTRE`), or a pip's size or several dice's (:data:`WRONG_SIZES`). Why: taught
    only centred crops of dice, the network was as sure of the reader's off-centre and
    pip-sized places as of a die, and chose them in the reader's sizing (webcam-wood as a new
    table, 60 known dice: 43 right and 6 wrong on the reader's places, its own crops all
    right). A crop whose centre falls on another die is left out."""
    out = []
    for d in dice:
        for _ in range(count):
            angle = rng.uniform(0, 2 * math.pi)
            if rng.random() < 0.5:
                r = rng.uniform(*OFF_CENTRE) * d.size
                centre = (d.centre[0] + r * math.cos(angle), d.centre[1] + r * math.sin(angle))
                size = d.size
            else:
                low, high = WRONG_SIZES[int(rng.integers(len(WRONG_SIZES)))]
                size = d.size * float(rng.uniform(low, high))
                r = rng.uniform(0, 0.3) * d.size
                centre = (d.centre[0] + r * math.cos(angle), d.centre[1] + r * math.sin(angle))
            if all(math.dist(centre, o.centre) > 0.35 * o.size for o in dice if o is not d):
                out.append(Example(d.picture, centre, size, 0))
    return out


def augment(pyramid: Pyramid, ex: Example, rng: np.random.Generator) -> np.ndarray:
    """One augmented 64 px crop of ``ex`` (uint8 BGR): turned, mirrored, resized, moved, and
    through the camera's changes of light and colour (:func:`vision.calibrate.augment.
    camera_changes`, the table's own colours kept). A die moves and resizes as the reader's
    places do (:data:`DIE_SHIFT`, :data:`DIE_RESIZE`); no die a little."""
    spread, resize = (DIE_SHIFT, DIE_RESIZE) if ex.cls > 0 else (0.08, 0.15)
    size = ex.size * float(np.exp(rng.uniform(-resize, resize)))
    r, a = spread * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
    shift = np.array([r * math.cos(a), r * math.sin(a)]) * ex.size
    centre = (ex.centre[0] + float(shift[0]), ex.centre[1] + float(shift[1]))
    crop = die_crop(pyramid, centre, size, float(rng.uniform(-45, 45)), bool(rng.random() < 0.5),
                    FACE_INPUT)
    return camera_changes(crop, rng, wide=False)


def as_input(crops: Sequence[np.ndarray]) -> Any:
    """uint8 N x 64 x 64 x 3 BGR -> the network's float tensor N x 3 x 64 x 64 (0-255)."""
    import torch  # lazy: the learn extra's, only when a table is taught

    return torch.from_numpy(np.ascontiguousarray(np.stack(crops).transpose(0, 3, 1, 2),
                                                 dtype=np.float32))


def draws(pyramids: Sequence[Pyramid], examples: Sequence[Example], rng: np.random.Generator,
          count: int) -> tuple[list[np.ndarray], list[int]]:
    """``count`` augmented crops, :data:`DICE_SHARE` of them dice, with their classes."""
    dice = [e for e in examples if e.cls > 0]
    none = [e for e in examples if e.cls == 0] or dice
    crops, classes = [], []
    for _ in range(count):
        pool = dice if rng.random() < DICE_SHARE else none
        ex = pool[int(rng.integers(len(pool)))]
        crops.append(augment(pyramids[ex.picture], ex, rng))
        classes.append(ex.cls)
    return crops, classes


def fit_head(net: Any, pyramids: Sequence[Pyramid], examples: Sequence[Example],
             rng: np.random.Generator, progress: Progress | None = None) -> None:
    """The head alone on the network's features of :data:`HEAD_DRAWS` draws per example:
    it starts where the model's head is and moves to the table's dice first, so the network's
    fine-tune starts from a head that already reads them."""
    import torch  # lazy: the learn extra's, only when a table is taught
    import torch.nn.functional as F  # noqa: N812  # lazy: as above

    crops, classes = draws(pyramids, examples, rng, HEAD_DRAWS * len(examples))
    net.eval()
    feats = []
    with torch.no_grad():
        for i in range(0, len(crops), 64):
            feats.append(net.trunk(as_input(crops[i:i + 64])))
            if progress is not None:
                progress("fitting the head to the table's dice", i // 64 + 1,
                         -(-len(crops) // 64))
    x, y = torch.cat(feats), torch.tensor(classes)
    opt = torch.optim.Adam(net.fc.parameters(), lr=HEAD_LR)
    for _ in range(HEAD_EPOCHS):
        loss = F.cross_entropy(net.fc(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def fine_tune(net: Any, pictures: Sequence[np.ndarray], examples: Sequence[Example], *,
              steps: int = STEPS, part: str = "all", seed: int = 0,
              progress: Progress | None = None) -> Any:
    """Teach ``net`` (:func:`vision.calibrate.network.trainable`) the examples: the head
    first (:func:`fit_head`), then ``part`` of the network with the head for ``steps``
    batches, the learning rate along one cosine to nothing. ``net`` in eval mode after."""
    import torch  # lazy: the learn extra's, only when a table is taught
    import torch.nn.functional as F  # noqa: N812  # lazy: as above

    if part not in PARTS:
        raise ValueError(f"part {part!r} is not one of {', '.join(PARTS)}")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    pyramids = [Pyramid(p) for p in pictures]
    fit_head(net, pyramids, examples, rng, progress)
    trunk = [p for name, p in net.trunk.named_parameters()
             if part == "all" or name.startswith(FIRST)]
    for p in net.trunk.parameters():
        p.requires_grad = False
    for p in trunk:
        p.requires_grad = True
    opt = torch.optim.AdamW([{"params": trunk, "lr": LR},
                             {"params": list(net.fc.parameters()), "lr": HEAD_LR}],
                            weight_decay=1e-4)
    bases = [LR, HEAD_LR]
    net.train()
    for step in range(steps):
        crops, classes = draws(pyramids, examples, rng, BATCH)
        learn_step(opt, bases, step, steps,
                   F.cross_entropy(net(as_input(crops)), torch.tensor(classes)))
        if progress is not None:
            progress("teaching the network the table's dice", step + 1, steps)
    return net.eval()


def learn_step(opt: Any, bases: Sequence[float], step: int, steps: int, loss: Any) -> None:
    """One step of ``opt`` on ``loss``, each parameter group's learning rate at its base
    along one cosine to nothing over ``steps`` (every teaching at the table trains so)."""
    for group, base in zip(opt.param_groups, bases, strict=True):
        group["lr"] = base * 0.5 * (1 + math.cos(math.pi * step / steps))
    opt.zero_grad()
    loss.backward()
    opt.step()

