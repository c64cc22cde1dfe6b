"""A table's calibration with its own network: taught on some known throws, judged on the
others, k times over; kept only where it reads the held-out throws better.

Why folds: 15 held-back dice cannot tell one wrong in 200, and a network taught on
a few pictures can read a table worse than the untaught one. So the known pictures are split
into :data:`FOLDS` folds (a seeded shuffle of their names); for each, the network is taught
on the others (:mod:`vision.calibrate.teach`) and reads the fold's pictures as the table
would (:func:`vision.learned.face_reader.look`, through the files the table loads). Every
known die is then read once by a network that never saw it.

- **Thresholds** (:mod:`vision.calibrate.thresholds`; ``detect`` too where the die finder was
  taught): chosen on those held-out readings, the most dice right where a wrong value or a
  die read where none was thrown costs :data:`vision.calibrate.thresholds.ERROR_COST` right
  ones. The figure the table is judged by is *cross-fitted*: each fold read with thresholds
  chosen on the other folds' readings, so no die is judged by thresholds it chose.
- **Kept** only when that figure ranks above the untaught table's on every known throw
  (:func:`vision.calibrate.known.rank`, as the reader's choice judges: a reading with some
  die right above one with none, then its worth, dice right less
  :data:`vision.calibrate.known.CHOICE_COST` for each wrong value or die read where none was
  thrown). Only then is the network taught once more on every
  known throw and written.
- **Die sizes**: the known dice's sizes (their boxes, or the places matched to them), 5th to
  95th percentile, are recorded (``die_sizes``). They do not limit the scales a picture is
  read at: read only at those (one scale), the untaught reader read webcam-wood's 60 known
  dice 39 right instead of 52 (the left-out model); a seat's zone is read at its dice's
  size already (:mod:`vision.learned.zone_reader`).

What a table keeps (:func:`save`): ``NAME.faces.onnx`` (8-bit where it reads the known throws
as the float one did, :mod:`vision.calibrate.eight_bit`, else float; onnxruntime runs it),
``NAME.head.npz`` and ``NAME.reader.json`` (thresholds, the dice's sizes, the network's name, the
fingerprint of the model's network it was taught from, the calibration's figures) beside the
config ``NAME.toml``; ``[vision] head = "NAME.head.npz"`` names them, as a head fitted alone
(:mod:`vision.calibrate.adapt`) was named before, so a config calibrated before still loads.
"""

from __future__ import annotations

import json
import math
import pathlib
import random
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.errors import VisionError
from vision.calibrate import eight_bit, finder, network, teach
from vision.calibrate.adapt import Known, Seen, check_enough, match
from vision.calibrate.boxed_pictures import boxed, pasted, teach_finder
from vision.calibrate.known import KnownThrowsError, Tally, errors, needed_dice, rank
from vision.calibrate.teach import Example, Progress
from vision.calibrate.thresholds import (
    FINDER_DETECT,
    choose_thresholds,
    tally,
)
from vision.learned import face_reader
from vision.learned.decision import PROPOSAL_FLOOR, lowest_score
from vision.learned.face_model import fingerprint
from vision.learned.face_reader import Settings, look
from vision.picture import checked_picture

FOLDS = 3
#: the die sizes read are those of the known dice, this much smaller and larger
SIZE_MARGIN = 1.5


