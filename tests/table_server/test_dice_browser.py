"""The Dice page in headless Chromium on the simulated table, whose red dice with green pips
the rule reader cannot read: known throws taken at two seats, a die added and corrected by
tapping, the tally growing, Learn with its progress bar to the end and the figures, Keep, and
the next throw at the table read by the kept reader. With BIDOU_UPDATE_DOCS_SCREENSHOTS=1 the
page's pictures in docs/ are made again (docs/screenshot-dice-*.png)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest

from table_server.console.dice_teach import known_taken

from .teach_table import PIN, served_taught, teach, true_places

ROOT = Path(__file__).resolve().parents[2]
WAIT_MS = 15_000
LEARN_MS = 300_000

pytestmark = [pytest.mark.browser]


@pytest.fixture
def served(tmp_path):
    with served_taught(tmp_path) as made:
        yield made


def log_in(page, url: str) -> None:
    page.goto(f"{url.rstrip('/')}/referee")
    page.fill("input[name=pin]", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#dice-link", timeout=WAIT_MS)


def add_die(page, box, value: int) -> None:
    """Tap "Add a die", then the picture where the die lies, then its value."""
    page.click("#add-die")
    img = page.locator("#picture-img")
    shown = img.bounding_box()
    width = int(page.get_attribute("#picture", "data-width"))
    scale = shown["width"] / width
    x, y, w, h = box
    img.click(position={"x": (x + w / 2) * scale, "y": (y + h / 2) * scale})
    page.click(f"#chooser button[data-value='{value}']")


def upload(page, url: str, data: bytes) -> tuple[int, str]:
    """Send ``data`` as the upload form's photo with ``page``'s session, past its script."""
    boundary = "----dice"
    csrf = page.locator("#upload-form input[name=csrf]").get_attribute("value")
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{csrf}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; '
            f'filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n').encode() + data + \
        f"\r\n--{boundary}--\r\n".encode()
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    request = urllib.request.Request(
        f"{url.rstrip('/')}/referee/dice/upload", data=body,
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def noise(height: int, width: int):
    """A phone's sensor noise, so the photo's JPEG is megabytes as a phone's is."""
    return np.random.default_rng(0).integers(0, 12, (height, width, 3), dtype=np.uint8)


def centre(box) -> complex:
    x, y, w, h = box
    return complex(x + w / 2, y + h / 2)


def tally(page) -> str:
    """How many dice the table knows, as the page says it ("24 dice known")."""
    return page.locator("#tally-total strong").inner_text().split()[0]


def shoot(page, name: str, shot) -> None:
    shot(page, name)
    if os.environ.get("BIDOU_UPDATE_DOCS_SCREENSHOTS"):
        page.screenshot(path=str(ROOT / "docs" / name), full_page=True)


