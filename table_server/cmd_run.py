"""`bidou-table run`: the table -- controller, seat panels, camera and dashboard in one process.

On a Raspberry Pi it opens the real GPIO pins and camera; anywhere else (or with
``--simulate``) it uses gpiozero's mock pins and the simulated camera, and says so, so the
same command runs the pub's table and a developer's laptop. Everything is closed in reverse
order on SIGTERM (systemd stop) or SIGINT (Ctrl-C): dashboard, panels (LEDs off), controller
(log closed after its last commit), camera.

``--db`` defaults to ``./bidou-table.db`` in simulation and ``/var/lib/bidou-table/table.db``
on a Pi (the systemd unit's StateDirectory).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import signal
import sys
import time
from typing import Any

from engine.errors import ConfigError, VisionError
from firmware.gamelog.log import LogError
from firmware.gamelog.seating_entry import id_problem
from firmware.settings.config import default_config, load_config
from firmware.settings.machine import PI_DB, SIM_DB, default_db, on_raspberry_pi
from firmware.settings.server_settings import (
    HOST_ALLOWED,
    PORT_ALLOWED,
    TOKEN_ENV,
    check_host,
    check_port,
)
from firmware.settings.venue_settings import VenueSettings
from firmware.table.commands import Correct
from firmware.table.controller import TableController
from firmware.table.house import House, build_house
from firmware.table.self_play import SelfPlay
from firmware.teach.dice_teacher import DiceTeacher, simulated_throw
from firmware.teach.self_teaching import SelfTeaching
from table_server.console.dice_teach import Changes, install
from table_server.server import Dashboard

STOP_POLL = 0.1  # seconds between looks at the stop flag
SIMULATION_NOTICE = "No Raspberry Pi found: running in simulation (mock pins, simulated camera)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="the table's TOML config (default: a simulated two-hand table "
                             "for Ann and Bob)")
    parser.add_argument("--db", metavar="FILE",
                        help=f"the game log (default: ./{SIM_DB} in simulation, {PI_DB} on a Pi)")
    parser.add_argument("--host", type=_host,
                        help="address the dashboard listens on (overrides [server])")
    parser.add_argument("--port", type=_port,
                        help="dashboard port (overrides [server]; 0 = any)")
    parser.add_argument("--simulate", action="store_true",
                        help="mock pins and the simulated camera, even on a Pi")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the simulated dice (simulation only)")
    parser.add_argument("--unsure", type=_share, default=None, metavar="SHARE",
                        help="simulation only: the share of dice (0 to 1) the simulated camera "
                             "is unsure of, so throws count with values pending (overrides "
                             "[camera] unsure)")
    parser.add_argument("--autoplay", type=_pace, default=None, metavar="SECONDS",
                        help="simulation only: the table plays random legal actions by "
                             "itself, one about every SECONDS (make venue's tables)")
    parser.add_argument("--autoplay-roster", type=_roster_ids, default=(), metavar="ID,ID,...",
                        help="with --autoplay: before each game the table seats players drawn "
                             "from these roster ids (make league's tables)")


def _roster_ids(text: str) -> tuple[str, ...]:
    """``--autoplay-roster``: roster ids, comma-separated, each well-formed."""
    ids = tuple(i for i in text.split(",") if i)
    for i in ids:
        bad = id_problem(i)
        if bad:
            raise argparse.ArgumentTypeError(bad)
    return ids


def _share(text: str) -> float:
    """``--unsure``: a share from 0 to 1, as ``[camera] unsure`` is."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share from 0 to 1, such as 0.3")
    return value


def _host(text: str) -> str:
    """``--host``, checked as ``[server] host`` is (argparse reports the sentence, exit 2)."""
    try:
        return check_host(text, "--host")
    except ConfigError:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: {HOST_ALLOWED}") from None


def _port(text: str) -> int:
    """``--port``, checked as ``[server] port`` is: 70000 must not wrap round to 4464."""
    try:
        return check_port(int(text), "--port")
    except (ValueError, ConfigError):
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: {PORT_ALLOWED}") from None


def _pace(text: str) -> float:
    """``--autoplay``: seconds between the simulated table's own actions."""
    try:
        pace = float(text)
    except ValueError:
        pace = -1.0
    if not 0.0 < pace <= 3600.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: seconds between actions, "
                                         "more than 0 and at most 3600, e.g. 2.5")
    return pace


