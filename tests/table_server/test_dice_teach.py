"""The console's Dice page through Flask's test client, on a simulated table with the real
readers: who may reach it (the PIN session only), what is refused with a sentence and nothing
written (an undecided die, a photo too large or not a photo, a second Learn, a new game while
learning), and the calibration kept and undone without a restart."""

from __future__ import annotations

import html
import io
import json

import cv2
import numpy as np
import pytest

from vision.learned.zone_reader import ZoneReader

from .teach_table import TOKEN, login, places_json, teach


def on_disk(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith("table.db")}


def sentence(answer) -> str:
    text = answer.get_data(as_text=True)
    return text.split('id="error-sentence">', 1)[1].split("<", 1)[0]


def test_a_known_throw_taken_at_a_seat_is_saved_in_the_calibration_s_format(taught) -> None:
    house, teacher, app, folder = taught
    client, csrf, _ = login(app)
    taken = client.post("/referee/dice/take", data={"csrf": csrf, "seat": "Bob"})
    assert taken.status_code == 303
    draft_id = taken.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/referee/dice/draft/{draft_id}")
    assert page.status_code == 200 and "<h1>Bob" in page.get_data(as_text=True)
    picture = client.get(f"/referee/dice/draft/{draft_id}.jpg")
    assert picture.headers["Cache-Control"] == "no-store"
    zone = house.watcher.zones["Bob"]
    assert cv2.imdecode(np.frombuffer(picture.data, np.uint8), 1).shape[:2] == (zone.h, zone.w)
    places = json.loads(places_json(house, "Bob"))
    places.append({"box": [2, 2, 20, 20], "value": 0})  # a place that is no die
    saved = client.post("/referee/dice/save", data={"csrf": csrf, "draft": draft_id,
                                                    "places": json.dumps(places)})
    assert saved.status_code == 303
    [throw] = teacher.folder.throws()
    values = sorted(p["value"] for p in places if p["value"])
    assert (teacher.folder.path / f"{throw.name}.txt").read_text().split() == \
        [str(v) for v in values]
    assert json.loads((teacher.folder.path / f"{throw.name}.json").read_text()) == places
    assert teacher.tally().dice == 3
    assert "Known throw saved: 3 dice (" in client.get("/referee/dice").get_data(as_text=True)
    shown = client.get(f"/referee/dice/known/{throw.name}.jpg")
    assert shown.status_code == 200 and shown.data[:2] == b"\xff\xd8"
    deleted = client.post(f"/referee/dice/known/{throw.name}/delete", data={"csrf": csrf})
    assert deleted.status_code == 303 and teacher.folder.throws() == []
    assert not [p for p in teacher.folder.path.iterdir() if not p.name.startswith(".")]


def refusal_on_the_draft(answer) -> str:
    """The sentence beside Save on a known throw's page (the page the referee stays on)."""
    text = html.unescape(answer.get_data(as_text=True))
    assert 'id="picture-img"' in text  # still the throw's own page
    return text.split('id="save-refusal" class="refusal" role="alert">', 1)[1].split("<", 1)[0]


def test_a_throw_with_a_die_left_undecided_is_refused_on_its_page_and_nothing_is_written(
        taught) -> None:
    house, teacher, app, folder = taught
    client, csrf, _ = login(app)
    draft_id = client.post("/referee/dice/take", data={"csrf": csrf, "seat": "Ann"}
                           ).headers["Location"].rsplit("/", 1)[1]
    before = on_disk(folder)
    places = json.loads(places_json(house, "Ann"))
    places[1]["value"] = None
    answer = client.post("/referee/dice/save", data={"csrf": csrf, "draft": draft_id,
                                                     "places": json.dumps(places)})
    assert answer.status_code == 400
    assert refusal_on_the_draft(answer).startswith(
        "Die 2 has no value yet: tap it and choose its value")
    kept = html.unescape(answer.get_data(as_text=True)).split('id="places" value="', 1)[1]
    assert json.loads(kept.split('">', 1)[0]) == places  # the dice as they were sent
    for bad, said in (([{"box": [1, 2, 3], "value": 4}], "is not a box on the picture"),
                      ([{"box": [1, 2, 30, 30], "value": 7}], "is not 1 to 6"),
                      ("six", "must come as a list")):
        answer = client.post("/referee/dice/save", data={"csrf": csrf, "draft": draft_id,
                                                         "places": json.dumps(bad)})
        assert answer.status_code == 400 and said in refusal_on_the_draft(answer)
    gone = client.post("/referee/dice/save", data={"csrf": csrf, "draft": "no-such-draft",
                                                   "places": json.dumps(places)})
    assert gone.status_code == 400 and "no longer held" in sentence(gone)
    assert on_disk(folder) == before


