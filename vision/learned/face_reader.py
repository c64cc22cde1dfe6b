"""The dice reader on a pretrained network: propose, read each place, one rule decides.

Why this shape: a reader that stacks special cases on a classifier trained from random
weights has that classifier as its ceiling; here the classifier is a pretrained network
(:mod:`vision.learned.face_model`) and the reader does only what it must:

1. **Propose** dice with the detector (:func:`vision.learned.networks.detect`) at the scales where a
   die between ``min_die`` and ``max_die`` falls inside the detector's range; when the die size
   is known (a seat's zone, :func:`vision.zones`), at the one scale that makes it the size the
   networks were trained on, so a 12 MP frame costs its zones, not its pixels.
2. **Size** each proposal: cut upright at a few sizes around the detector's, kept at the one
   the network takes most surely for a die; a place it takes for no die even there is not read
   further. A seat's zone, whose dice's size is known, needs no sizing.
3. **Read** each place as the network was trained: a 64 px crop of 1.5 x the face around
   it, turned a little either way (never far: the picture's up stays up, so a side face is
   "not a die"), each also mirrored, the head's calibrated probabilities averaged over the
   four views.
4. **Decide**, one rule (:mod:`vision.learned.decision`): which places are dice, and which
   of them are sure of their value.

The thresholds come with the model (``reader.json``, chosen on a calibration split cut from
Train, never Valid) or from the table's own calibration (``NAME.head.npz`` and
``NAME.reader.json`` beside the config ``NAME.toml``, :mod:`vision.calibrate.adapt`).
"""

from __future__ import annotations

import functools
import math
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from engine.errors import VisionError
from vision.learned.crops import Pyramid, die_crop
from vision.learned.decision import (
    DEFAULTS,
    SAME_DIE,
    Place,
    decide,
    floored,
    lowest_score,
    may_be_valued,
)
from vision.learned.face_model import (
    FACE_INPUT,
    FaceNetwork,
    Head,
    face_network,
    load_head,
    with_model_die,
)
from vision.learned.networks import MODELS, Candidate, detect, session
from vision.learned.opinions import READ, TURNS, asked
from vision.learned.pip_count import count_pips
from vision.learned.table_files import (
    FINDER,
    check_fitted_for,
    die_sizes,
    floor_of,
    read_thresholds,
    table_network,
    thresholds_path,
)
from vision.picture import checked_picture
from vision.reading import Reading

#: the die sizes, in pixels of its input, the detector reads best
DETECT_RANGE = (12.0, 60.0)
#: a known die size is read at the scale that makes it this many pixels for the detector
DETECT_AT = 28.0
SCALE_STEP = 2.0
#: at most this many proposals per picture are read, the detector's surest first
MAX_PROPOSALS = 120
#: ... and less than this factor apart in size
SAME_SIZE = 1.6
#: how far the network's views of a place are turned either way (degrees, :data:`VIEWS`)
VIEW_TURN = 12.0



@dataclass(frozen=True)
class Settings:
    """What a person or the table might change.

    ``die_size``: the face size in pixels when it is known (a seat's zone), else the reader
    looks for any size from ``min_die`` to ``max_die``. ``None`` thresholds take the
    model's (``reader.json``). ``head``: a table's own head (:mod:`vision.calibrate.adapt`) instead
    of
    the model's.
    """

    min_die: float = 12.0
    max_die: float = 300.0
    die_size: float | None = None
    min_value: float | None = None
    not_a_die: float | None = None
    detect: float | None = None
    sure_die: float | None = None
    agree: float | None = None
    model: pathlib.Path = field(default=MODELS)
    head: pathlib.Path | None = None


