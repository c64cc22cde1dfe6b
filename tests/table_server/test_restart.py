"""A seat page open across a restart of the table keeps working: the seat tokens are derived
from a key kept in the log, so the table that comes back on the same log knows the page's
token; the page says when the link is lost and when it is back, and its presses count."""

from __future__ import annotations

import pytest

from firmware.settings.server_settings import ServerSettings
from table_server.access.auth import SeatTokens
from table_server.server import Dashboard

WAIT_MS = 15_000


def settings(port: int) -> ServerSettings:
    return ServerSettings(port=port, referee_token="r" * 20, referee_pin="482913",
                          keepalive=0.5)


def test_tokens_from_one_key_are_the_same_each_start_and_differ_by_seat_and_key() -> None:
    first, again = SeatTokens(["Ann", "Bob"], key="k1"), SeatTokens(["Ann", "Bob"], key="k1")
    assert first.token_for("Ann") == again.token_for("Ann")
    assert first.token_for("Ann") != first.token_for("Bob")
    assert SeatTokens(key="k2").token_for("Ann") != first.token_for("Ann")
    assert again.seat_of(first.token_for("Bob")) == "Bob"


def test_the_log_keeps_the_seat_key_across_a_restart(table_factory, tmp_path) -> None:
    db = str(tmp_path / "table.db")
    first = table_factory(db=db)
    ann = first.token("Ann")
    first.house.close()
    second = table_factory(db=db)
    assert second.token("Ann") == ann
    assert second.client.get("/api/seat/Ann", headers=second.auth("Ann")).status_code == 200
    assert table_factory().token("Ann") != ann  # another log, another key


@pytest.mark.browser
def test_a_seat_page_open_across_a_restart_keeps_working(browser, table_factory, tmp_path,
                                                          shot) -> None:
    db = str(tmp_path / "table.db")
    t = table_factory(seed=4, db=db)
    d = Dashboard(t.controller, settings(0)).start()
    port = d.port
    page = browser.new_context(viewport={"width": 412, "height": 915},
                               is_mobile=True).new_page()
    page.goto(d.seat_urls()["Ann"])
    page.wait_for_selector("#btn-THROW.lit", timeout=WAIT_MS)  # Ann rolls for captain first
    t.house.close()  # the table stops: its streams end
    d.stop()
    page.wait_for_selector("#link[data-state=lost]", timeout=WAIT_MS)
    shot(page, "seat-link-lost.png")
    t2 = table_factory(seed=4, db=db)
    d2 = Dashboard(t2.controller, settings(port)).start()
    try:
        page.wait_for_selector("#link[data-state=back]", timeout=WAIT_MS)
        page.wait_for_selector("#btn-THROW.lit", timeout=WAIT_MS)
        with page.expect_response(lambda r: r.url.endswith("/api/press"),
                                  timeout=WAIT_MS) as answer:
            page.click("#btn-THROW")
        assert answer.value.status == 200, answer.value.text()
        assert t2.state()["seats"][0]["last_action"]["verb"] == "roll"
        assert page.locator("#token-missing").is_hidden()
        shot(page, "seat-after-restart.png")
    finally:
        d2.stop()
