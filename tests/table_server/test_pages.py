"""The public pages: table view, seat controller, history, errors, and safe headers."""

from __future__ import annotations

import html
import json
import random
import re

from engine.messages import because, say
from firmware.words.engine_words import sentence
from firmware.words.phrases import english


def initial_state(html: str) -> dict:
    found = re.search(r'<script id="initial-state" type="application/json">(.*?)</script>',
                      html, flags=re.S)
    assert found
    return json.loads(found.group(1))


def test_table_view_embeds_the_public_state(table) -> None:
    page = table.client.get("/").get_data(as_text=True)
    assert "Ann's turn: roll for captain." in html.unescape(page)
    assert initial_state(page)["seats"][0]["name"] == "Ann"


def test_pages_need_nothing_from_the_internet(table) -> None:
    for path in ("/", "/seat/Ann", "/history", "/referee"):
        page = table.client.get(path).get_data(as_text=True)
        assert not re.search(r'(src|href)="(https?:)?//', page), path


def test_static_assets_are_served(table) -> None:
    for name in ("style.css", "bidou.js", "table.js", "seat.js", "referee.js"):
        assert table.client.get(f"/static/{name}").status_code == 200


def test_seat_page_carries_no_token_and_no_dice(table) -> None:
    page = table.client.get("/seat/Ann").get_data(as_text=True)
    assert table.token("Ann") not in page and table.token("Bob") not in page
    assert "dice" not in initial_state(page)


def test_unknown_seat_page_is_404_with_a_sentence(table) -> None:
    response = table.client.get("/seat/Zed")
    assert response.status_code == 404
    assert ("There is no seat named &#39;Zed&#39; at this table; the seats are Ann, Bob."
            in response.get_data(as_text=True))


def test_security_headers(table) -> None:
    response = table.client.get("/")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert table.client.get("/api/state").headers["Cache-Control"] == "no-store"


def test_player_names_are_escaped(table) -> None:
    table.client.post("/api/referee/correct", json={
        "kind": "new-game", "why": "x", "variant": "two-hand",
        "players": ["<b>Ann", "Bob&amp;"]}, headers=table.auth("referee"))
    page = table.client.get("/").get_data(as_text=True)
    assert table.state()["players"] == ["<b>Ann", "Bob&amp;"]  # the game did start
    assert "<b>Ann" not in page and "Bob&amp;" not in page
    assert "&lt;b&gt;Ann" in page


def test_history_lists_finished_games_with_a_chart(table_factory) -> None:
    t = table_factory(seed=11)
    rng = random.Random(11)
    while not t.state()["over"]:
        t.play_one(rng)
    game_id, loser, winner = t.state()["game_id"], t.state()["loser"], t.state()["winner"]
    listing = t.client.get("/history").get_data(as_text=True)
    assert f"Game {game_id}" in listing and f"{loser} lost to {winner}." in listing
    page = t.client.get(f"/history/{game_id}").get_data(as_text=True)
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and "<polyline" in page
    assert page.count('class="roundend"') >= 2  # a two-hand match: every lost round marked
    for text in (listing, page):  # times for the browser to show locally; nothing "live"
        assert '<time datetime="' in text and "times.js" in text
        assert "connecting" not in text and 'id="live"' not in text
    record = json.loads(t.client.get(f"/history/{game_id}/record.json").data)
    assert record["format"] == "bidou-record/1"


def test_history_of_a_game_in_progress_is_404(table) -> None:
    table.act("Ann", "roll")
    response = table.client.get(f"/history/{table.state()['game_id']}")
    assert response.status_code == 404
    assert table.client.get(f"/history/{table.state()['game_id']}/record.json"
                            ).status_code == 404


def test_chips_by_hand_starts_and_ends_with_the_engine_state() -> None:
    from engine.autoplay import play_random
    from engine.record import record_of
    from engine.variants import new_game
    from table_server.pages.history import chips_by_hand

    game = new_game("multi-hand", ["Ann", "Bob", "Cy"])
    play_random(game, random.Random(5))
    points = chips_by_hand(record_of(game).to_dict())
    assert points[0] == {"Ann": 6, "Bob": 6, "Cy": 6}
    assert points[-1] == game.state()["chips"]
    assert len(points) > 2


