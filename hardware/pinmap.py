"""Which GPIO each seat panel's buttons and LED are wired to, read from the table's config.

A wrong pin map is the commonest mistake when a pub builds the table (a pin typed twice, a
physical pin number where a BCM number belongs), and gpiozero would only say "pin in use" or
"unknown pin" halfway through start-up. So the whole map is checked here, before any device
is opened, and every refusal names the config key, the value and what is allowed.

Numbers are BCM GPIO numbers (what gpiozero calls ``GPIO17``), not physical header pins; the
header has 26 usable ones, GPIO 2 to 27, so at most five seats have a panel (5 x 5 pins).
Further seats play from phone seat controllers on the dashboard.

The config's ``[pins]`` table holds one table per seat with a panel::

    [pins.Ann]
    throw = 4
    bet = 17
    call = 27
    pass = 22
    led = 18

Decision (documented in hardware/README.md): when ``[pins]`` is absent or empty, the first
seats (up to four) get :data:`DEFAULT_PIN_MAP`'s panels in seat order, so a table built from
hardware/WIRING.md needs no pin config at all. As soon as ``[pins]`` names one seat, only the
seats it names have a panel; the others play from phones.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import ConfigError

#: The panel's four buttons, in the order they sit on the panel (left to right).
BUTTONS: tuple[str, ...] = ("THROW", "BET", "CALL", "PASS")

#: Config key of each button, then of the LED.
PANEL_KEYS: tuple[str, ...] = ("throw", "bet", "call", "pass", "led")

#: BCM GPIOs on the 40-pin header of a Raspberry Pi 4 or 5 that a seat panel may use.
HEADER_GPIOS: range = range(2, 28)

#: Pins that have another job worth keeping free if possible (they may still be used).
PREFER_FREE: dict[int, str] = {2: "I2C SDA", 3: "I2C SCL", 14: "UART TX", 15: "UART RX"}

#: At most this many seats have a panel: 26 header GPIOs / 5 pins per panel.
MAX_PANEL_SEATS = len(HEADER_GPIOS) // len(PANEL_KEYS)

_PANEL_RULE = "every seat panel needs throw, bet, call, pass and led"


@dataclass(frozen=True)
class SeatPins:
    """One seat panel: the BCM GPIO of each button and of the LED."""

    throw: int
    bet: int
    call: int
    pass_: int
    led: int

    @property
    def buttons(self) -> dict[str, int]:
        """Button name (``"THROW"``...) -> BCM GPIO."""
        return {"THROW": self.throw, "BET": self.bet, "CALL": self.call, "PASS": self.pass_}

    def pins(self) -> dict[str, int]:
        """Config key (``"throw"``... ``"led"``) -> BCM GPIO, in panel order."""
        return dict(zip(PANEL_KEYS, (self.throw, self.bet, self.call, self.pass_, self.led),
                        strict=True))


@dataclass(frozen=True)
class PinMap:
    """Seat name -> its panel's pins, for the seats that have a panel, in seat order.

    ``panels`` is a tuple of ``(seat, SeatPins)`` pairs so the map is hashable and frozen.
    """

    panels: tuple[tuple[str, SeatPins], ...] = ()

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats that have a panel, in order."""
        return tuple(seat for seat, _ in self.panels)

    def __getitem__(self, seat: str) -> SeatPins:
        for name, pins in self.panels:
            if name == seat:
                return pins
        raise KeyError(seat)

    def __contains__(self, seat: object) -> bool:
        return any(name == seat for name, _ in self.panels)

    def __iter__(self) -> Iterator[str]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.panels)

    def button_pin(self, seat: str, button: str) -> int:
        """The BCM GPIO of ``button`` (``"THROW"``...) on ``seat``'s panel."""
        return self[seat].buttons[button]

    def led_pin(self, seat: str) -> int:
        """The BCM GPIO of ``seat``'s LED."""
        return self[seat].led

    def renamed(self, seats: Sequence[str]) -> PinMap:
        """The same panels given to ``seats`` in order (extra panels are dropped)."""
        return PinMap(tuple(zip(seats, (pins for _, pins in self.panels), strict=False)))


