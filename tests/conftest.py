"""The whole suite: a calibration fits the learned reader's head alone (teaching the table's
own network takes minutes of PyTorch); tests/firmware/test_calibrate_network.py and
tests/vision/test_teach_network.py teach it. Set here, before any test starts a process, so
the referee console's calibration process is told too.

Also the one PostgreSQL cluster of a test process (``pg_cluster``), shared by the venue's and
the league's tests: making a cluster costs seconds of initdb, a database per test does not.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from vision.calibrate.network import NO_TEACHING
from web.ports import free_port

os.environ.setdefault(NO_TEACHING, "0")

#: where the test cluster keeps its files: memory where the machine has it (the cluster is
#: thrown away at the end, so its writes need never wait for a disk another job keeps busy)
PG_TOP = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


#: the longest modules, longest first, as measured (the sum of their tests' times in
#: `make test`, three runs on 2 cores): started first, so the run does not end on one of
#: them while the other processes sit idle. A module's tests stay in one process
#: (``--dist loadscope``), so a long module started late is the run's tail: handed out by
#: their count of tests (xdist's order without ``--no-loadscope-reorder``), the whole games
#: started 413 s into a 627 s run and ended it.
LONGEST = (
    "table_server/test_whole_games.py", "table_server/test_pub_fits.py",
    "venue/test_faults.py", "table_server/test_leak.py", "firmware/test_engine_words.py",
    "venue/test_bad_input.py", "table_server/test_languages_everywhere.py",
    "firmware/test_calibrate_adapt.py", "table_server/test_chart.py",
    "vision/test_adapt_photos.py", "table_server/test_layout.py",
    "venue/test_gap_and_poison.py", "league/test_faults.py", "venue/test_flow.py",
    "firmware/test_e2e.py", "league/test_make_league.py", "table_server/test_dice_browser.py",
    "venue/test_make_venue_install.py", "venue/test_tls.py",
)
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first (:data:`LONGEST`), then the others holding a test marked
    slow, then the rest, each module's tests kept together and in their order: `make test`
    gives its processes whole modules in this order, so the long waits (servers, browsers,
    whole games) start at once and the quick modules fill the time around them."""
    rank = {HERE / name: i for i, name in enumerate(LONGEST)}
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: rank.get(item.path, len(rank) + (item.path not in slow)))


def need(what: str, error: Exception) -> None:
    """Fail loudly in CI, skip with the reason on a developer's machine."""
    text = f"{what} is absent ({error}); the venue tests need the real server"
    if os.environ.get("CI"):
        pytest.fail(f"{text}. CI must install it (.ci/run).")
    pytest.skip(f"{text}. Install it to run them (docs/venue.md).")



@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    """A real PostgreSQL cluster on loopback for this test process (each test takes a fresh
    database of it); the NATS server's binary is checked here too. A server that is not
    installed fails the tests in CI (``CI`` set) and skips them elsewhere (``need``)."""
    try:
        from venue.hub import nats_server_binary  # lazy: the venue extra's
        from venue.pgcluster import PgCluster  # lazy: psycopg is the venue extra's

        nats_server_binary()
        folder = tempfile.mkdtemp(prefix="bidou-venue-pg-", dir=PG_TOP)
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
