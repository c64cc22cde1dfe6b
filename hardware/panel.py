"""Seat panels: four buttons and an LED per seat, read through gpiozero, turned into queued events.

gpiozero calls our callbacks in its own threads (the pin's edge thread, the hold thread). The
engine must never run there, so a callback does one thing: put a :class:`SeatEvent` on the
queue the controller reads. Everything else (is it this seat's turn, what does THROW mean now)
is decided by the controller, in its own thread, in queue order.

A press is reported once, and only when its meaning is settled:

- released before ``hold_time``: a short press, reported on RELEASE (``long=False``);
- still down after ``hold_time``: a long press, reported by gpiozero's ``when_held``
  (``long=True``), and the release that follows reports nothing.

So THROW (short) and STAND (long) can never both come from one press. Contact bounce is
handled twice: gpiozero's ``bounce_time`` on the pin (done by the pin library on a Pi), and a
press released sooner than ``bounce_time`` after it went down is not reported here, because
such a "press" is a bounce of the contacts, not a finger (gpiozero's MockFactory pins do not
debounce, so this is also what the tests exercise).

LEDs: ``"on"`` when the seat is to act, ``"blink"`` when its last press was refused (the
dashboard says why), ``"off"`` otherwise. A seat without a panel (it plays from a phone) has
no LED: setting it does nothing.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType

from gpiozero import LED, Button
from gpiozero.exc import GPIOZeroError

from engine.errors import ConfigError
from hardware.pinmap import BUTTONS, PinMap

__all__ = ["BUTTONS", "LED_STATES", "SeatEvent", "SeatPanels"]

#: What :meth:`SeatPanels.set_led` accepts.
LED_STATES: tuple[str, ...] = ("off", "on", "blink")

#: Blink rhythm of a refused press: fast enough to catch the eye, slow enough to read.
BLINK_ON = 0.2
BLINK_OFF = 0.2


@dataclass(frozen=True)
class SeatEvent:
    """One press on a seat panel: which seat, which button, long or short, and when.

    ``time`` is the panel clock's reading (``time.monotonic`` by default) when the button
    went down, so two seats' presses can be told apart in the order they were made.
    """

    seat: str
    button: str
    long: bool
    time: float


class _Press:
    """Where one button's current press stands: when it went down, and whether it was held."""

    __slots__ = ("down_at", "held")

    def __init__(self) -> None:
        self.down_at: float | None = None
        self.held = False


class CloseSafeButton(Button):
    """gpiozero's Button, but a press that arrives while it closes is dropped, not raised.

    Why: gpiozero's ``HoldMixin.close`` forgets its hold thread before it lets go of the pin,
    so an edge delivered in between fails with "'NoneType' object has no attribute 'holding'"
    in the thread that delivers it (seen in ``test_presses_racing_close_never_raise`` on a
    loaded machine). The panel drops presses once closing anyway; this only keeps gpiozero's
    own bookkeeping from raising. Any other error is raised as before.
    """

    def _fire_activated(self) -> None:
        try:
            super()._fire_activated()
        except AttributeError:
            if self._hold_thread is not None:  # not closing: a real error
                raise