def test_a_seat_token_a_wrong_pin_and_no_login_reach_none_of_it(taught) -> None:
    house, teacher, app, folder = taught
    names = teach(house, teacher, 1)
    before = on_disk(folder)
    seat = app.test_client()
    seat_token = app.extensions["bidou"].tokens.token_for("Ann")
    for who in ({"Authorization": f"Bearer {seat_token}"}, {"Authorization": f"Bearer {TOKEN}"},
                {}):
        for path in ("/referee/dice", f"/referee/dice/known/{names[0]}.jpg",
                     f"/referee/dice/known/{names[0]}", "/referee/dice/status.json",
                     "/referee/dice/progress"):
            answer = seat.get(path, headers=who)
            assert answer.status_code == 401, path
            assert sentence(answer) == "Log in to the referee console with the PIN first."
        for path in ("/referee/dice/take", "/referee/dice/learn", "/referee/dice/keep",
                     f"/referee/dice/known/{names[0]}/delete", "/referee/dice/upload"):
            assert seat.post(path, headers=who, data={"seat": "Ann"}).status_code == 401
    client, csrf, answer = login(app, "000000")
    assert answer.status_code == 401
    assert client.get("/referee/dice").status_code == 401
    assert client.post("/referee/dice/learn", data={"csrf": csrf}).status_code == 401
    assert on_disk(folder) == before
    assert not teacher.learning.running


def test_an_upload_too_large_or_not_a_photo_is_a_sentence_and_nothing_is_kept(taught) -> None:
    house, teacher, app, folder = taught
    client, csrf, _ = login(app)
    before = on_disk(folder)

    def send(data: bytes, name: str = "dice.jpg"):
        return client.post("/referee/dice/upload", content_type="multipart/form-data",
                           data={"csrf": csrf, "photo": (io.BytesIO(data), name)})

    too_large = send(b"\xff\xd8\xff" + bytes(13 * 1024 * 1024))
    assert too_large.status_code == 413
    assert sentence(too_large).startswith("That photo is larger than the 12 MB the table takes")
    words = send(b"these are not the dice you are looking for", "dice.txt")
    assert words.status_code == 400
    assert "not a JPEG or PNG photo" in sentence(words)
    cut = cv2.imencode(".jpg", np.full((300, 400, 3), 90, np.uint8))[1].tobytes()[:400]
    assert "cannot be decoded" in sentence(send(cut))
    bomb = (b"\x89PNG\r\n\x1a\n" + (13).to_bytes(4, "big") + b"IHDR"
            + (60000).to_bytes(4, "big") + (60000).to_bytes(4, "big") + bytes(5) + bytes(4))
    assert "60000 x 60000 pixels" in sentence(send(bomb, "dice.png"))
    assert on_disk(folder) == before and teacher._drafts == {}
    # a phone's photo: made small and read whole
    frame = house.dice.camera.read()
    big = cv2.resize(frame, (3200, 2400))
    ok = send(cv2.imencode(".jpg", big)[1].tobytes())
    assert ok.status_code == 303
    draft = teacher.draft(ok.headers["Location"].rsplit("/", 1)[1])
    assert draft.seat is None and max(draft.image.shape[:2]) == 1600


