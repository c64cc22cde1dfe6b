"""`bidou-venue rebuild`: games, results and players made again from the events alone; and
the same command for any store built on the venue's (``rebuild_command``: the league's
``bidou-league rebuild``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import psycopg

from venue import derived, store
from venue.settings import add_config_argument, config_for


def rebuild_command(config_of: Callable[[str, str], Any], connect: Callable[[str], Any],
                    rebuild: Callable[[psycopg.Connection[Any]], int], said: str
                    ) -> Callable[[argparse.Namespace], int]:
    """A ``rebuild`` command's ``run``: the config (``config_of``, None after saying what is
    wrong), its store (``connect(config.dsn)``), ``rebuild(db)``, then ``said`` with the
    number it returns."""

    def run(args: argparse.Namespace) -> int:
        config = config_of("rebuild", args.config)
        if config is None:
            return 2
        with connect(config.dsn) as db:
            print(said.format(rebuild(db)))
        return 0

    return run


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


run = rebuild_command(config_for, store.connect, derived.rebuild,
                      "Rebuilt {} games from the events.")
