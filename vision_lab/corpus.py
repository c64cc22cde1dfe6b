"""The training corpus of the learned reader: far wider than any one table.

Why: a reader tuned on one table reads that table. Every training sample here is drawn at
random, from a seeded generator, out of three kinds of source:

- **real photographs** of the Train splits, warped to a random die size, angle and place;
- **composites**: real die crops cut from those Train photographs, pasted onto made-up
  surfaces (felt of any colour, wood, cardboard, dark glass, trays with a rim and its shadow,
  paper) at any size and angle, with shadows;
- **rendered scenes** (:mod:`simulator.render`) with random dice and pip colours, surfaces,
  side faces, glare, touching dice and blur.

and then put through the same photometric changes: brightness, contrast, gamma, hue turns,
channel swaps, inverted colours (white pips on dark dice), grey, blur, noise and JPEG. Every
sample remembers the set it came from, so a leave-one-set-out model leaves out the
composites cut from that set too.

numpy and OpenCV only: the table never imports this, but tests can, without PyTorch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from simulator.render import DieSpec, Glare, SceneSpec, render_scene
from vision.calibrate.augment import camera_changes, smooth_noise
from vision.learned.crops import (
    SECOND_INPUT,
    SECOND_SCALE,
    face_crop,
)
from vision_lab.labels import LabelledDie, LabelledPicture

#: die face sizes, in pixels of the detector's input, that the detector is trained on
DETECT_SIZES = (10.0, 72.0)
#: classifier classes: 0 = not a die (or not one face), 1-6 = the value
NOT_A_DIE = 0


@dataclass(frozen=True)
class DieCrop:
    """A real die cut out of a Train photograph, for composites."""

    patch: np.ndarray  # BGR, square, side = 2 x size, die in the middle
    value: int
    size: float
    set_name: str


# ---------------------------------------------------------------------------------------------
# surfaces


def random_colour(rng: np.random.Generator) -> np.ndarray:
    """Any colour, with dull and dark ones as likely as bright ones."""
    hsv = np.array([[[rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(15, 245)]]],
                   np.float32)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A made-up table surface as float32 BGR 0-255."""
    kind = rng.choice(["felt", "wood", "cardboard", "glass", "tray", "paper", "cloth"])
    colour = random_colour(rng)
    if kind == "felt":
        shade = 1 + 0.06 * smooth_noise(rng, h, w, (5, 5))
        img = shade[:, :, None] * colour
        img += rng.standard_normal((h, w, 1)).astype(np.float32) * rng.uniform(2, 10)
    elif kind == "wood":
        colour = np.array([rng.uniform(40, 150), rng.uniform(80, 190), rng.uniform(120, 230)],
                          np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, math.pi)
        along = xx * math.cos(a) + yy * math.sin(a)
        period = rng.uniform(6, 40)
        warp = 8 * smooth_noise(rng, h, w, (3, 3))
        shade = 1 + 0.08 * np.sin(2 * math.pi * (along + warp) / period)
        shade += 0.05 * smooth_noise(rng, h, w, (2, 12))
        img = shade[:, :, None] * colour
    elif kind == "cardboard":
        shade = 1 + 0.05 * smooth_noise(rng, h, w, (8, 8)) + 0.03 * rng.standard_normal((h, w))
        img = shade[:, :, None].astype(np.float32) * colour
    elif kind == "glass":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        vignette = 1 - 0.4 * ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2)
        img = vignette[:, :, None] * (colour * 0.35)
    elif kind == "tray":
        img = np.ones((h, w, 1), np.float32) * colour
        img += rng.standard_normal((h, w, 1)).astype(np.float32) * rng.uniform(2, 8)
        rim = int(rng.uniform(0.05, 0.25) * min(h, w))
        side = int(rng.integers(4))
        rim_colour = colour * rng.uniform(0.4, 1.5)
        if side == 0:
            img[:rim] = rim_colour
            img[rim:rim + rim // 2] *= 0.6  # the rim's shadow
        elif side == 1:
            img[-rim:] = rim_colour
        elif side == 2:
            img[:, :rim] = rim_colour
            img[:, rim:rim + rim // 2] *= 0.6
        else:
            img[:, -rim:] = rim_colour
    elif kind == "paper":
        img = np.ones((h, w, 1), np.float32) * np.clip(colour + 120, 0, 255)
        img *= (1 + 0.04 * smooth_noise(rng, h, w, (3, 3)))[:, :, None]
    else:  # cloth: woven checks or stripes
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(3, 30)
        shade = 1 + 0.12 * (np.sin(2 * math.pi * xx / period) * np.sin(2 * math.pi * yy / period))
        img = shade[:, :, None] * colour
    return np.clip(img, 0, 255).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# photometric changes


#: the one augmentation of light and colour, shared with a table's teaching
photometric = camera_changes


# ---------------------------------------------------------------------------------------------
# die crops and composites


def centred_square(image: np.ndarray, centre: tuple[float, float], side: int) -> np.ndarray:
    """A ``side`` x ``side`` square of ``image`` centred on ``centre`` (edges reflected)."""
    m = np.float32([[1, 0, side / 2 - centre[0]], [0, 1, side / 2 - centre[1]]])
    return cv2.warpAffine(image, m, (side, side), borderMode=cv2.BORDER_REFLECT101)


def cut_crops(picture: LabelledPicture, image: np.ndarray) -> list[DieCrop]:
    """Each labelled die of a picture as a square patch twice its face size."""
    crops = []
    for die in picture.dice:
        side = int(round(2 * die.size))
        if side < 8:
            continue
        patch = centred_square(image, die.centre, side)
        crops.append(DieCrop(patch, die.value, die.size, picture.set_name))
    return crops


def _paste(canvas: np.ndarray, crop: DieCrop, centre: tuple[float, float], size: float,
           angle: float, rng: np.random.Generator) -> None:
    """Paste one die crop onto a float canvas, scaled to ``size``, with a soft round mask."""
    h, w = canvas.shape[:2]
    scale = size / crop.size
    side = crop.patch.shape[0]
    m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, scale)
    m[0, 2] += centre[0] - side / 2
    m[1, 2] += centre[1] - side / 2
    patch = cv2.warpAffine(crop.patch, m, (w, h), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT).astype(np.float32)
    mask = np.zeros((h, w), np.float32)
    radius = 0.78 * size * rng.uniform(0.95, 1.1)
    cv2.circle(mask, (int(centre[0]), int(centre[1])), int(radius), 1.0, -1, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.8, 0.06 * size))
    # a soft shadow first, off towards a random light
    shadow = np.zeros((h, w), np.float32)
    off = rng.uniform(0.05, 0.25) * size
    a = rng.uniform(0, 2 * math.pi)
    cv2.circle(shadow, (int(centre[0] + off * math.cos(a)), int(centre[1] + off * math.sin(a))),
               int(radius), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.2 * size))
    canvas *= (1 - rng.uniform(0.1, 0.5) * shadow)[:, :, None]
    canvas[:] = canvas * (1 - mask[:, :, None]) + patch * mask[:, :, None]