def test_learning_is_one_at_a_time_holds_new_games_and_is_kept_and_undone_live(taught) -> None:
    house, teacher, app, folder = taught
    client, csrf, _ = login(app)
    too_few = client.post("/referee/dice/learn", data={"csrf": csrf})
    assert too_few.status_code == 409 and "it needs at least 30" in sentence(too_few)
    teach(house, teacher, 11)
    config_before = (folder / "pub.toml").read_text()
    assert client.post("/referee/dice/learn", data={"csrf": csrf}).status_code == 303
    second = client.post("/referee/dice/learn", data={"csrf": csrf})
    assert second.status_code == 409
    assert sentence(second).startswith("The table is already learning its dice")
    new_game = client.post("/api/referee/correct", headers={"Authorization": f"Bearer {TOKEN}"},
                           json={"kind": "new-game", "why": "next game"})
    assert new_game.status_code == 409
    assert new_game.get_json()["error"].startswith("The table is learning its dice")
    # play goes on meanwhile
    assert client.get("/api/state").status_code == 200
    assert teacher.learning.wait(300)
    status = client.get("/referee/dice/status.json").get_json()
    assert status["failure"] is None and status["progress"]["stage"] == "done"
    outcome = status["outcome"]
    assert outcome["rules"]["right"] == 0 and outcome["learned"]["right"] >= 30
    assert outcome["reader"] == "learned" and outcome["changes"]
    assert (folder / "pub.toml").read_text() == config_before  # nothing kept yet
    stream = client.get("/referee/dice/progress", buffered=False)
    assert stream.mimetype == "text/event-stream"
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")
    event = next(chunks).decode()
    assert event.startswith("event: progress\ndata: ")
    assert json.loads(event.split("data: ", 1)[1])["progress"]["stage"] == "done"
    stream.close()
    assert client.post("/referee/dice/keep", data={"csrf": csrf}).status_code == 303
    assert 'reader = "learned"' in (folder / "pub.toml").read_text()
    assert isinstance(house.watcher.reader, ZoneReader)
    assert "the trained reader" in client.get("/referee/dice").get_data(as_text=True)
    assert client.post("/referee/dice/go-back", data={"csrf": csrf}).status_code == 303
    # the config named no reader: going back names none again, and the simulated camera's
    # default, the rule reader, reads
    assert "reader =" not in (folder / "pub.toml").read_text()
    assert not isinstance(house.watcher.reader, ZoneReader)
    assert "the pip counter" in client.get("/referee/dice").get_data(as_text=True)


def test_the_dice_page_names_the_reader_an_untaught_table_reads_with(tmp_path) -> None:
    """A config naming no reader: a real camera's table reads with the trained reader, the
    simulated camera's with the pip counter (vision.settings.default_reader), and the page
    says which; a config naming one keeps it."""
    from firmware.gamelog.log import GameLog
    from firmware.teach.dice_teacher import DiceTeacher

    config = tmp_path / "pub.toml"
    config.write_text('[table]\nplayers = ["Ann", "Bob"]\n')
    log = GameLog(str(tmp_path / "table.db"))
    try:
        assert str(DiceTeacher(log, None, str(config), drawn=False).reader_now()) == \
            "the trained reader"
        assert str(DiceTeacher(log, None, str(config), drawn=True).reader_now()) == \
            "the pip counter"
        config.write_text('[table]\nplayers = ["Ann", "Bob"]\n[vision]\nreader = "rules"\n')
        assert str(DiceTeacher(log, None, str(config), drawn=False).reader_now()) == \
            "the pip counter"
    finally:
        log.close()


