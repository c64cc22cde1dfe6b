"""The second look: a small learned classifier of face pictures, asked only about hard faces.

Why: the layout rules of :mod:`vision.rules.faces` never guess, so a face whose pips did not group
cleanly (a side face's pips joined it, a neighbour's pip sits beside it, one pip is blurred)
is reported unsure although a person sees its value at a glance. The second look is that
glance: the face is cut out of the picture, turned upright to a 20x20 patch (light pips are
inverted to dark, so one model reads every dice colour), and a small convolutional network
trained on the tuning photographs and on rendered dice says which value, or "no face", it
shows. It is asked in eight views (four quarter turns, each mirrored: a die's value does not
change with either). It is used in two ways (:mod:`vision.rules.reader`):

- an unsure face becomes a die only when every view is very sure of one value, and that value
  is one the pips the reader did find allow;
- a read with little margin, or from a group cut between touching dice, counts only when the
  views give its value a high probability; otherwise it is unsure (a wrong number is worse
  than "not sure"). A read with a clear margin is never second-guessed.

The weights (``second_look.npz``, about 200 kB) are made by :mod:`vision_lab.train_second_look`
from ``webcam-wood/Train`` and rendered scenes only; numpy runs them (no learning library at
run time). Loading them once is the only state here, and it is read-only.
"""

from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass

import cv2
import numpy as np

from engine.errors import VisionError
from vision.rules.faces.face import Face
from vision.rules.pips import DARK

PATCH = 20  # patch side in pixels
MARGIN = 1.15  # the patch shows the face grown by this factor (its edges show too)
ONE_SIDE = 4.44  # a face's side in pip diameters when its pips give no frame (a lone pip)
MODEL_PATH = pathlib.Path(__file__).resolve().parents[1] / "models" / "second_look.npz"
CLASSES = 7  # 0: no face, 1-6: the value


@dataclass(frozen=True)
class FaceModel:
    """A small convolutional network, run with numpy.

    PATCH x PATCH grey patch -> 3x3 convolution (``c1`` maps) + ReLU + 2x2 max pool -> 3x3
    convolution (``c2`` maps) + ReLU + 2x2 max pool -> ``hidden`` ReLU units -> CLASSES
    softmax. Weights are in PyTorch's layout (out, in, 3, 3) and (out, in), as trained.
    """

    conv1_w: np.ndarray
    conv1_b: np.ndarray
    conv2_w: np.ndarray
    conv2_b: np.ndarray
    fc1_w: np.ndarray
    fc1_b: np.ndarray
    fc2_w: np.ndarray
    fc2_b: np.ndarray

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """Class probabilities (n x CLASSES) for n flattened, normalised patches."""
        a = x.reshape(-1, PATCH, PATCH, 1).astype(np.float32)  # channels last
        a = _pool(np.maximum(_conv3x3(a, self.conv1_w) + self.conv1_b, 0.0))
        a = _pool(np.maximum(_conv3x3(a, self.conv2_w) + self.conv2_b, 0.0))
        flat = a.transpose(0, 3, 1, 2).reshape(len(a), -1)  # PyTorch flattens channels first
        h = np.maximum(flat @ self.fc1_w.T + self.fc1_b, 0.0)
        z = h @ self.fc2_w.T + self.fc2_b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=1, keepdims=True)

    def save(self, path: pathlib.Path) -> None:
        np.savez_compressed(path, **{k: getattr(self, k) for k in WEIGHTS})


WEIGHTS = ("conv1_w", "conv1_b", "conv2_w", "conv2_b", "fc1_w", "fc1_b", "fc2_w", "fc2_b")


def _conv3x3(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """A 'same' 3x3 convolution (cross-correlation, as PyTorch) of n x h x w x c maps."""
    n, h, wd, c = a.shape
    padded = np.pad(a, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # nine shifted copies side by side: each row holds its 3x3 neighbourhood as (ky, kx, c)
    cols = np.concatenate(
        [padded[:, dy : dy + h, dx : dx + wd, :] for dy in range(3) for dx in range(3)], axis=3
    )
    kernel = w.transpose(0, 2, 3, 1).reshape(len(w), 9 * c)  # out x (ky, kx, c)
    return (cols.reshape(n * h * wd, 9 * c) @ kernel.T).reshape(n, h, wd, len(w))


def _pool(a: np.ndarray) -> np.ndarray:
    """2x2 max pooling of n x h x w x c maps (h and w even)."""
    top = np.maximum(a[:, 0::2, 0::2], a[:, 0::2, 1::2])
    return np.maximum(top, np.maximum(a[:, 1::2, 0::2], a[:, 1::2, 1::2]))


@functools.lru_cache(maxsize=4)
def load_model(path: pathlib.Path = MODEL_PATH) -> FaceModel:
    """The weights in ``path`` (read once; a missing or broken file is a clear error)."""
    try:
        with np.load(path) as data:
            arrays = {k: data[k].astype(np.float32) for k in WEIGHTS}
    except (OSError, KeyError, ValueError) as exc:
        raise VisionError(
            f"The second-look weights {path} are missing or broken ({exc}); rebuild them with "
            "'python -m vision_lab.train_second_look' or reinstall bidou-table."
        ) from exc
    return FaceModel(**arrays)


def face_side(face: Face) -> float:
    """The face's side in working pixels: from its pip grid, or from its pip size if none."""
    side = face.side
    return side if side > 1.5 * face.pip_size else ONE_SIDE * face.pip_size


def patch(
    gray: np.ndarray,
    centre: tuple[float, float],
    side: float,
    polarity: int = DARK,
    angle: float = 0.0,
    flip: bool = False,
) -> np.ndarray:
    """The face around ``centre`` as a flattened PATCH x PATCH patch, zero mean, unit spread."""
    cx, cy = centre
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), PATCH / (MARGIN * side))
    m[0, 2] += PATCH / 2 - cx
    m[1, 2] += PATCH / 2 - cy
    p = cv2.warpAffine(
        gray, m, (PATCH, PATCH), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    if polarity != DARK:
        p = 255.0 - p
    if flip:
        p = p[:, ::-1]
    p -= p.mean()
    return (p / (p.std() + 4.0)).ravel()


def views(gray: np.ndarray, centre: tuple[float, float], side: float, polarity: int) -> np.ndarray:
    """Eight views of one face: four quarter turns, each also mirrored (8 x PATCH*PATCH)."""
    base = patch(gray, centre, side, polarity).reshape(PATCH, PATCH)
    out = []
    for k in range(4):
        turned = np.rot90(base, k)
        out.append(turned.ravel())
        out.append(turned[:, ::-1].ravel())
    return np.stack(out)


def look(gray: np.ndarray, face: Face, model: FaceModel) -> np.ndarray:
    """Per-view class probabilities (8 x CLASSES) of one face of the working picture."""
    centre = face.centre
    return model.probabilities(
        views(gray, (float(centre[0]), float(centre[1])), face_side(face), face.polarity)
    )