def composite(crops: list[DieCrop], rng: np.random.Generator, out: int,
              ) -> tuple[np.ndarray, list[LabelledDie]]:
    """Real die crops on a made-up surface: the image and its dice."""
    canvas = surface(rng, out, out)
    n = int(rng.integers(0, 9))
    size = math.exp(rng.uniform(math.log(DETECT_SIZES[0]), math.log(DETECT_SIZES[1])))
    placed: list[LabelledDie] = []
    for _ in range(n * 4):
        if len(placed) >= n:
            break
        s = size * rng.uniform(0.85, 1.15)
        c = (float(rng.uniform(-0.2 * s, out + 0.2 * s)),
             float(rng.uniform(-0.2 * s, out + 0.2 * s)))
        if any(math.dist(c, d.centre) < 0.95 * (s + d.size) for d in placed):
            continue
        crop = crops[int(rng.integers(len(crops)))]
        _paste(canvas, crop, c, s, float(rng.uniform(0, 360)), rng)
        placed.append(LabelledDie(crop.value, c, s))
    return np.clip(canvas, 0, 255).astype(np.uint8), placed


def rendered(rng: np.random.Generator, out: int) -> tuple[np.ndarray, list[LabelledDie]]:
    """A rendered scene with random dice: colours, sizes, side faces, touching, glare, blur."""
    size = math.exp(rng.uniform(math.log(DETECT_SIZES[0]), math.log(DETECT_SIZES[1])))
    dice = []
    n = int(rng.integers(0, 7))
    body, pips = random_colour(rng), random_colour(rng)
    while np.abs(body.mean() - pips.mean()) < 60:
        pips = random_colour(rng)
    side = float(rng.choice([0.0, rng.uniform(0.05, 0.35)]))
    sdir = float(rng.uniform(0, 360))
    for _ in range(n * 4):
        if len(dice) >= n:
            break
        s = size * rng.uniform(0.9, 1.1)
        c = (float(rng.uniform(0, out)), float(rng.uniform(0, out)))
        touching = rng.random() < 0.2
        if any(math.dist(c, d.centre) < (0.72 if touching else 1.1) * (s + d.size_px)
               for d in dice):
            continue
        dice.append(DieSpec(int(rng.integers(1, 7)), c, s, float(rng.uniform(0, 360)),
                            tuple(int(v) for v in body), tuple(int(v) for v in pips), side, sdir))
    glares = []
    if dice and rng.random() < 0.3:
        d = dice[int(rng.integers(len(dice)))]
        glares.append(Glare(d.centre, 0.3 * d.size_px, float(rng.uniform(0.4, 0.9))))
    spec = SceneSpec(size=(out, out), surface=str(rng.choice(["wood", "felt", "glass", "plain"])),
                     surface_colour=tuple(int(v) for v in random_colour(rng)), dice=tuple(dice),
                     glare=tuple(glares), noise=float(rng.uniform(0, 6)),
                     blur=float(rng.choice([0.0, rng.uniform(0.3, 1.2)])),
                     shadow=float(rng.uniform(0.1, 0.5)))
    image, truth = render_scene(spec, seed=int(rng.integers(1 << 30)))
    labelled = [LabelledDie(t.value, (t.box[0] + t.box[2] / 2, t.box[1] + t.box[3] / 2), d.size_px)
                for t, d in zip(truth, dice, strict=True)]
    return image, labelled


