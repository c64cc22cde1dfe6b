"""Fixtures for the dashboard tests: the table as ``bidou-table run`` builds it
(``firmware.table.house``: seeded dice, simulated camera, in-memory log, the real controller) with
the dashboard app on top of it. The dice are read by ``SceneReader``, which reports exactly
the dice the simulated scene holds: these tests are about the dashboard, and must not pass
or fail with the real reader's reads (tests/vision and one end-to-end test cover those).

``Table`` keeps the tests readable (as flaskr's ``AuthActions`` does): it knows the tokens,
sends requests as a seat or the referee, and plays random legal moves through the API.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.actions import dice_count
from firmware.camera.simulation import SceneReader
from firmware.settings.config import build_config
from firmware.settings.server_settings import ServerSettings
from firmware.table.house import House, build_house
from table_server.access.auth import PressLimiter, RateLimiter
from table_server.app import create_app
from table_server.server import Dashboard

from .teach_table import taught_table

REFEREE_TOKEN = "referee-token-for-tests-0123456789"
#: Debian's chromium, which Playwright drives (the browser tests skip, saying so, without it).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PIN = "482913"


class FakeClock:
    """A clock the rate-limit tests move by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class HandPace:
    """A clock for the press limit that moves one second per look: presses as far apart as a
    hand makes them, however fast a test plays (the press-rate tests use FakeClock)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


class Table:
    """A simulated table with its dashboard app and a Flask test client."""

    def __init__(self, house: House, app: Any) -> None:
        self.house = house
        self.controller = house.controller
        self.sim = house.dice
        self.app = app
        self.client = app.test_client()
        self.context = app.extensions["bidou"]

    def token(self, seat: str) -> str:
        return self.context.tokens.token_for(seat)

    def auth(self, who: str) -> dict[str, str]:
        token = REFEREE_TOKEN if who == "referee" else self.token(who)
        return {"Authorization": f"Bearer {token}"}

    def act(self, seat: str, action: str, chips: int | None = None, *, as_: str | None = None
            ) -> Any:
        body: dict[str, Any] = {"seat": seat, "action": action}
        if chips is not None:
            body["chips"] = chips
        return self.client.post("/api/act", json=body, headers=self.auth(as_ or seat))

    def state(self) -> dict[str, Any]:
        return self.client.get("/api/state").get_json()

    def login(self, client: Any = None, pin: str = PIN) -> Any:
        client = client or self.client
        client.get("/referee")
        with client.session_transaction() as s:
            csrf = s["csrf"]
        return client.post("/referee/login", data={"pin": pin, "csrf": csrf})

    def csrf(self, client: Any = None) -> str:
        with (client or self.client).session_transaction() as s:
            return s["csrf"]

    def settle_from_phones(self, seat: str) -> list[Any]:
        """Settle ``seat``'s exposed pending values from the phones: its owner says the dice
        the simulated table shows there, every other player shown beside it agrees."""
        values = list(self.sim.camera.dice()[seat])
        pending = next(s for s in self.state()["settling"] if s["seat"] == seat)
        answers = []
        for player in [seat, *pending["witnesses"]]:
            answers.append(self.client.post(
                "/api/settle", json={"seat": seat, "player": player, "values": values},
                headers=self.auth(player)))
        return answers

    def play_one(self, rng: random.Random) -> Any:
        """One random legal move through the API (as the seat); exposed values pending are
        settled from the phones; the referee enters dice the simulated camera could not
        read, so the game always moves on."""
        settling = self.state()["settling"]
        if settling:
            answers = self.settle_from_phones(settling[0]["seat"])
            assert all(a.status_code == 200 for a in answers), [a.get_json() for a in answers]
            return answers[-1]
        options = self.controller.game.allowed()
        stands = [a for a in options if a.verb == "stand"]
        if stands and rng.random() < 0.4:
            choice = stands[0]
        else:
            choice = rng.choice([a for a in options if a.verb != "stand"] or options)
        chips = None
        if choice.min_chips is not None and choice.max_chips is not None:
            chips = rng.randint(choice.min_chips, min(choice.max_chips, choice.min_chips + 2))
        response = self.act(choice.player, choice.verb, chips)
        if response.status_code == 409 and choice.verb in ("throw", "roll"):
            values = [rng.randint(1, 6) for _ in range(dice_count(choice.verb))]
            response = self.client.post("/api/referee/dice",
                                        json={"seat": choice.player, "values": values},
                                        headers=self.auth("referee"))
        assert response.status_code == 200, response.get_json()
        return response


def make_table(variant: str = "two-hand", players: tuple[str, ...] = ("Ann", "Bob"),
               seed: int = 7, db: str = ":memory:", unsure: float = 0.0,
               zones: dict[str, dict[str, int]] | None = None, **settings: Any) -> Table:
    """``zones``: the config's ``[zones]`` (a calibrated camera, whose zones a new game of
    other players does not move); without them the simulated table lays a zone for every
    player of each game."""
    data: dict[str, Any] = {"table": {"variant": variant, "players": list(players)},
                            "referee": {"pin": PIN, "token": REFEREE_TOKEN}}
    if zones:
        data["zones"] = zones
    config = build_config(data, simulate=True, environ={})
    house = build_house(config, db=db, seed=seed, reader=SceneReader, panels=False,
                        unsure=unsure)
    options = dict(referee_token=REFEREE_TOKEN, referee_pin=PIN, keepalive=0.2)
    options.update(settings)
    limiter = options.pop("limiter", None)
    presses = options.pop("presses", None) or PressLimiter(clock=HandPace())
    settles = options.pop("settles", None) or PressLimiter(rate=1.0, burst=4, clock=HandPace())
    app = create_app(house.controller, ServerSettings(**options), limiter=limiter,
                     presses=presses, settles=settles)
    app.config["TESTING"] = True
    return Table(house, app)


@pytest.fixture
def table() -> Iterator[Table]:
    t = make_table()
    try:
        yield t
    finally:
        t.house.close()


@pytest.fixture
def served_table(table_factory) -> Iterator[Any]:
    """``served_table(**kwargs)``: a table as ``table_factory`` builds it, with its dashboard
    listening on a free loopback port: ``(table, dashboard)``; stopped at the end."""
    started: list[Any] = []

    def serve(**kwargs: Any) -> tuple[Table, Any]:
        t = table_factory(**kwargs)
        settings = ServerSettings(port=0, referee_token="r" * 20, referee_pin="482913",
                            keepalive=1.0)
        started.append(Dashboard(t.controller, settings).start())
        return t, started[-1]

    try:
        yield serve
    finally:
        for d in started:
            d.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def limited_table(clock: FakeClock) -> Iterator[Table]:
    t = make_table(limiter=RateLimiter(max_failures=3, window=60.0, clock=clock))
    try:
        yield t
    finally:
        t.house.close()


@pytest.fixture
def table_factory() -> Iterator[Any]:
    """Build tables of any variant; every one is stopped at the end of the test."""
    made: list[Table] = []

    def factory(**kwargs: Any) -> Table:
        made.append(make_table(**kwargs))
        return made[-1]

    try:
        yield factory
    finally:
        for t in made:
            t.house.close()


@pytest.fixture
def pin() -> str:
    return PIN


@pytest.fixture
def referee_token() -> str:
    return REFEREE_TOKEN


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless Debian chromium driven by Playwright, launched once for a test module (a
    launch costs seconds); skips (with the reason in the summary) where it is not installed.
    Not once per session: Playwright's sync API keeps an event loop running in its thread
    while it is started, and the venue's tests run their own with ``asyncio.run``."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is absent: `sudo apt-get install chromium` (Debian's package; "
                    ".ci/run does) to run the browser tests")
    from playwright.sync_api import sync_playwright  # lazy: only the browser tests need it

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The module's chromium, for one test: each test opens its own contexts (cookies,
    storage, viewport and language of their own), and every one it opened is closed at its
    end, so no test sees another's pages."""
    assert not chromium.contexts, "a context of an earlier test is still open"
    try:
        yield chromium
    finally:
        for context in list(chromium.contexts):
            context.close()


@pytest.fixture
def shot() -> Callable[[Any, str], Path]:
    """``shot(page, name)`` keeps a full-page screenshot under test-artifacts/."""

    def take(page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def taught(tmp_path: Path) -> Iterator[tuple[House, Any, Any, Path]]:
    """A simulated table to teach its dice, its config and log in the test's folder
    (``teach_table.py``): (house, teacher, app, folder)."""
    with taught_table(tmp_path) as table:
        yield table
