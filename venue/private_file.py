"""Files that hold secrets (passwords in a config, a DSN), written readable by their owner
only: 0600 from the moment they exist, whatever the umask, and again if they existed."""

from __future__ import annotations

import os


def write_private(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path``, mode 0600 (owner only)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), 0o600)
        out.write(text)
