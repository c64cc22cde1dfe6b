"""The Dice page's known throw on a phone, in headless Chromium at 390x844: each die boxed on the
picture is at least 44 px to tap (a phone's least target) however small it is drawn, and saving
with a die not decided yet keeps the referee on the throw's page, the sentence beside Save and
that die's chooser open."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS
from .teach_table import served_taught, true_places
from .test_dice_browser import WAIT_MS, add_die, log_in

pytestmark = [pytest.mark.browser]

TARGET = 44  # px: the least a finger is given to tap

HITS = """([index, reach]) => {
  const box = document.querySelector(`.place[data-index="${index}"]`).getBoundingClientRect();
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  return [[reach, 0], [-reach, 0], [0, reach], [0, -reach]].map(([dx, dy]) => {
    const hit = document.elementFromPoint(cx + dx, cy + dy);
    const place = hit && hit.closest(".place");
    return place ? place.dataset.index : null;
  });
}"""


@pytest.fixture
def served(tmp_path):
    with served_taught(tmp_path) as made:
        yield made


def test_on_a_phone_each_die_is_44_px_to_tap_and_an_undecided_die_keeps_the_page(
        browser, served) -> None:
    house, _, d = served
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    log_in(page, d.url)
    page.click("#dice-link")
    page.select_option("#take-seat", "Ann")
    page.click("#take-button")
    page.wait_for_selector("#picture-img", timeout=WAIT_MS)
    truth = true_places(house, "Ann")
    for place in truth:
        add_die(page, place["box"], place["value"])
    drawn = [page.locator(f".place[data-index='{i}']").bounding_box() for i in range(len(truth))]
    centres = [(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for b in drawn]
    apart = [i for i, (x, y) in enumerate(centres)
             if all(abs(x - u) >= TARGET + 2 or abs(y - v) >= TARGET + 2
                    for j, (u, v) in enumerate(centres) if j != i)]
    assert apart, centres  # dice far enough apart for their targets not to meet
    assert min(b["width"] for b in drawn) < TARGET  # drawn smaller than a finger at 390 px
    for i in apart:  # 22 px each way from the centre is still this die
        assert page.evaluate(HITS, [i, TARGET / 2 - 1]) == [str(i)] * 4, i

    # one more die, tapped on the picture but given no value: Save keeps the page
    page.click("#add-die")
    img = page.locator("#picture-img")
    img.click(position={"x": 6, "y": 6})
    page.wait_for_selector("#chooser:not([hidden])", timeout=WAIT_MS)
    page.locator(f"#chooser button[data-value='{truth[0]['value']}']").wait_for()
    page.evaluate("() => { document.getElementById('chooser').hidden = true; }")
    address = page.url
    page.click("#save-button")
    refusal = page.locator("#save-refusal")
    refusal.filter(has_text=f"Die {len(truth) + 1} has no value yet").wait_for(timeout=WAIT_MS)
    assert page.url == address and page.locator("#picture-img").count() == 1
    assert page.locator("#chooser").is_visible()  # the undecided die's chooser, open again
    box = refusal.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844  # on the screen, beside Save
    assert page.locator(".place.undecided").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dice-undecided-390.png"))  # what the screen shows
