"""The table's adaptation on real photographs with the shipped model (vision/models): an
adaptation on a few pictures in tests/data changes what the reader reads there, and the head
it saves is the one the reader then reads with."""

from __future__ import annotations

import pathlib

import cv2
import pytest

from vision.calibrate import adapt
from vision.calibrate.known import by_values, load_picture
from vision.learned.face_reader import Settings, load, read_dice
from vision_lab.evaluate import load_labels

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "dice"


def known_throws(name: str) -> list[adapt.Known]:
    """A shared set's pictures in tests/data as known throws: each one's values (its labels)."""
    out = []
    for photo in sorted((DATA / name).glob("*.jpg")):
        height, width = cv2.imread(str(photo)).shape[:2]
        values = tuple(label.value for label in load_labels(photo.with_suffix(".txt"), width,
                                                            height))
        out.append(adapt.Known(photo.name, values, lambda p=photo: load_picture(p)))
    return out


def what_is_read(reading) -> tuple:
    return (sorted(d.value for d in reading.dice), len(reading.unsure))


@pytest.fixture(scope="module")
def adapted(tmp_path_factory) -> tuple[adapt.Adaptation, pathlib.Path, list[adapt.Known]]:
    known = known_throws("topdown-colour") + known_throws("webcam-wood")
    result = adapt.calibrate(known, Settings())
    head, _ = adapt.save(result, adapt.head_path(tmp_path_factory.mktemp("pub") / "pub.toml"))
    return result, head, known


@pytest.mark.slow
def test_an_adaptation_on_the_pictures_in_tests_data_changes_what_is_read_there(adapted):
    result, head, known = adapted
    assert result.dice >= 30 and result.examples_dice > 0
    changed = []
    for item in known:
        image = item.picture()
        before = what_is_read(read_dice(image, Settings()))
        after = what_is_read(read_dice(image, Settings(head=head)))
        if before != after:
            changed.append(item.name)
    assert changed, "the adapted head reads every picture as the model's head does"


@pytest.mark.slow
def test_the_held_back_figures_are_the_reader_s_own_with_the_saved_head(adapted):
    """What calibrate reports as "after" is what read_dice with the saved head reads."""
    result, head, known = adapted
    model = load(Settings().model, head)
    assert model.head.temperature == pytest.approx(result.head.temperature)
    held = [k for k in known if k.name in result.held_back]
    right = 0
    for item in held:
        reading = read_dice(item.picture(), Settings(head=head))
        tally = by_values(item.name, item.values, list(reading.dice),
                                list(reading.unsure))
        right += tally.right
    assert right == result.after.right
