"""Every bad input to the dashboard is one sentence with a 4xx: a referee's new game the
config would refuse, a seat renamed while it is read, a body over the limit however it is
sent."""

from __future__ import annotations

import socket

import pytest

from firmware.settings.server_settings import ServerSettings
from firmware.table.commands import Correct
from table_server.server import Dashboard

NAMES = ("a name is 1 to 24 printable characters, without spaces, / or \\, and not . or "
         "..")


@pytest.mark.parametrize(("variant", "players", "problem"), [
    ("multi-hand", [f"P{i}" for i in range(12)],
     "the table has 8 seats and 12 players are named (P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, "
     "P10, P11); name 8 at most."),
    ("two-hand", ["a\u0000", "Bob"], f"the name “a\\x00” has a space or an unprintable "
                                      f"character; {NAMES}"),
    ("two-hand", ["..", "Bob"], f"the name “..” is a path step; {NAMES}"),
    ("two-hand", ["a/b", "Bob"], f"the name “a/b” has a slash; {NAMES}"),
    ("montevideo", ["Ann", "Bob"], "montevideo is played by 3 to 8 players and 2 are named "
                                   "(Ann, Bob); name at least 3, or choose two-hand for 2 "
                                   "players."),
    ("multi-hand", ["Ann", "Bob", "Ann"], "Ann is named twice; each player needs a name of "
                                          "their own."),
    ("two-hand", ["Ann", "pot"], "“pot” is the name of a place on the table (centre, pot, "
                                 "removed); give that player another name."),
])
def test_the_referees_new_game_is_refused_in_the_referees_words(table, variant, players,
                                                                   problem):
    """A new game the table cannot seat is refused with a sentence naming the players and
    what to do, never a record field; nothing changes."""
    response = table.client.post("/api/referee/correct", json={
        "kind": "new-game", "why": "x", "variant": variant, "players": players},
        headers=table.auth("referee"))
    assert response.status_code == 409
    assert response.get_json()["error"] == f"The new game cannot start: {problem}"
    assert table.state()["game_id"] == 1


def test_a_seat_renamed_while_it_is_read_is_404_not_500(table):
    real = table.controller.seat_state

    def renamed_first(seat: str):
        table.controller.submit(Correct("new-game", by="ref", why="new names",
                                        variant="two-hand", players=("Cy", "Di")))
        return real(seat)

    table.controller.seat_state = renamed_first
    response = table.client.get("/api/seat/Ann", headers=table.auth("referee"))
    assert response.status_code == 404
    assert response.get_json()["error"] == ("There is no seat named 'Ann' at this table any "
                                            "more; the referee started a new game, whose seats "
                                            "are Cy, Di.")


def test_a_declared_body_over_the_limit_is_413_before_the_token_is_asked(table):
    response = table.client.post("/api/act", data=b"x" * (65 * 1024),
                                 content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"] == ("The request body is too large: the table takes at "
                                            "most 64 KiB; send less.")


def _post_chunked(port: int, size: int, auth: str = "") -> bytes:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                 b"\r\nTransfer-Encoding: chunked\r\n" + auth.encode() + b"\r\n")
    body = b'{"seat": "Ann", "action": "roll"}' if size == 0 else b"x" * size
    try:
        for i in range(0, len(body), 65536):
            chunk = body[i:i + 65536]
            sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        sock.sendall(b"0\r\n\r\n")
    except OSError:  # the server answered and closed before the rest was sent
        pass
    answer = sock.recv(65536)
    sock.close()
    return answer


def test_a_chunked_body_over_the_limit_is_413_and_a_small_one_is_read(table):
    settings = ServerSettings(port=0, referee_token="r" * 20, referee_pin="123456")
    d = Dashboard(table.controller, settings).start()
    try:
        big = _post_chunked(d.port, 10 * 1024 * 1024)
        assert big.startswith(b"HTTP/1.1 413 ")
        assert b"The request body is too large" in big
        small = _post_chunked(d.port, 0, auth=f"Authorization: Bearer {'r' * 20}\r\n")
        assert small.startswith(b"HTTP/1.1 200 "), small[:200]
        assert table.controller.game.history[-1].verb == "roll"
    finally:
        d.stop()