class Model:
    """A model folder's detector, face network, head and thresholds, loaded once."""

    def __init__(self, folder: pathlib.Path, head: pathlib.Path | None = None) -> None:
        missing = [n for n in ("detector.onnx", "faces.onnx", "head.npz")
                   if not (folder / n).is_file()]
        if missing:
            raise VisionError(f"the dice reader's model is incomplete: {', '.join(missing)} "
                              f"missing in {folder}; reinstall bidou-table.")
        own = thresholds_path(head) if head else None
        #: the table's own networks (``bidou-table calibrate`` taught them), named in its
        #: thresholds file; else the model's
        table_faces = table_network(own, head) if own is not None else None
        table_finder = table_network(own, head, FINDER) if own is not None else None
        self.detector = session(table_finder or folder / "detector.onnx")
        self.faces: FaceNetwork = face_network(table_faces or folder / "faces.onnx")
        self.head: Head = load_head(head or folder / "head.npz", self.faces.features)
        # with the model's network, the model's own head sizes the proposals and says whether
        # each is a die, whatever head reads them: so a head fitted alone changes the value a
        # place reads, never where it is nor whether it is a die (vision.learned.
        # face_model.with_model_die says why); a taught network and its head do all of it
        self.sizer: Head = self.head if head is None or table_faces else load_head(
            folder / "head.npz", self.faces.features)
        #: the network the table's was taught from, and its head: the untaught opinion
        #: (:mod:`vision.learned.opinions`), where the table has its own network
        self.untaught: tuple[FaceNetwork, Head] | None = None
        if table_faces is not None:
            base = face_network(folder / "faces.onnx")
            self.untaught = (base, load_head(folder / "head.npz", base.features))
        self.thresholds = dict(DEFAULTS)
        for source in (folder / "reader.json", own):
            if source is not None and source.is_file():
                self.thresholds.update(read_thresholds(source, DEFAULTS))
        #: the floor the thresholds are kept no looser than
        #: (:func:`vision.learned.table_files.floor_of`), None: none
        self.floor = floor_of(folder, own, table_finder is not None)
        #: the table's dice sizes in pixels (its calibration's ``die_sizes``), or None
        self.die_sizes = die_sizes(own) if own is not None and own.is_file() else None
        if own is not None and own.is_file():
            check_fitted_for(own, folder / "faces.onnx", head)


@functools.lru_cache(maxsize=8)
def load(folder: pathlib.Path = MODELS, head: pathlib.Path | None = None) -> Model:
    return Model(folder, head)


def thresholds_of(model: Model, settings: Settings) -> dict[str, float]:
    """The model's thresholds, with the table's own and those the settings give instead,
    none looser than the model's floor (:attr:`Model.floor`): a config's line cannot give a
    value the floor measured to be wrong too often on a new make of dice."""
    given = {k: v for k in DEFAULTS if (v := getattr(settings, k, None)) is not None}
    return floored({**model.thresholds, **given}, model.floor)


def scales(width: int, height: int, settings: Settings) -> list[float]:
    """The scales a picture is read at, finest first, a factor ``SCALE_STEP`` apart."""
    if settings.die_size:
        return [DETECT_AT / settings.die_size]
    lo, hi = DETECT_RANGE
    scale = lo / settings.min_die
    out = []
    while True:
        out.append(scale)
        if settings.max_die * scale <= hi or min(width, height) * scale < 2 * lo:
            return out
        scale /= SCALE_STEP


def propose(image: np.ndarray, model: Model, settings: Settings, min_score: float,
            ) -> list[Candidate]:
    """Die candidates over all scales, the surest first, one per die."""
    found: list[Candidate] = []
    lo, hi = DETECT_RANGE
    levels = scales(image.shape[1], image.shape[0], settings)
    for scale in levels:
        for c in detect(model.detector, image, scale, min_score):
            s = c.size * scale
            if (s < lo * 0.8 and scale != levels[0]) or (s > hi * 1.25 and scale != levels[-1]):
                continue
            found.append(c)
    found.sort(key=lambda c: -c.score)
    kept: list[Candidate] = []
    for c in found:
        if not any(math.dist(c.centre, k.centre) < SAME_DIE * max(c.size, k.size)
                   and max(c.size, k.size) < SAME_SIZE * min(c.size, k.size) for k in kept):
            kept.append(c)
        if len(kept) >= MAX_PROPOSALS:
            break
    return kept


#: (centre, size, detector score) of a place to read
Spot = tuple[tuple[float, float], float, float]

#: the views the network reads of one place, (turn in degrees, mirrored): a little turned
#: either way, each also mirrored. Why turned: on the calibration split (model of 4 December
#: 2026, thresholds chosen again for each) the four of these read 495 of 659 dice within the
#: wrong budget where upright + mirrored read 411; two turned views read 451-467, six 483
VIEWS = ((-VIEW_TURN, False), (VIEW_TURN, False), (-VIEW_TURN, True), (VIEW_TURN, True))


def view_crops(pyramid: Pyramid, centre: tuple[float, float], size: float) -> list[np.ndarray]:
    """The views (:data:`VIEWS`) the network reads of one place."""
    return [die_crop(pyramid, centre, size, turn, mirror, FACE_INPUT) for turn, mirror in VIEWS]


