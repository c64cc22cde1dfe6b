"""The referee gives the seats' dice zones on the dashboard (calibrate finds the dice zones, or
takes them from the referee there): ``GET``/``POST /api/referee/zones`` and the console's zones
form, checked as the config's ``[zones]``."""

from __future__ import annotations

from firmware.words.phrases import english

NEW = {"Ann": {"x": 20, "y": 20, "w": 280, "h": 200}, "Bob": {"x": 340, "y": 260, "w": 280,
                                                             "h": 200}}


def post_zones(table, zones, who="referee"):
    return table.client.post("/api/referee/zones", json={"zones": zones},
                             headers=table.auth(who))


def test_referee_reads_the_zones_the_table_uses(table) -> None:
    response = table.client.get("/api/referee/zones", headers=table.auth("referee"))
    assert response.status_code == 200
    zones = response.get_json()["zones"]
    assert set(zones) == {"Ann", "Bob"}
    assert set(zones["Ann"]) == {"x", "y", "w", "h"}


def test_referee_sets_zones_and_the_next_throw_is_read_in_them(table) -> None:
    response = post_zones(table, NEW)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["message"] == ("The table reads the new zones now; they are not saved (the "
                               "table was started without --config), so a restart forgets them.")
    assert table.controller.zones() == NEW
    assert "referee set the camera zones." in [english(e) for e in body["state"]["events"]]
    assert table.act("Ann", "roll").status_code == 200  # rendered and read in Ann's new zone
    assert table.state()["to_act"] == "Bob"


def test_a_zone_outside_the_frame_is_refused_with_a_sentence_naming_seat_and_frame(table
                                                                                  ) -> None:
    before = table.controller.zones()
    bad = {**NEW, "Ann": {"x": 400, "y": 20, "w": 300, "h": 200}}
    response = post_zones(table, bad)
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "Ann's zone runs past the right edge of the 640 by 480 picture: it ends at "
                 "700 pixels, and may end at 640 at most. Nothing was changed.", "rule": None}
    assert table.controller.zones() == before


def test_zones_must_name_every_seat_and_only_seats(table) -> None:
    response = post_zones(table, {"Ann": NEW["Ann"]})
    assert response.status_code == 400
    assert response.get_json()["error"] == ("Give one zone for each seat (Ann, Bob); "
                                             "missing: Bob.")
    response = post_zones(table, {**NEW, "Zed": NEW["Ann"]})
    assert response.get_json()["error"] == ("Give one zone for each seat (Ann, Bob); "
                                            "not seats here: Zed.")


def test_a_seat_token_cannot_move_the_zones(table) -> None:
    response = post_zones(table, NEW, who="Ann")
    assert response.status_code == 403
    assert table.client.get("/api/referee/zones", headers=table.auth("Ann")).status_code == 403


def test_console_zones_form_needs_its_csrf_token_and_sets_the_zones(table) -> None:
    table.login()
    form = {f"{seat}.{k}": str(v) for seat, z in NEW.items() for k, v in z.items()}
    assert table.client.post("/referee/zones", data=form).status_code == 400  # no CSRF token
    assert table.controller.zones() != NEW
    page = table.client.get("/referee").get_data(as_text=True)
    assert 'name="Ann.x"' in page
    response = table.client.post("/referee/zones", data={**form, "csrf": table.csrf()})
    assert response.status_code == 303
    assert table.controller.zones() == NEW
    assert "The table reads the new zones now" in table.client.get("/referee").get_data(
        as_text=True)
