"""The table's folder of known throws and the tally the Dice page shows: a throw saved is one
the calibration command reads (``vision.calibrate.known.find_throws``), a throw is never half
written, and what is still needed is said in words."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.teach.known_folder import KnownFolder, Marked, TallyOfDice
from firmware.teach.photo_upload import LONG_SIDE, PhotoError, checked_photo, declared_size
from vision.calibrate.known import find_throws

PICTURE = np.full((120, 200, 3), 60, np.uint8)


def test_a_saved_throw_is_a_known_throw_for_the_calibration_command(tmp_path) -> None:
    folder = KnownFolder(tmp_path / "known-throws")
    name = folder.save(PICTURE, [Marked((10, 10, 30, 30), 6), Marked((50, 10, 30, 30), 0),
                                 Marked((90, 10, 30, 30), 2)], "Ann")
    [throw] = find_throws(folder.path)
    assert throw.path.name == f"{name}.jpg" and sorted(throw.values) == [2, 6]
    assert folder.throw(name).marked[1] == Marked((50, 10, 30, 30), 0)
    assert folder.picture(name)[:2] == b"\xff\xd8"
    assert folder.save(PICTURE, [], "Ann") != name  # the same second: another name
    assert folder.delete(name) and not folder.delete(name)
    assert folder.throw("../pub") is None and folder.picture("../../etc/passwd") is None


def test_a_throw_that_cannot_be_written_leaves_nothing_behind(tmp_path, monkeypatch) -> None:
    """The disk fills as the picture, written last, is put in place: the values and boxes
    written before it are taken away again, so the folder holds no picture-less throw."""
    import firmware.teach.known_folder as known_folder

    folder = KnownFolder(tmp_path / "known-throws")
    folder.save(PICTURE, [Marked((1, 1, 9, 9), 3)], "Bob")
    before = folder.files()
    real = known_folder.os.replace

    def full_disk(source, target):
        if str(target).endswith(".jpg"):
            raise OSError(28, "No space left on device")
        real(source, target)

    monkeypatch.setattr(known_folder.os, "replace", full_disk)
    with pytest.raises(OSError, match="No space left"):
        folder.save(PICTURE, [Marked((1, 1, 9, 9), 3)], "Ann")
    assert folder.files() == before


@given(st.lists(st.lists(st.integers(1, 6), min_size=0, max_size=3), max_size=40))
@settings(max_examples=60, deadline=None)
def test_the_tally_says_what_is_still_needed_until_a_good_calibration(throws) -> None:
    per_value = {v: sum(t.count(v) for t in throws) for v in range(1, 7)}
    dice = sum(len(t) for t in throws)
    needs = TallyOfDice(len(throws), dice, per_value, 0, 0).needs()
    text = " ".join(map(str, needs))
    assert (dice < 30) == ("At least 30 dice are needed" in text)
    for v in range(1, 7):
        assert (f"no {v}" in text.lower()) == (per_value[v] == 0)
    if 30 <= dice < 60:
        assert f"Take {-(-(60 - dice) // 3)} more throw" in text
    assert (not needs) == (dice >= 60 and min(per_value.values()) >= 5)


def test_the_tally_counts_the_referee_s_corrections_too(tmp_path) -> None:
    folder = KnownFolder(tmp_path / "known-throws")
    folder.save(PICTURE, [Marked((1, 1, 9, 9), 2)], "Ann")
    tally = folder.tally([(2, 2, 5), (6,)])
    assert (tally.throws, tally.dice, tally.corrections, tally.correction_dice, tally.total) == \
        (1, 1, 2, 4, 5)
    assert tally.per_value == {1: 0, 2: 3, 3: 0, 4: 0, 5: 1, 6: 1}


def test_a_photo_is_checked_before_it_is_decoded_and_kept_small() -> None:
    import cv2

    big = cv2.imencode(".jpg", np.full((2400, 3200, 3), 128, np.uint8))[1].tobytes()
    assert declared_size(big) == (3200, 2400)
    assert max(checked_photo(big).shape[:2]) == LONG_SIDE
    png = cv2.imencode(".png", PICTURE)[1].tobytes()
    assert declared_size(png) == (200, 120) and checked_photo(png).shape == PICTURE.shape
    for data, said in ((b"", "No photo"), (b"GIF89a....", "not a JPEG or PNG"),
                       (big[:300], "cannot be decoded")):
        with pytest.raises(PhotoError, match=said):
            checked_photo(data)