def warped_photo(picture: LabelledPicture, image: np.ndarray, rng: np.random.Generator,
                 out: int) -> tuple[np.ndarray, list[LabelledDie]]:
    """A real photograph turned, scaled to a random die size and cut to ``out`` x ``out``."""
    sizes = [d.size for d in picture.dice] or [40.0]
    target = math.exp(rng.uniform(math.log(DETECT_SIZES[0]), math.log(DETECT_SIZES[1])))
    scale = target / float(np.median(sizes))
    if picture.dice and rng.random() < 0.85:
        d = picture.dice[int(rng.integers(len(picture.dice)))]
        cx, cy = d.centre[0] + rng.normal(0, d.size), d.centre[1] + rng.normal(0, d.size)
    else:
        cx, cy = rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0])
    angle = float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 15))
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[0, 2] += out / 2 - cx
    m[1, 2] += out / 2 - cy
    if rng.random() < 0.5:  # mirror
        m[0] = -m[0]
        m[0, 2] += out
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    warped = cv2.warpAffine(image, m, (out, out), flags=interp, borderMode=cv2.BORDER_REFLECT101)
    dice = []
    for d in picture.dice:
        x, y = m @ np.array([d.centre[0], d.centre[1], 1.0])
        dice.append(LabelledDie(d.value, (float(x), float(y)), d.size * scale))
    return warped, dice


def inside(dice: list[LabelledDie], out: int) -> list[LabelledDie]:
    """The dice whose centre lies on an ``out`` x ``out`` sample."""
    return [d for d in dice if 0 <= d.centre[0] < out and 0 <= d.centre[1] < out]


