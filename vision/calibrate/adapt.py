"""The table learns its own dice: a head fitted at the table on its known throws.

Why: a pub is one table; its camera, cloth, light and dice do not change between
throws, and a network's head refitted on a few dozen of its dice read several new tables far
better -- but with too few pictures it made others worse. So an adaptation is fitted on part
of the known throws, judged on the rest, and kept only where it reads them better.

How, with numpy and onnxruntime only (no PyTorch at the table), pure apart from reading the
pictures given to it:

1. **Read** each known picture once with the model (:func:`vision.learned.face_reader.look`): every
   proposal's probabilities and each view's features.
2. **Match** a picture's places to its known values (a multiset): the places the detector
   takes (one per die, as the reader keeps them), each value to the place most likely that
   value, surest pairs first (:func:`match`). When every value found a place, the places
   left over are "not a die" examples; when not, they are left out (a die may hide there).
   A die cut by the picture's edge takes its value but teaches nothing.
3. **Hold back** about a third of the pictures (chosen by a seeded shuffle of the pictures'
   names, so the same throws give the same split) and fit on the rest.
4. **Fit** the head: multinomial logistic regression on each view's features, started from
   the model's head and pulled towards it (:func:`vision.calibrate.head_fit.fit`, a ridge
   around the model's weights worth some examples), so that a few dozen dice move it only
   where they agree. How strong the pull, and then a temperature, are chosen on out-of-fold
   readings of the fitted pictures' places (:func:`vision.calibrate.head_fit.choose`), never
   the held-back ones: the probabilities stay calibrated, so the model's ``min_value`` keeps
   its meaning.
5. **Judge** on the held-back pictures, by their values (:func:`vision.calibrate.known.by_values`),
with
   the thresholds the table reads with: as the table reads now (``before``) and with the new
   head (``after``). The rule (:func:`better`): **kept only when it reads more of the
   held-back dice right with no more wrong, or as many right with fewer wrong**. The head
   saved is the one judged, not one refitted on every picture: what was checked is what runs.

:func:`save` writes ``NAME.head.npz`` (:meth:`vision.learned.face_model.Head.save`) and
``NAME.reader.json`` (the thresholds, the face network's fingerprint, and the figures of the
calibration) for a config ``NAME.toml``; ``bidou-table calibrate``
(:mod:`firmware.teach.calibrate_reader`) runs it and names the head under ``[vision]``.
"""

from __future__ import annotations

import json
import math
import pathlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from engine.errors import VisionError
from vision.calibrate.head_fit import Examples, choose, fit, place_probs
from vision.calibrate.known import KnownThrowsError, Tally, by_values
from vision.learned import decision, face_reader, table_files
from vision.learned.decision import SAME_DIE, Place, decide, lowest_score, proposed
from vision.learned.face_model import Head, fingerprint, with_model_die
from vision.learned.face_reader import Model, Settings, look
from vision.picture import checked_picture

#: the fewest known dice worth adapting on: fewer, and a lucky throw decides
FEWEST_DICE = 30
#: the share of the pictures held back to judge the adaptation
HOLD_BACK = 1 / 3


@dataclass(frozen=True)
class Known:
    """One known throw: a name for people, its dice's values, and how to get its picture.

    ``optional``: a picture that cannot hold dice (blank, the camera covered) is left out and
    named, not a reason to stop -- the pictures kept with the referee's corrections, which
    nobody can take again. A folder's pictures are not optional: their owner can."""

    name: str
    values: tuple[int, ...]
    picture: Callable[[], np.ndarray]
    optional: bool = False
    #: each die's box and value (0: not a die) when the throw has them (``NAME.json``,
    #: :func:`vision.calibrate.known.load_boxes`); a table's own network is taught at them
    boxes: tuple[tuple[tuple[float, float, float, float], int], ...] | None = None


@dataclass(frozen=True)
class Seen:
    """A known throw as the model read it: its values and every place proposed."""

    name: str
    values: tuple[int, ...]
    places: tuple[Place, ...]


@dataclass
class Adaptation:
    """What one calibration found: the head fitted, the thresholds, and the judgement."""

    head: Head
    thresholds: dict[str, float]
    before: Tally
    after: Tally
    kept: bool
    fitted: tuple[str, ...]  # the pictures fitted on
    held_back: tuple[str, ...]
    dice: int  # known dice in all
    examples_dice: int  # dice matched in the fitted pictures (each its views)
    examples_not_dice: int
    seconds: float = 0.0
    network: str = ""
    prior: float = 0.0  # the pull towards the model's head chosen (head_fit.choose)
    left_out: tuple[str, ...] = ()  # optional pictures that could not hold dice
    #: every known throw as the table's learned reader reads it now (the reader's choice,
    #: :mod:`vision.calibrate.reader_choice`, is judged on all of them)
    now: Tally = field(default_factory=Tally)


