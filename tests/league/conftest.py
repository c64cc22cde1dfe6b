"""The league's fixtures: the venue's real PostgreSQL cluster (one per session, a fresh
database per test) and its harness, reused as they are (tests/venue/conftest.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

VENUE_TESTS = Path(__file__).resolve().parents[1] / "venue"
sys.path.insert(0, str(VENUE_TESTS))  # venue_harness, as the venue's tests import it
sys.path.insert(0, str(Path(__file__).parent))  # league_harness beside these tests

_spec = importlib.util.spec_from_file_location("venue_test_fixtures", VENUE_TESTS / "conftest.py")
_fixtures = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(_fixtures)  # type: ignore[union-attr]

pg_cluster = _fixtures.pg_cluster
dsn = _fixtures.dsn
venue = _fixtures.venue
need = _fixtures.need
