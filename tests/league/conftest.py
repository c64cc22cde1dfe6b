"""The league's fixtures: a fresh database per test of the real PostgreSQL cluster
(``pg_cluster``, one per test process: tests/conftest.py), and the venue's harness and
fixtures, reused as they are (tests/venue/conftest.py)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

VENUE_TESTS = Path(__file__).resolve().parents[1] / "venue"
sys.path.insert(0, str(VENUE_TESTS))  # venue_harness, as the venue's tests import it
sys.path.insert(0, str(Path(__file__).parent))  # league_harness beside these tests

_spec = importlib.util.spec_from_file_location("venue_test_fixtures", VENUE_TESTS / "conftest.py")
_fixtures = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(_fixtures)  # type: ignore[union-attr]

dsn = _fixtures.dsn
venue = _fixtures.venue


@pytest.fixture
def new_db(pg_cluster: object) -> Callable[[], str]:
    """Make a fresh database of the session's cluster (a pub's venue store, the league's)."""
    return databases(pg_cluster)


def databases(pg_cluster: object) -> Callable[[], str]:
    from venue_harness import new_database  # beside the venue's tests (path above)

    return lambda: new_database(pg_cluster, "l")


@contextlib.contextmanager
def league_folder() -> Iterator[Path]:
    """A folder for a league's processes and logs, removed afterwards unless
    ``BIDOU_KEEP_LEAGUE`` is set (to read the logs of a failure)."""
    path = Path(tempfile.mkdtemp(prefix="bidou-league-"))
    try:
        yield path
    finally:
        if not os.environ.get("BIDOU_KEEP_LEAGUE"):
            shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder for one test's league (``league_folder``)."""
    with league_folder() as path:
        yield path


@contextlib.contextmanager
def running_league(folder: Path, new_db: Callable[[], str], partitions: int = 1
                   ) -> Iterator[tuple[Any, list[Any]]]:
    """A running league of two pubs (each two tables), the roster holding ``ROSTER``, its
    ``partitions`` ingesters (pub1 taken by the first, pub2 by the second if two)."""
    from league_harness import ROSTER, League, Pub  # lazy: beside these tests (path above)

    lg = League(folder / "league", new_db(), partitions=partitions)
    pubs = [Pub(folder / p, new_db(), lg, p) for p in ("pub1", "pub2")]
    try:
        lg.start()
        lg.add_roster(ROSTER)
        for p in pubs:
            p.start()
        yield lg, pubs
    finally:
        for p in pubs:
            p.stop_all()
        lg.stop_all()


@pytest.fixture(scope="module")
def league(pg_cluster: object) -> Iterator[tuple[Any, list[Any]]]:
    """A running league of two pubs, one ingester (``running_league``), started once for a
    module's tests (`make test` runs a module's tests in one process, in order): each leaves
    the league whole again (servers, ingesters and links back), and checks what it played on
    top of what the tests before it left."""
    with league_folder() as path, running_league(path, databases(pg_cluster)) as running:
        yield running


@pytest.fixture
def league_of_two_ingesters(folder: Path, new_db: Callable[[], str]
                            ) -> Iterator[tuple[Any, list[Any]]]:
    """A running league of two pubs, each taken by an ingester of its own."""
    with running_league(folder, new_db, partitions=2) as running:
        yield running