def read_known(known: Sequence[Known], model: Model, settings: Settings,
               thresholds: Mapping[str, float],
               progress: Callable[[int, int], None] | None = None,
               left_out: list[str] | None = None) -> list[Seen]:
    """Every known picture read once by the model (the costly part: the networks); an
    optional one that cannot hold dice is named in ``left_out`` instead."""
    seen = []
    for i, item in enumerate(known, 1):
        try:
            image = checked_picture(item.picture())
        except (VisionError, KnownThrowsError) as exc:
            if item.optional and left_out is not None:
                left_out.append(item.name)
                continue
            raise KnownThrowsError(f"{item.name}: {str(exc).rstrip('.')}: take it again or "
                                   "leave it out") from None
        places = look(image, model, settings, lowest_score(thresholds), every_place=True)
        seen.append(Seen(item.name, tuple(item.values), tuple(places)))
        if progress is not None:
            progress(i, len(known))
    return seen


def candidates(places: Sequence[Place], thresholds: Mapping[str, float]) -> list[int]:
    """The places the detector takes for dice, one per die, most surely a die first: the
    reader's own choice (:func:`vision.learned.decision.decide`) before its "not a die" cut, so a
    die the model thinks is none can still be matched and taught."""
    order = sorted((i for i, p in enumerate(places) if proposed(p, thresholds)),
                   key=lambda i: float(places[i].probs[0]))
    kept: list[int] = []
    for i in order:
        p = places[i]
        if all(math.dist(p.centre, places[k].centre) > SAME_DIE * max(p.size, places[k].size)
               for k in kept):
            kept.append(i)
    return kept


def match(seen: Seen, thresholds: Mapping[str, float]) -> list[tuple[int, int]]:
    """(place index, class) pairs for one picture: each known value given to the place most
    likely that value, surest pairs first (greedy on log p(value)); when every value found a
    place, every other candidate is class 0, not a die."""
    cands = candidates(seen.places, thresholds)
    values = list(seen.values)
    pairs = sorted(((math.log(max(float(seen.places[i].probs[v]), 1e-12)), i, slot)
                    for i in cands for slot, v in enumerate(values)), reverse=True)
    taken_place: set[int] = set()
    taken_slot: set[int] = set()
    out = []
    for _, i, slot in pairs:
        if i in taken_place or slot in taken_slot:
            continue
        taken_place.add(i)
        taken_slot.add(slot)
        out.append((i, values[slot]))
    if len(taken_slot) == len(values):
        out += [(i, 0) for i in cands if i not in taken_place]
    return out


def examples(seen: Sequence[Seen], thresholds: Mapping[str, float]) -> Examples:
    """Each matched place's views as rows (a die cut by the edge teaches nothing)."""
    xs, ys, groups = [], [], []
    group = 0
    for item in seen:
        for i, cls in match(item, thresholds):
            place = item.places[i]
            if place.cut or place.views is None:
                continue
            for view in place.views:
                xs.append(view)
                ys.append(cls)
                groups.append(group)
            group += 1
    if not xs:
        return Examples(np.zeros((0, 0), np.float32), np.zeros(0, int), np.zeros(0, int))
    return Examples(np.asarray(xs, np.float64), np.asarray(ys, int), np.asarray(groups, int))


def split(seen: Sequence[Seen], seed: int = 0, share: float = HOLD_BACK,
          ) -> tuple[list[Seen], list[Seen]]:
    """(fitted, held back): a seeded shuffle of the pictures by name, the first third held
    back; the same throws always give the same split, whatever order they came in."""
    names = sorted(s.name for s in seen)
    random.Random(seed).shuffle(names)
    back = set(names[:max(1, round(share * len(names)))])
    return [s for s in seen if s.name not in back], [s for s in seen if s.name in back]


def tally(seen: Sequence[Seen], thresholds: Mapping[str, float],
          head: Head | None = None) -> Tally:
    """How the reader reads these known throws: with their places' own probabilities, or, given
    ``head``, with that head's."""
    total = Tally()
    for item in seen:
        places = list(item.places)
        if head is not None:
            places = [replace(p, probs=with_model_die(p.probs, place_probs(head, p.views)))
                      if p.views is not None else p for p in places]
        dice, unsure = decide(places, thresholds)
        total.add(by_values(item.name, item.values, dice, unsure))
    return total


def wrong_values(t: Tally) -> int:
    """What the held-back throws count as errors: wrong values."""
    return t.wrong


def better(before: Tally, after: Tally, errors: Callable[[Tally], int] = wrong_values) -> bool:
    """The rule: more dice right and no more errors, or as many right and fewer; an error is
    a wrong value, unless ``errors`` counts more (:mod:`vision.calibrate.reader_choice` counts dice
    read where none was thrown too)."""
    return ((after.right > before.right and errors(after) <= errors(before))
            or (after.right >= before.right and errors(after) < errors(before)))


