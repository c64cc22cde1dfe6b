"""Screenshots of the pub experience around the settle, to look at (before and after a change).

Not part of the table: ``.venv/bin/python tools/pub_screens.py OUT`` plays a two-hand match on
the simulated table (the dashboard as ``bidou-table run --simulate`` serves it, a camera unsure
of 40% of the dice), in headless Chromium (/usr/bin/chromium, Playwright), and writes under
OUT/:

- ``settle-pub-1920x1080-LANG.png``: the pub screen while exposed dice wait to be settled;
- ``settle-phone-owner-LANG.png``, ``settle-phone-other-LANG.png``: both phones at 390x844,
  before anyone has said the values, and ``settle-phone-other-said-LANG.png`` (with
  ``settle-pub-said-1920x1080-LANG.png``) once the owner has;
- ``round2-pub-1920x1080-LANG.png``, ``round2-phone-loser-LANG.png``: the pub screen and the
  phone of round 1's loser at the start of round 2;
- ``console-flags-LANG.png``: the referee console with flags (values pending in round 2);
- ``lost-link-pub-1920x1080-LANG.png``, ``lost-link-phone-LANG.png``: the table's server
  stopped, once the page says the link is lost.

Every shot is the whole page (what is below a TV's edge shows as a taller picture); the
page's height is printed beside its name. LANG is en, fr and es.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.actions import dice_count  # noqa: E402
from firmware.camera.simulation import SceneReader  # noqa: E402
from firmware.settings.config import build_config  # noqa: E402
from firmware.settings.server_settings import ServerSettings  # noqa: E402
from firmware.table.house import House, build_house  # noqa: E402
from table_server.access.auth import PressLimiter  # noqa: E402
from table_server.server import Dashboard  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
LANGS = ("en", "fr", "es")
PIN = "482913"
TOKEN = "referee-token-for-screens-0123456789"
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 15_000


class Match:
    """The simulated table, served, and played through its own API (as the phones do)."""

    def __init__(self, seed: int, unsure: float) -> None:
        data = {"table": {"variant": "two-hand", "players": ["Ann", "Bob"]},
                "referee": {"pin": PIN, "token": TOKEN}}
        config = build_config(data, simulate=True, environ={})
        self.house: House = build_house(config, db=":memory:", seed=seed, reader=SceneReader,
                                        panels=False, unsure=unsure)
        self.dashboard = Dashboard(self.house.controller, ServerSettings(
            port=0, referee_token=TOKEN, referee_pin=PIN, keepalive=1.0)).start()
        # the script plays faster than hands do: no press limit stops it (the pages only look)
        context = self.dashboard.context
        context.presses = context.settles = PressLimiter(rate=1e6, burst=10**6)
        self.client = self.dashboard.app.test_client()
        self.rng = random.Random(seed)

    def auth(self, who: str) -> dict[str, str]:
        token = TOKEN if who == "referee" else self.dashboard.context.tokens.token_for(who)
        return {"Authorization": f"Bearer {token}"}

    def state(self) -> dict[str, Any]:
        return self.client.get("/api/state").get_json()

    def post(self, path: str, body: dict[str, Any], who: str) -> Any:
        answer = self.client.post(path, json=body, headers=self.auth(who))
        if answer.status_code != 200:
            raise RuntimeError(f"{path} {body}: {answer.status_code} {answer.get_json()}")
        return answer

    def move(self) -> None:
        """One random legal move of the player to act (standing often, as people do)."""
        game = self.house.controller.game
        options = game.allowed()
        stands = [a for a in options if a.verb == "stand"]
        choice = stands[0] if stands and self.rng.random() < 0.5 else self.rng.choice(
            [a for a in options if a.verb != "stand"] or options)
        body: dict[str, Any] = {"seat": choice.player, "action": choice.verb}
        if choice.min_chips is not None:
            body["chips"] = choice.min_chips
        answer = self.client.post("/api/act", json=body, headers=self.auth(choice.player))
        if answer.status_code == 409 and choice.verb in ("throw", "roll"):
            values = [self.rng.randint(1, 6) for _ in range(dice_count(choice.verb))]
            self.post("/api/referee/dice", {"seat": choice.player, "values": values}, "referee")
        elif answer.status_code != 200:
            raise RuntimeError(f"{body}: {answer.status_code} {answer.get_json()}")

    def settle(self, seat: str, players: list[str]) -> None:
        """``players`` say ``seat``'s dice as the simulated table shows them."""
        values = list(self.house.dice.camera.dice()[seat])
        for player in players:
            self.post("/api/settle", {"seat": seat, "player": player, "values": values}, player)

    def play_until(self, done: Any, most: int = 3000) -> None:
        """Play (settling from the phones' API) until ``done(state)``."""
        for _ in range(most):
            state = self.state()
            if done(state):
                return
            if state["over"]:
                raise RuntimeError("the match ended before the state wanted")
            if state["settling"]:
                waiting = state["settling"][0]
                self.settle(waiting["seat"], [waiting["seat"], *waiting["witnesses"]])
            else:
                self.move()
        raise RuntimeError(f"not reached in {most} moves")

    def close(self) -> None:
        self.dashboard.stop()
        self.house.close()