def test_the_referee_s_dice_entered_in_play_count_in_the_tally(taught) -> None:
    """A throw the camera could not read and the referee entered keeps the camera's picture
    in the log: a known throw for the calibration (``--from-log``), counted on the page."""
    house, teacher, app, folder = taught
    client, csrf, _ = login(app)
    seat = house.controller.public_state()["to_act"]
    referee = {"Authorization": f"Bearer {TOKEN}"}
    token = app.extensions["bidou"].tokens.token_for(seat)
    rolled = client.post("/api/act", json={"seat": seat, "action": "roll"},
                         headers={"Authorization": f"Bearer {token}"})
    # red-green dice: the rule reader sees none, so the roll counts with its value pending
    # (docs/rules/pending.md, D-S1) and the referee gives it
    assert rolled.status_code == 200, rolled.get_json()
    assert house.controller.game.history[-1].numbers == ()
    value = house.dice.thrown[-1][2][0]
    entered = client.post("/api/referee/correct", headers=referee, json={
        "kind": "fix-dice", "seat": seat, "values": [value], "why": "the camera missed it"})
    assert entered.status_code == 200, entered.get_json()
    tally = teacher.tally()
    assert (tally.corrections, tally.correction_dice, tally.per_value[value]) == (1, 1, 1)
    page = " ".join(client.get("/referee/dice").get_data(as_text=True).split())
    assert "1 in 1 correction made in play" in page


def test_a_table_started_without_a_config_keeps_its_reader_beside_its_log(tmp_path) -> None:
    """`make run` has no config file: a kept reader is written in a file of the table's own
    (never over a config of the log's name) and read with at once."""
    from firmware.settings.config import build_config
    from firmware.table.house import build_house
    from firmware.teach.dice_teacher import DiceTeacher, simulated_throw

    (tmp_path / "table.toml").write_text("# the pub's own config, not given to run\n")
    config = build_config({"table": {"players": ["Ann", "Bob"]},
                           "camera": {"dice": "red-green"}}, environ={})
    house = build_house(config, db=str(tmp_path / "table.db"), seed=3, panels=False)
    try:
        teacher = DiceTeacher(house.log, house.watcher, None,
                              throw=simulated_throw(house.dice.camera, 3))
        teach(house, teacher, 11)
        assert teacher.learn() is None and teacher.learning.wait(300)
        assert teacher.keep().startswith("Kept")
        assert isinstance(house.watcher.reader, ZoneReader)
        assert 'reader = "learned"' in (tmp_path / "table-kept.toml").read_text()
        assert (tmp_path / "table.toml").read_text() == "# the pub's own config, not given to run\n"
        teacher.go_back()
        assert not isinstance(house.watcher.reader, ZoneReader)
    finally:
        house.close()


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["Teach the table its dice", "0 dice known</strong>: 0 in 0 known throws, 0 in 0 "
            "corrections made in play.", "Kept on the table beside its games; every teaching, "
            "the referee's or the table's own, learns from them."]),
    ("fr", ["Apprendre ses dés à la table", "0 dé connu</strong> : 0 dans 0 coup connu, 0 "
            "dans 0 correction en cours de jeu.", "Gardés sur la table avec ses parties ; "
            "chaque apprentissage, celui de l'arbitre comme celui de la table, s'en sert."]),
    ("es", ["Enseñar sus dados a la mesa", "0 dados conocidos</strong>: 0 en 0 tiradas "
            "conocidas, 0 en 0 correcciones hechas durante el juego.", "Guardadas en la mesa "
            "junto a sus partidas; cada enseñanza, la del árbitro o la de la propia mesa, "
            "aprende de ellas."]),
])
def test_the_dice_page_says_where_its_throws_are_kept_in_each_language(taught, language,
                                                                         words) -> None:
    """The page says the known throws are kept with the table's games, in the referee's
    language, with no folder, file or command of the machine: a pub reads it."""
    _, _, app, folder = taught
    client, _, _ = login(app)
    page = html.unescape(client.get(f"/referee/dice?lang={language}").get_data(as_text=True))
    for text in words:
        assert text in page, text
    for name in (str(folder), "known-throws", "table.db", "bidou-table calibrate"):
        assert name not in page, name
