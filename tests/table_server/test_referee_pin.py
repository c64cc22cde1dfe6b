"""The referee PIN outlives a restart: a table whose config sets no PIN keeps the one it made in its
log, as it keeps the seat tokens' key, until the referee changes it on the console; a PIN the config
sets is changed in the config, and the console says so."""

from __future__ import annotations

import html
import re

from table_server.access.referee_pin import RefereePin

IN_CONFIG = ("This table's PIN is set in its config ([referee] pin); change it there and "
             "restart the table.")


def unconfigured(table_factory, db: str):
    """A table started as `bidou-table run` starts one whose config has no [referee] pin:
    the settings carry a new random PIN at each start, marked generated."""
    return table_factory(db=db, referee_pin="000000", pin_generated=True)


def kept_pin(t) -> str:
    return RefereePin(t.context.settings, t.controller.log).current()


def test_after_a_restart_the_same_pin_opens_the_console(table_factory, tmp_path) -> None:
    db = str(tmp_path / "table.db")
    first = unconfigured(table_factory, db)
    pin = kept_pin(first)
    assert pin.isdigit() and len(pin) == 6
    assert first.login(pin=pin).status_code == 303
    first.house.close()
    second = unconfigured(table_factory, db)
    assert second.login(pin="000000").status_code == 401  # the settings' own PIN is not it
    assert second.login(pin=pin).status_code == 303
    assert "Log out" in second.client.get("/referee").get_data(as_text=True)


def test_the_referee_changes_the_pin_and_the_new_one_survives_a_restart(table_factory,
                                                                       tmp_path) -> None:
    db = str(tmp_path / "table.db")
    first = unconfigured(table_factory, db)
    old = kept_pin(first)
    first.login(pin=old)
    changed = first.client.post("/referee/pin", data={"pin": "24681357", "again": "24681357",
                                                      "csrf": first.csrf()})
    assert changed.status_code == 303
    page = first.client.get("/referee").get_data(as_text=True)
    assert "Log out" in page and "The new PIN opens the console from now on" in page
    first.house.close()
    second = unconfigured(table_factory, db)
    assert second.login(pin=old).status_code == 401
    assert second.login(pin="24681357").status_code == 303


def test_a_pin_typed_differently_twice_is_refused_beside_the_form_and_not_kept(table_factory,
                                                                              tmp_path) -> None:
    t = unconfigured(table_factory, str(tmp_path / "table.db"))
    old = kept_pin(t)
    t.login(pin=old)
    for new, again, sentence in [
            ("24681357", "24681358", "The two PINs typed differ; type the new PIN twice, the "
                                     "same both times."),
            ("1234", "1234", "A PIN is 6 to 12 digits (0-9), so it is not guessed; type a new "
                             "one.")]:
        t.client.post("/referee/pin", data={"pin": new, "again": again, "csrf": t.csrf()})
        page = html.unescape(t.client.get("/referee").get_data(as_text=True))
        assert f'<p class="flash error" role="alert">{sentence}</p>' in page
        assert new not in page  # a PIN is never written back into the page or the cookie
        assert kept_pin(t) == old


def words(page: str) -> str:
    """A page's text without its markup (the config's key is set as code)."""
    return re.sub(r"<[^>]+>", "", page)


def test_a_pin_set_in_the_config_is_changed_there(table) -> None:
    table.login()
    page = html.unescape(table.client.get("/referee").get_data(as_text=True))
    assert 'action="/referee/pin"' not in page and IN_CONFIG in words(page)
    table.client.post("/referee/pin", data={"pin": "24681357", "again": "24681357",
                                            "csrf": table.csrf()})
    assert IN_CONFIG in words(html.unescape(table.client.get("/referee").get_data(as_text=True)))
    assert table.login(pin="24681357").status_code == 401
