"""The referee console: PIN login into a session, CSRF on every form, corrections, dice entry,
QR codes of the seat pages, the camera picture and the export of records."""

from __future__ import annotations

import json
import re

import segno


def test_console_asks_for_the_pin_first(table) -> None:
    page = table.client.get("/referee").get_data(as_text=True)
    assert 'name="pin"' in page and "Log out" not in page
    assert "?token=" not in page


def test_right_pin_opens_the_console(table) -> None:
    response = table.login()
    assert response.status_code == 303
    page = table.client.get("/referee").get_data(as_text=True)
    assert "Referee console" in page and "Log out" in page


def test_wrong_pin_is_refused_with_a_sentence(table) -> None:
    response = table.login(pin="111111")
    assert response.status_code == 401
    assert "That PIN is not right; try again." in response.get_data(as_text=True)
    assert "Log out" not in table.client.get("/referee").get_data(as_text=True)


def test_login_without_csrf_token_is_refused(table, pin) -> None:
    table.client.get("/referee")
    response = table.client.post("/referee/login", data={"pin": pin})
    assert response.status_code == 400
    assert ("This form has expired or did not come from the referee console; reload the "
            "console and try again.") in response.get_data(as_text=True)


def test_console_forms_need_the_session_csrf_token(table) -> None:
    table.login()
    table.act("Ann", "roll")
    response = table.client.post("/referee/correct", data={"kind": "undo", "why": "x",
                                                           "csrf": "forged"})
    assert response.status_code == 400
    assert table.state()["actions"] == 1  # nothing undone


def test_every_console_form_carries_the_csrf_token(table) -> None:
    table.login()
    page = table.client.get("/referee").get_data(as_text=True)
    forms = re.findall(r"<form.*?</form>", page, flags=re.S)
    assert len(forms) >= 6
    csrf = table.csrf()
    for form in forms:
        assert f'name="csrf" value="{csrf}"' in form


def test_corrections_need_login(table) -> None:
    table.client.get("/referee")
    response = table.client.post("/referee/correct", data={"kind": "undo", "why": "x",
                                                           "csrf": table.csrf()})
    assert response.status_code == 401


def test_undo_from_the_console(table) -> None:
    table.login()
    table.act("Ann", "roll")
    response = table.client.post("/referee/correct", data={
        "kind": "undo", "why": "pressed by mistake", "csrf": table.csrf()})
    assert response.status_code == 303
    assert table.state()["actions"] == 0
    page = table.client.get("/referee").get_data(as_text=True)
    assert "undo Ann roll " in page  # the log shows the correction


def test_refused_correction_is_shown_as_a_sentence(table) -> None:
    table.login()
    table.client.post("/referee/correct", data={"kind": "undo", "why": "x",
                                                "csrf": table.csrf()})
    page = table.client.get("/referee").get_data(as_text=True)
    assert "There is no action to undo in this game." in page


def test_enter_dice_from_the_console(table) -> None:
    table.login()
    table.client.post("/referee/dice", data={"seat": "Ann", "values": "3",
                                             "csrf": table.csrf()})
    referee = table.client.get("/api/referee/state").get_json()
    assert referee["history"][-1].startswith("1 action Ann roll 3 (by referee")


def test_new_game_from_the_console(table_factory) -> None:
    table = table_factory(variant="multi-hand", players=("Ann", "Bob", "Cy"))  # three places
    table.login()
    table.client.post("/referee/correct", data={
        "kind": "new-game", "why": "new players", "players": "Ann, Bob, Cy",
        "variant": "montevideo", "ranking": "total", "csrf": table.csrf()})
    state = table.state()
    assert (state["variant"], state["players"], state["options"]) == (
        "montevideo", ["Ann", "Bob", "Cy"], {"ranking": "total"})


def test_qr_codes_link_each_seat_page_with_its_token(table) -> None:
    table.login()
    page = table.client.get("/referee").get_data(as_text=True)
    for seat in ("Ann", "Bob"):
        url = f"http://127.0.0.1:8080/seat/{seat}?token={table.token(seat)}"  # as listened on
        assert url in page
        assert segno.make(url, micro=False).svg_inline(scale=4, dark="#000",
                                                       light="#fff") in page
    svg = table.client.get("/referee/qr/Ann.svg")
    assert svg.mimetype == "image/svg+xml" and svg.data.startswith(b"<svg")


def test_qr_codes_use_the_public_url(table_factory) -> None:
    t = table_factory(public_url="http://192.168.1.20:8080")
    t.login()
    page = t.client.get("/referee").get_data(as_text=True)
    assert f"http://192.168.1.20:8080/seat/Ann?token={t.token('Ann')}" in page


def test_qr_and_camera_need_login(table) -> None:
    assert table.client.get("/referee/qr/Ann.svg").status_code == 401
    assert table.client.get("/referee/camera.jpg").status_code == 401
    assert table.client.get("/referee/export").status_code == 401


def test_camera_picture_in_the_console(table) -> None:
    table.login()
    response = table.client.get("/referee/camera.jpg?annotated=1")
    assert response.status_code == 200 and response.data[:2] == b"\xff\xd8"


def test_console_session_reads_the_referee_state(table) -> None:
    table.login()
    assert table.client.get("/api/referee/state").status_code == 200


def test_console_session_cannot_post_to_the_api(table) -> None:
    """API writes need the Bearer token: a cookie alone could be sent by another site."""
    table.login()
    response = table.client.post("/api/referee/correct", json={"kind": "undo", "why": "x"})
    assert response.status_code == 401


def test_logout(table) -> None:
    table.login()
    table.client.post("/referee/logout", data={"csrf": table.csrf()})
    assert "Log out" not in table.client.get("/referee").get_data(as_text=True)


def test_session_cookie_is_httponly_and_samesite_strict(table) -> None:
    response = table.login()
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_export_downloads_every_finished_record(table) -> None:
    table.login()
    table.act("Ann", "roll")
    table.client.post("/referee/correct", data={"kind": "new-game", "why": "restart",
                                                "players": "Ann Bob", "variant": "two-hand",
                                                "csrf": table.csrf()})
    response = table.client.get("/referee/export")
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="bidou-records.json"')
    records = json.loads(response.data)
    assert [r["id"] for r in records] == [1]
    assert records[0]["record"]["actions"][0].startswith("Ann roll ")


def test_read_again_from_the_console(table) -> None:
    table.login()
    response = table.client.post("/referee/reread", data={"seat": "Ann", "csrf": table.csrf()})
    assert response.status_code == 303
    page = table.client.get("/referee").get_data(as_text=True)
    assert "Ann has no exposed dice waiting to be read" in page
