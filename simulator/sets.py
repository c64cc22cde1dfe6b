"""Labelled sets of rendered scenes on disk: ``python -m simulator.sets DIR ...``.

Why: a reader is scored (``vision_lab.evaluate``) on pictures with labels beside them, in the
photographs' format (``NAME.txt``: ``CLASS XC YC W H`` per die, CLASS = value - 1). This
writes rendered scenes (:mod:`simulator.render`) in that format, so a condition the photographs
lack (felt, coloured dice, glare, side faces) can be scored like them. Apart from the
renderer because it is a command with files to write, not drawing.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
from collections.abc import Iterable, Sequence

import cv2

from simulator.random_scenes import random_scene
from simulator.render import DICE_COLOURS, SURFACES, TrueDie, render_scene


def yolo_labels(truth: Iterable[TrueDie], size: tuple[int, int]) -> str:
    """The truth as the photographs' labels: ``CLASS XC YC W H`` per line, 0-1, CLASS = value-1."""
    w, h = size
    lines = []
    for value, (x, y, bw, bh) in truth:
        lines.append(
            f"{value - 1} {(x + bw / 2) / w:.6f} {(y + bh / 2) / h:.6f} {bw / w:.6f} {bh / h:.6f}"
        )
    return "".join(line + "\n" for line in lines)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 640x480") from None
    return w, h


def main(argv: Sequence[str] | None = None) -> int:
    """Write scenes with YOLO labels beside them, to score a reader with ``vision_lab.evaluate``."""
    parser = argparse.ArgumentParser(
        prog="python -m simulator.sets",
        description="Write NAME.png scenes and NAME.txt labels (CLASS XC YC W H, as the photos).",
    )
    parser.add_argument("directory", metavar="DIR")
    parser.add_argument("--count", type=int, default=20, help="number of scenes (20)")
    parser.add_argument("--dice", type=int, default=6, help="dice per scene (6)")
    parser.add_argument("--size", type=_size, default=(640, 480), help="WIDTHxHEIGHT (640x480)")
    parser.add_argument("--surface", choices=SURFACES, default="wood")
    parser.add_argument("--colour", choices=[*DICE_COLOURS, "mixed"], default="white")
    parser.add_argument("--side", type=float, default=0.0, help="side faces, 0-0.6 (0)")
    parser.add_argument("--touching-pairs", type=int, default=0)
    parser.add_argument("--glare", type=int, default=0, help="glare spots per scene (0)")
    parser.add_argument("--light", type=float, default=0.0, help="lighting gradient, 0-1 (0)")
    parser.add_argument("--noise", type=float, default=2.0)
    parser.add_argument("--blur", type=float, default=0.0)
    parser.add_argument("--jpeg", type=int, default=None, metavar="QUALITY")
    parser.add_argument("--seed", type=int, default=0, help="first seed (0)")
    args = parser.parse_args(argv)
    out = pathlib.Path(args.directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for k in range(args.count):
            seed = args.seed + k
            spec = random_scene(
                seed, args.dice, size=args.size, surface=args.surface, colour=args.colour,
                side=args.side, touching_pairs=args.touching_pairs, glare=args.glare,
                light=(args.light, 30.0), noise=args.noise, blur=args.blur,
                jpeg_quality=args.jpeg,
            )
            image, truth = render_scene(spec, seed)
            if not cv2.imwrite(str(out / f"scene_{seed:05d}.png"), image):
                raise OSError(f"OpenCV could not write {out / f'scene_{seed:05d}.png'}")
            (out / f"scene_{seed:05d}.txt").write_text(yolo_labels(truth, spec.size))
    except (OSError, ValueError) as e:
        print(f"python -m simulator.sets: {e}", file=sys.stderr)
        return 1
    print(f"wrote {args.count} scenes with labels to {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
