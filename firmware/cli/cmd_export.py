"""`bidou-table export [--db FILE] [--out DIR|-] [--game ID]`: finished games as game records.

The log keeps corrections as entries; a record is what the game came to once they are
applied (``firmware.gamelog.rebuild``), in the ``bidou-record/1`` format that ``bidou-table replay``
and anyone's tools read. Files are named ``game-ID.json``; ``--out -`` writes to standard
output (one record after another). Without ``--game``, every finished game is exported; with
it, that game whatever its state (a game still being played gives the record so far).

Exit status: 0 written; 1 nothing to export or an unknown game; 2 the log cannot be read.
"""

from __future__ import annotations

import argparse
import os
import sys

from firmware.gamelog.log import GameLog, LogError
from firmware.gamelog.rebuild import record_from_log
from firmware.settings.machine import default_db, on_raspberry_pi


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE",
                        help="the game log (default: ./bidou-table.db off a Pi, "
                             "/var/lib/bidou-table/table.db on a Pi)")
    parser.add_argument("--out", metavar="DIR|-", default=".",
                        help="directory to write game-ID.json files in, or - for standard "
                             "output (default: the current directory)")
    parser.add_argument("--game", metavar="ID", type=int, help="export only this game")


def run(args: argparse.Namespace) -> int:
    db = args.db or default_db(not on_raspberry_pi())
    if not os.path.exists(db):
        print(f"bidou-table export: there is no game log at {db}; give its path with --db.",
              file=sys.stderr)
        return 2
    try:
        log = GameLog(db, exclusive=False)  # the table may be running on it
    except LogError as e:
        print(f"bidou-table export: {e}", file=sys.stderr)
        return 2
    try:
        if args.game is not None:
            row = log.game(args.game)
            if row is None:
                ids = ", ".join(str(g.id) for g in log.games()) or "none"
                print(f"bidou-table export: there is no game {args.game} in {db}; the games "
                      f"are: {ids}.", file=sys.stderr)
                return 1
            rows = [row]
        else:
            rows = [g for g in log.games() if g.status == "over"]
            if not rows:
                print(f"bidou-table export: no finished game in {db} yet.", file=sys.stderr)
                return 1
        if args.out != "-":
            if os.path.exists(args.out) and not os.path.isdir(args.out):
                print(f"bidou-table export: {args.out} is a file, not a directory; give a "
                      "directory with --out (it is made if needed), or - for standard output.",
                      file=sys.stderr)
                return 2
            os.makedirs(args.out, exist_ok=True)
        for row in rows:
            text = record_from_log(row, log.entries(row.id)).to_json()
            if args.out == "-":
                sys.stdout.write(text)
            else:
                path = os.path.join(args.out, f"game-{row.id}.json")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                print(f"{path}: game {row.id} ({row.variant}, {', '.join(row.players)}, "
                      f"{row.status})")
        return 0
    except OSError as e:
        print(f"bidou-table export: cannot write to {args.out}: {e.strerror}.", file=sys.stderr)
        return 2
    finally:
        log.close()
