"""No concealed die on anything public: play hands through the real controller in simulation
and, before every action (so before every showdown), read every public page, endpoint and the
event stream, and look for each seat's concealed dice.

The search cannot pass by looking in the wrong place: the same search is run on the seat's own
state and on the referee's (which do hold the dice) and must find them there; and the test
requires that showdowns really happened (dice were exposed) during the game.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest

from engine.ranking import throw_name


def concealed_now(table) -> dict[str, tuple[int, ...]]:
    """Each seat's dice thrown this hand, under its cup and not shown by the rules; for a
    throw whose values are pending, the dice the simulated table really shows there."""
    game = table.controller.game
    views = {v.name: v for v in game.views()}
    out = {}
    for player in game.players:
        dice = game.concealed_dice(player)
        view = views[player]
        if game.values_pending(player) and not view.unsettled and view.throws > 0:
            out[player] = tuple(table.sim.camera.dice()[player])
        elif dice and len(dice) == 3 and view.throws > 0 and view.exposed is None:
            out[player] = tuple(dice)
    return out


def check_settle_prompt(table) -> int:
    """D-S2, D-S4: the settle prompt and the settle picture are there only for exposed dice
    whose values the table is settling; a concealed throw's pending values show nowhere.
    Returns how many concealed throws had values pending."""
    game = table.controller.game
    state = table.client.get("/api/state").get_json()
    settling = {s["seat"] for s in state["settling"]}
    assert settling == set(game.unsettled())
    pending = 0
    for seat in state["seats"]:
        name = seat["name"]
        assert seat["unsettled"] == (name in settling)
        picture = table.client.get(f"/api/settle/{name}.jpg")
        assert (picture.status_code == 200) == (name in settling), name
        if game.values_pending(name) and name not in settling:
            pending += 1
    return pending


def exposed_now(table) -> list[tuple[int, ...]]:
    return [tuple(v.exposed) for v in table.controller.game.views() if v.exposed]


def patterns(dice: tuple[int, ...]) -> set[str]:
    """Every way the dice could be written on a page: JSON lists, "6-5-4", the throw's name."""
    out = {throw_name(dice)}
    for p in set(itertools.permutations(dice)):
        out |= {json.dumps(list(p)), json.dumps(list(p), separators=(",", ":")),
                "-".join(map(str, p)), " ".join(map(str, p))}
    return out


def dice_lists(value: Any, path: str = "") -> list[tuple[str, tuple[int, ...]]]:
    """Every list of three dice values (1-6) anywhere in a JSON document, with its path."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            found += dice_lists(v, f"{path}.{k}")
    elif isinstance(value, list):
        if len(value) == 3 and all(type(v) is int and 1 <= v <= 6 for v in value):
            found.append((path, tuple(value)))
        for i, v in enumerate(value):
            found += dice_lists(v, f"{path}[{i}]")
    return found


def leaks(text: str, concealed: dict[str, tuple[int, ...]], exposed: list[tuple[int, ...]],
          ignore: str | None = None) -> list[str]:
    """Where ``text`` shows a concealed die set (``ignore``: a seat allowed to see its own)."""
    shown = {tuple(sorted(e)) for e in exposed}
    found = []
    for seat, dice in concealed.items():
        if seat == ignore or tuple(sorted(dice)) in shown:
            continue  # the same throw legitimately shown by another seat cannot be told apart
        found += [f"{seat}'s {dice} as {p!r}" for p in patterns(dice) if p in text]
    try:
        document = json.loads(text)
    except ValueError:
        return found
    for path, dice in dice_lists(document):
        # exposed dice, and the values said of exposed dice while the table settles them
        # (check_settle_prompt: only exposed seats are ever in "settling")
        settling = path.startswith(".settling[")
        if not path.endswith(".exposed") and not settling and ignore is None:
            found.append(f"dice {dice} at {path}")
    return found


class Stream:
    """The public event stream, read in this thread up to the table's current version."""

    def __init__(self, client) -> None:
        self.response = client.get("/api/events")
        self.chunks = iter(self.response.response)
        self.buffer = ""

    def read_until(self, version: int, timeout: float = 10.0) -> list[str]:
        texts = []
        deadline = time.monotonic() + timeout
        latest = -1
        while latest < version:
            assert time.monotonic() < deadline, "the event stream fell behind"
            self.buffer += next(self.chunks).decode()
            while "\n\n" in self.buffer:
                message, self.buffer = self.buffer.split("\n\n", 1)
                for line in message.split("\n"):
                    if line.startswith("data: "):
                        texts.append(line[6:])
                        latest = json.loads(line[6:])["version"]
        return texts

    def close(self) -> None:
        self.response.close()


