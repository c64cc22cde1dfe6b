"""League seats on the referee console (table_server/console/league_seats.py): a rostered player
or a guest in each seat before the game's first action, by the console's form and by the API."""

from __future__ import annotations


def test_the_console_seats_players_before_the_first_action_and_not_after(table) -> None:
    table.login()
    page = table.client.get("/referee").get_data(as_text=True)
    assert 'id="league-seats"' in page and 'name="seat.Ann"' in page
    response = table.client.post("/referee/seating", data={
        "seat.Ann": "p0001", "seat.Bob": "guest", "csrf": table.csrf()})
    assert response.status_code == 303
    assert table.controller.seating() == {"Ann": "p0001", "Bob": None}
    page = table.client.get("/referee").get_data(as_text=True)
    assert "referee seated Ann as p0001" in page
    table.act("Ann", "roll")
    page = table.client.get("/referee").get_data(as_text=True)
    assert 'id="seating"' not in page and "Ann: p0001 (p0001)" in page  # shown, not offered
    table.client.post("/referee/seating", data={"seat.Ann": "p0002", "csrf": table.csrf()})
    page = table.client.get("/referee").get_data(as_text=True)
    assert "Players are seated before a game&#39;s first action" in page
    assert table.controller.seating() == {"Ann": "p0001", "Bob": None}


def test_the_api_seats_players_and_refuses_a_bad_seating_with_a_sentence(table) -> None:
    auth = table.auth("referee")
    bad = table.client.post("/api/referee/seating", json={"seats": ["Ann"]}, headers=auth)
    assert bad.status_code == 400 and "each seat of the game" in bad.get_json()["error"]
    twice = table.client.post("/api/referee/seating", headers=auth,
                              json={"seats": {"Ann": "p7", "Bob": "p7"}})
    assert twice.status_code == 409 and "two seats" in twice.get_json()["error"]
    seat = table.client.post("/api/referee/seating", headers=auth,
                             json={"seats": {"Ann": None, "Bob": "p0002"}})
    assert seat.status_code == 200 and seat.get_json()["seating"] == {"Ann": None,
                                                                      "Bob": "p0002"}
    token = table.token("Ann")
    seat_token = table.client.post("/api/referee/seating", json={"seats": {}},
                                   headers={"Authorization": f"Bearer {token}"})
    assert seat_token.status_code == 403
    now = table.client.get("/api/referee/seating", headers=auth).get_json()
    assert now["open"] and now["copy"] is None and now["roster"] == []
