"""Honest answers under load: 503 with Retry-After when the table did not take a press, 202
with an id for one it is still applying, 429 for a seat token pressing faster than a hand."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from firmware.table.commands import Press
from table_server import context
from table_server.access.auth import PressLimiter


class Held:
    """Holds the table's worker on the next command until ``release`` is set."""

    def __init__(self, table: Any) -> None:
        self.started, self.release = threading.Event(), threading.Event()
        self._handle = table.controller.worker._handle
        table.controller.worker._handle = self

    def __call__(self, command: Any) -> Any:
        self.started.set()
        assert self.release.wait(10)
        return self._handle(command)


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(context, "ANSWER_TIMEOUT", 0.3)


def test_a_press_the_table_did_not_take_in_time_is_503_and_never_played(table, quick):
    held = Held(table)
    first = threading.Thread(target=table.controller.submit,
                             args=(Press("Ann", "THROW"), 10))
    first.start()
    assert held.started.wait(5)
    response = table.act("Bob", "roll")
    assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    assert response.get_json()["error"].endswith("it was withdrawn; nothing was played. Try "
                                                 "again.")
    held.release.set()
    first.join(5)
    table.controller.wait_processed(2)
    assert [a.player for a in table.controller.game.history] == ["Ann"]  # Bob's never played


def test_a_press_begun_when_the_wait_ends_is_202_with_an_id_then_its_outcome(table, quick):
    held = Held(table)
    threading.Timer(0.6, held.release.set).start()
    response = table.act("Ann", "roll")
    assert response.status_code == 202
    body = response.get_json()
    assert body["ok"] is False and body["outcome"] == f"/api/commands/{body['pending']}"
    assert held.release.wait(5)
    table.controller.wait_processed(1)
    done = table.client.get(body["outcome"], headers=table.auth("Bob"))
    assert done.status_code == 200 and done.get_json()["ok"] is True
    assert done.get_json()["message"].startswith("Ann rolls a")
    unknown = table.client.get("/api/commands/abc", headers=table.auth("Bob"))
    assert unknown.status_code == 404
    assert table.client.get(body["outcome"]).status_code == 401


def test_a_full_queue_is_503_with_retry_after(table, quick):
    table.controller.worker.max_waiting = 0
    response = table.act("Ann", "roll")
    assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    assert response.get_json()["error"].startswith("The table is busy (0 commands are waiting)")
    assert table.controller.game.history == []


def test_a_seat_token_pressing_faster_than_a_hand_gets_429(table_factory, clock):
    t = table_factory(presses=PressLimiter(rate=2.0, burst=3, clock=clock))
    codes = [t.client.post("/api/press", json={"seat": "Bob", "button": "CALL"},
                           headers=t.auth("Bob")).status_code for _ in range(4)]
    assert codes == [409, 409, 409, 429]
    refused = t.client.post("/api/press", json={"seat": "Bob", "button": "CALL"},
                            headers=t.auth("Bob"))
    assert refused.headers["Retry-After"] == "1"
    assert refused.get_json()["error"] == ("Too many presses from Bob's seat; wait a moment "
                                           "and press again.")
    # another seat and the referee are not slowed by Bob's presses
    assert t.client.post("/api/press", json={"seat": "Ann", "button": "CALL"},
                         headers=t.auth("Ann")).status_code == 409
    assert t.client.post("/api/press", json={"seat": "Bob", "button": "CALL"},
                         headers=t.auth("referee")).status_code == 409
    clock.now += 0.5
    assert t.client.post("/api/press", json={"seat": "Bob", "button": "CALL"},
                         headers=t.auth("Bob")).status_code == 409


def test_presses_past_the_rate_are_refused_before_the_app(table_factory, clock, monkeypatch):
    """A flood of refused presses must cost the table next to nothing, so it is answered by
    the press gate and never reaches the app (its token check counts here)."""
    t = table_factory(presses=PressLimiter(rate=2.0, burst=3, clock=clock))
    limiter = t.client.application.extensions["bidou"].limiter
    reached: list[str] = []
    checked = limiter.blocked_message
    monkeypatch.setattr(limiter, "blocked_message", lambda a: reached.append(a) or checked(a))
    press = {"seat": "Bob", "button": "CALL"}
    for _ in range(3):
        assert t.client.post("/api/press", json=press, headers=t.auth("Bob")).status_code == 409
    assert len(reached) == 3
    flood = [t.client.post("/api/press", json=press, headers=t.auth("Bob")) for _ in range(20)]
    flood += [t.client.post("/api/act", json={"seat": "Bob", "action": "call"},
                            headers=t.auth("Bob"))]
    assert {r.status_code for r in flood} == {429} and len(reached) == 3
    refused = flood[-1]
    assert refused.headers["Retry-After"] == "1"
    assert refused.headers["X-Content-Type-Options"] == "nosniff"
    assert refused.headers["Cache-Control"] == "no-store"
    assert refused.get_json() == {"error": "Too many presses from Bob's seat; wait a moment "
                                           "and press again.", "rule": None}
    # the referee's token and a wrong token still go to the app, which answers them
    assert t.client.post("/api/press", json=press,
                         headers=t.auth("referee")).status_code == 409
    assert t.client.post("/api/press", json=press,
                         headers={"Authorization": "Bearer nope"}).status_code == 401
    assert len(reached) == 5
