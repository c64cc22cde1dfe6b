"""`bidou-venue hub`: the venue's nats-server, its users made from the venue config."""

from __future__ import annotations

import argparse
import os
import sys

from engine.errors import ConfigError
from venue.hub import nats_server_binary, server_config
from venue.settings import load_venue_config


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, metavar="FILE", help="the venue config")


def run(args: argparse.Namespace) -> int:
    try:
        config = load_venue_config(args.config)
    except ConfigError as e:
        print(f"bidou-venue hub: {args.config}: {e}.", file=sys.stderr)
        return 2
    os.makedirs(config.store_dir, exist_ok=True)
    path = os.path.join(os.path.dirname(os.path.abspath(config.store_dir)), "nats.conf")
    with open(path, "w") as f:
        f.write(server_config(config))
    os.execv(nats_server_binary(), ["nats-server", "-c", path])
