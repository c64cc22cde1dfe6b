"""What the league's servers refused: a pub publishing on the league's entry subjects, or on
another pub's public state.

A pub's uplink publishes on ``uplink.<table>.entry`` (its account makes that its own
``league.<pub>.<table>.entry``). A publish of a pub on ``league.<any pub>.<table>.entry``,
another pub's or one naming itself, reaches no stream: the pub's account hands it to the
league's account as ``refused.<pub>.league.<named>.<table>.entry`` (``league.cluster``). The
league's ingester of that pub listens there: a line in its log (once per sentence) and a
``problems`` row (the league's page), counted up by how many came, written at most once a
second. Nothing of the message is stored anywhere. The pub's own software takes no part: the
servers decide where a pub's message goes. A pub's state published under another pub's name
(``bidou.<named>.<table>.state``) comes the same way, as ``refused.<pub>.bidou.<...>.state``;
its own state does not (its account renames it on arrival, ``league.cluster.own_state``), and
would be no refusal if a server of an older config handed it on.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import psycopg

from league import store as league_store
from league.cluster import refused_subject
from venue import store as venue_store

#: seconds between two writes of what was refused (a flood is one statement a second)
FLUSH_EVERY = 1.0
_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")


def sentence(pub: str, subject: str, pubs: set[str]) -> str | None:
    """What is wrong with ``pub``'s publish on ``subject`` (``league.<named>.<table>.entry``
    or ``bidou.<named>.<table>.state``) and what to do; None for the pub's own state. One
    sentence per pub named, so a flood makes few rows."""
    parts = subject.split(".")
    state = parts[0] == "bidou"
    named = parts[1] if len(parts) == 4 else "?"
    what = "public state" if state else "entry"
    if named == pub:
        if state:
            return None
        whose = "its own pub's entry subject, which only its account gives its uplink"
    elif named in pubs:
        whose = f"pub {named}'s {what} subject"
    else:
        whose = f"a {what} subject of a pub the league does not have"
        subject = f"{parts[0]}.<unknown pub>.<table>.{parts[-1]}"
    example = subject if _NAME.fullmatch(parts[2] if len(parts) == 4 else "") else (
        f"{parts[0]}.{named}.<table>.{parts[-1]}")
    fix = (f"a pub's tables publish their state as bidou.{pub}.<table>.state only"
           if state else "a pub's uplink (bidou-league uplink) publishes on "
           "uplink.<table>.entry only")
    return (f"pub {pub} published on {example}, {whose}; the league's servers refused it "
            f"and nothing of it is stored. {fix[0].upper()}{fix[1:]}: check what else at pub "
            f"{pub} publishes to the league.")


class Refusals:
    """Listens for what the servers refused of the pubs ``pubs`` and keeps it."""

    def __init__(self, dsn: str, pubs: set[str], league_pubs: set[str],
                 say_once: Callable[[str, str], None]) -> None:
        self.dsn = dsn
        self.pubs = pubs
        self.league_pubs = league_pubs
        self.say_once = say_once
        self.waiting: Counter[tuple[str, str]] = Counter()
        self.db: psycopg.Connection[Any] | None = None  # its own: a thread of its own

    async def subscribe(self, nc: Any) -> None:
        for pub in sorted(self.pubs):
            await nc.subscribe(refused_subject(pub), cb=self.heard)

    async def heard(self, msg: Any) -> None:
        parts = msg.subject.split(".", 2)  # refused.<pub>.<the subject published on>
        if len(parts) == 3 and parts[1] in self.pubs:
            text = sentence(parts[1], parts[2], self.league_pubs)
            if text is None:
                return
            self.say_once("refused", text)
            self.waiting[(parts[1], text)] += 1

    def write(self, taken: Counter[tuple[str, str]]) -> bool:
        """Write what was heard (blocking); False if PostgreSQL is away."""
        try:
            if self.db is None or self.db.closed or self.db.broken:
                self.db = league_store.connect(self.dsn)
            with self.db.transaction():
                for (pub, text), n in taken.items():
                    venue_store.note_problem(self.db, pub, "", text, n)
            return True
        except psycopg.OperationalError:
            self.db = None
            return False

    async def run(self) -> None:
        """Every second, what was heard since; kept for the next time if PostgreSQL is
        away."""
        while True:
            await asyncio.sleep(FLUSH_EVERY)
            if self.waiting:
                taken, self.waiting = self.waiting, Counter()
                if not await asyncio.to_thread(self.write, taken):
                    self.waiting.update(taken)
