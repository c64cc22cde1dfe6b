"""The pages in headless Chromium (Debian's package, driven by Playwright): the table view
updates live while a hand is played by clicking two seat-controller pages; a screenshot of each
page is written to test-artifacts/; with BIDOU_UPDATE_README_SCREENSHOT=1 the README's one is
rewritten too (docs/screenshot-table.png)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WAIT_MS = 10_000

pytestmark = [pytest.mark.browser]


@pytest.fixture
def served(served_table):
    return served_table(seed=4)


def wait_version(page, version: int) -> None:
    """Wait until the page has drawn the state of ``version`` (pages keep a strict CSP, so
    the waits use selectors, never evaluated script)."""
    page.locator(f'body[data-version="{version}"]').wait_for(timeout=WAIT_MS)


def press(seat_page, button_id: str) -> None:
    """Click a lit button and wait until the table has handled the press."""
    seat_page.wait_for_selector(f"#{button_id}.lit", timeout=WAIT_MS)
    # a press, or BET's one-tap bet (an act) where the rules allow one amount
    with seat_page.expect_response(lambda r: r.url.endswith(("/api/press", "/api/act")),
                                   timeout=WAIT_MS) as answer:
        seat_page.click(f"#{button_id}")
    assert answer.value.status == 200, answer.value.text()


def test_table_view_follows_a_hand_played_from_two_seat_pages(browser, served, shot) -> None:
    t, d = served
    controller = t.controller
    table_ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    table_page = table_ctx.new_page()
    table_page.goto(d.url)
    table_page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    seats = {}
    for seat, url in d.seat_urls().items():
        ctx = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
        page = ctx.new_page()
        page.goto(url)
        assert "token=" not in page.url  # the token leaves the address bar
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        seats[seat] = page

    def step(seat: str, button_id: str) -> None:
        press(seats[seat], button_id)
        wait_version(table_page, controller.public_state()["version"])

    # captain roll, then each throws once and stands (THROW, then STAND)
    while controller.public_state()["expects"] == "roll":
        step(controller.public_state()["to_act"], "btn-THROW")
    captain = controller.public_state()["captain"]
    assert table_page.locator(f".seat[data-seat={captain}] .badge.captain").count() == 1
    for _ in range(2):
        seat = controller.public_state()["to_act"]
        step(seat, "btn-THROW")
        # the player's own dice, drawn on the phone
        seats[seat].locator("#my-dice .die").nth(2).wait_for(timeout=WAIT_MS)
        assert seats[seat].locator("#my-dice .die").count() == 3
        step(seat, "btn-STAND")
    # nobody's dice on the table view before the showdown
    assert table_page.locator(".seat .die").count() == 0
    opener = controller.public_state()["to_act"]
    other = next(s for s in seats if s != opener)
    assert table_page.locator(f".seat[data-seat={opener}].to-act").count() == 1
    seats[opener].locator("#btn-BET", has_text="BET 1").wait_for(timeout=WAIT_MS)
    step(opener, "btn-BET")   # bets the one chip two-hand allows, in one tap
    table_page.wait_for_selector(f".seat[data-seat={opener}] .line:has-text('stake 1')",
                                 timeout=WAIT_MS)
    shot(table_page, "table-mid-hand.png")
    shot(seats[other], f"seat-{other}-to-call.png")
    step(other, "btn-CALL")  # showdown
    table_page.locator(".seat .die").nth(5).wait_for(timeout=WAIT_MS)
    assert table_page.locator(".seat .die").count() == 6
    names = table_page.locator(".seat .throwname").all_inner_texts()
    assert len(names) == 2 and all(names)
    showdown = table_page.locator("#showdown").inner_text()
    assert " takes " in showdown  # who takes the chips, in words
    shot(table_page, "table-showdown.png")
    if os.environ.get("BIDOU_UPDATE_README_SCREENSHOT"):  # refresh the README's picture
        table_page.screenshot(path=str(ROOT / "docs" / "screenshot-table.png"))
    # a refused press (out of turn) says why on that seat's page
    idle = next(s for s in seats if s != controller.public_state()["to_act"])
    refused = t.client.post("/api/press", json={"seat": idle, "button": "THROW"},
                            headers=t.auth(idle))
    assert refused.status_code == 409
    seats[idle].reload()  # a refusal is sent to no screen: the page reads it from its seat
    seats[idle].locator(f"#refusal:has-text({refused.get_json()['error']!r})").wait_for(
        timeout=WAIT_MS)
    shot(seats[idle], f"seat-{idle}-refused.png")


def test_table_view_on_a_phone(browser, served, shot) -> None:
    _, d = served
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    page.goto(d.url)
    page.wait_for_selector(".seat[data-seat=Ann]", timeout=WAIT_MS)
    box = page.locator(".seat[data-seat=Ann]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(page, "table-phone.png")


def test_referee_console_and_history_pages(browser, served, shot) -> None:
    t, d = served
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(d.referee_url)
    page.fill("input[name=pin]", "482913")
    page.click("button[type=submit]")
    page.wait_for_selector("text=Seat pages", timeout=WAIT_MS)
    assert page.locator(".qr svg").count() == 2
    with page.expect_response(lambda r: "/referee/camera.jpg" in r.url,
                              timeout=WAIT_MS) as picture:
        page.reload()
    assert picture.value.status == 200
    assert picture.value.headers["content-type"] == "image/jpeg"
    shot(page, "referee.png")
    page.goto(d.url.rstrip("/") + "/history")
    shot(page, "history.png")


def test_a_seat_tab_with_a_stale_token_stops_sending_it(browser, served) -> None:
    """After a restart (new tokens) a seat tab left open must not spend this address's failed
    token allowance on every state change: it drops the token at the first 401 and asks for
    the QR code again, so the new tabs on the same machine are not locked out (429)."""
    import json
    import random
    import urllib.request

    t, d = served
    page = browser.new_context().new_page()
    page.goto(f"{d.public_base}/seat/Ann?token=stale-token-from-yesterday")
    page.wait_for_selector("#token-missing:not([hidden])", timeout=WAIT_MS)
    for _ in range(8):  # eight state changes, each an event the tab hears
        version = t.state()["version"]
        t.play_one(random.Random(version))
        wait_version(page, version + 1)
    request = urllib.request.Request(f"{d.public_base}/api/seat/Ann",
                                     headers={"Authorization": "Bearer "
                                              + d.context.tokens.token_for("Ann")})
    with urllib.request.urlopen(request, timeout=5) as r:  # not 429
        assert json.loads(r.read())["seat"] == "Ann"
    assert page.locator("#refusal").inner_text().startswith("That token is not valid")
