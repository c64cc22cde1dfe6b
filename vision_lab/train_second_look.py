"""Build the second look's weights (``vision/models/second_look.npz``) from labelled photographs.

Why a script in the package: the weights are data made from ``webcam-wood/Train``, and anyone
must be able to make them again (fixed seeds; PyTorch trains, only for this script)::

    python -m vision_lab.train_second_look ../shared/dice/webcam-wood/Train

What it learns from, per photograph, with the reader's own faces so that the patches look like
the ones the reader asks about (:func:`vision.rules.reader.read_faces`):

- every face the reader finds on a labelled die, read or unsure, labelled with the die's value;
- every face it finds on no labelled die (a side face, a table mark, a lone pip) as "no face";
- labelled dice the reader found no face on, framed from their label box (values 2-6);
- patches of plain table away from every die, and patches half off a die, as "no face".

Each is seen in several random turns, mirrors, sizes and shifts. Only Train is used; Valid
stays held out for the figures in docs/vision.md.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import cv2
import numpy as np

from simulator.random_scenes import random_scene
from simulator.render import render_scene
from vision.rules.reader import ReaderSettings, read_faces
from vision.rules.second_look import CLASSES, MODEL_PATH, PATCH, FaceModel, face_side, patch
from vision_lab.evaluate import Label, load_labels

#: label box side -> face side, for a 2-6 (the box covers the pip pattern, not the face)
LABEL_TO_FACE = 1.42
#: the face side the reader gives a 2 or 3 (vision.rules.faces.read._frame), per length of its
#: diagonal
SIDE_PER_DIAGONAL = 1.185


def _matching_label(x: float, y: float, labels: list[Label]) -> Label | None:
    best, best_d = None, np.inf
    for label in labels:
        lx, ly, lw, lh = label.box
        mx, my = max(0.5 * lw, 6.0), max(0.5 * lh, 6.0)
        if lx - mx <= x <= lx + lw + mx and ly - my <= y <= ly + lh + my:
            d = np.hypot(x - (lx + lw / 2), y - (ly + lh / 2))
            if d < best_d:
                best, best_d = label, d
    return best


def _augmented(
    gray: np.ndarray,
    centre: tuple[float, float],
    side: float,
    polarity: int,
    count: int,
    rng: np.random.Generator,
) -> list[np.ndarray]:
    out = []
    for _ in range(count):
        dx, dy = rng.uniform(-0.08, 0.08, 2) * side
        out.append(
            patch(
                gray,
                (centre[0] + dx, centre[1] + dy),
                side * rng.uniform(0.85, 1.2),
                polarity,
                angle=rng.uniform(0, 360),
                flip=bool(rng.integers(2)),
            )
        )
    return out


def picture_samples(
    image: np.ndarray,
    labels: list[Label],
    rng: np.random.Generator,
    settings: ReaderSettings = ReaderSettings(),  # noqa: B008
    per_face: int = 12,
    face_boxes: bool = False,
) -> tuple[list[np.ndarray], list[int]]:
    """Training patches and classes (0 = no face, 1-6) of one labelled picture.

    The photographs' label boxes cover the pip pattern (a one's is often just its pip), the
    renderer's (``face_boxes``) the whole top face.
    """
    look = read_faces(image, settings)
    gray, scale = look.gray, look.scale
    xs: list[np.ndarray] = []
    ys: list[int] = []
    covered: set[int] = set()
    sides = []
    for face in look.faces:
        cx, cy = face.centre
        label = _matching_label(cx / scale, cy / scale, labels)
        side = face_side(face)
        sides.append(side)
        cls = 0 if label is None else label.value
        if label is not None:
            covered.add(id(label))
        count = per_face if cls else per_face // 2
        new = _augmented(gray, (cx, cy), side, face.polarity, count, rng)
        xs += new
        ys += [cls] * len(new)
        if face.value is not None and face.value >= 4 and cls == face.value:
            # one side of a 4 or 5, one column of a 6, framed as the reader frames a 2 or 3
            # whose other pips did not join: no face (its value is not what it shows)
            c = face.corners
            for k in range(4):
                a, b = c[k], c[(k + 1) % 4]
                mid = 0.5 * (a + b)
                xs += _augmented(
                    gray, (mid[0], mid[1]), SIDE_PER_DIAGONAL * float(np.hypot(*(b - a))),
                    face.polarity, 1, rng,
                )
                ys.append(0)
    for label in labels:
        lx, ly, lw, lh = (v * scale for v in label.box)
        centre = (lx + lw / 2, ly + lh / 2)
        side = (1.0 if face_boxes else LABEL_TO_FACE) * max(lw, lh)
        sides.append(side)
        if id(label) not in covered and (face_boxes or label.value > 1):
            new = _augmented(gray, centre, side, 0, per_face, rng)
            xs += new
            ys += [label.value] * len(new)
        # half off the die: an edge and some pips, no face to read
        for _ in range(2):
            a = rng.uniform(0, 2 * np.pi)
            off = rng.uniform(0.75, 1.0) * side
            shifted = (centre[0] + off * np.cos(a), centre[1] + off * np.sin(a))
            xs += _augmented(gray, shifted, side, 0, 1, rng)
            ys.append(0)
    h, w = gray.shape
    typical = float(np.median(sides)) if sides else 40.0
    centres = [
        ((lx + lw / 2) * scale, (ly + lh / 2) * scale)
        for lx, ly, lw, lh in (lb.box for lb in labels)
    ]
    tries = 0
    placed = 0
    while placed < 4 and tries < 50:
        tries += 1
        c = (rng.uniform(0, w), rng.uniform(0, h))
        if any(np.hypot(c[0] - x, c[1] - y) < 1.6 * typical for x, y in centres):
            continue
        xs += _augmented(gray, c, typical, 0, 1, rng)
        ys.append(0)
        placed += 1
    return xs, ys


#: rendered conditions the photographs lack, drawn at random for training (simulator.render)
RENDERED_COLOURS = ("white", "white", "blue", "red", "green", "black", "mixed")
RENDERED_SURFACES = ("wood", "felt", "glass", "plain")


def rendered_samples(
    scenes: int, seed: int = 2_000_000
) -> tuple[np.ndarray, np.ndarray]:
    """Patches of ``scenes`` random rendered scenes (seeds from ``seed`` on, far from the
    tests' and benchmarks' small seeds): every dice colour and surface, side faces, glare,
    touching pairs, blur, uneven light and JPEG."""
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for k in range(scenes):
        n = int(rng.integers(3, 13))
        spec = random_scene(
            seed + k,
            n,
            colour=str(rng.choice(RENDERED_COLOURS)),
            surface=str(rng.choice(RENDERED_SURFACES)),
            die_size=float(rng.uniform(26, min(70.0, np.sqrt(640 * 480 / (14.0 * n))))),
            touching_pairs=int(rng.integers(0, 2)) if n >= 2 else 0,
            side=float(rng.choice([0.0, 0.0, rng.uniform(0.05, 0.25)])),
            glare=int(rng.integers(0, 3)),
            light=(float(rng.uniform(0, 0.4)), float(rng.uniform(0, 360))),
            noise=float(rng.uniform(1, 4)),
            blur=float(rng.choice([0.0, rng.uniform(0.3, 1.3)])),
            jpeg_quality=int(rng.integers(60, 95)) if rng.random() < 0.5 else None,
        )
        image, truth = render_scene(spec, seed + k)
        labels = [Label(t.value, tuple(float(v) for v in t.box)) for t in truth]
        px, py = picture_samples(image, labels, rng, per_face=6, face_boxes=True)
        xs += px
        ys += py
    return np.stack(xs).astype(np.float32), np.array(ys)


def folder_samples(
    folder: pathlib.Path, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All patches of a folder: (patches, classes, index of the photograph of each)."""
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    groups: list[int] = []
    for k, jpg in enumerate(sorted(folder.glob("*.jpg"))):
        image = cv2.imread(str(jpg))
        if image is None:
            raise SystemExit(f"{jpg}: not a readable picture.")
        h, w = image.shape[:2]
        px, py = picture_samples(image, load_labels(jpg.with_suffix(".txt"), w, h), rng)
        xs += px
        ys += py
        groups += [k] * len(py)
    return np.stack(xs).astype(np.float32), np.array(ys), np.array(groups)