def check_enough(dice: int) -> None:
    """The one count the adaptation needs: at least ``FEWEST_DICE`` known dice, else a
    :class:`KnownThrowsError` saying how many more throws to take."""
    if dice < FEWEST_DICE:
        more = math.ceil((FEWEST_DICE - dice) / 3)
        raise KnownThrowsError(
            f"the known throws hold {dice} dice; at least {FEWEST_DICE} are needed to adapt the "
            f"reader to this table: take about {more} more throw{'s' if more > 1 else ''} of "
            "3 dice")


def adapt(seen: Sequence[Seen], base: Head, thresholds: Mapping[str, float], *,
          seed: int = 0, network: str = "") -> Adaptation:
    """Fit a head on part of the known throws and judge it on the rest (module docstring).

    ``seen``: the throws as read by the table now (their probabilities are the ``before``);
    ``base``: the model's own head, which the fit starts from and is pulled towards. Raises
    :class:`KnownThrowsError` when the throws hold fewer than ``FEWEST_DICE`` dice, or too few
    pictures with dice to both fit and judge.
    """
    t = {**decision.DEFAULTS, **thresholds}
    dice = sum(len(s.values) for s in seen)
    check_enough(dice)
    fitted, held = split(seen, seed)
    if not any(s.values for s in fitted) or not any(s.values for s in held):
        raise KnownThrowsError(
            f"the {dice} known dice are in too few pictures to fit on some and check on the "
            "others: take at least 6 pictures of dice")
    ex = examples(fitted, t)
    before = tally(held, t)
    prior = 0.0
    if not ex.dice:
        head, after = base, before
        kept = False
    else:
        prior, t_fit = choose(ex, base, seed)
        w, b = fit(ex, base, prior=prior)
        head = Head(w.astype(np.float32), b.astype(np.float32), t_fit)
        after = tally(held, t, head)
        kept = better(before, after)
    return Adaptation(head, {k: float(t[k]) for k in decision.DEFAULTS}, before, after, kept,
                      tuple(s.name for s in fitted), tuple(s.name for s in held), dice,
                      ex.dice, ex.not_dice, network=network, prior=prior, now=tally(seen, t))


def calibrate(known: Sequence[Known], settings: Settings, *, seed: int = 0,
              progress: Callable[[int, int], None] | None = None) -> Adaptation:
    """Read the known throws as the table reads now (``settings.head`` when it has one) and
    adapt the model's head to them; ``seconds`` is the whole of it, reading included."""
    check_enough(sum(len(item.values) for item in known))  # before minutes of reading
    start = time.monotonic()
    model = face_reader.load(settings.model, settings.head)
    base = face_reader.load(settings.model).head
    thresholds = face_reader.thresholds_of(model, settings)
    left_out: list[str] = []
    seen = read_known(known, model, settings, thresholds, progress, left_out)
    result = adapt(seen, base, thresholds, seed=seed,
                   network=fingerprint(settings.model / "faces.onnx"))
    result.seconds = time.monotonic() - start
    result.left_out = tuple(left_out)
    return result


def head_path(config: pathlib.Path) -> pathlib.Path:
    """Where a config's own head is saved: ``NAME.head.npz`` beside ``NAME.toml``."""
    return config.with_name(f"{config.stem}.head.npz")


def save(result: Adaptation, head: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """Write the head and its thresholds file (:func:`vision.learned.table_files.thresholds_path`);
    the two paths. Each file is written aside and then replaced in one step, the head first,
    so a crash never leaves half a file (at worst the new head with the old thresholds, which
    were the model's too)."""
    own = table_files.thresholds_path(head)
    record = {**result.thresholds, "network": result.network,
              "calibration": {"at": time.strftime("%Y-%m-%d %H:%M:%S"),
                              "fitted": list(result.fitted), "held_back": list(result.held_back),
                              "before": result.before.figures(),
                              "after": result.after.figures(),
                              "prior": result.prior, "temperature": result.head.temperature,
                              "seconds": round(result.seconds, 1)}}
    temporary_head = head.with_name(f".{head.name}.tmp.npz")
    temporary_own = own.with_name(f".{own.name}.tmp")
    try:
        result.head.save(temporary_head)
        temporary_own.write_text(json.dumps(record, indent=1) + "\n")
        temporary_head.replace(head)
        temporary_own.replace(own)
    finally:
        temporary_head.unlink(missing_ok=True)
        temporary_own.unlink(missing_ok=True)
    face_reader.load.cache_clear()  # a reader loaded before reads the new head from now
    return head, own