def _say(text: str) -> None:
    """Print a line for the person running the table; a closed stdout (``| head``) must not
    stop the table, so later lines are dropped instead."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # as the Python docs advise (signal)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())


def _error(text: str) -> None:
    print(f"bidou-table run: {text}", file=sys.stderr, flush=True)


def build(args: argparse.Namespace, simulate: bool) -> tuple[House, Dashboard]:
    """The table from the config (``firmware.table.house``, as the tests build it) and its
    dashboard; closing the house closes the dashboard first."""
    config = load_config(args.config, simulate=simulate) if args.config else \
        default_config(simulate)
    server = config.server
    if args.host is not None:
        server = dataclasses.replace(server, host=args.host)
    if args.port is not None:
        server = dataclasses.replace(server, port=args.port)
    house = build_house(config, db=args.db or default_db(simulate), simulate=simulate,
                        seed=args.seed, unsure=args.unsure, config_path=args.config,
                        say=_say, warn=_error)
    try:
        game = house.controller.public_state()
        if game["status"] == "over":  # before anyone can see the table: no "Game over" flash
            start_next_game(house.controller, game)
        dashboard = Dashboard(house.controller, server)
        dashboard.start()
    except BaseException:
        house.close()
        raise
    house.add("dashboard", dashboard.stop)
    start_teacher(house, dashboard, args)
    if config.venue is not None:
        start_forwarder(house, dashboard, config.venue)
    if getattr(args, "autoplay", None):
        if not simulate:
            house.close()
            raise ConfigError("--autoplay", args.autoplay,
                              "only in simulation: a real table is played by people")
        play = SelfPlay(house.controller, args.autoplay, seed=args.seed,
                        roster=getattr(args, "autoplay_roster", ()))
        play.start()
        house.add("self-play", play.stop)
    return house, dashboard


def start_teacher(house: House, dashboard: Dashboard, args: argparse.Namespace) -> None:
    """The console's Dice page: known throws beside the log, and learning them in the
    background (stopped before the dashboard and the log close); and the table teaching
    itself again when idle (``[learning]``, :mod:`firmware.teach.self_teaching`)."""
    changes = Changes()
    throw = simulated_throw(house.dice.camera, args.seed) if house.dice is not None else None
    teacher = DiceTeacher(house.log, house.watcher, args.config, throw=throw, changed=changes,
                          drawn=house.dice is not None)
    install(dashboard.app, teacher, changes)
    house.add("dice teacher", teacher.stop)
    learning = house.config.learning
    if learning.on and teacher.files is not None:  # a log in memory has no known dice
        itself = SelfTeaching(teacher, learning, note=_say)
        itself.start()
        house.add("self-teaching", itself.stop)  # stopped before the teacher ends its child


def start_forwarder(house: House, dashboard: Dashboard, settings: VenueSettings) -> None:
    """The venue forwarder (``[venue]`` is set): started after the dashboard, stopped before
    it and before the log closes; the referee console shows its status."""
    # nats-py is installed only with the venue extra; a table without [venue] never loads it
    # lazy: make run needs no broker client
    from venue.forwarder import Forwarder

    controller = house.controller
    forwarder = Forwarder(house.log, settings, state=controller.public_state,
                          subscribe=controller.subscribe, warn=_error)
    forwarder.start()
    dashboard.app.config["VENUE_STATUS"] = forwarder.status
    house.add("venue forwarder", forwarder.stop)
    # lazy: as the forwarder, only with [venue]
    from venue.roster_copy import RosterCopy, copy_path

    copy = RosterCopy(settings, copy_path(house.log.path))
    copy.start()
    dashboard.app.config["LEAGUE_ROSTER"] = copy
    house.add("roster copy", copy.stop)
    _say(f"Venue: forwarding the log to {settings.url} as table {settings.table}")


def start_next_game(controller: TableController, finished: dict[str, Any]) -> None:
    """The log's latest game is over: start the config's game, so the players who turn the
    table on (or run ``make run`` again) have something to press. The finished game stays in
    the log and the history; the new game is logged as a correction by "table"."""
    outcome = controller.submit(Correct(
        "new-game", by="table",
        why=f"game {finished['game_id']} was over when the table started"))
    if outcome.ok:
        _say(f"Game {finished['game_id']} in the log is over; a new game starts.")
    else:
        _error(f"{outcome.message} Game {finished['game_id']} stays on the table; the referee "
               "can start a new game from the console.")


def run(args: argparse.Namespace) -> int:
    pi = on_raspberry_pi()
    simulate = bool(args.simulate) or not pi
    if not pi:
        _say(SIMULATION_NOTICE)
    elif simulate:
        _say("Simulation requested (--simulate): mock pins, simulated camera")
    # The handler only sets a flag that the main thread polls: setting a threading.Event
    # from a handler deadlocks when the signal lands while the main thread holds that Event's
    # own lock inside wait() (two quick SIGTERMs did hang the table).
    stop_requested: list[int] = []

    def handle(signum: int, frame: object) -> None:
        stop_requested.append(signum)

    old = {s: signal.signal(s, handle) for s in (signal.SIGTERM, signal.SIGINT)}
    house: House | None = None
    try:
        try:
            house, dashboard = build(args, simulate)
        except ConfigError as e:
            if e.key == TOKEN_ENV:  # not in any file: say where it does come from
                _error(f"the environment: {e}. Set {TOKEN_ENV} to such a secret, or unset it "
                       "to have one generated, and start again.")
                return 2
            where = args.config or "the default config"
            _error(f"{where}: {e}. Fix the config and start again.")
            return 2
        except VisionError as e:  # the table's own head, or the model, cannot be used
            _error(f"{str(e).rstrip('.')}. Then start again.")
            return 2
        except (LogError, OSError) as e:
            _error(e.strerror if isinstance(e, OSError) and e.strerror else f"{e}")
            return 1
        controller = house.controller
        game = controller.public_state()
        _say(f"Game {game['game_id']} ({game['variant']}): {', '.join(game['players'])}; "
             f"log {controller.log.path}")
        if (game["variant"], tuple(game["players"])) != (controller.variant, controller.players):
            _say(f"Note: the log's game is {game['variant']} for {', '.join(game['players'])}, "
                 f"the config's table is {controller.variant} for "
                 f"{', '.join(controller.players)}; the referee starts a new game to play the "
                 "config's.")
        for line in dashboard.startup_lines(simulate=simulate):
            _say(line)
        _say("Press Ctrl-C to stop.")
        while not stop_requested:
            time.sleep(STOP_POLL)
        _say("Stopping: LEDs off, camera closed, log flushed.")
        house.close()
        _say("Stopped cleanly.")
        return 0
    finally:
        if house is not None:
            house.close()
        for s, h in old.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(s, h)