def train(
    x: np.ndarray,
    y: np.ndarray,
    *,
    maps: tuple[int, int] = (16, 32),
    hidden: int = 64,
    epochs: int = 15,
    seed: int = 0,
) -> FaceModel:
    """Train the network of :class:`FaceModel` with PyTorch (Adam, cosine rate, fixed seed).

    PyTorch is needed only here, to make the weights; the table runs them with numpy.
    """
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise SystemExit(
            "Training the second look needs PyTorch (the table itself does not): "
            "pip install torch --index-url https://download.pytorch.org/whl/cpu"
        ) from exc
    torch.manual_seed(seed)
    c1, c2 = maps
    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, c1, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(c1, c2, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Flatten(),
        torch.nn.Linear(c2 * (PATCH // 4) ** 2, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, CLASSES),
    )
    optimiser = torch.optim.Adam(net.parameters(), 2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    xt = torch.tensor(x, dtype=torch.float32).view(-1, 1, PATCH, PATCH)
    yt = torch.tensor(y, dtype=torch.long)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(yt), generator=generator)
        for start in range(0, len(yt), 256):
            batch = order[start : start + 256]
            optimiser.zero_grad()
            torch.nn.functional.cross_entropy(net(xt[batch]), yt[batch]).backward()
            optimiser.step()
        schedule.step()
    weights = [p.detach().numpy().astype(np.float32) for p in net.parameters()]
    return FaceModel(*weights)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision_lab.train_second_look", description=__doc__.splitlines()[0]
    )
    parser.add_argument("folder", type=pathlib.Path, help="labelled photographs (Train only)")
    parser.add_argument("--out", type=pathlib.Path, default=MODEL_PATH)
    parser.add_argument(
        "--rendered", type=int, default=300, help="rendered scenes to learn from (default 300)"
    )
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"{args.folder}: no such folder of labelled photographs.", file=sys.stderr)
        return 2
    real_x, real_y, _ = folder_samples(args.folder)
    drawn_x, drawn_y = rendered_samples(args.rendered)
    # the photographs count twice: they are what a camera sees, the renderer only widens it
    x = np.concatenate([real_x, real_x, drawn_x])
    y = np.concatenate([real_y, real_y, drawn_y])
    model = train(x, y)
    model.save(args.out)
    counts = ", ".join(f"{c}: {int((y == c).sum())}" for c in range(CLASSES))
    print(f"{len(y)} patches ({counts}) -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
