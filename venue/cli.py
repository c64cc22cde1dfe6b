"""The `bidou-venue` command: the venue's parts, one module per subcommand (as
``firmware.cli.dispatch``), imported only when chosen, so the ingester never loads Flask."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "up": ("venue_screen.cmd_up",
           "start a whole venue on this machine: hub, PostgreSQL, ingester, screen, tables"),
    "hub": ("venue.cmd_hub", "run the venue's NATS hub (nats-server with JetStream)"),
    "ingest": ("venue.ingester", "consume the hub's entries into PostgreSQL"),
    "screen": ("venue_screen.cmd_screen", "serve the venue screen"),
    "rebuild": ("venue.cmd_rebuild", "rebuild games, results and players from the events"),
    "add-tables": ("venue.cmd_add_tables", "add tables to the venue config, each with a "
                   "password of its own, and print each one's [venue] section"),
    "roster": ("venue.roster_keeper", "keep the pub's copy of the league's roster and hand it "
               "to the tables"),
    "db-logins": ("venue.cmd_db_logins", "give the ingester and the screen PostgreSQL logins "
                  "with passwords of their own, in the venue config"),
    "accept-log": ("venue.cmd_accept_log", "take a table's replaced log as genuine, keeping "
                   "the old one's games"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to the chosen subcommand and return its exit status."""
    return dispatch("bidou-venue", COMMANDS, argv)


def dispatch(prog: str, commands: dict[str, tuple[str, str]],
             argv: Sequence[str] | None = None) -> int:
    """Run ``prog``'s chosen subcommand (``commands``: name -> (module, help)), imported
    only then; its exit status (``bidou-venue``, and ``bidou-league``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    lines = [f"usage: {prog} COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {n:<10} {h}" for n, (_, h) in commands.items()]
    if not args or args[0] in ("-h", "--help"):
        print("\n".join(lines))
        return 0 if args else 2
    if args[0] not in commands:
        print(f"{prog}: unknown command {args[0]!r}.\n\n" + "\n".join(lines),
              file=sys.stderr)
        return 2
    module_name, help_ = commands[args[0]]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"{prog} {args[0]}", description=help_)
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(args[1:])) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
