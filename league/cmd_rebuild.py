"""`bidou-league rebuild --config league.toml`: games, results, players, seatings, rankings
and ratings made again from the events (``league.derive.rebuild_all``), as `bidou-venue
rebuild` does it for a venue (``venue.cmd_rebuild.rebuild_command``)."""

from __future__ import annotations

from league import derive
from league import store as league_store
from league.settings import add_config_argument, config_for
from venue.cmd_rebuild import rebuild_command

add_arguments = add_config_argument
run = rebuild_command(config_for, league_store.connect, derive.rebuild_all,
                      "bidou-league rebuild: {} finished games ranked, ratings made again")
