"""WIRING.md is generated from the default pin map, so the docs cannot drift from the code."""

from __future__ import annotations

import re

from hardware.pinmap import DEFAULT_PIN_MAP, HEADER_GPIOS
from hardware.wiring import GROUND_PINS, PHYSICAL_PIN, WIRING_MD, nearest_ground, wiring_markdown


def test_committed_wiring_md_is_what_the_generator_writes() -> None:
    assert WIRING_MD.read_text(encoding="utf-8") == wiring_markdown(), (
        "hardware/WIRING.md is out of date: run `python -m hardware.wiring`"
    )


def test_every_header_gpio_has_one_distinct_physical_pin() -> None:
    assert sorted(PHYSICAL_PIN) == list(HEADER_GPIOS)
    pins = list(PHYSICAL_PIN.values())
    assert len(set(pins)) == 26 and set(pins).isdisjoint(GROUND_PINS)
    assert all(1 <= p <= 40 for p in pins)
    assert PHYSICAL_PIN[2] == 3 and PHYSICAL_PIN[21] == 40  # two well-known ends


def test_wiring_table_has_a_row_for_every_default_pin() -> None:
    rows = re.findall(r"^\| (\d) \| (.+?) \| (\d+) \| (\d+) \| (\d+) \|$", wiring_markdown(),
                      flags=re.MULTILINE)
    assert len(rows) == 20
    for seat, part, gpio, header, ground in rows:
        pins = DEFAULT_PIN_MAP[f"seat{seat}"]
        key = "led" if part.startswith("LED") else part.split()[0].lower()
        assert pins.pins()[key] == int(gpio)
        assert PHYSICAL_PIN[int(gpio)] == int(header)
        assert int(ground) in GROUND_PINS


def test_nearest_ground_of_pin_7_is_pin_9_or_6() -> None:
    assert nearest_ground(7) in (6, 9)
    assert nearest_ground(40) == 39
