"""Bad input to the league, with real processes: each refused with a sentence (the league
ingester's log and a ``problems`` row, for the league's page), nothing of it stored, and
nothing else stops: every other game of both pubs is in the league as in its venue. Both tests
share one league (the ``league`` fixture, once for the module), in this order."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import nats
import psycopg
import pytest
from league_harness import DAY0, ROSTER, League, Pub, stamp, wait_until
from nats.errors import TimeoutError as NatsTimeout
from nats.js.errors import NoStreamResponseError

from firmware.gamelog.log import Entry, GameRow
from league.cluster import league_subject
from venue import store as venue_store
from venue import table_logs
from venue.messages import EntryMessage, entry_message

BAD = 900  # the forged games' ids: the venue stores them, the league refuses their entries


def forged(pub: Pub, table: str, game: int, entries: list[tuple[str, str]],
           players: tuple[str, ...] = ("Ann", "Bob"), log_id: str | None = None
           ) -> list[EntryMessage]:
    """A game's first entries as one holding the pub's hub could send them."""
    row = GameRow(game, "multi-hand", players, {}, stamp(DAY0), None, "playing", None)
    return [entry_message(pub.name, table, log_id or pub.logs[table],
                          Entry(game, seq, kind, text, "referee", "", stamp(DAY0)), row)
            for seq, (kind, text) in enumerate(entries, start=1)]


async def publish_plain_as_pub(pub: Pub, subject: str, data: bytes) -> None:
    """A plain publish (as a table's public state goes) through the pub's hub."""
    nc = await nats.connect(pub.url, user=pub.admin[0], password=pub.admin[1])
    try:
        await nc.publish(subject, data)
        await nc.flush()
    finally:
        await nc.close()


async def publish_as_pub(pub: Pub, subject: str, data: bytes) -> str:
    """A JetStream publish into the league through the pub's hub; the server's answer."""
    nc = await nats.connect(pub.url, user=pub.admin[0], password=pub.admin[1])
    try:
        ack = await nc.jetstream().publish(subject, data, timeout=3)
        return f"stored as {ack.seq}"
    except NoStreamResponseError:
        return "no responders"
    except NatsTimeout:
        return "no answer"
    finally:
        await nc.close()


def problems(lg: League) -> list[str]:
    with psycopg.connect(lg.dsn) as db:
        return [r[0] for r in db.execute("SELECT sentence FROM problems").fetchall()]


@pytest.mark.slow
def test_bad_input_is_refused_with_a_sentence_and_stops_nothing_else(
        league: tuple[League, list[Pub]]) -> None:
    lg, (one, two) = league
    # a pub publishing on another pub's subjects: the league's servers refuse it, and the
    # league's ingester of that pub hears of it from them (the pub's software takes no part)
    # (said again until heard: the refusal goes where there is interest now, and the
    # ingester's interest may still be crossing the cluster when the test begins)
    other = forged(two, "t1", BAD, [("action", "Ann bet 1")])[0]

    answers: list[str] = []

    def forged_entry_refused() -> bool:
        answers.append(asyncio.run(publish_as_pub(one, league_subject("pub2", "t1"),
                                                  other.to_bytes())))
        return any("pub pub1 published on league.pub2.t1.entry" in s for s in problems(lg))

    wait_until(forged_entry_refused, 30, "the servers' refusal on the page")
    assert set(answers) <= {"no answer", "no responders"}, answers  # nobody took it
    # ... and another pub's public state, which the league takes under its own pub's name only
    # (a plain publish goes where there is interest now: said again until it is heard)
    def forged_state_refused() -> bool:
        asyncio.run(publish_plain_as_pub(one, "bidou.pub2.t1.state", b'{"forged": true}'))
        return any("pub pub1 published on bidou.pub2.t1.state, pub pub2's public state subject"
                   in s for s in problems(lg))

    wait_until(forged_state_refused, 30, "the servers' refusal of a forged state on the page")
    # a roster id not in the roster; an action by a player not seated; a replaced log
    one.play(forged(one, "t1", BAD, [("seating", '{"Ann": "p001", "Bob": "zz-unknown"}'),
                                      ("action", "Ann bet 1")]))
    one.play(forged(one, "t1", BAD + 1, [("seating", '{"Ann": "p001", "Bob": null}'),
                                         ("action", "Zed bet 1")]))
    two.play(two.day(1, seed=12, roster=ROSTER))  # t2's log is the league's
    wait_until(lambda: lg.rows("pub2") == two.venue_rows() != [], 60, "pub2 in the league")
    with venue_store.connect(two.dsn) as db:  # a new SD card, accepted at the pub
        table_logs.accept_log(db, "pub2", "t2", "NEW-SD-CARD")
    two.play(forged(two, "t2", 1, [("action", "Ann bet 1")], log_id="NEW-SD-CARD"))
    refusals = ("zz-unknown, not in the league's roster", "action of 'Zed', who was not "
                "seated", "NEW-SD-CARD")  # two pubs' uplinks: in no order between them

    def every_refusal() -> list[str] | None:
        now = problems(lg)
        return now if all(any(r in s for s in now) for r in refusals) else None

    said = wait_until(every_refusal, 90, "every refusal on the league's page")
    assert any("zz-unknown, not in the league's roster" in s for s in said), said
    assert any("action of 'Zed', who was not seated" in s for s in said), said
    # the league's own check, as the venue's (the league holds the table's first log)
    assert any("pub pub2 table t2 sends from a new log (id NEW-SD-CARD; the league holds log "
               f"{two.logs['t2']})" in s for s in said), said
    assert not any("published on bidou.pub1." in s or "published on bidou.pub2.t2" in s
                   for s in said), said  # a pub's own state is no refusal
    log = lg.log_text()
    for words in ("not in the league's roster", "who was not seated", "from a new log",
                  "pub pub1 published on league.pub2.t1.entry, pub pub2's entry subject"):
        assert words in log
    # nothing of them stored, and everything else goes on
    for pub in (one, two):
        pub.play(pub.day(3, seed=11, roster=ROSTER, day=DAY0 + timedelta(hours=1)))
    with psycopg.connect(lg.dsn) as db:
        assert db.execute("SELECT count(*) FROM events WHERE game = %s OR text LIKE 'Zed %%' "
                          "OR log_id = %s OR venue = 'pub2' AND game >= %s",
                          (BAD, "NEW-SD-CARD", BAD)).fetchone()[0] == 0
    for pub, keep in ((two, lambda r: r[0] == "t1"), (one, lambda r: r[1] < BAD)):
        wait_until(lambda pub=pub, keep=keep: (
            [r for r in lg.rows(pub.name) if keep(r)] == [r for r in pub.venue_rows() if keep(r)]
            and ("t1", pub.played, "over") in {r[:3] for r in pub.venue_rows()}), 90,
            f"{pub.name}'s other games in the league, as in its venue")


async def heard_in_league(lg: League, pub: Pub, subject: str, seconds: float
                          ) -> tuple[list[str], list[str]]:
    """A pub's plain publishes on ``subject``, once every 0.2 s for ``seconds``, heard as the
    league's account hears them: (subjects taken under the pub's name, subjects refused)."""
    c = lg.config
    nc = await nats.connect(c.client_urls(), user=c.admin_user, password=c.admin_password)
    taken: list[str] = []
    refused: list[str] = []
    try:
        async def take(msg: object) -> None:
            taken.append(msg.subject)  # type: ignore[attr-defined]

        async def refuse(msg: object) -> None:
            refused.append(msg.subject)  # type: ignore[attr-defined]

        await nc.subscribe(f"bidou.{pub.name}.*.state", cb=take)
        await nc.subscribe("refused.>", cb=refuse)
        await nc.flush()
        for _ in range(int(seconds / 0.2)):
            await publish_plain_as_pub(pub, subject, b'{"version": 1}')
            await asyncio.sleep(0.2)
        await nc.flush()
    finally:
        await nc.close()
    return taken, refused


@pytest.mark.slow
def test_a_pubs_own_state_reaches_the_league_under_its_name_and_never_as_a_refusal(
        league: tuple[League, list[Pub]]) -> None:
    """Each table's state, every few seconds, is most of what a pub sends: its own arrives
    once, as ``bidou.<pub>.<table>.state``, and nothing of it on ``refused.>`` (the ingester
    would hear and drop every one)."""
    lg, (one, _two) = league
    taken, refused = asyncio.run(heard_in_league(lg, one, "bidou.pub1.t1.state", 6))
    assert taken and set(taken) == {"bidou.pub1.t1.state"}, taken
    assert refused == [], refused
