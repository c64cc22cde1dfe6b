"""A log's id is what an operator types after ``bidou-venue accept-log --log``: it never
starts with "-", which argparse takes for an option, and a log keeps the id it has."""

from __future__ import annotations

import re
from pathlib import Path

from firmware.gamelog.log import GameLog
from venue.outbox import log_id, log_id_of


def test_new_log_ids_are_hexadecimal_and_never_start_with_a_dash(tmp_path: Path) -> None:
    ids = {log_id_of(str(tmp_path / f"t{i}.db")) for i in range(50)}
    assert len(ids) == 50
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids), ids


def test_a_log_keeps_the_id_it_was_given_before(tmp_path: Path) -> None:
    """An id made as a url-safe token (a log from before, starting with "-") is kept:
    the venue enrolled it under that id."""
    path = str(tmp_path / "old.db")
    log = GameLog(path)
    try:
        log.key("venue-log-id", make=lambda: "-Abc_DEF012345678xyz")
        assert log_id(log) == "-Abc_DEF01234567"
    finally:
        log.close()
    assert log_id_of(path) == "-Abc_DEF01234567"
