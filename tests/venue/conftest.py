"""The venue's fixtures: a real PostgreSQL cluster (one per test session, a fresh database
per test) and a real hub, each started here as its own process on loopback and stopped here.

No mock broker, no mock database. A server that is not installed fails the tests in CI
(``CI`` set) and skips them elsewhere with the reason and what to install.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests import venue_harness beside them

from venue_harness import Venue, free_port  # noqa: E402


def need(what: str, error: Exception) -> None:
    """Fail loudly in CI, skip with the reason on a developer's machine."""
    text = f"{what} is absent ({error}); the venue tests need the real server"
    if os.environ.get("CI"):
        pytest.fail(f"{text}. CI must install it (.ci/run).")
    pytest.skip(f"{text}. Install it to run them (docs/venue.md).")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    try:
        from venue.hub import nats_server_binary  # lazy: the same
        from venue.pgcluster import PgCluster  # lazy: psycopg is the venue extra's

        nats_server_binary()
        folder = tempfile.mkdtemp(prefix="bidou-venue-pg-")
        cluster = PgCluster(folder, free_port())
    except (FileNotFoundError, ImportError) as e:
        need("PostgreSQL or the NATS server", e)
    cluster.init()
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def dsn(pg_cluster: object) -> str:
    """A fresh database of the session's cluster, for one test."""
    name = f"t_{uuid.uuid4().hex[:10]}"
    base = pg_cluster.dsn  # type: ignore[attr-defined]
    with psycopg.connect(base, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return base.replace("dbname=bidou_venue", f"dbname={name}")


@pytest.fixture
def venue(dsn: str) -> Iterator[Venue]:
    """A venue with tables t1 and t2 configured; the test starts what it needs. Every
    process it started is stopped at the end, passed or failed."""
    folder = Path(tempfile.mkdtemp(prefix="bidou-venue-"))
    v = Venue(folder, dsn)
    try:
        yield v
    finally:
        v.stop_all()
        shutil.rmtree(folder, ignore_errors=True)
