"""`bidou-venue rebuild`: games, results and players made again from the events alone."""

from __future__ import annotations

import argparse

from venue import store
from venue.settings import add_config_argument, config_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    config = config_for("rebuild", args.config)
    if config is None:
        return 2
    with store.connect(config.dsn) as db:
        print(f"Rebuilt {store.rebuild(db)} games from the events.")
    return 0
