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
    """The one argument: the record file, or ``-`` for standard input."""
    parser.add_argument("file", metavar="FILE", help="a bidou-record/1 JSON file, or - for stdin")


def run(args: argparse.Namespace) -> int:
    """Replay the record; the exit status of GAME_RECORD.md (0 done, 1 refused, 2 invalid)."""
    try:
        if args.file == "-":
            stream = getattr(sys.stdin, "buffer", None)
            text = stream.read().decode("utf-8") if stream is not None else sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8-sig") as f:
                text = f.read()
    except UnicodeDecodeError as e:
        print(f"{args.file}: not a valid game record: it is not UTF-8 text (byte {e.start})",
              file=sys.stderr)
        return 2
    except OSError as e:
        print(f"bidou-table replay: cannot read {args.file}: {e.strerror or e}; "
              f"check the path", file=sys.stderr)
        return 2
    try:
        game = replay(parse_record(text.removeprefix("\ufeff")))
    except ModuleNotFoundError as e:
        print(f"{args.file}: this version of bidou-table cannot referee that variant yet "
              f"({e.name} is missing)", file=sys.stderr)
        return 2
    except RecordError as e:
        print(f"{args.file}: not a valid game record: {e}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(str(e), file=sys.stderr)
        return 1
    print(json.dumps(game.state(), ensure_ascii=False))
    return 0
