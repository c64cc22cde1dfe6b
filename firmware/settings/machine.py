"""Which machine the table runs on, and where its log lives there.

``bidou-table run`` and ``bidou-table export`` both need to know: a Raspberry Pi keeps the
log in the systemd unit's StateDirectory, anything else runs in simulation beside the
current directory. Small and free of heavy imports, so ``export`` stays quick.
"""

from __future__ import annotations

PI_MODEL = "/proc/device-tree/model"
PI_DB = "/var/lib/bidou-table/table.db"
SIM_DB = "bidou-table.db"


def on_raspberry_pi(model_file: str = PI_MODEL) -> bool:
    """Whether this machine's device tree says it is a Raspberry Pi."""
    try:
        with open(model_file, "rb") as f:
            return b"Raspberry Pi" in f.read()
    except OSError:
        return False


def default_db(simulate: bool) -> str:
    """The log's path when ``--db`` is not given."""
    return SIM_DB if simulate else PI_DB
