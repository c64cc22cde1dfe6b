"""Seat tokens, constant-time checks and the failed-attempt limit (429 with a sentence)."""

from __future__ import annotations

from table_server.access.auth import RateLimiter, SeatTokens, same_secret


def test_each_seat_gets_its_own_unguessable_token() -> None:
    tokens = SeatTokens(["Ann", "Bob"])
    a, b = tokens.token_for("Ann"), tokens.token_for("Bob")
    assert a != b and len(a) >= 24
    assert tokens.token_for("Ann") == a  # stable
    assert tokens.seat_of(a) == "Ann" and tokens.seat_of(b) == "Bob"
    assert tokens.seat_of(a[:-1]) is None and tokens.seat_of("") is None


def test_tokens_differ_between_tables() -> None:
    assert SeatTokens(["Ann"]).token_for("Ann") != SeatTokens(["Ann"]).token_for("Ann")


def test_same_secret() -> None:
    assert same_secret("1234", "1234")
    assert not same_secret("1235", "1234")
    assert not same_secret(None, "1234")
    assert not same_secret("é", "1234")  # non-ASCII input does not raise


def test_rate_limiter_blocks_after_max_failures_then_forgets(clock) -> None:
    limiter = RateLimiter(max_failures=3, window=60.0, clock=clock)
    for _ in range(2):
        limiter.fail("10.0.0.5")
    assert limiter.blocked_message("10.0.0.5") is None
    limiter.fail("10.0.0.5")
    assert limiter.blocked_message("10.0.0.5") == (
        "Too many wrong tokens from this address; wait 61 seconds and try again.")
    assert limiter.blocked_message("10.0.0.6") is None  # per address
    clock.now += 60.0
    assert limiter.blocked_message("10.0.0.5") is None


def test_wrong_tokens_are_rate_limited_with_429(limited_table, clock) -> None:
    t = limited_table
    bad = {"Authorization": "Bearer guess"}
    for _ in range(3):
        assert t.client.post("/api/act", json={}, headers=bad).status_code == 401
    response = t.client.post("/api/act", json={"seat": "Ann", "action": "roll"},
                             headers=t.auth("Ann"))
    assert response.status_code == 429
    assert response.get_json() == {
        "error": "Too many wrong tokens from this address; wait 61 seconds and try again.",
        "rule": None}
    assert response.headers["Retry-After"] == "61"
    clock.now += 61
    assert t.act("Ann", "roll").status_code == 200


def test_wrong_pins_are_rate_limited(limited_table, clock) -> None:
    t = limited_table
    for _ in range(3):
        assert t.login(pin="000000").status_code == 401
    response = t.login()  # even the right PIN waits
    assert response.status_code == 429 and response.headers["Retry-After"] == "61"
    assert b"Too many wrong PINs from this address; wait 61 seconds" in response.data
    clock.now += 61
    assert t.login().status_code == 303


def test_good_tokens_do_not_count_as_failures(limited_table) -> None:
    t = limited_table
    for _ in range(5):
        t.client.get("/api/seat/Ann", headers=t.auth("Ann"))
    assert t.client.get("/api/seat/Ann", headers=t.auth("Ann")).status_code == 200


def test_rate_limiter_forgets_quiet_addresses(clock) -> None:
    limiter = RateLimiter(max_failures=3, window=60.0, clock=clock)
    for i in range(100):
        limiter.fail(f"10.0.1.{i}")
    assert limiter.tracked() == 100
    clock.now += 60.0
    assert limiter.tracked() == 0