def _probabilities(model: Model, features: np.ndarray) -> np.ndarray:
    """Places' probabilities from their views' features (places x views x F), the views
    averaged; a head fitted alone: its values, the model's "a die?", each averaged before
    they are put together, as calibration judged the head (:func:`vision.calibrate.adapt.tally`)."""
    places, n, width = features.shape
    flat = features.reshape(places * n, width)
    probs = model.head.probabilities(flat).reshape(places, n, -1).mean(axis=1)
    if model.head is not model.sizer:  # a table's head: the value is its, "a die?" the model's
        die = model.sizer.probabilities(flat).reshape(places, n, -1).mean(axis=1)
        probs = with_model_die(die, probs)
    return probs


def read_places(image: np.ndarray, places: list[Spot], model: Model, pips: bool = True,
                opinions: bool = True, thresholds: Mapping[str, float] | None = None,
                ) -> list[Place]:
    """Read each (centre, size, detector score) in its views (:data:`VIEWS`); with ``pips``
    count its pips where they could change the decision (:func:`counted`); with
    ``opinions`` ask the other opinions of each place that could be given a value
    (:mod:`vision.learned.opinions`), its pips among them. With the ``thresholds`` the
    reading is decided at, only the opinions they ask (a threshold under 1), and only of the
    places they could give a value (:func:`vision.learned.decision.may_be_valued`): the
    opinions of any other place never change the reading, and they cost a taught table
    more network time than its places' own views."""
    if not places:
        return []
    pyramid = Pyramid(image)
    views = [view_crops(pyramid, centre, size) for centre, size, _ in places]
    crops = np.stack([v for vs in views for v in vs])
    n = len(VIEWS)
    features = model.faces.embed(crops).reshape(len(places), n, -1)
    probs = _probabilities(model, features)
    h, w = image.shape[:2]
    cuts = [centre[0] - size / 2 < 0 or centre[1] - size / 2 < 0 or centre[0] + size / 2 > w
            or centre[1] + size / 2 > h for centre, size, _ in places]
    t = {**DEFAULTS, **thresholds} if thresholds is not None else dict.fromkeys(READ, 0.0)
    ask = [i for i, p in enumerate(probs) if opinions and asked(p) and (
        thresholds is None or may_be_valued(places[i][2], p, cuts[i], t))]
    turned: dict[int, np.ndarray] = {}
    untaught: dict[int, np.ndarray] = {}
    if ask and t["turned"] < 1.0:
        turns = np.stack([die_crop(pyramid, places[i][0], places[i][1], turn, False, FACE_INPUT)
                          for i in ask for turn in TURNS])
        # the network's own head (a head fitted alone changes values, not this opinion)
        read = model.sizer.probabilities(model.faces.embed(turns)).reshape(len(ask), len(TURNS),
                                                                           -1)
        turned = dict(zip(ask, read, strict=True))
    if ask and model.untaught is not None and t["untaught"] < 1.0:
        net, head = model.untaught
        mine = np.stack([v for i in ask for v in views[i]])
        read = head.probabilities(net.embed(mine)).reshape(len(ask), n, -1).mean(axis=1)
        untaught = dict(zip(ask, read, strict=True))
    by_pips = set(ask) if t["pips"] < 1.0 else set()
    out = []
    for i, ((centre, size, score), p, f) in enumerate(zip(places, probs, features, strict=True)):
        count = (count_pips(pyramid, centre, size)
                 if (pips and counted(p)) or i in by_pips else None)
        out.append(Place(centre, size, score, p, f.mean(axis=0), cuts[i], f, count,
                         turned.get(i), untaught.get(i)))
    return out


#: a place's pips are counted only where their word could change the decision: its best
#: value under this (no ``min_value`` is stricter, so such a value is given without them) and
#: "not a die" under this (no ``not_a_die`` is looser); so a sure die, or a place surely no
#: die, costs no count
COUNTED = (0.999, 0.7)


def counted(probs: np.ndarray) -> bool:
    """Whether a place with these probabilities has its pips counted (:data:`COUNTED`)."""
    return float(probs[1:].max()) < COUNTED[0] and float(probs[0]) < COUNTED[1]


