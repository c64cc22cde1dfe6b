"""Sessions and secrets: a PIN attempt is counted before it is compared; past the table's share of
PIN attempts a minute, from any addresses, PINs are paced (one compared every 3 seconds), not
locked out, so the referee's right PIN still gets in when told to come back; logout ends every
referee session; the table answers only to its own names, building seat links from its
configured address; the machine's own names are looked up again after a while; a one-time pass
works once, within its lifetime and generation."""

from __future__ import annotations

import threading

from table_server.access.auth import OneTimePasses, RateLimiter
from web.hosts import AllowedHosts, host_name


def test_400_concurrent_pin_attempts_from_one_address_get_5_comparisons(clock) -> None:
    limiter = RateLimiter(max_failures=5, window=60.0, clock=clock)
    admitted: list[int] = []
    start = threading.Barrier(400)

    def guess(i: int) -> None:
        start.wait()
        if limiter.attempt_pin("10.0.0.9") is None:
            admitted.append(i)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(400)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(admitted) == 5


def test_a_right_pin_is_not_counted_against_the_address(clock) -> None:
    limiter = RateLimiter(max_failures=2, window=60.0, clock=clock)
    for _ in range(10):
        assert limiter.attempt_pin("10.0.0.9") is None
        limiter.forgive("10.0.0.9")
    assert limiter.tracked() == 0


def login_from(t, address: str, pin: str):
    client = t.app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return t.login(client, pin=pin)


def test_wrong_pins_from_many_addresses_slow_guesses_and_let_the_right_pin_in(
        table_factory, clock) -> None:
    t = table_factory(limiter=RateLimiter(max_failures=5, window=60.0, clock=clock,
                                          max_pin_attempts=20))
    for i in range(20):  # 20 addresses, one wrong PIN each: no address is blocked by itself
        assert login_from(t, f"10.0.1.{i}", "000000").status_code == 401
    response = login_from(t, "10.0.2.1", "111111")
    assert response.status_code == 429 and response.headers["Retry-After"] == "3"
    assert b"Many wrong PINs have been tried at this table in the last minute, so a PIN is " \
           b"checked every 3 seconds; wait 3 seconds and try again." in response.data
    clock.now += 3
    assert login_from(t, "10.0.2.1", t.context.settings.referee_pin).status_code == 303


def test_pins_from_every_address_are_compared_one_every_3_seconds_past_20_a_minute(
        clock) -> None:
    limiter = RateLimiter(max_failures=5, window=60.0, clock=clock, max_pin_attempts=20)
    per_minute = [0] * 4
    for i in range(24000):  # 100 guesses a second for 4 minutes, each from another address
        clock.now += 0.01
        per_minute[i // 6000] += limiter.attempt_pin(f"10.{i // 250 % 250}.{i % 250}.1") is None
    assert per_minute[0] <= 20 + 20  # the first 20 at once, then one every 3 s
    assert all(n <= 21 for n in per_minute[1:]), per_minute


def test_logout_ends_every_referee_session_and_a_saved_cookie_with_it(table, pin) -> None:
    first, second = table.app.test_client(), table.app.test_client()
    assert table.login(first).status_code == 303
    assert table.login(second).status_code == 303
    saved = first.get_cookie("session").value
    assert first.get("/api/referee/state").status_code == 200
    logout = second.post("/referee/logout", data={"csrf": table.csrf(second)})
    assert logout.status_code == 303
    assert first.get("/api/referee/state").status_code == 401  # the other console too
    thief = table.app.test_client()
    thief.set_cookie("session", saved)
    assert thief.get("/api/referee/state").status_code == 401
    assert b"referee_login" in thief.get("/referee").data or \
        b'name="pin"' in thief.get("/referee").data


def test_another_host_is_refused_with_a_sentence(table) -> None:
    page = table.client.get("/", headers={"Host": "evil.example"})
    assert page.status_code == 400
    assert b"This table answers to its own addresses only" in page.data
    api = table.client.get("/api/state", headers={"Host": "evil.example:8080"})
    assert api.status_code == 400
    assert api.get_json()["error"].startswith("This table answers to its own addresses only, "
                                              "and 'evil.example:8080' is not one of them")
    for good in ("localhost", "127.0.0.1:8080", "[::1]:8080"):
        assert table.client.get("/api/state", headers={"Host": good}).status_code == 200


def test_seat_links_come_from_the_configured_address_not_the_host_header(table_factory):
    t = table_factory(public_url="http://bidou.local:8080")
    t.login()
    page = t.client.get("/referee", headers={"Host": "localhost:8080"}).get_data(as_text=True)
    assert f"http://bidou.local:8080/seat/Ann?token={t.token('Ann')}" in page
    assert "http://localhost:8080/seat/" not in page


def test_allowed_hosts_admit_the_machine_names_looked_up_again_after_a_while(clock) -> None:
    looked: list[int] = []
    machine = {"bidou-pi", "192.168.1.20"}

    def lookup() -> set[str]:
        looked.append(1)
        return set(machine)

    hosts = AllowedHosts(public_url="http://table.example:8080", listen_host="0.0.0.0",
                         lookup=lookup, clock=clock)
    assert hosts.admits("table.example:8080") and hosts.admits("127.0.0.5")
    assert hosts.admits("192.168.1.20:8080") and not hosts.admits("evil.example")
    machine.add("192.168.1.77")  # a new DHCP lease
    assert not hosts.admits("192.168.1.77")  # looked up at most every 30 s
    clock.now += 31
    assert hosts.admits("192.168.1.77") and len(looked) == 2
    assert not hosts.admits("") and not hosts.admits(None)
    assert host_name("[FE80::1]:80") == "fe80::1" and host_name("Pi.Local.:80") == "pi.local"


def test_a_one_time_pass_works_once_within_its_lifetime_and_generation(clock) -> None:
    passes = OneTimePasses(lifetime=300.0, keep=2, clock=clock)
    first = passes.issue("gen-1")
    assert passes.valid(first, "gen-1") and not passes.valid(first, "gen-2")
    assert passes.spend(first, "gen-1") and not passes.spend(first, "gen-1")
    late = passes.issue("gen-1")
    clock.now += 300
    assert not passes.valid(late, "gen-1")
    oldest, _, newest = passes.issue("gen-1"), passes.issue("gen-1"), passes.issue("gen-1")
    assert not passes.valid(oldest, "gen-1") and passes.valid(newest, "gen-1")  # 2 kept
    assert not passes.valid("", "gen-1")
