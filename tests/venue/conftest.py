"""The venue's fixtures: a fresh database per test of the real PostgreSQL cluster
(``pg_cluster``, one per test process: tests/conftest.py) and a real hub, each started as its
own process on loopback and stopped here.

No mock broker, no mock database. A server that is not installed fails the tests in CI
(``CI`` set) and skips them elsewhere with the reason and what to install.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests import venue_harness beside them

from venue_harness import Venue, new_database  # noqa: E402


@pytest.fixture
def dsn(pg_cluster: object) -> str:
    """A fresh database of the session's cluster, for one test."""
    return new_database(pg_cluster)


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