@dataclass
class Teaching:
    """What one calibration found. ``untaught``: every known throw as the table reads now;
    ``taught``: each read by a network taught without it, at cross-fitted thresholds."""

    untaught: Tally
    taught: Tally
    kept: bool
    thresholds: dict[str, float]
    die_range: tuple[float, float]
    dice: int
    pictures: int
    examples_dice: int
    examples_not_dice: int
    folder: pathlib.Path | None = None  # the taught files, when kept (a temporary folder)
    seconds: float = 0.0
    network: str = ""
    steps: int = teach.STEPS
    part: str = "all"
    fold_seconds: list[float] = field(default_factory=list)
    left_out: tuple[str, ...] = ()  # optional pictures that could not hold dice
    finder: int = 0  # the pictures, every die boxed, the die finder was taught on (0: not)
    #: the known throws read by the table's network in floats and in 8 bits, and whether the
    #: 8-bit one was kept (:func:`vision.calibrate.eight_bit.table_network`)
    eight_bit: tuple[Tally, Tally, bool] | None = None

    @property
    def before(self) -> Tally:
        """The known throws as the table reads now (what the referee console shows)."""
        return self.untaught

    @property
    def after(self) -> Tally:
        """The known throws as the taught network read them, each held out of its teaching."""
        return self.taught

    @property
    def now(self) -> Tally:
        """Every known throw as the table's learned reader reads it now."""
        return self.untaught

    @property
    def more_dice(self) -> int:
        """How many more known dice would let the held-out readings show a wrong share under
        :data:`vision.calibrate.known.WRONG_TARGET` (:func:`vision.calibrate.known.
        needed_dice`), for the reading the table keeps; 0 when they show it already. Until
        then the table stays careful: its thresholds are no looser than the untaught model's
        (:func:`careful`)."""
        t = self.taught if self.kept else self.untaught
        return needed_dice(t.right + errors(t), errors(t), t.dice)

    @property
    def more_throws(self) -> int:
        """:attr:`more_dice` in throws of three dice, as the Dice page says it."""
        return -(-self.more_dice // 3)


def load_pictures(known: Sequence[Known], left_out: list[str] | None = None,
                  ) -> list[np.ndarray]:
    """Every known picture, checked; one that cannot hold dice names itself, or, optional (a
    correction's picture, which nobody can take again), is named in ``left_out`` and skipped
    (its place in the list is None)."""
    out: list[np.ndarray] = []
    for item in known:
        try:
            out.append(checked_picture(item.picture()))
        except (VisionError, KnownThrowsError) as exc:
            if item.optional and left_out is not None:
                left_out.append(item.name)
                out.append(None)  # type: ignore[arg-type]
                continue
            raise KnownThrowsError(f"{item.name}: {str(exc).rstrip('.')}: take it again or "
                                   "leave it out") from None
    return out


def examples_of(known: Sequence[Known], seen: Sequence[Seen], pictures: Sequence[np.ndarray],
                thresholds: Mapping[str, float], seed: int = 0) -> list[Example]:
    """What to teach from each known picture (:mod:`vision.calibrate.teach`): its boxes when
    it has them, else the untaught reader's places matched to its values; background and
    side faces as not a die."""
    rng = np.random.default_rng(seed)
    out: list[Example] = []
    for index, (item, look_) in enumerate(zip(known, seen, strict=True)):
        if item.boxes is not None:
            here = [Example(index, (x + w / 2, y + h / 2), float(math.sqrt(w * h)), value)
                    for (x, y, w, h), value in item.boxes]
            dice = [e for e in here if e.cls > 0]
            out += here + teach.side_faces(dice, rng)
        else:
            here = [Example(index, look_.places[i].centre, look_.places[i].size, cls)
                    for i, cls in match(look_, thresholds) if not look_.places[i].cut]
            dice = [e for e in here if e.cls > 0]
            out += dice + [e for e in here if e.cls == 0 and not_a_die_place(e, dice)]
        out += teach.near_misses(dice, rng)
        out += teach.background(pictures[index].shape, dice, index, rng, teach.BACKGROUND)
    return out


def not_a_die_place(place: Example, dice: Sequence[Example]) -> bool:
    """Whether a reader's place that matched no known value is surely no die's place: clear of
    every die, or near one but off its centre by half its size or more, or under half or over
    twice its size. A place nearer and nearer its size is the die seen a little off, as the
    reader's places often are, and is not taught either way (taught as "not a die", every
    place near a die was: the held-out folds of webcam-wood as a new table then missed 31 of
    60 dice)."""
    for d in dice:
        near = math.dist(place.centre, d.centre)
        if near > teach.CLEAR_OF_DICE * max(place.size, d.size):
            continue
        ratio = place.size / d.size
        if near < 0.5 * d.size and 0.5 <= ratio <= 2.0:
            return False
    return True


def fold_of(known: Sequence[Known], folds: int, seed: int) -> dict[str, int]:
    """Each picture's fold: a seeded shuffle of the names, dealt round."""
    names = sorted(k.name for k in known)
    random.Random(seed).shuffle(names)
    return {name: i % folds for i, name in enumerate(names)}


def die_range(examples: Sequence[Example]) -> tuple[float, float]:
    """The span of the table's dice sizes, recorded as ``die_sizes``: the known dice's from the
    5th to the 95th percentile (a place matched to a value by mistake is no size of the
    table's dice), :data:`SIZE_MARGIN` smaller and larger."""
    sizes = np.array([e.size for e in examples if e.cls > 0])
    low, high = np.percentile(sizes, [5, 95])
    return (max(6.0, float(low) / SIZE_MARGIN), float(high) * SIZE_MARGIN)


def write_network(net: object, folder: pathlib.Path, name: str, thresholds: Mapping[str, float],
                  sizes: tuple[float, float], base: str, record: dict | None = None,
                  detector: object | None = None) -> pathlib.Path:
    """``name.faces.onnx``, ``name.head.npz``, ``name.reader.json`` and, with a taught
    ``detector``, ``name.detector.onnx`` in ``folder``; the head's path (what ``[vision]
    head`` and :class:`vision.learned.face_reader.Settings` name)."""
    head = folder / f"{name}.head.npz"
    network.export(net, folder / f"{name}.faces.onnx", head)
    if detector is not None:
        finder.export(detector, folder / f"{name}.detector.onnx")
    data = {**{k: float(v) for k, v in thresholds.items()}, "network": base,
            "faces": f"{name}.faces.onnx",
            **({"detector": f"{name}.detector.onnx"} if detector is not None else {}),
            "die_sizes": [round(sizes[0], 1), round(sizes[1], 1)],
            **({"calibration": record} if record else {})}
    (folder / f"{name}.reader.json").write_text(json.dumps(data, indent=1) + "\n")
    face_reader.load.cache_clear()
    return head


def read_with(head: pathlib.Path, settings: Settings, items: Sequence[tuple[Known, np.ndarray]],
              ) -> list[Seen]:
    """The pictures read by the table files at ``head``, every place the reader reads."""
    own = Settings(model=settings.model, head=head)
    model = face_reader.load(own.model, head)
    floor = min(PROPOSAL_FLOOR, model.thresholds["detect"])
    return [Seen(k.name, tuple(k.values), tuple(look(image, model, own, floor)))
            for k, image in items]


def judged(held: Mapping[int, Sequence[Seen]], base: Mapping[str, float],
           detects: Sequence[float] | None, floor: Mapping[str, float] | None = None,
           ) -> tuple[Tally, dict[str, float]]:
    """The held-out folds' tally, cross-fitted (each fold read at the thresholds the other
    folds chose), and the thresholds chosen on every fold; ``floor``: the model's floor for a
    new make, which a careful choice goes no looser than."""
    order = sorted(held)
    taught = Tally()
    for k in order:
        others = [s for j in order if j != k for s in held[j]]
        taught.add(tally(held[k], choose_thresholds(others or held[k], base, detects, floor)))
    return taught, choose_thresholds([s for k in order for s in held[k]], base, detects, floor)


def teach_table(known: Sequence[Known], settings: Settings, *, folds: int = FOLDS,
                seed: int = 0, steps: int = teach.STEPS, part: str = "all",
                progress: Progress | None = None, pasting: bool = False,
                backgrounds: Sequence[np.ndarray] = ()) -> Teaching:
    """Teach the table's network on its known throws and judge it by folds (module
    docstring). ``settings``: the learned reader as the table reads now. The taught files,
    when kept, are in ``Teaching.folder`` (a temporary folder: :func:`save` them).
    ``pasting``: the boxed dice also pasted onto the known pictures' cloth and onto
    ``backgrounds`` (pictures of the table's empty zones) to teach the finder and the face
    network more pictures (:func:`pasted`). ``progress(stage, step, steps)`` is called from
    every long step; the result's ``before``/``after`` are the held-out figures and
    ``more_throws`` how many more known throws would let the table be less careful."""
    check_enough(sum(len(k.values) for k in known))
    start = time.monotonic()
    say = progress or (lambda stage, step, steps_: None)
    left_out: list[str] = []
    loaded = load_pictures(known, left_out)
    known = [k for k, image in zip(known, loaded, strict=True) if image is not None]
    pictures = [image for image in loaded if image is not None]
    check_enough(sum(len(k.values) for k in known))
    model = face_reader.load(settings.model, settings.head)
    base_model = face_reader.load(settings.model)
    now_t = face_reader.thresholds_of(model, settings)
    seen_now = []
    for i, (item, image) in enumerate(zip(known, pictures, strict=True), 1):
        seen_now.append(Seen(item.name, tuple(item.values),
                             tuple(look(image, model, settings, lowest_score(now_t),
                                        every_place=True))))
        say("reading the known throws as the table reads now", i, len(known))
    untaught = tally(seen_now, now_t)
    base_t = face_reader.thresholds_of(base_model, settings)
    ex = examples_of(known, seen_now, pictures, base_t, seed)
    sizes = die_range(ex) if any(e.cls > 0 for e in ex) else (settings.min_die, settings.max_die)
    fold = fold_of(known, folds, seed)
    base_print = fingerprint(settings.model / "faces.onnx")
    held: dict[int, list[Seen]] = {}
    detects: Sequence[float] | None = None  # the finder taught: its own detect chosen
    fold_seconds = []
    with tempfile.TemporaryDirectory(prefix="bidou-teach-") as tmp:
        for k in range(folds):
            t0 = time.monotonic()
            inside = [i for i, item in enumerate(known) if fold[item.name] != k]
            out = [i for i, item in enumerate(known) if fold[item.name] == k]
            inside_set = set(inside)
            if not out or not any(e.cls > 0 and e.picture in inside_set for e in ex):
                continue

            def fold_progress(stage: str, step: int, steps_: int, k: int = k) -> None:
                say(f"fold {k + 1} of {folds}: {stage}", step, steps_)

            made, made_ex = (pasted(known, pictures, inside, backgrounds, seed + k)
                             if pasting else ([], []))
            det = teach_finder(settings, known, pictures, inside, seed + k, fold_progress, made)
            detects = FINDER_DETECT if det is not None else None
            taught_ex = [e for e in ex if e.picture in inside_set] + made_ex
            net = network.trainable(settings.model / "faces.onnx", base_model.head)
            teach.fine_tune(net, [*pictures, *(m.image for m in made)], taught_ex, steps=steps,
                            part=part, seed=seed + k, progress=fold_progress)
            head = write_network(net, pathlib.Path(tmp), f"fold{k}", base_t, sizes, base_print,
                                 detector=det)
            held[k] = read_with(head, settings, [(known[i], pictures[i]) for i in out])
            fold_seconds.append(time.monotonic() - t0)
        taught, chosen = judged(held, base_t, detects, base_model.floor)
        all_held = [s for k in sorted(held) for s in held[k]]
        left = Tally()
        for item in known:  # pictures no fold read (too few to fold) count as the table reads
            if not any(s.name == item.name for s in all_held):
                left.add(tally([s for s in seen_now if s.name == item.name], now_t))
        taught.add(left)
        # kept when worth more, and never with more errors than the untaught table's on the
        # same throws, whatever the dice right
        kept = rank(taught) > rank(untaught) and errors(taught) <= errors(untaught)
        result = Teaching(untaught, taught, kept, chosen, sizes,
                          sum(len(k.values) for k in known), len(known),
                          sum(e.cls > 0 for e in ex), sum(e.cls == 0 for e in ex),
                          network=base_print, steps=steps, part=part,
                          fold_seconds=fold_seconds, left_out=tuple(left_out),
                          finder=len(boxed(known, range(len(known)))) if detects else 0)
        if kept:
            def last(stage: str, step: int, steps_: int) -> None:
                say(f"the table's network: {stage}", step, steps_)

            every_one = range(len(known))
            made, made_ex = (pasted(known, pictures, every_one, backgrounds, seed + folds)
                             if pasting else ([], []))
            det = (teach_finder(settings, known, pictures, every_one, seed + folds, last, made)
                   if detects else None)  # only a finder the folds judged
            net = network.trainable(settings.model / "faces.onnx", base_model.head)
            teach.fine_tune(net, [*pictures, *(m.image for m in made)], ex + made_ex,
                            steps=steps, part=part, seed=seed + folds, progress=last)
            folder = pathlib.Path(tempfile.mkdtemp(prefix="bidou-table-net-"))
            head = write_network(net, folder, "table", chosen, sizes, base_print, detector=det)
            items = list(zip(known, pictures, strict=True))
            last("made 8-bit where it reads as in floats", 0, 1)
            result.eight_bit = eight_bit.table_network(
                head, settings, pictures, lambda: tally(read_with(head, settings, items), chosen))
            result.folder = folder
    result.seconds = time.monotonic() - start
    return result


def save(result: Teaching, head: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """The taught network at ``head`` (``NAME.head.npz``, :func:`vision.calibrate.adapt.head_path`
    of the config ``NAME.toml``), with ``NAME.faces.onnx`` and ``NAME.reader.json`` (the record
    of the calibration in the last) beside it; the head's path, for ``[vision] head``, and the
    thresholds'. Each file is written aside and put in place, the thresholds last; the
    temporary folder is removed (:func:`discard` removes it when nothing is saved)."""
    if result.folder is None:
        raise ValueError("the table's network was not kept: there is nothing to save")
    name = head.name[: -len(".head.npz")] if head.name.endswith(".head.npz") else head.stem
    config = head.with_name(f"{name}.toml")
    src = result.folder
    data = json.loads((src / "table.reader.json").read_text())
    data["faces"] = f"{name}.faces.onnx"
    data["calibration"] = {"at": time.strftime("%Y-%m-%d %H:%M:%S"),
                           "untaught": result.untaught.figures(),
                           "taught": result.taught.figures(), "folds": FOLDS,
                           "steps": result.steps, "part": result.part,
                           # the reader keeps these thresholds looser than the model's floor
                           # only when the known dice showed the target
                           # (vision.learned.table_files.floor_of)
                           "shows_target": result.more_dice == 0,
                           "seconds": round(result.seconds, 1)}
    if result.eight_bit is not None:
        floats, ints, kept = result.eight_bit
        data["calibration"]["known"] = {"float": floats.figures(), "int8": ints.figures(),
                                        "int8_kept": kept}
    targets = {"table.faces.onnx": config.with_name(f"{name}.faces.onnx"),
               "table.head.npz": config.with_name(f"{name}.head.npz")}
    if "detector" in data:
        data["detector"] = f"{name}.detector.onnx"
        targets["table.detector.onnx"] = config.with_name(f"{name}.detector.onnx")
    for source, target in targets.items():
        aside = target.with_name(f".{target.name}.tmp")
        shutil.copyfile(src / source, aside)
        aside.replace(target)
    own = config.with_name(f"{name}.reader.json")
    aside = own.with_name(f".{own.name}.tmp")
    aside.write_text(json.dumps(data, indent=1) + "\n")
    aside.replace(own)
    shutil.rmtree(src, ignore_errors=True)
    result.folder = None
    face_reader.load.cache_clear()
    return targets["table.head.npz"], own


def discard(result: Teaching) -> None:
    """Remove the taught files of a calibration that is not saved (a dry run)."""
    if result.folder is not None:
        shutil.rmtree(result.folder, ignore_errors=True)
        result.folder = None
