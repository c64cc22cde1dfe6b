"""`bidou-league screen --config league.toml [--host H] [--port P] [--dsn DSN]`: the league's
screen until Ctrl-C or SIGTERM.

It reads the league's store (``--dsn``, else the config's ``[database] screen_dsn``: a role
that only reads; else the config's ``[database] dsn``) and the tables' live states on the
league's cluster (as the league's own user), and serves them as the venue screen is served
(``venue_screen.server``).
"""

from __future__ import annotations

import argparse
import sys

from league.settings import add_config_argument, config_for
from league_screen.app import create_app
from league_screen.data import Reader
from league_screen.live import ClusterLink, Live
from venue_screen.server import ScreenServer
from web.stop_signals import StopSignals

DEFAULT_PORT = 8095


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--host", default="0.0.0.0",
                        help="the address the screen listens on (default every address)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the screen's port (default {DEFAULT_PORT}; 0 = any)")
    parser.add_argument("--dsn", default=None,
                        help="the store's DSN for a role that only reads (default: the "
                             "config's [database] screen_dsn, else its dsn)")


def run(args: argparse.Namespace) -> int:
    config = config_for("screen", args.config)
    if config is None:
        return 2
    live = Live(ClusterLink(tuple(config.client_urls()), config.admin_user,
                            config.admin_password))
    live.start()
    app = create_app(Reader(args.dsn or config.screen_dsn or config.dsn), live,
                     name=f"League {config.name}", host=args.host)
    server = ScreenServer(app, args.host, args.port, who="The league screen", hosts="--host",
                          ports="--port")
    try:
        server.start()
    except OSError as e:
        print(f"bidou-league screen: {e.strerror or e}", file=sys.stderr)  # it says what to change
        live.stop()
        return 1
    print(f"League screen: {server.url}", flush=True)
    StopSignals().wait()
    server.stop()
    live.stop()
    return 0
