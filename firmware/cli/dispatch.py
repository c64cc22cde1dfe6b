"""The `bidou-table` command: one entry point, one module per subcommand.

Each subcommand lives in its own module with two functions,
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status). Modules are
imported only when their subcommand is chosen, so `bidou-table replay` never pays
for OpenCV or Flask, and a Pi-only import can never break another command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# One BLAS thread, set before numpy or OpenCV is first loaded (an explicit setting in the
# environment wins): the dice reader's matrix products are small, and OpenBLAS's pool of a
# thread per core burns more CPU spinning than the products take (docs/vision.md, Speed).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: subcommand -> (module, one-line help). The order is the order of `--help`.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("table_server.cmd_run",
            "run the table: controller and dashboard (simulated off the Pi)"),
    "replay": ("firmware.cli.cmd_replay", "replay a game record and print the state as JSON"),
    "read-dice": ("vision.cli", "read the dice in photographs"),
    "calibrate": ("firmware.cli.cmd_calibrate",
                  "find the seat zones (or adapt the dice reader to the table) and save them"),
    "export": ("firmware.cli.cmd_export", "write finished games from the log as game records"),
    "doctor": ("firmware.cli.cmd_doctor", "check the installed table's parts, one sentence each: "
               "config, log, camera, pins, zones, reader files, venue link"),
}


def _overview() -> str:
    lines = ["usage: bidou-table COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "`bidou-table COMMAND --help` shows a command's arguments."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to the chosen subcommand and return its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_overview())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"bidou-table: unknown command {name!r}.\n\n{_overview()}", file=sys.stderr)
        return 2
    module_name, help_ = COMMANDS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"bidou-table {name}", description=help_)
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(rest)) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
