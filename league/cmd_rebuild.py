"""`bidou-league rebuild --config league.toml`: games, results, players, seatings, rankings
and ratings made again from the events (``league.derive.rebuild_all``)."""

from __future__ import annotations

import argparse

from league import derive
from league import store as league_store
from league.settings import add_config_argument, config_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    config = config_for("rebuild", args.config)
    if config is None:
        return 2
    with league_store.connect(config.dsn) as db:
        games = derive.rebuild_all(db)
    print(f"bidou-league rebuild: {games} finished games ranked, ratings made again")
    return 0