def act(d, seat: str, verb: str) -> tuple[int, dict]:
    token = d.app.extensions["bidou"].tokens.token_for(seat)
    request = urllib.request.Request(
        f"{d.url.rstrip('/')}/api/act", data=json.dumps({"seat": seat, "action": verb}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_referee_teaches_the_table_its_dice_and_the_next_throw_reads_with_them(
        browser, served, shot) -> None:
    house, teacher, d = served
    teach(house, teacher, 8)  # 24 dice known before the page is opened
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    page = laptop.new_page()
    log_in(page, d.url)
    page.click("#dice-link")
    assert tally(page) == "24"
    for n, seat in enumerate(("Ann", "Bob")):
        page.select_option("#take-seat", seat)
        page.click("#take-button")
        page.wait_for_selector("#picture-img", timeout=WAIT_MS)
        assert page.locator(".place").count() == 0  # the rule reader sees none of these dice
        truth = true_places(house, seat)
        first = truth[0]["value"]
        add_die(page, truth[0]["box"], first % 6 + 1)  # a slip of the finger...
        for place in truth[1:]:
            add_die(page, place["box"], place["value"])
        page.click(".place[data-index='0']")  # ... corrected by tapping the die
        page.click(f"#chooser button[data-value='{first}']")
        assert page.locator(".place.changed").count() == 3
        values = sorted(p["value"] for p in truth)
        page.locator(f"#draft-summary:has-text('3 dice: {' '.join(map(str, values))}')"
                     ).wait_for(timeout=WAIT_MS)
        if n == 0:
            page.set_viewport_size({"width": 390, "height": 844})
            shoot(page, "screenshot-dice-added-390.png", shot)
            page.set_viewport_size({"width": 1280, "height": 900})
        page.click("#save-button")
        page.locator(".flash.ok:has-text('Saved')").wait_for(timeout=WAIT_MS)
        assert tally(page) == str(27 + 3 * n)
    [saved, *_] = teacher.folder.throws()
    marked = json.loads((teacher.folder.path / f"{saved.name}.json").read_text())
    for got, want in zip(marked, true_places(house, "Bob"), strict=True):
        assert got["value"] == want["value"]
        assert abs(centre(got["box"]) - centre(want["box"])) < 3  # where it was tapped
    needs = page.locator("#tally-needs").inner_text()
    assert "Take 10 more throws for a good calibration." in needs

    before = (teacher.files.config).read_text()
    page.click("#learn-button")
    page.locator("#learn-stage:has-text('step')").wait_for(timeout=WAIT_MS)
    page.locator("#keep-form:not([hidden])").wait_for(timeout=LEARN_MS)
    bar = page.locator("#learn-bar")
    assert bar.get_attribute("value") == bar.get_attribute("max")
    assert page.locator("#learn-stage").inner_text().startswith("Finished in ")
    assert page.locator("#figures-all").inner_text().startswith("Every known throw (30 dice")
    assert page.locator("#figures-rules td").all_inner_texts() == ["0", "0", "0", "30"]
    assert page.locator("#figures-learned td").all_inner_texts() == ["30", "0", "0", "0"]
    assert teacher.files.config.read_text() == before  # nothing kept before Keep
    # the Learn just ended is listed among the teachings without reloading the page
    teaching = page.locator("#teachings-rows tr.teaching")
    teaching.first.wait_for(timeout=WAIT_MS)
    cells = teaching.first.locator("td").all_inner_texts()
    assert cells[1:3] == ["the referee", "30 (30)"]
    assert cells[5] == "the referee's Learn: kept only by pressing Keep"
    shoot(page, "screenshot-dice-1280.png", shot)
    phone = browser.new_context(viewport={"width": 390, "height": 844},
                                is_mobile=True).new_page()
    log_in(phone, d.url)
    phone.goto(f"{d.url.rstrip('/')}/referee/dice")
    phone.wait_for_selector("#keep-form:not([hidden])", timeout=WAIT_MS)
    # the figures fit a phone's width, and the page says where the throws are kept in a pub's
    # words: no folder, file or path of the machine
    figures = phone.locator("table.figures")
    panel = phone.locator("section.panel", has=figures)
    fig_box, panel_box = figures.bounding_box(), panel.bounding_box()
    assert fig_box["x"] + fig_box["width"] <= panel_box["x"] + panel_box["width"], (
        fig_box, panel_box)
    where = phone.locator("#known-where").inner_text()
    assert where.startswith("Kept on the table beside its games") and "/" not in where, where
    shoot(phone, "screenshot-dice-390.png", shot)

    # the table's rule reader cannot read the captain roll of these dice: it counts with its
    # value pending (docs/rules/pending.md, D-S1)...
    first = house.controller.public_state()["to_act"]
    status, answer = act(d, first, "roll")
    assert status == 200, answer
    [roll] = house.controller.game.history
    assert (roll.player, roll.verb, roll.numbers) == (first, "roll", ())  # pending
    page.click("#keep-button")
    page.locator(".flash.ok:has-text('Kept')").wait_for(timeout=WAIT_MS)
    assert page.locator("#reader-now").inner_text() == "the trained reader"
    # ... and the kept reader reads the next one, without a restart
    seat = house.controller.public_state()["to_act"]
    assert seat != first
    status, answer = act(d, seat, "roll")
    assert status == 200, answer
    assert house.controller.game.history[1].numbers != ()  # read, not pending
    [(_, _, rolled)] = [t for t in house.dice.thrown if t[0] == seat][-1:]
    page.goto(d.referee_url)
    page.locator(f"#log li:has-text('action {seat} roll {rolled[0]} (by web)')").wait_for(
        timeout=WAIT_MS)
    # a phone's photo through the real server: a large one is refused with the sentence,
    # one within the bound is read whole
    frame = house.dice.camera.read()
    photo = cv2.imencode(".jpg", cv2.resize(frame, (3200, 2400)) + noise(2400, 3200),
                         [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()
    assert 1024 * 1024 < len(photo) < 12 * 1024 * 1024  # past cheroot's 1 MiB backstop
    phone.goto(f"{d.url.rstrip('/')}/referee/dice")
    phone.set_input_files("#upload-photo", files=[{"name": "big.jpg", "mimeType": "image/jpeg",
                                                   "buffer": photo + bytes(12 * 1024 * 1024)}])
    phone.locator("#upload-refusal:has-text('the table takes photos of at most 12 MB')"
                  ).wait_for(timeout=WAIT_MS)
    assert phone.locator("#upload-button").is_disabled()  # said before it is sent
    # ... and by the server, to a phone that sends it all the same
    status, said = upload(phone, d.url, photo + bytes(12 * 1024 * 1024))
    assert status == 413 and "larger than the 12 MB the table takes" in said
    phone.goto(f"{d.url.rstrip('/')}/referee/dice")
    phone.set_input_files("#upload-photo", files=[{"name": "dice.jpg", "mimeType": "image/jpeg",
                                                   "buffer": photo}])
    phone.click("#upload-button")
    phone.wait_for_selector(".place.sure", timeout=WAIT_MS)
    assert phone.locator("h1").inner_text() == "The photo"

    # and a known throw taken now is read by it: each die boxed with its value
    phone.goto(f"{d.url.rstrip('/')}/referee/dice")
    phone.select_option("#take-seat", "Bob")
    phone.click("#take-button")
    phone.wait_for_selector(".place.sure", timeout=WAIT_MS)
    truth = sorted(p["value"] for p in true_places(house, "Bob"))
    shown = sorted(int(v) for v in phone.locator(".place").all_inner_texts())
    assert shown == truth
    shoot(phone, "screenshot-dice-throw-390.png", shot)

    # a mistake undone: a known throw opened, checked and deleted
    page.goto(f"{d.url.rstrip('/')}/referee/dice")
    newest = teacher.folder.throws()[0]
    page.click(f".knownthrow[data-name='{newest.name}']")
    page.locator(".place").nth(2).wait_for(timeout=WAIT_MS)
    shown = sorted(int(v) for v in page.locator(".place").all_inner_texts())
    assert shown == sorted(newest.values)
    shot(page, "dice-known-throw.png")
    page.click("#delete-button")
    seat = known_taken(newest.name)["seat"]
    deleted = ("Deleted a known throw from a photo." if seat == "photo"
               else f"Deleted {seat}'s known throw.")
    page.locator(".flash.ok", has_text=deleted).wait_for(
        timeout=WAIT_MS)
    assert tally(page) == "27" and teacher.folder.throw(newest.name) is None
