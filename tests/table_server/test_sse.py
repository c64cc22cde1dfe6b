"""/api/events: the current state first, one event per state change, keep-alive comments when
idle, and the controller subscription closed when the client goes."""

from __future__ import annotations

import json
import time

from firmware.words.phrases import english
from table_server.streams.sse import format_event


def read_events(response, count: int, timeout: float = 10.0) -> tuple[list[dict], list[str]]:
    """Read ``count`` state events (and any comments) from a streamed response, or fail."""
    states: list[dict] = []
    comments: list[str] = []
    deadline = time.monotonic() + timeout
    buffer = ""
    chunks = iter(response.response)
    while len(states) < count:
        assert time.monotonic() < deadline, f"only {len(states)} of {count} events arrived"
        buffer += next(chunks).decode()
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            if message.startswith(":"):
                comments.append(message)
                continue
            fields = dict(line.split(": ", 1) for line in message.split("\n"))
            if fields.get("event") == "state":
                state = json.loads(fields["data"])
                assert fields["id"] == str(state["version"])
                states.append(state)
    return states, comments


def test_format_event_is_one_sse_message() -> None:
    text = format_event({"version": 3, "to_act": "Ann"})
    assert text == 'id: 3\nevent: state\ndata: {"version":3,"to_act":"Ann"}\n\n'


def test_stream_starts_with_the_current_state(table) -> None:
    response = table.client.get("/api/events")
    try:
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-store"
        (state,), _ = read_events(response, 1)
        assert state["version"] == table.state()["version"]
        assert english(state["prompt"]) == "Ann's turn: roll for captain."
    finally:
        response.close()


def test_one_event_per_state_change(table) -> None:
    response = table.client.get("/api/events")
    try:
        read_events(response, 1)
        table.act("Ann", "roll")
        (event,), _ = read_events(response, 1)
        assert event["to_act"] == "Bob"
        assert event["actions"] == 1 and event["version"] == table.state()["version"]
    finally:
        response.close()


def test_idle_stream_sends_keep_alive_comments(table) -> None:
    response = table.client.get("/api/events")
    try:
        read_events(response, 1)
        chunks = iter(response.response)
        assert next(chunks) == b": keep-alive\n\n"  # keepalive is 0.2 s in these tests
    finally:
        response.close()


def test_closing_the_stream_unsubscribes(table) -> None:
    publisher = table.controller.publisher
    before = publisher.listeners
    response = table.client.get("/api/events")
    read_events(response, 1)
    assert publisher.listeners == before + 1
    response.close()
    assert publisher.listeners == before


def test_stopping_ends_open_streams(table) -> None:
    response = table.client.get("/api/events")
    read_events(response, 1)
    table.context.stopping.set()
    deadline = time.monotonic() + 5.0
    for _chunk in response.response:  # ends by itself within one keep-alive period
        assert time.monotonic() < deadline, "the stream did not end after stopping"
    response.close()


def test_a_state_is_encoded_once_for_every_stream():
    from table_server.streams.sse import Streams

    calls: list[int] = []

    def transform(state):
        calls.append(state["version"])
        return state

    streams = Streams(limit=10)
    state = {"version": 3, "to_act": "Ann"}
    texts = {streams.event_text(state, transform) for _ in range(200)}
    assert len(texts) == 1 and calls == [3]
    assert texts.pop().startswith("id: 3\nevent: state\n")
    streams.event_text({"version": 4}, transform)
    assert calls == [3, 4]