class SeatPanels:
    """Every seat panel of the table: gpiozero Buttons and LEDs, events on ``events``.

    ``pin_factory`` is passed to every device (``None``: gpiozero's default, or
    ``Device.pin_factory``; tests pass a ``MockFactory``). Buttons use the Pi's internal
    pull-ups: wire each button between its GPIO and a ground pin.
    """

    def __init__(
        self,
        pin_map: PinMap,
        events: queue.Queue[SeatEvent],
        *,
        pin_factory: object | None = None,
        hold_time: float = 0.8,
        bounce_time: float = 0.03,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if hold_time <= bounce_time:
            raise ValueError(
                f"hold_time ({hold_time}s) must be longer than bounce_time ({bounce_time}s), "
                "or every press would be a long press"
            )
        self.pin_map = pin_map
        self.events = events
        self.hold_time = hold_time
        self.bounce_time = bounce_time
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._buttons: dict[tuple[str, str], Button] = {}
        self._leds: dict[str, LED] = {}
        self._led_states: dict[str, str] = {}
        self._presses: dict[tuple[str, str], _Press] = {}
        try:
            for seat in pin_map.seats:
                for button in BUTTONS:
                    self._open_button(seat, button, pin_factory)
                self._open_led(seat, pin_factory)
        except BaseException:
            self.close()
            raise

    # -- opening ------------------------------------------------------------------------

    def _open_button(self, seat: str, button: str, pin_factory: object | None) -> None:
        number = self.pin_map.button_pin(seat, button)
        try:
            device = CloseSafeButton(number, pull_up=True, bounce_time=self.bounce_time,
                                     hold_time=self.hold_time, pin_factory=pin_factory)
        except GPIOZeroError as exc:
            raise _cannot_open(f"pins.{seat}.{button.lower()}", number, exc) from exc
        key = (seat, button)
        self._presses[key] = _Press()
        self._buttons[key] = device
        device.when_pressed = lambda: self._pressed(seat, button)
        device.when_held = lambda: self._held(seat, button)
        device.when_released = lambda: self._released(seat, button)

    def _open_led(self, seat: str, pin_factory: object | None) -> None:
        number = self.pin_map.led_pin(seat)
        try:
            self._leds[seat] = LED(number, pin_factory=pin_factory)
        except GPIOZeroError as exc:
            raise _cannot_open(f"pins.{seat}.led", number, exc) from exc
        self._led_states[seat] = "off"

    # -- gpiozero callbacks (gpiozero's threads: only bookkeeping and events.put) ---------

    def _pressed(self, seat: str, button: str) -> None:
        with self._lock:
            if self._closed:
                return
            press = self._presses[(seat, button)]
            press.down_at = self._clock()
            press.held = False

    def _held(self, seat: str, button: str) -> None:
        with self._lock:
            press = self._presses[(seat, button)]
            if self._closed or press.down_at is None or press.held:
                return
            press.held = True
            self.events.put(SeatEvent(seat, button, True, press.down_at))

    def _released(self, seat: str, button: str) -> None:
        with self._lock:
            press = self._presses[(seat, button)]
            down_at, held = press.down_at, press.held
            press.down_at, press.held = None, False
            if self._closed or down_at is None or held:
                return
            if self._clock() - down_at < self.bounce_time:
                return  # the contacts bounced: no finger is that quick
            self.events.put(SeatEvent(seat, button, False, down_at))

    # -- LEDs ------------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats that have a panel."""
        return self.pin_map.seats

    def set_led(self, seat: str, state: str) -> None:
        """Light ``seat``'s LED: ``"off"``, ``"on"`` (to act) or ``"blink"`` (press refused).

        A seat without a panel, or panels already closed, have no LED to set: nothing
        happens. An unknown state is a programming error and raises ``ValueError``.
        """
        if state not in LED_STATES:
            raise ValueError(
                f"LED state {state!r} is not one of {', '.join(LED_STATES)}: "
                "use 'on' for the seat to act, 'blink' for a refused press, 'off' otherwise"
            )
        with self._lock:  # held so that close() cannot close the LED halfway
            if self._closed or seat not in self._leds:
                return
            led = self._leds[seat]
            self._led_states[seat] = state
            if state == "on":
                led.on()
            elif state == "off":
                led.off()
            else:
                led.blink(on_time=BLINK_ON, off_time=BLINK_OFF, background=True)

    def led_state(self, seat: str) -> str:
        """What ``seat``'s LED was last set to (``"off"`` for a seat without a panel)."""
        return self._led_states.get(seat, "off")

    # -- closing ---------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    def close(self) -> None:
        """Turn the LEDs off and release every pin. Safe to call twice.

        Presses that arrive while closing or afterwards are dropped, never raised.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for seat, led in self._leds.items():
                self._led_states[seat] = "off"
                try:
                    led.off()
                finally:
                    led.close()
        # Outside the lock: closing a Button joins its hold thread, which may be waiting
        # for the lock in _held. Each join can take up to gpiozero's 0.1 s poll, so the
        # buttons are closed side by side rather than one after another.
        closers = [threading.Thread(target=button.close, name=f"close-{seat}-{name}")
                   for (seat, name), button in self._buttons.items()]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()

    def __enter__(self) -> SeatPanels:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _cannot_open(key: str, number: int, exc: Exception) -> ConfigError:
    return ConfigError(
        key, number,
        f"gpiozero could not open GPIO {number} ({exc}); check that no other program or "
        "seat uses it and that the user is in the gpio group, or run with --simulate",
    )
