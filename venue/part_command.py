"""The command of each long-running part: ``bidou-venue ingest`` and ``roster``,
``bidou-league roster`` and ``uplink`` (and ``bidou-league ingest``'s run loop).

Each reads its config (``config_for``: None after one sentence on stderr, and the command
exits 2), may say in one line what it does, and runs its asyncio part until SIGTERM
(systemd's stop) or SIGINT (Ctrl-C) sets the part's ``stop``; then it exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import Literal, TypeVar

#: a part: runs until the event it is given is set
Part = Callable[[asyncio.Event], Awaitable[None]]
Config = TypeVar("Config")
#: the parts that use the logging module: the time, the logger and the message
LOG_FORMAT = "%(asctime)s %(name)s: %(message)s"


def run_until_stopped(part: Part) -> None:
    """Run ``part(stop)`` until SIGTERM or SIGINT sets ``stop`` (each long-running part's
    command: the venue's ingester, and the league's)."""

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for s in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(s, stop.set)
        await part(stop)

    asyncio.run(main())


def part_command(config_for: Callable[[str, str], Config | None], command: str,
                 part: Callable[[Config], Part], *,
                 says: Callable[[Config], str] | None = None,
                 logging_to: Literal["stdout", "stderr"] | None = None,
                 ) -> Callable[[argparse.Namespace], int]:
    """The ``run`` of the command ``command`` (its ``--config`` read by ``config_for``):
    ``part(config)`` until stopped. ``says``: the line printed once started; ``logging_to``:
    where the logging module's INFO lines go, for the parts that log with it."""

    def run(args: argparse.Namespace) -> int:
        config = config_for(command, args.config)
        if config is None:
            return 2
        if logging_to is not None:
            logging.basicConfig(level=logging.INFO, format=LOG_FORMAT,
                                stream=getattr(sys, logging_to))
        if says is not None:
            print(says(config), flush=True)
        run_until_stopped(part(config))
        return 0

    return run
