"""Hardware figures: press-to-queue latency on mock pins, and simulated camera frame times.

The latency is what our own code adds between gpiozero's callback and the controller's queue
(on MockFactory pins the callback runs in the caller's thread, so this is our bookkeeping plus
the queue, not the Pi's interrupt latency). The frame times say how many frames per second the
simulated camera can give the reader off the Pi.
"""

from __future__ import annotations

import queue
import statistics
import time

from gpiozero.pins.mock import MockFactory

from hardware.cameras.simulated import SimulatedCamera
from hardware.panel import SeatPanels
from hardware.pinmap import DEFAULT_PIN_MAP
from vision.zones import default_zones


def press_latency(presses: int = 300) -> list[float]:
    """Seconds from the release edge (a short press is reported on release) to the queue."""
    factory = MockFactory()
    events: queue.Queue = queue.Queue()
    pin_map = DEFAULT_PIN_MAP.renamed(["Ann", "Bob", "Cy", "Dee"])
    ticks = iter(float(i) for i in range(10 * presses))  # every press lasts "1 s": no bounce
    latencies = []
    with SeatPanels(pin_map, events, pin_factory=factory, hold_time=3600, bounce_time=0.5,
                    clock=lambda: next(ticks)):
        pin = factory.pin(pin_map.button_pin("Bob", "THROW"))
        for _ in range(presses):
            pin.drive_low()
            start = time.perf_counter()
            pin.drive_high()
            events.get(timeout=2)
            latencies.append(time.perf_counter() - start)
    return latencies


def frame_times(frames: int = 30) -> tuple[list[float], list[float]]:
    """Seconds per read: (a new throw each time, so rendered; the same table, so cached)."""
    camera = SimulatedCamera(default_zones(["Ann", "Bob", "Cy", "Dee"], 640, 480))
    rendered, cached = [], []
    for i in range(frames):
        camera.set_dice("Ann", [1 + i % 6, 2, 3])
        start = time.perf_counter()
        camera.read()
        rendered.append(time.perf_counter() - start)
        start = time.perf_counter()
        camera.read()
        cached.append(time.perf_counter() - start)
    return rendered, cached


def main() -> None:
    latencies = press_latency()
    print(f"press release -> SeatEvent on the queue (mock pins, {len(latencies)} presses): "
          f"median {statistics.median(latencies) * 1e6:.0f} us, "
          f"p95 {sorted(latencies)[int(0.95 * len(latencies))] * 1e6:.0f} us")
    rendered, cached = frame_times()
    print(f"simulated camera 640x480, 4 seats, new dice each read: "
          f"median {statistics.median(rendered) * 1e3:.1f} ms "
          f"({1 / statistics.median(rendered):.0f} frames/s)")
    print(f"simulated camera, unchanged table (cached frame + checks): "
          f"median {statistics.median(cached) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
