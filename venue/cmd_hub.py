"""`bidou-venue hub`: the venue's nats-server, its users made from the venue config."""

from __future__ import annotations

import argparse
import os

from venue.hub import nats_server_binary, server_config
from venue.settings import add_config_argument, config_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)


def run(args: argparse.Namespace) -> int:
    config = config_for("hub", args.config)
    if config is None:
        return 2
    os.makedirs(config.store_dir, exist_ok=True)
    path = os.path.join(os.path.dirname(os.path.abspath(config.store_dir)), "nats.conf")
    with open(path, "w") as f:
        f.write(server_config(config))
    os.execv(nats_server_binary(), ["nats-server", "-c", path])
