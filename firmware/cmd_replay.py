"""`bidou-table replay FILE|-`: replay a game record and print the state (GAME_RECORD.md).

Exit 0 with the state JSON on stdout; 1 and one line on stderr when an action is refused
by the rules; 2 and one line on stderr when the file is not a valid record.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine import RecordError, ReplayError, parse_record, replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a bidou-record/1 JSON file, or - for stdin")


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"bidou-table replay: cannot read {args.file}: {e}", file=sys.stderr)
        return 2
    try:
        game = replay(parse_record(text))
    except RecordError as e:
        print(f"{args.file}: not a valid game record: {e}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(str(e), file=sys.stderr)
        return 1
    print(json.dumps(game.state(), ensure_ascii=False))
    return 0
