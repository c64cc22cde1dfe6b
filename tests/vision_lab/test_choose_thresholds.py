"""The model's thresholds chosen on its calibration split (vision_lab/choose_thresholds.py):
where the split cannot show 1 wrong in 500, careful as a table's calibration is, the pips'
word giving no value the network's would not."""

from __future__ import annotations

import numpy as np

from vision.learned.decision import Place
from vision_lab.choose_thresholds import Looked, best, score
from vision_lab.label_files import Label


def place(value: int, sure: float, x: float, pips: int | None) -> Place:
    probs = np.full(7, (1 - sure) / 5, np.float32)
    probs[0], probs[value] = 0.0, sure
    return Place((x, 50.0), 30.0, 0.9, probs, np.zeros(4, np.float32), False, pips=pips)


def test_a_split_too_small_to_show_the_target_takes_no_value_on_the_pips_word_alone():
    """On 20 pictures, three dice read right at 0.6-0.8 whose pips agree and a six read as a
    five at 0.85 (no pips counted): ``min_value`` must leave the five unsure, and the pips'
    word would read the other 60 dice, but 80 dice cannot show 1 wrong in 500, so the pips
    give no value under ``min_value``."""
    dice = ((2, 0.6, 2, 2), (3, 0.7, 3, 3), (4, 0.8, 4, 4), (6, 0.85, 5, None))
    looked = [Looked(tuple(place(read, sure, 60.0 * k, pips)
                           for k, (_, sure, read, pips) in enumerate(dice, 1)),
                     tuple(Label(shown, (60.0 * k - 15, 35.0, 30.0, 30.0))
                           for k, (shown, *_) in enumerate(dice, 1)),
                     400, 100) for _ in range(20)]
    chosen, tally = best(looked)
    assert chosen["min_value"] > 0.85 and chosen["agree"] >= chosen["min_value"]
    assert (tally.right, tally.wrong) == (0, 0)
    assert score(looked, {**chosen, "agree": 0.5}).right == 60  # what the floor gives up
