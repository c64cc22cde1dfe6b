"""`bidou-venue screen --config venue.toml [--port P]`: the venue screen until Ctrl-C."""

from __future__ import annotations

import argparse
import sys

from venue.settings import add_config_argument, config_for
from venue_screen.app import create_app
from venue_screen.live import Live
from venue_screen.server import ScreenServer
from web.stop_signals import StopSignals


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--port", type=int, default=None,
                        help="the screen's port (overrides [screen] port; 0 = any)")


def run(args: argparse.Namespace) -> int:
    config = config_for("screen", args.config)
    if config is None:
        return 2
    live = Live(config)
    live.start()
    server = ScreenServer(create_app(config, live), config.screen_host,
                          config.screen_port if args.port is None else args.port)
    try:
        server.start()
    except OSError as e:
        print(f"bidou-venue screen: {e.strerror or e}", file=sys.stderr)  # it says what to change
        live.stop()
        return 1
    print(f"Venue screen: {server.url}", flush=True)
    StopSignals().wait()
    live.stop()  # first: it ends the event streams, which would hold the server's stop
    server.stop()
    return 0