# ---------------------------------------------------------------------------------------------
# classifier crops


def classifier_samples(image: np.ndarray, dice: list[LabelledDie], rng: np.random.Generator,
                       negatives: int = 1) -> list[tuple[np.ndarray, int]]:
    """Crops of every die (jittered as the detector would place them) and some that are not one,
    for the second opinion trained beside the detector (its own crop: ``SECOND_*``)."""
    out = []
    for d in dice:
        jitter = rng.normal(0, 0.08 * d.size, 2)
        size = d.size * math.exp(rng.normal(0, 0.12))
        crop = face_crop(image, (d.centre[0] + jitter[0], d.centre[1] + jitter[1]), size,
                         float(rng.uniform(0, 360)), bool(rng.random() < 0.5), SECOND_INPUT,
                         SECOND_SCALE)
        out.append((crop, d.value))
    h, w = image.shape[:2]
    typical = float(np.median([d.size for d in dice])) if dice else float(rng.uniform(12, 60))
    for _ in range(negatives):
        if dice and rng.random() < 0.5:  # part of a die, or the gap between two
            d = dice[int(rng.integers(len(dice)))]
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.65, 1.1) * d.size
            c = (d.centre[0] + r * math.cos(a), d.centre[1] + r * math.sin(a))
            size = d.size * rng.uniform(0.8, 1.2)
        else:
            c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
            size = typical * rng.uniform(0.6, 1.5)
        if any(math.dist(c, d.centre) < 0.55 * d.size for d in dice):
            continue
        out.append((face_crop(image, c, size, float(rng.uniform(0, 360)), False, SECOND_INPUT,
                              SECOND_SCALE), NOT_A_DIE))
    return out


def rendered_die(rng: np.random.Generator, size: float, side_dir: float | None = None,
                 ) -> tuple[np.ndarray, list[LabelledDie]]:
    """One rendered die in the middle of a small scene, maybe a neighbour touching it; a tilted
    die shows its sides towards ``side_dir`` degrees (90 = down the image), else any way."""
    side = int(4 * size) + 8
    body, pips = random_colour(rng), random_colour(rng)
    while np.abs(body.mean() - pips.mean()) < 50:
        pips = random_colour(rng)
    colours = (tuple(int(v) for v in body), tuple(int(v) for v in pips))
    angle = float(rng.uniform(0, 360))
    tilt = float(rng.choice([0.0, rng.uniform(0.05, 0.3)]))
    sdir = float(rng.uniform(0, 360))  # drawn even when given: the seeded stream stays as it was
    if side_dir is not None:
        sdir = side_dir
    dice = [DieSpec(int(rng.integers(1, 7)), (side / 2, side / 2), size, angle, *colours, tilt,
                    sdir)]
    if rng.random() < 0.3:
        a = math.radians(angle + 90 * int(rng.integers(4)))
        dice.append(DieSpec(int(rng.integers(1, 7)), (side / 2 + size * math.cos(a),
                                                      side / 2 + size * math.sin(a)),
                            size, angle + float(rng.normal(0, 5)), *colours, tilt, sdir))
    glares = ()
    if rng.random() < 0.2:
        spot = (side / 2 + rng.normal(0, 0.2 * size), side / 2 + rng.normal(0, 0.2 * size))
        glares = (Glare(spot, 0.3 * size, float(rng.uniform(0.3, 0.8))),)
    spec = SceneSpec(size=(side, side), surface=str(rng.choice(["wood", "felt", "glass", "plain"])),
                     surface_colour=tuple(int(v) for v in random_colour(rng)), dice=tuple(dice),
                     glare=glares, noise=float(rng.uniform(0, 5)),
                     shadow=float(rng.uniform(0.1, 0.5)))
    image, _ = render_scene(spec, seed=int(rng.integers(1 << 30)))
    return image, [LabelledDie(d.value, d.centre, d.size_px) for d in dice]
