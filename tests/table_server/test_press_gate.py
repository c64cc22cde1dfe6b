"""The press gate: a press past its seat's rate is refused before the app, and on the real
server held until the seat may press again, a bounded number at a time (a script's press flood)."""

from __future__ import annotations

import json
import threading

from table_server.access.auth import PressLimiter, SeatTokens
from table_server.access.press_gate import HOLD_MAX, PressGate


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def app_reached(calls: list[str]):
    def app(environ, start_response):
        calls.append(environ["PATH_INFO"])
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"played"]
    return app


def press(gate: PressGate, token: str, path: str = "/api/press") -> tuple[str, dict, bytes]:
    answer: dict = {}

    def start_response(status, headers):
        answer["status"], answer["headers"] = status, dict(headers)

    body = b"".join(gate({"REQUEST_METHOD": "POST", "PATH_INFO": path,
                          "HTTP_AUTHORIZATION": f"Bearer {token}"}, start_response))
    return answer["status"], answer["headers"], body


def test_a_press_past_the_rate_is_held_until_the_seat_may_press_and_answered_429() -> None:
    clock, slept, calls = Clock(), [], []
    tokens, presses = SeatTokens(["Ann"]), PressLimiter(rate=2.0, burst=1, clock=clock)
    gate = PressGate(app_reached(calls), lambda: (tokens, presses), hold_slots=4,
                     sleep=lambda s: (slept.append(s), setattr(clock, "now", clock.now + s)))
    presses.take("Ann")  # the one press of the burst, spent by the app
    status, headers, body = press(gate, tokens.token_for("Ann"))
    assert status.startswith("429") and calls == []
    assert slept == [0.5]  # 1 press at 2 a second: half a second away
    assert json.loads(body)["error"] == ("Too many presses from Ann's seat; wait a moment and "
                                         "press again.")
    assert headers["Retry-After"] == "1" and headers["X-Frame-Options"] == "DENY"


def test_refusals_are_held_a_few_at_a_time_and_never_longer_than_the_cap() -> None:
    clock, calls = Clock(), []
    tokens, presses = SeatTokens(["Ann"]), PressLimiter(rate=0.1, burst=1, clock=clock)
    presses.take("Ann")  # the next press is 10 s away
    release, held, most = threading.Event(), [], []
    lock = threading.Lock()

    def sleep(seconds: float) -> None:
        with lock:
            held.append(seconds)
            most.append(len(held))
        release.wait(10)
        with lock:
            held.remove(seconds)

    gate = PressGate(app_reached(calls), lambda: (tokens, presses), hold_slots=2, sleep=sleep)
    token = tokens.token_for("Ann")
    waiting = [threading.Thread(target=press, args=(gate, token)) for _ in range(2)]
    for t in waiting:
        t.start()
    while len(most) < 2:
        pass
    status, _, _ = press(gate, token)  # both slots held: this refusal is answered at once
    assert status.startswith("429") and max(most) == 2 and held == [HOLD_MAX, HOLD_MAX]
    release.set()
    for t in waiting:
        t.join(10)
    assert calls == []


def test_without_slots_nothing_is_held_and_other_requests_go_to_the_app() -> None:
    clock, calls = Clock(), []
    tokens, presses = SeatTokens(["Ann"]), PressLimiter(rate=2.0, burst=1, clock=clock)
    gate = PressGate(app_reached(calls), lambda: (tokens, presses),
                     sleep=lambda s: (_ for _ in ()).throw(AssertionError("held")))
    token = tokens.token_for("Ann")
    assert press(gate, token)[0] == "200 OK"  # within the rate: the app plays it
    presses.take("Ann")
    assert press(gate, token)[0].startswith("429")
    assert press(gate, "not-a-token")[0] == "200 OK"  # the app answers a wrong token (401)
    assert press(gate, token, "/api/state")[0] == "200 OK"
    assert calls == ["/api/press", "/api/press", "/api/state"]