#: Four seat panels on a Raspberry Pi 4/5 header, grouped so each seat's five wires land
#: close together near one ground pin. GPIO 2, 3 (I2C), 14, 15 (UART), 19 and 26 stay free;
#: a fifth panel can use 19, 26, 2, 3 and 14 (see hardware/WIRING.md).
DEFAULT_PIN_MAP = PinMap(
    (
        ("seat1", SeatPins(throw=4, bet=17, call=27, pass_=22, led=18)),
        ("seat2", SeatPins(throw=23, bet=24, call=25, pass_=8, led=7)),
        ("seat3", SeatPins(throw=10, bet=9, call=11, pass_=5, led=6)),
        ("seat4", SeatPins(throw=12, bet=16, call=20, pass_=21, led=13)),
    )
)


def missing_key(key: str, rule: str) -> ConfigError:
    """A :class:`ConfigError` for a key that is not there: ``"KEY is missing: RULE"``."""
    error = ConfigError(key, None, rule)
    error.args = (f"{key} is missing: {rule}",)
    return error


def _pin_number(key: str, value: object) -> int:
    allowed = (f"a BCM GPIO number from {HEADER_GPIOS.start} to {HEADER_GPIOS.stop - 1} "
               "(the GPIO number, not the physical header pin; see hardware/WIRING.md)")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(key, value, allowed)
    if value not in HEADER_GPIOS:
        raise ConfigError(key, value, allowed)
    return value


def _seat_pins(seat: str, table: object) -> SeatPins:
    if not isinstance(table, Mapping):
        raise ConfigError(f"pins.{seat}", table,
                          f"a table with throw, bet, call, pass and led ([pins.{seat}])")
    for key in table:
        if key not in PANEL_KEYS:
            raise ConfigError(f"pins.{seat}.{key}", table[key],
                              f"no such key: {_PANEL_RULE}, and nothing else")
    for key in PANEL_KEYS:
        if key not in table:
            raise missing_key(f"pins.{seat}.{key}", _PANEL_RULE)
    numbers = [_pin_number(f"pins.{seat}.{key}", table[key]) for key in PANEL_KEYS]
    return SeatPins(*numbers)


def parse_pin_map(section: Mapping[str, object] | None, seats: Sequence[str]) -> PinMap:
    """Check the config's ``[pins]`` table against the seats and return the pin map.

    ``seats`` are the seat names from ``[table] players``, in order. An absent or empty
    ``[pins]`` gives the first seats (up to four) the default panels. Raises
    :class:`~engine.errors.ConfigError` for a seat that is not at the table, an unknown or
    missing key, a GPIO that is not on the header, a GPIO used twice (naming both uses) or
    more than five panels.
    """
    if not section:
        return DEFAULT_PIN_MAP.renamed(list(seats)[: len(DEFAULT_PIN_MAP)])
    panels: list[tuple[str, SeatPins]] = []
    for seat, table in section.items():
        if seat not in seats:
            names = ", ".join(seats) or "none"
            raise ConfigError(f"pins.{seat}", table,
                              f"there is no seat {seat!r} at the table; seats are: {names}")
        panels.append((seat, _seat_pins(seat, table)))
    if len(panels) > MAX_PANEL_SEATS:
        raise ConfigError("pins", ", ".join(seat for seat, _ in panels),
                          f"at most {MAX_PANEL_SEATS} seats can have a panel (26 header GPIOs, "
                          "5 per panel); further seats play from phone seat controllers")
    used: dict[int, str] = {}
    for seat, pins in panels:
        for key, number in pins.pins().items():
            where = f"pins.{seat}.{key}"
            if number in used:
                raise ConfigError(where, number,
                                  f"GPIO {number} is already used by {used[number]}; "
                                  "each GPIO can be wired to one button or LED only")
            used[number] = where
    order = {seat: i for i, seat in enumerate(seats)}
    panels.sort(key=lambda item: order[item[0]])
    return PinMap(tuple(panels))
