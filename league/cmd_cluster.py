"""`bidou-league cluster --config league.toml --server N`: one of the league's three NATS
servers (N = 1, 2 or 3), its config written from the league config, then nats-server run in
its place (as a systemd unit runs it)."""

from __future__ import annotations

import argparse
import json
import os

from league.cluster import server_config
from league.settings import add_config_argument, config_for
from venue.hub import nats_server_binary
from venue.private_file import write_private


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--server", type=int, choices=(1, 2, 3), required=True,
                        help="which of the three servers this is")


def run(args: argparse.Namespace) -> int:
    config = config_for("cluster", args.config)
    if config is None:
        return 2
    folder = os.path.join(config.store_dir, f"server{args.server}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "nats.conf")
    write_private(path, json.dumps(server_config(config, args.server - 1,
                                                 os.path.join(folder, "jetstream")), indent=2))
    os.execv(nats_server_binary(), ["nats-server", "-c", path])
