"""The dice reader: one pure function from a BGR picture to the dice on it.

Why a pure function: the table calls it on every camera frame, the CLI on files, the tests on
rendered scenes, and all of them must get the same answer for the same pixels. No I/O (but
for reading the second look's fixed weights from the package, once), no state between calls;
every tunable number lives in :class:`ReaderSettings`.

How (see docs/vision.md for the figures): the picture is scaled so its long side is
``work_size`` pixels; pip candidates of both polarities are found with black-hat / top-hat
contrast maps (:mod:`vision.rules.pips`); pips that share one face are grouped and the group must
fill exactly one legal 1-6 layout, with nothing pip-like where the layout has no pip
(:mod:`vision.rules.faces`); a group of two or three touching dice's pips is cut apart along
straight lines. A group that fails is shown to the second look (:mod:`vision.rules.second_look`), a
small network that reads it only when very sure, and is otherwise reported as
:class:`Unsure` with the reason: a wrong number moves chips, "not sure" only asks for another
look.

A uniform picture (lens cap, black frame) is an error, not an empty table: the camera is not
showing the table, and an empty reading would silently say "no dice".
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.picture import checked_picture
from vision.reading import Box, Die, Reading, Unsure
from vision.rules import second_look
from vision.rules.faces.face import CUT_BY_EDGE, GLARE, NO_PATTERN, TOO_MANY, Face, FaceRules
from vision.rules.faces.grid import face_outline
from vision.rules.faces.grouping import group_pips
from vision.rules.faces.one_per_die import one_face_per_die
from vision.rules.faces.read import read_group
from vision.rules.faces.touching import split_touching
from vision.rules.pips import contrast_maps, find_pips
from vision.rules.second_look import FaceModel, load_model


@dataclass(frozen=True)
class ReaderSettings:
    """Every tunable of the reader; sizes are in working pixels (long side = ``work_size``).

    The defaults are tuned on ``webcam-wood/Train`` only (docs/vision.md). Dice should show a
    top face about 20-70 working pixels wide: at the default ``work_size`` of 640, a 640x480
    webcam frame is read as is and a 12 MP frame is scaled down by about 6.
    """

    work_size: int = 640  # frames with a longer side are shrunk by an integer factor
    pip_window: int = 15  # square window of the contrast maps: a bit more than the largest pip
    min_contrast: int = 48  # grey levels between a pip and its face
    min_pip_area: int = 6  # pixels
    max_pip_area: int = 240  # pixels: the pip of a 1 on a die about 80 working pixels wide
    glare_area: int = 180  # pixels: the smallest saturated patch taken for a lamp's glare
    max_elongation: float = 1.7  # long / short axis: side-face pips are squashed
    min_fill: float = 0.45  # blob area / its box area
    split_level: float = 0.6  # a too long blob is cut again at this x its peak (merged pips)
    max_ring_spread: float = 0.7  # a pip's surroundings vary by at most this x its contrast
    max_ring_gap: float = 0.5  # ... and lie at most this x its contrast off its face level
    link_reach: float = 4.6  # linked pips are at most this many diameters apart
    size_ratio: float = 1.4  # ... with diameters within this ratio
    face_tolerance: float = 0.3  # ... face levels within this x their contrast
    ring_tolerance: float = 12.0  # ... ring colours within this many levels per channel
    contrast_ratio: float = 1.25  # ... contrasts within this ratio
    path_fraction: float = 0.4  # ... no mark stronger than this x their contrast between them
    path_step: float = 0.25  # ... and no step in grey level bigger than this x their contrast
    close_pips: float = 1.9  # ... unless closer than this many diameters (one face for sure)
    max_residual: float = 0.4  # a pip lies within this many grid units of its place
    max_skew: float = 1.5  # corner squares: opposite sides and diagonals within this ratio
    absent_fraction: float = 0.5  # where no pip belongs, contrast under this x the weakest pip
    unit_per_diameter: tuple[float, float] = (0.6, 2.6)  # plausible grid unit for the pip size
    one_unit: float = 1.2  # grid unit of a lone pip's guessed face, in pip diameters
    one_clear: float = 3.2  # a lone pip is a 1 only with no other mark this many diameters near
    stray_margin: float = 1.1  # no like pip inside the face grown by this factor
    perp_scale: float = 0.8  # the unseen diagonal of a 2 or 3, as a fraction of the seen one
    place_radius: int = 2  # a grid place is looked at within this many working pixels
    glare_level: int = 250  # grey level of a saturated (glare) pixel
    glare_fraction: float = 0.3  # a patch this x the pip contrast brighter than a coloured face
    min_confidence: float = 0.4  # a read face below this is reported unsure
    min_one_confidence: float = 0.85  # a lone pip is read as a 1 only this sure, else ignored
    same_die: float = 1.3  # read faces closer than this x their side are faces of one die...
    gap: int = 40  # ... unless a dark line this strong (grey levels) runs between them
    gap_fraction: float = 0.2  # ... or this x their level, when they lie as touching dice do
    slant_ratio: float = 1.15  # ... and the top face has pips this x rounder than the other's
    top_ratio: float = 1.12  # ... or else pips this x bigger
    side_smaller: float = 1.3  # ... pips this x bigger are the top face's even across a line
    top_brighter: float = 0.06  # ... or else a face brighter by this x the other's level...
    min_brighter: float = 4.0  # ... and by this many grey levels at least (lit from above)
    split_touching: bool = True  # cut the joined pips of 2-3 touching dice apart
    # (vision.rules.faces)
    second_look: bool = True  # ask the learned classifier about hard faces
    # (vision.rules.second_look)
    look_accept: float = 0.99  # an unsure face is read when the mean of its views is this sure
    look_agree: float = 0.9  # ... and every one of its eight views at least this sure
    look_confirm: float = 0.7  # a read less sure than this needs the second look to agree...
    look_confirmed: float = 0.9  # ... giving its value this mean probability over the views

    def rules(self) -> FaceRules:
        return FaceRules(
            link_reach=self.link_reach,
            size_ratio=self.size_ratio,
            face_tolerance=self.face_tolerance,
            ring_tolerance=self.ring_tolerance,
            contrast_ratio=self.contrast_ratio,
            path_fraction=self.path_fraction,
            path_step=self.path_step,
            close_pips=self.close_pips,
            max_residual=self.max_residual,
            max_skew=self.max_skew,
            absent_fraction=self.absent_fraction,
            unit_per_diameter=self.unit_per_diameter,
            one_unit=self.one_unit,
            one_clear=self.one_clear,
            slant_ratio=self.slant_ratio,
            stray_margin=self.stray_margin,
            perp_scale=self.perp_scale,
            glare_level=self.glare_level,
            glare_fraction=self.glare_fraction,
        )


def read_dice(image: np.ndarray, settings: ReaderSettings = ReaderSettings()) -> Reading:  # noqa: B008
    """Read every die on a BGR (or grey) picture: values, boxes in input pixels, confidence.

    Raises :class:`VisionError` for a missing, empty, wrongly shaped or typed, or uniform image.
    """
    look = read_faces(image, settings)
    model = load_model() if settings.second_look else None
    width, height, scale = look.width, look.height, look.scale
    dice: list[Die] = []
    unsure: list[Unsure] = []
    for face in look.faces:
        box = _box(face_outline(face.corners), scale, width, height)
        if face.value == 1 and face.confidence < settings.min_one_confidence:
            continue  # a faint lone mark on the table (a knot, a screw) is not a place to look at
        if face.value is not None and face.confidence >= settings.min_confidence:
            doubtful = face.confidence < settings.look_confirm or face.cut
            if doubtful and not _confirmed(look, face, model, settings):
                unsure.append(Unsure(box, f"a {face.value} the second look does not confirm"))
            else:
                dice.append(Die(face.value, box, round(face.confidence, 3)))
            continue
        if face.value is None and face.pip_count == 1:
            continue  # a lone mark that is no clean 1 is just a mark, not a place to look at
        value = _value_seen(look, face, model, settings)
        if value is not None:
            dice.append(Die(value, box, round(settings.min_confidence, 3)))
        elif face.value is not None:
            unsure.append(Unsure(box, f"a {face.value} read with too little confidence"))
        else:
            unsure.append(Unsure(box, face.reason or "the pips do not form a die pattern"))
    dice.sort(key=lambda d: (d.box[1], d.box[0]))
    unsure.sort(key=lambda u: (u.box[1], u.box[0]))
    return Reading(dice=tuple(dice), unsure=tuple(unsure), width=width, height=height)


def _confirmed(
    look: FaceLook, face: Face, model: FaceModel | None, settings: ReaderSettings
) -> bool:
    """Whether the second look agrees with a value the rules read with little margin.

    Asked about reads under ``look_confirm`` and about faces read from a group cut between
    touching dice (a glare that took one pip let a cut share a 2 out of two dice on a rendered
    cluster). On Train every read of the rules scored 0.67 or
    more; in 1,500 rendered scenes of every hard condition the only reads under 0.7 were three
    wrong ones (a 5 whose middle pip a glare washed out, read as a 4), and the second look
    gave their value 0.61 at most. Asking it about every 1 as well was tried and dropped: it
    caught the false 1s on Train but lost four real 1s on the held-out pictures
    (docs/vision.md). Without the second look (``second_look=False``) a read stands.
    """
    if model is None or face.value is None:
        return True
    views = second_look.look(look.gray, face, model)
    return bool(views.mean(axis=0)[face.value] >= settings.look_confirmed)


def _value_seen(
    look: FaceLook, face: Face, model: FaceModel | None, settings: ReaderSettings
) -> int | None:
    """The value the second look reads on an unsure face, only when it is very sure.

    Asked only about a group of two or more pips that the layout rules could not read (a lone
    pip is too little to go on; a face the reader split off a die, with no pips of its own, or
    cut by the picture's edge is not a whole face; under glare a second look at the same pixels
    cannot see a washed-out pip either). The value must be 2 or more, at least the
    number of pips grouped (a side face's pips that joined the group can look like a face of
    their own: a 1 with two side-face pips read as a 2 on the tuning photographs), and match
    the reader's own low-confidence value when it has one.
    """
    if model is None or face.pip_count < 2 or face.reason in (CUT_BY_EDGE, GLARE):
        return None
    views = second_look.look(look.gray, face, model)
    mean = views.mean(axis=0)
    value = int(mean.argmax())
    if value < 2 or mean[value] < settings.look_accept:
        return None
    if (views.argmax(axis=1) != value).any() or views[:, value].min() < settings.look_agree:
        return None
    if face.value is not None and face.value != value:
        return None
    if value < face.pip_count:
        return None  # fewer pips than grouped: it may be reading a side face among them
    return value


@dataclass(frozen=True)
class FaceLook:
    """The faces found on one picture, in working pixels, before they become dice and places.

    Kept apart from :func:`read_dice` so the second look (:mod:`vision.rules.second_look`) and its
    training read exactly the faces the reader reads.
    """

    faces: tuple[Face, ...]
    gray: np.ndarray  # the working-scale grey picture the faces are in
    scale: float  # working pixels per input pixel
    width: int  # input picture size
    height: int


def read_faces(image: np.ndarray, settings: ReaderSettings = ReaderSettings()) -> FaceLook:  # noqa: B008
    """Find pips, group them and read each group as a face (see the module docstring)."""
    colour = checked_picture(image)
    height, width = colour.shape[:2]
    # an integer shrink factor takes OpenCV's fast path for area averaging (a 12 MP frame
    # becomes 572x429 in a few milliseconds instead of tens)
    factor = -(-max(height, width) // settings.work_size)
    scale = 1.0 / factor
    if factor > 1:
        colour = cv2.resize(colour, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        scale = colour.shape[1] / width
    if colour.ndim == 2:
        gray = colour
        colour = colour[:, :, None]
    else:
        gray = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    maps = contrast_maps(
        gray,
        settings.pip_window,
        colour,
        settings.place_radius,
        settings.glare_level,
        settings.glare_area,
    )
    pips = find_pips(
        maps,
        min_contrast=settings.min_contrast,
        min_area=settings.min_pip_area,
        max_area=settings.max_pip_area,
        max_elongation=settings.max_elongation,
        min_fill=settings.min_fill,
        max_ring_spread=settings.max_ring_spread,
        max_ring_gap=settings.max_ring_gap,
        split_level=settings.split_level,
    )
    rules = settings.rules()
    faces: list[Face] = []
    for group in group_pips(pips, maps, rules):
        face = read_group(group, pips, maps, rules)
        if settings.split_touching and face.value is None and face.reason in (NO_PATTERN, TOO_MANY):
            parts = split_touching(group, pips, maps, rules)
            if parts is not None:
                faces += parts
                continue
        faces.append(face)
    faces = one_face_per_die(
        faces,
        maps,
        same_die=settings.same_die,
        top_ratio=settings.top_ratio,
        gap=settings.gap,
        gap_fraction=settings.gap_fraction,
        slant_ratio=settings.slant_ratio,
        side_smaller=settings.side_smaller,
        top_brighter=settings.top_brighter,
        min_brighter=settings.min_brighter,
    )
    return FaceLook(tuple(faces), gray, scale, width, height)


def _box(outline: np.ndarray, scale: float, width: int, height: int) -> Box:
    pts = outline / scale
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, width), min(y1, height)
    return (int(x0), int(y0), int(max(x1 - x0, 1)), int(max(y1 - y0, 1)))
