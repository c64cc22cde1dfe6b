"""The pin map: defaults for a 4-seat table, and a clear error for every wiring mistake."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ConfigError
from hardware.pinmap import (
    DEFAULT_PIN_MAP,
    HEADER_GPIOS,
    PREFER_FREE,
    PinMap,
    SeatPins,
    parse_pin_map,
)

SEATS = ["Ann", "Bob", "Cy", "Dee"]


def panel(throw: int, bet: int, call: int, pass_: int, led: int) -> dict[str, int]:
    return {"throw": throw, "bet": bet, "call": call, "pass": pass_, "led": led}


def test_default_pin_map_has_four_full_panels_on_distinct_header_gpios() -> None:
    numbers = [n for _, pins in DEFAULT_PIN_MAP.panels for n in pins.pins().values()]
    assert len(DEFAULT_PIN_MAP) == 4
    assert len(numbers) == 20 == len(set(numbers))
    assert all(n in HEADER_GPIOS for n in numbers)


def test_default_pin_map_leaves_i2c_and_uart_free() -> None:
    numbers = {n for _, pins in DEFAULT_PIN_MAP.panels for n in pins.pins().values()}
    assert numbers.isdisjoint(PREFER_FREE)


def test_no_pins_section_gives_first_four_seats_the_default_panels() -> None:
    pin_map = parse_pin_map({}, [*SEATS, "Eve"])
    assert pin_map.seats == ("Ann", "Bob", "Cy", "Dee")
    assert pin_map["Ann"] == DEFAULT_PIN_MAP["seat1"]
    assert "Eve" not in pin_map


def test_no_pins_section_with_two_seats_gives_two_panels() -> None:
    assert parse_pin_map(None, ["Ann", "Bob"]).seats == ("Ann", "Bob")


def test_seats_without_a_pins_table_play_from_phones() -> None:
    pin_map = parse_pin_map({"Bob": panel(4, 17, 27, 22, 18)}, SEATS)
    assert pin_map.seats == ("Bob",)
    assert pin_map.button_pin("Bob", "PASS") == 22
    assert pin_map.led_pin("Bob") == 18


def test_panels_come_in_seat_order_whatever_the_config_order() -> None:
    pin_map = parse_pin_map(
        {"Cy": panel(4, 17, 27, 22, 18), "Ann": panel(23, 24, 25, 8, 7)}, SEATS)
    assert pin_map.seats == ("Ann", "Cy")


def test_pin_used_twice_names_both_uses() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_pin_map({"Ann": panel(4, 17, 27, 22, 18), "Bob": panel(23, 24, 25, 8, 17)}, SEATS)
    assert str(caught.value) == (
        "pins.Bob.led = 17 is not allowed: GPIO 17 is already used by pins.Ann.bet; "
        "each GPIO can be wired to one button or LED only"
    )


def test_pin_used_twice_on_one_panel() -> None:
    with pytest.raises(ConfigError, match=r"pins\.Ann\.call = 4 .* used by pins\.Ann\.throw"):
        parse_pin_map({"Ann": panel(4, 17, 4, 22, 18)}, SEATS)


@pytest.mark.parametrize("number", [0, 1, 28, 40, -3])
def test_gpio_not_on_the_header_is_refused(number: int) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_pin_map({"Ann": panel(number, 17, 27, 22, 18)}, SEATS)
    assert str(caught.value) == (
        f"pins.Ann.throw = {number} is not allowed: a BCM GPIO number from 2 to 27 "
        "(the GPIO number, not the physical header pin; see hardware/WIRING.md)"
    )


@pytest.mark.parametrize("value", ["GPIO4", 4.0, True, None])
def test_gpio_that_is_not_a_whole_number_is_refused(value: object) -> None:
    with pytest.raises(ConfigError, match=r"^pins\.Ann\.bet = .* a BCM GPIO number from 2 to 27"):
        parse_pin_map({"Ann": panel(4, value, 27, 22, 18)}, SEATS)  # type: ignore[arg-type]


def test_seat_missing_its_led_is_refused_with_the_panel_rule() -> None:
    table = panel(4, 17, 27, 22, 18)
    del table["led"]
    with pytest.raises(ConfigError) as caught:
        parse_pin_map({"Ann": table}, SEATS)
    assert str(caught.value) == (
        "pins.Ann.led is missing: every seat panel needs throw, bet, call, pass and led"
    )
    assert caught.value.key == "pins.Ann.led"


def test_unknown_key_in_a_panel_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_pin_map({"Ann": {**panel(4, 17, 27, 22, 18), "stand": 5}}, SEATS)
    assert str(caught.value) == (
        "pins.Ann.stand = 5 is not allowed: no such key: every seat panel needs throw, bet, "
        "call, pass and led, and nothing else"
    )


def test_pins_for_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"^pins\.Zed = .*there is no seat 'Zed' at the table; "
                       r"seats are: Ann, Bob, Cy, Dee$"):
        parse_pin_map({"Zed": panel(4, 17, 27, 22, 18)}, SEATS)


def test_pins_entry_that_is_not_a_table_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"^pins\.Ann = 4 is not allowed: a table with"):
        parse_pin_map({"Ann": 4}, SEATS)


def test_more_than_five_panels_is_refused() -> None:
    seats = [f"S{i}" for i in range(6)]
    gpios = iter(range(2, 28))
    section = {seat: panel(*(next(gpios) for _ in range(5))) for seat in seats[:5]}
    assert len(parse_pin_map(section, seats)) == 5
    section["S5"] = panel(2, 3, 4, 5, 6)
    with pytest.raises(ConfigError) as caught:
        parse_pin_map(section, seats)
    assert str(caught.value) == (
        "pins = 'S0, S1, S2, S3, S4, S5' is not allowed: at most 5 seats can have a panel "
        "(26 header GPIOs, 5 per panel); further seats play from phone seat controllers"
    )


@given(st.permutations(list(HEADER_GPIOS)), st.integers(min_value=1, max_value=5))
def test_any_distinct_header_gpios_make_a_valid_map(order: list[int], n: int) -> None:
    seats = [f"S{i}" for i in range(n)]
    section = {seat: panel(*order[5 * i: 5 * i + 5]) for i, seat in enumerate(seats)}
    pin_map = parse_pin_map(section, seats)
    assert pin_map.seats == tuple(seats)
    for i, seat in enumerate(seats):
        assert list(pin_map[seat].pins().values()) == order[5 * i: 5 * i + 5]


def test_pin_map_is_frozen_and_renamed_keeps_panels() -> None:
    renamed = DEFAULT_PIN_MAP.renamed(["Ann", "Bob"])
    assert renamed.panels == (("Ann", DEFAULT_PIN_MAP["seat1"]), ("Bob", DEFAULT_PIN_MAP["seat2"]))
    assert isinstance(renamed, PinMap) and hash(renamed)
    with pytest.raises(AttributeError):
        renamed.panels = ()  # type: ignore[misc]
    assert SeatPins(4, 17, 27, 22, 18).buttons == {"THROW": 4, "BET": 17, "CALL": 27, "PASS": 22}