def page_height(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollHeight"))


def save(page: Any, out: Path, name: str) -> None:
    page.screenshot(path=str(out / name), full_page=True)
    print(f"{name}: {page.viewport_size['width']}x{page.viewport_size['height']}, "
          f"page {page_height(page)} px tall")


def open_page(browser: Any, url: str, lang: str, viewport: dict[str, int],
              phone: bool = False, live: bool = True) -> Any:
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                                  locale={"en": "en-GB", "fr": "fr-FR", "es": "es-ES"}[lang])
    page = context.new_page()
    page.goto(url + ("&" if "?" in url else "?") + f"lang={lang}")
    if live:
        page.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
    return page


def settled_shots(browser: Any, match: Match, out: Path) -> None:
    """The settle on the pub screen and both phones, before and after the owner's word."""
    match.play_until(lambda s: bool(s["settling"]))
    waiting = match.state()["settling"][0]
    owner, other = waiting["seat"], waiting["witnesses"][0]
    urls = match.dashboard.seat_urls()
    pages = {}
    for lang in LANGS:
        pub = open_page(browser, match.dashboard.url, lang, TV)
        pub.wait_for_selector(".settle, .settlepic", timeout=WAIT_MS)
        pub.wait_for_timeout(500)  # the camera's picture
        save(pub, out, f"settle-pub-1920x1080-{lang}.png")
        phones = {}
        for role, seat in (("owner", owner), ("other", other)):
            phone = open_page(browser, urls[seat], lang, PHONE, phone=True)
            phone.wait_for_selector("#settle-box:not([hidden])", timeout=WAIT_MS)
            save(phone, out, f"settle-phone-{role}-{lang}.png")
            phones[role] = phone
        pages[lang] = (pub, phones)
    match.settle(owner, [owner])
    for lang, (pub, phones) in pages.items():
        version = match.state()["version"]
        for page in (phones["other"], pub):
            page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT_MS)
        save(phones["other"], out, f"settle-phone-other-said-{lang}.png")
        save(pub, out, f"settle-pub-said-1920x1080-{lang}.png")
        pub.context.close()
        for phone in phones.values():
            phone.context.close()
    match.settle(owner, [other])


def round_two_shots(browser: Any, match: Match, out: Path) -> None:
    """The pub screen as round 2 begins, then the console once round 2 has flags."""
    match.play_until(lambda s: s.get("round") == 2)
    loser = next(e["player"] for e in match.state()["opening"] if e["kind"] == "round")
    for lang in LANGS:
        pub = open_page(browser, match.dashboard.url, lang, TV)
        save(pub, out, f"round2-pub-1920x1080-{lang}.png")
        pub.context.close()
        phone = open_page(browser, match.dashboard.seat_urls()[loser], lang, PHONE, phone=True)
        save(phone, out, f"round2-phone-loser-{lang}.png")
        phone.context.close()
    flags = match.house.controller.reads.flags
    match.play_until(lambda s: len(flags) >= 4 or s["over"] is True)
    for lang in LANGS:
        console = open_page(browser, match.dashboard.referee_url, lang, TV, live=False)
        console.fill("input[name=pin]", PIN)
        console.click("button[type=submit]")
        console.wait_for_selector("#live[data-state=live]", timeout=WAIT_MS)
        save(console, out, f"console-flags-{lang}.png")
        console.context.close()


def lost_link_shots(browser: Any, match: Match, out: Path) -> None:
    """The pub screen and a phone once the table's server has stopped."""
    pages = [(lang, open_page(browser, match.dashboard.url, lang, TV),
              open_page(browser, match.dashboard.seat_urls()["Ann"], lang, PHONE, phone=True))
             for lang in LANGS]
    match.dashboard.stop()
    for lang, pub, phone in pages:
        pub.wait_for_selector("#live[data-state=lost]", timeout=WAIT_MS)
        phone.wait_for_selector("#live[data-state=lost]", timeout=WAIT_MS)
        pub.wait_for_timeout(1000)
        save(pub, out, f"lost-link-pub-1920x1080-{lang}.png")
        save(phone, out, f"lost-link-phone-{lang}.png")
        pub.context.close()
        phone.context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for the PNG files (made if missing)")
    parser.add_argument("--seed", type=int, default=31, help="the simulated dice's seed")
    parser.add_argument("--unsure", type=float, default=0.4,
                        help="share of the dice the camera is unsure of (default 0.4)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright  # lazy: only this tool needs it

    match = Match(args.seed, args.unsure)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                settled_shots(browser, match, args.out)
                round_two_shots(browser, match, args.out)
                lost_link_shots(browser, match, args.out)
            finally:
                browser.close()
    finally:
        match.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
