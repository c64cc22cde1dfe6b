"""`bidou-table calibrate`: the seat zones (:mod:`hardware.calibrate`), or, with
``--known-throws DIR`` and/or ``--from-log DB``, the dice reader adapted to the table
(:mod:`firmware.teach.calibrate_reader`).

Why a command module in ``firmware/``: learning from the referee's corrections reads the
controller's log, which the hardware layer below it does not know.
"""

from __future__ import annotations

import argparse

from hardware import calibrate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    calibrate.add_arguments(parser)
    parser.add_argument("--from-log", metavar="DB",
                        help="adapt the dice reader on the referee's dice corrections in this "
                             "table log too (each keeps the camera's picture), alone or with "
                             "--known-throws")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="with --known-throws or --from-log: which third of the pictures "
                             "is held back to check the adaptation (default 0)")


def run(args: argparse.Namespace) -> int:
    if args.known_throws is not None or args.from_log is not None:
        # lazy: only the reader's calibration loads the networks and the log
        from firmware.teach.calibrate_reader import run_known_throws

        return run_known_throws(args)
    return calibrate.run(args)
