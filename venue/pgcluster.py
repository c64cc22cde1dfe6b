"""A PostgreSQL cluster in a folder, run as an unprivileged user (``make venue``, the tests).

PostgreSQL refuses to run as root, and a pub's hub needs no system-wide server to try the
venue: ``initdb``/``pg_ctl`` from Debian's ``postgresql`` package make and run a cluster in
any folder. Run as root (CI, a container), the folder is given to the system user
``bidou-pg`` (made with ``useradd`` when absent) and the commands run as that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import subprocess
from pathlib import Path

PG_USER = "bidou-pg"  # the OS user the cluster runs as when we are root
DB_USER = "bidou"  # the database role the venue connects as (trust on 127.0.0.1 only)
DB_NAME = "bidou_venue"


def pg_bin() -> str:
    """The newest /usr/lib/postgresql/*/bin holding initdb; FileNotFoundError with what to
    install otherwise."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if not found:
        raise FileNotFoundError(
            "PostgreSQL's server is not installed (no /usr/lib/postgresql/*/bin/initdb): "
            "sudo apt-get install postgresql, then start again.")
    return os.path.dirname(found[-1])


def _os_user() -> str | None:
    """The user to run as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(PG_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                        "/usr/sbin/nologin", PG_USER], check=True)
    return PG_USER


class PgCluster:
    """The cluster in ``folder`` on 127.0.0.1:``port``."""

    def __init__(self, folder: str, port: int) -> None:
        self.folder = os.path.abspath(folder)
        self.port = port
        self.data = os.path.join(self.folder, "data")
        self.logfile = os.path.join(self.folder, "postgres.log")
        self.bin = pg_bin()
        self.user = _os_user()

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} user={DB_USER} dbname={DB_NAME}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [os.path.join(self.bin, args[0]), *args[1:]]
        return subprocess.run(cmd, user=self.user, check=check, capture_output=True,
                              text=True, cwd="/", timeout=120)

    def _give(self, path: str) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(path, entry.pw_uid, entry.pw_gid)

    def init(self) -> None:
        """Make the cluster and its database if the folder holds none yet."""
        os.makedirs(self.folder, exist_ok=True)
        self._give(self.folder)
        if self.user is not None:  # the parents must let that user through to the folder
            for parent in Path(self.folder).parents:
                if not os.stat(parent).st_mode & 0o001:
                    raise RuntimeError(
                        f"PostgreSQL runs as user {self.user}, who may not enter {parent} "
                        f"(on the way to {self.folder}); put the venue's data in a folder "
                        "others may pass through (the checkout, /var/tmp), or chmod o+x it.")
        if not os.path.exists(os.path.join(self.data, "PG_VERSION")):
            done = self._run("initdb", "-D", self.data, "-U", DB_USER, "--auth=trust",
                             "-E", "UTF8", "--locale=C.UTF-8", check=False)
            if done.returncode != 0:
                raise RuntimeError(f"initdb failed in {self.data}: {done.stderr.strip()}")
        Path(self.logfile).touch()
        self._give(self.logfile)

    def start(self) -> None:
        """Start it (waits until it accepts connections), and make the venue's database."""
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=on -c max_connections=50")
        done = self._run("pg_ctl", "-D", self.data, "-l", self.logfile, "-o", options,
                         "-w", "-t", "60", "start", check=False)
        if done.returncode != 0:
            tail = Path(self.logfile).read_text(errors="replace")[-800:]
            raise RuntimeError(f"PostgreSQL did not start on port {self.port}: "
                               f"{done.stderr.strip()} {tail}")
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", DB_USER,
                  DB_NAME, check=False)  # exists already after a restart: fine

    def stop(self, mode: str = "fast") -> None:
        """Stop it (idempotent): ``fast`` ends sessions, ``immediate`` is a crash."""
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()
