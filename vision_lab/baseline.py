"""THE COMPARISON BASELINE, not the table's reader: "the common public recipe" for counting dice.

Why it is here: the report must say how :func:`vision.rules.reader.read_dice` compares with what
most
public dice-counting tutorials do, scored by the same evaluator (:mod:`vision_lab.evaluate`) on the
same pictures. The recipe, as usually published:

1. ``cv2.SimpleBlobDetector`` on the grey picture finds pips (dark blobs, filtered by area,
   circularity and inertia);
2. the pips are clustered by distance (DBSCAN with ``eps`` about 40 pixels on a 640-wide
   frame, each pip its own core point, i.e. single linkage);
3. each cluster is a die whose value is its number of pips (clusters of more than six are
   dropped).

It reads no white pips (it looks for dark blobs only), knows no die pattern and never says
"not sure". Nothing on the table calls it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import Die, Reading

#: DBSCAN eps of the recipe, for a frame 640 pixels wide (scaled with the frame).
EPS_AT_640 = 40.0


def _detector() -> cv2.SimpleBlobDetector:
    params = cv2.SimpleBlobDetector_Params()
    params.filterByColor = True
    params.blobColor = 0
    params.filterByArea = True
    params.minArea = 10
    params.maxArea = 400
    params.filterByCircularity = True
    params.minCircularity = 0.6
    params.filterByInertia = True
    params.minInertiaRatio = 0.5
    params.filterByConvexity = False
    return cv2.SimpleBlobDetector_create(params)


def read_dice_baseline(image: np.ndarray) -> Reading:
    """The public recipe: blob-detect pips, cluster them by distance, count pips per cluster."""
    height, width = image.shape[:2]
    scale = min(1.0, 640.0 / max(height, width))
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    if scale < 1.0:
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    keypoints = _detector().detect(gray)
    if not keypoints:
        return Reading(width=width, height=height)
    pts = np.array([k.pt for k in keypoints])
    sizes = np.array([k.size for k in keypoints])
    eps = EPS_AT_640 * max(gray.shape) / 640.0
    labels = _single_linkage(pts, eps)
    dice = []
    for label in np.unique(labels):
        members = labels == label
        count = int(members.sum())
        if count > 6:
            continue
        pad = sizes[members].max()
        x0, y0 = pts[members].min(axis=0) - pad
        x1, y1 = pts[members].max(axis=0) + pad
        box = tuple(int(round(v / scale)) for v in (x0, y0, x1 - x0, y1 - y0))
        dice.append(Die(count, box, 1.0))  # type: ignore[arg-type]
    return Reading(dice=tuple(dice), width=width, height=height)


def _single_linkage(pts: np.ndarray, eps: float) -> np.ndarray:
    """DBSCAN with min_samples=1: connected components of the 'closer than eps' graph."""
    n = len(pts)
    near = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1)) <= eps
    labels = np.full(n, -1)
    current = 0
    for start in range(n):
        if labels[start] >= 0:
            continue
        stack = [start]
        labels[start] = current
        while stack:
            i = stack.pop()
            for j in np.flatnonzero(near[i] & (labels < 0)):
                labels[j] = current
                stack.append(int(j))
        current += 1
    return labels
