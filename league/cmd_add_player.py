"""`bidou-league add-player --config league.toml ID NAME --home PUB`: a player in the roster.

Run again with the same id, it changes the player's name or home pub (the id is the player's
for good: their ratings and games follow it). Every pub's roster keeper is told at once
(``league.roster.changed``); a pub cut from the league learns it when its link comes back.
Exit status: 0 done; 2 a bad id, name or pub, or no config; 1 the store cannot be reached
(nothing written). A cluster that does not answer is said, not an error: the pubs fetch the
roster every minute anyway.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

import psycopg

from league import store
from league.roster import add_player, say_changed
from league.settings import add_config_argument, config_for
from venue.roster import Player


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("id", help="the player's roster id: 1 to 32 of a-z, 0-9 and -")
    parser.add_argument("name", help="the name the screens show (quote it if it has spaces)")
    parser.add_argument("--home", required=True, metavar="PUB", help="the player's home pub")


def run(args: argparse.Namespace) -> int:
    config = config_for("add-player", args.config)
    if config is None:
        return 2
    if args.home not in config.pubs:
        print(f"bidou-league add-player: {args.home!r} is not a pub of the league; the pubs "
              f"are {', '.join(sorted(config.pubs)) or 'none yet'} (bidou-league add-venue "
              "adds one).", file=sys.stderr)
        return 2
    player = Player(args.id, args.name, args.home)
    try:
        with store.connect(config.dsn) as db:
            new = add_player(db, player)
    except ValueError as e:
        print(f"bidou-league add-player: {e}; nothing was written.", file=sys.stderr)
        return 2
    except psycopg.OperationalError as e:
        print(f"bidou-league add-player: cannot reach the league's store ({str(e).strip()}); "
              "nothing was written. Start PostgreSQL, or check [database] dsn.",
              file=sys.stderr)
        return 1
    print(f"{'Added' if new else 'Changed'} {player.id}: {player.name}, home {player.home}.")
    try:
        asyncio.run(say_changed(config))
    except Exception as e:  # the cluster away: the pubs fetch within a minute of its return
        print(f"bidou-league add-player: the league's cluster did not hear it ({e!r}); the "
              "pubs fetch the roster within a minute of its return.", file=sys.stderr)
    return 0