#: a proposal is cut at these times the detector's size, upright, and read at the one the
#: network takes most surely for a die (the detector's size is rough: a quarter small on most
#: dice of the calibration split, half on one in ten). With 1.6 too the calibration split read
#: 509 dice within the wrong budget, 495 without it, 449 with 2.0 as well (4 December 2026)
SIZES = (0.8, 1.0, 1.25, 1.6)
#: a place the model's own head takes for no die at its best size at least this surely is not
#: read in its views: the calibration split (int8 network, 4 December 2026, detect 0.2) read
#: the same 508 dice within the budget with the views read for 30% of the places as for all
#: of them, and the same at 0.5 (22%); 0.9 keeps a margin over the grid's loosest
#: ``not_a_die`` (0.7). So with a table's own head too, since whether a place is a die is
#: always the model's head's (:func:`vision.learned.face_model.with_model_die`)
NO_DIE_AT_SIZING = 0.9


def sized(image: np.ndarray, proposed: list[Candidate], model: Model,
          die_size: float | None = None) -> tuple[list[Spot], np.ndarray]:
    """Each proposal as (centre, size, score), at the size of :data:`SIZES` whose upright
    crop the model's own head (:attr:`Model.sizer`) takes most surely for a die, with that
    crop's "not a die" probability. A known ``die_size`` (a seat's zone, whose dice the
    zone reader has sized before) is every proposal's size, and costs no crop."""
    if die_size is not None:  # no crop, so none is taken for no die here
        return ([(c.centre, die_size, c.score) for c in proposed],
                np.zeros(len(proposed), np.float32))
    if not proposed:
        return [], np.zeros(0, np.float32)
    pyramid = Pyramid(image)
    crops = np.stack([die_crop(pyramid, c.centre, c.size * k, 0.0, False, FACE_INPUT)
                      for c in proposed for k in SIZES])
    probs = model.sizer.probabilities(model.faces.embed(crops)).reshape(len(proposed),
                                                                       len(SIZES), -1)
    best = probs[:, :, 0].argmin(axis=1)
    spots = [(c.centre, c.size * SIZES[b], c.score) for c, b in zip(proposed, best, strict=True)]
    return spots, probs[np.arange(len(proposed)), best, 0]


def look(image: np.ndarray, model: Model, settings: Settings, min_score: float,
         every_place: bool = False, pips: bool = True, opinions: bool = True,
         thresholds: Mapping[str, float] | None = None) -> list[Place]:
    """The proposals read: what :func:`decide` needs, but for places the model's own head has
    already taken for no die (:data:`NO_DIE_AT_SIZING`); ``every_place`` for what fits a head
    (a table's calibration, the recipe's refit), which learns from those too. ``pips``: the
    places' pips counted, which whatever chooses ``agree`` needs, and a reading only where
    its ``agree`` is under 1; ``opinions``: the other opinions asked
    (:mod:`vision.learned.opinions`), which whatever chooses their thresholds needs, and a
    reading only where one is under 1; ``thresholds``: the ones the reading is decided at,
    which ask fewer opinions (:func:`read_places`)."""
    proposed = propose(image, model, settings, min_score)
    own = model.die_sizes if settings.die_size is None else None  # a table's own dice
    if own is not None:  # a proposal no size of SIZES brings among them is not cut
        low, high = own
        proposed = [c for c in proposed if c.size * SIZES[-1] >= low and c.size * SIZES[0] <= high]
    spots, no_die = sized(image, proposed, model, settings.die_size)
    if own is not None:
        keep = [low <= size <= high for _, size, _ in spots]
        spots = [s for s, k in zip(spots, keep, strict=True) if k]
        no_die = no_die[np.asarray(keep, bool)] if len(keep) else no_die
    if not every_place:
        spots = [s for s, p in zip(spots, no_die, strict=True) if p < NO_DIE_AT_SIZING]
    return read_places(image, spots, model, pips, opinions, thresholds)


def read_dice(image: np.ndarray, settings: Settings | None = None) -> Reading:
    """Every die on the picture with its value and confidence, and the places it is not sure
    of. Raises :class:`VisionError` for a picture that cannot hold dice (blank, wrong shape)."""
    settings = settings or Settings()
    image = checked_picture(image)
    model = load(settings.model, settings.head)
    t = thresholds_of(model, settings)
    opinions = any(t[k] < 1.0 for k in READ)
    dice, unsure = decide(look(image, model, settings, lowest_score(t),
                               pips=t["agree"] < 1.0, opinions=opinions, thresholds=t), t)
    h, w = image.shape[:2]
    return Reading(tuple(dice), tuple(unsure), w, h)
