"""A simulated table to teach its dice: a config file and a log file in a folder of the test's
own, red dice with green pips (which the rule reader cannot read) on the simulated camera, the
real readers, and the console's teacher installed as ``bidou-table run`` installs it."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from firmware.settings.config import load_config
from firmware.settings.server_settings import ServerSettings
from firmware.table.house import House, build_house
from firmware.teach.dice_teacher import DiceTeacher, simulated_throw
from table_server.app import create_app
from table_server.console.dice_teach import Changes, install
from table_server.server import Dashboard

PIN = "482913"
TOKEN = "referee-token-for-tests-0123456789"
CONFIG = f"""# a pub's table
[table]
variant = "two-hand"
players = ["Ann", "Bob"]

[camera]
kind = "simulated"
dice = "red-green"

[referee]
pin = "{PIN}"
token = "{TOKEN}"
"""


SETTINGS = ServerSettings(port=0, referee_token=TOKEN, referee_pin=PIN, keepalive=0.5)


def teach_house(folder: pathlib.Path, seed: int = 3) -> tuple[House, DiceTeacher, Changes]:
    """The house and its teacher, built from ``folder``/pub.toml with its log beside it."""
    config = folder / "pub.toml"
    config.write_text(CONFIG)
    house = build_house(load_config(str(config), environ={}), db=str(folder / "table.db"),
                        seed=seed, panels=False, config_path=str(config))
    assert house.dice is not None
    changes = Changes()
    teacher = DiceTeacher(house.log, house.watcher, str(config),
                          throw=simulated_throw(house.dice.camera, seed), changed=changes)
    house.add("dice teacher", teacher.stop)
    return house, teacher, changes


def teach_table(folder: pathlib.Path, seed: int = 3) -> tuple[House, DiceTeacher, Any]:
    """The house, its teacher and its dashboard app (not served)."""
    house, teacher, changes = teach_house(folder, seed)
    app = create_app(house.controller, SETTINGS)
    install(app, teacher, changes)
    return house, teacher, app


@contextmanager
def served_taught(folder: pathlib.Path) -> Iterator[tuple[House, DiceTeacher, Any]]:
    """The house and its teacher with the dashboard listening on a loopback port (for the
    browser tests): ``(house, teacher, dashboard)``, stopped at the end."""
    house, teacher, changes = teach_house(folder)
    d = Dashboard(house.controller, SETTINGS).start()
    install(d.app, teacher, changes)
    try:
        yield house, teacher, d
    finally:
        d.stop()
        house.close()


@contextmanager
def taught_table(folder: pathlib.Path) -> Iterator[tuple[House, DiceTeacher, Any, pathlib.Path]]:
    """The house, its teacher, its app and ``folder`` (the ``taught`` fixture), closed after."""
    house, teacher, app = teach_table(folder)
    try:
        yield house, teacher, app, folder
    finally:
        house.close()


def login(app: Any, pin: str = PIN) -> tuple[Any, str, Any]:
    """A test client logged in to the referee console: (client, its CSRF token, the answer)."""
    client = app.test_client()
    client.get("/referee")
    with client.session_transaction() as s:
        csrf = s["csrf"]
    answer = client.post("/referee/login", data={"pin": pin, "csrf": csrf})
    with client.session_transaction() as s:
        return client, s["csrf"], answer


def true_places(house: House, seat: str) -> list[dict[str, Any]]:
    """The dice the simulated camera drew in ``seat``'s zone, as the teach page's places
    (boxes in the zone's picture)."""
    assert house.watcher is not None and house.dice is not None
    zone = house.watcher.zones[seat]
    return [{"box": [x - zone.x, y - zone.y, w, h], "value": value}
            for where, value, (x, y, w, h) in house.dice.camera.truth() if where == seat]


def teach(house: House, teacher: DiceTeacher, throws: int) -> list[str]:
    """``throws`` known throws taken at the seats in turn, saved with their true dice."""
    names = []
    for n in range(throws):
        seat = ("Ann", "Bob")[n % 2]
        draft = teacher.take(seat)
        names.append(teacher.save(draft.id, true_places(house, seat)))
    return names


def places_json(house: House, seat: str) -> str:
    return json.dumps(true_places(house, seat))
