"""`bidou-venue rebuild`: games, results and players made again from the events alone."""

from __future__ import annotations

import argparse
import sys

from engine.errors import ConfigError
from venue import store
from venue.settings import load_venue_config


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, metavar="FILE", help="the venue config")


def run(args: argparse.Namespace) -> int:
    try:
        config = load_venue_config(args.config)
    except ConfigError as e:
        print(f"bidou-venue rebuild: {args.config}: {e}.", file=sys.stderr)
        return 2
    with store.connect(config.dsn) as db:
        print(f"Rebuilt {store.rebuild(db)} games from the events.")
    return 0