def public_texts(table, stream: Stream) -> dict[str, str]:
    """Everything anyone without a token can read now, by where it came from."""
    c = table.client
    state = c.get("/api/state").get_json()
    gid = state["game_id"]
    texts = {"/api/state": json.dumps(state)}
    for path in ("/", "/seat/Ann", f"/seat/{state['players'][-1]}", "/history",
                 f"/history/{gid}", f"/history/{gid}/record.json", "/api/games",
                 f"/api/games/{gid}", "/referee", "/api/referee/state",
                 "/api/referee/camera.jpg", "/referee/camera.jpg", "/referee/export"):
        response = c.get(path)
        assert response.status_code < 500, path
        if response.mimetype.startswith("image/"):
            raise AssertionError(f"{path} gave a camera picture without the PIN or token")
        texts[path] = response.get_data(as_text=True)
    for i, text in enumerate(stream.read_until(state["version"])):
        texts[f"/api/events #{i}"] = text
    return texts


def play_and_check(table, seed: int, max_actions: int) -> tuple[int, int]:
    """Play max_actions actions, checking before every one; a game that ends sooner is
    followed by a new one (the referee's new-game), so the number of checks does not hang on
    how quickly one seed's game happens to end. Returns (checks that had concealed dice,
    times dice were exposed)."""
    rng = random.Random(seed)
    stream = Stream(table.client)
    checked = exposures = pending = 0
    shown_before: list[tuple[int, ...]] = []  # earlier showdowns stay in the event sentences
    try:
        for _ in range(max_actions):
            if table.controller.game.over:
                response = table.client.post(
                    "/api/referee/correct", json={"kind": "new-game", "why": "next game"},
                    headers=table.auth("referee"))
                assert response.status_code == 200, response.get_json()
                continue
            concealed = concealed_now(table)
            pending += check_settle_prompt(table)
            exposures += bool(exposed_now(table))
            shown_before += exposed_now(table)
            exposed = list(shown_before)
            if concealed:
                checked += 1
                for where, text in public_texts(table, stream).items():
                    assert not leaks(text, concealed, exposed), (where, leaks(
                        text, concealed, exposed))
                for seat in table.controller.game.players:
                    # a seat token sees its own dice and nobody else's
                    own = table.client.get(f"/api/seat/{seat}", headers=table.auth(seat))
                    mine = [concealed[seat]] if seat in concealed else []
                    assert not leaks(own.get_data(as_text=True), concealed, exposed + mine,
                                     ignore=seat), seat
                    if seat in concealed and not table.controller.game.values_pending(seat):
                        # the search finds dice where they really are: it cannot false-pass
                        assert leaks(json.dumps(own.get_json()["dice"]), concealed, [])
                        assert leaks(own.get_data(as_text=True), concealed, [])
                known = {s: d for s, d in concealed.items()
                         if not table.controller.game.values_pending(s)}
                referee = table.client.get("/api/referee/state", headers=table.auth("referee"))
                if known:
                    assert leaks(referee.get_data(as_text=True), known, exposed)
            table.play_one(rng)
    finally:
        stream.close()
    table.pending_seen = pending
    return checked, exposures


def test_two_hand_match_shows_no_concealed_die_before_the_showdown(table_factory) -> None:
    t = table_factory(seed=21)
    checked, exposures = play_and_check(t, seed=21, max_actions=160)
    assert checked >= 20 and exposures >= 1


@pytest.mark.parametrize("variant", ["multi-hand", "montevideo"])
def test_three_seat_games_show_no_concealed_die(table_factory, variant) -> None:
    t = table_factory(variant=variant, players=("Ann", "Bob", "Cy"), seed=5)
    checked, exposures = play_and_check(t, seed=5, max_actions=90)
    assert checked >= 15 and exposures >= 1


@pytest.mark.parametrize("variant,players", [("two-hand", ("Ann", "Bob")),
                                             ("multi-hand", ("Ann", "Bob", "Cy"))])
def test_D_S2_throws_with_values_pending_show_nothing_and_the_prompt_only_at_exposure(
        table_factory, variant, players) -> None:
    t = table_factory(variant=variant, players=players, seed=13, unsure=0.3)
    checked, exposures = play_and_check(t, seed=13, max_actions=120)
    assert checked >= 15 and exposures >= 1
    assert t.pending_seen >= 5  # throws with values pending were there to leak
    assert any(e.text.startswith(tuple(f"{p} settle" for p in players))
               for e in t.controller.log.entries(1))  # and some were settled at exposure


def test_the_search_finds_a_planted_leak() -> None:
    concealed = {"Bob": (6, 5, 4)}
    assert leaks('{"seats": [{"name": "Bob", "exposed": null, "x": [4, 5, 6]}]}', concealed, [])
    assert leaks("<p>Bob has 5-6-4</p>", concealed, [])
    assert leaks("<p>Bob: 6-5-4</p>", concealed, [])
    assert not leaks('{"seats": [{"name": "Bob", "exposed": null}]}', concealed, [])
