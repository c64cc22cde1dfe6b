"""The `bidou-league` command: the league's parts, one module per subcommand (as
``venue.cli``), imported only when chosen, so the ingester never loads Flask."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from venue.cli import dispatch

COMMANDS: dict[str, tuple[str, str]] = {
    "up": ("league_screen.cmd_up", "run a whole league on this machine"),
    "cluster": ("league.cmd_cluster", "run one of the league's three NATS servers"),
    "ingest": ("league.ingester", "consume the league's entries into PostgreSQL"),
    "rebuild": ("league.cmd_rebuild", "make games, seatings, rankings and ratings again from "
                "the events"),
    "screen": ("league_screen.cmd_screen", "serve the league's screen"),
    "add-venue": ("league_screen.cmd_add_venue",
                  "add a pub: print its hub's league link and config"),
    "add-player": ("league.cmd_add_player", "put a player in the league's roster, or change one"),
    "roster": ("league.roster", "answer the pubs' requests for the roster"),
    "pub-hub": ("league.pubhub", "run a pub's hub as a leaf node of the league (at the pub)"),
    "uplink": ("league.uplink", "send a pub's entries on to the league (at the pub)"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to the chosen subcommand and return its exit status."""
    return dispatch("bidou-league", COMMANDS, argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