def test_showdown_sentence_names_who_takes_the_chips() -> None:
    from table_server.words.present import decorate

    take = {"kind": "move", "player": "Bob", "chips": 2, "source": "pot", "dest": "Bob",
            "rule": "T7", "text": sentence(because(
                say("%(p)s takes %(chips)s", p="Bob", chips=2),
                say("the worse throw at the showdown"))).to_json()}
    stake = {"kind": "move", "player": "Ann", "chips": 1, "source": "Ann", "dest": "pot",
             "rule": "T6", "text": sentence(say("%(p)s stakes %(own)s", p="Ann", own=1)).to_json()}
    state = {"seats": [{"name": "Ann", "exposed": [2, 1, 1]}, {"name": "Bob", "exposed": None}],
             "events": ["Ann calls.", "Bob wins nothing by this sentence."],
             "settled": [take, stake], "to_act": "Bob", "expects": "throw"}
    shown = decorate(state)
    # picked by its fields (chips into a player's stack), not by words in the events
    assert english(shown["showdown"]) == "Bob takes 2 chips: the worse throw at the showdown."
    assert english(shown["seats"][0]["exposed_name"]) == "Bidou"
    assert english(shown["prompt"]) == "Bob's turn: throw."
    state["seats"][0]["exposed"] = None
    assert decorate(state)["showdown"] is None


def test_history_summary_names_the_loser_of_bidou_and_the_winner_of_montevideo() -> None:
    from table_server.pages.history import summary

    two_hand = {"status": "over", "result": {"loser": "Bob", "winner": "Ann"}}
    multi_hand = {"status": "over", "result": {"loser": "Cid", "winner": None}}
    montevideo = {"status": "over", "result": {"loser": None, "winner": "Ann"}}
    assert summary(two_hand) == "Bob lost to Ann."
    assert summary(multi_hand) == "Cid lost."
    assert summary(montevideo) == "Ann won."
    assert summary({"status": "abandoned", "result": None}) == "Abandoned before the end."


def test_the_chart_plots_the_losing_ninth_chip_and_marks_each_round_end() -> None:
    import random

    from engine.autoplay import play_random
    from engine.record import record_of
    from engine.variants import new_game
    from table_server.pages.history import chart_points, chart_svg

    game = new_game("two-hand", ["Ann", "Bob"])
    play_random(game, random.Random(8))
    points, ends = chart_points(record_of(game).to_dict())
    lost = game.state()["rounds_lost"]
    assert len(ends) == sum(lost.values()) >= 2
    for end in ends:
        assert points[end.index][end.player] == 9  # all nine chips: the round is lost
        assert end.label.startswith(f"{end.player} loses round ")
    assert [e.player for e in ends].count(game.state()["loser"]) == 2
    svg = chart_svg(points, ["Ann", "Bob"], ends=ends)
    assert svg.count('class="roundend"') == len(ends)


def test_every_page_names_its_favicon_and_the_favicon_is_served(table) -> None:
    page = table.client.get("/").get_data(as_text=True)
    assert 'rel="icon" href="/static/favicon.svg"' in page
    icon = table.client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.data.startswith(b"<svg")


def test_the_console_folds_the_log_beyond_its_latest_entries(table) -> None:
    rng = random.Random(2)
    for _ in range(40):
        table.play_one(rng)
    table.login()
    page = table.client.get("/referee").get_data(as_text=True)
    newest = page.split('id="log"', 1)[1].split("</ol>", 1)[0]
    earlier = page.split('id="log-earlier"', 1)[1].split("</ol>", 1)[0]
    assert newest.count("<li>") == 15 and earlier.count("<li>") >= 25
    assert 'id="live"' in page  # the console is live
