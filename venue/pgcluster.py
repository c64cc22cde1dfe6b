"""A PostgreSQL cluster in a folder, run as an unprivileged user (``make venue``, the tests).

PostgreSQL refuses to run as root, and a pub's hub needs no system-wide server to try the
venue: ``initdb``/``pg_ctl`` from Debian's ``postgresql`` package make and run a cluster in
any folder. Run as root (CI, a container), the folder is given to the system user and group
``bidou-pg`` (made with ``groupadd``/``useradd`` when absent) and the commands run as that
user and group only: a child started with ``user=`` alone keeps root's group (``COPY ... TO
PROGRAM 'id'`` then runs as ``gid=0(root)``).

Every connection gives a password (scram-sha-256, ``pg_hba.conf`` written here at each start):
the owner role ``bidou`` has a random one, kept in ``owner.password`` (0600) beside the data.
A cluster without ``owner.password`` is given one at its next start.
"""

from __future__ import annotations

import glob
import grp
import os
import pwd
import secrets
import subprocess
from pathlib import Path

import psycopg
from psycopg import sql

from venue.private_file import write_private

PG_USER = "bidou-pg"  # the OS user and group the cluster runs as when we are root
DB_USER = "bidou"  # the owner role (a password, scram, on the socket and 127.0.0.1 only)
DB_NAME = "bidou_venue"
#: pg_hba.conf: a password (scram) for every connection, on the socket and on loopback
HBA = ("# written by bidou-venue (venue/pgcluster.py): a password for every connection\n"
       "local all all scram-sha-256\n"
       "host all all 127.0.0.1/32 scram-sha-256\n"
       "host all all ::1/128 scram-sha-256\n")


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
    """The user (and group, of the same name) to run as: None (ourselves) unless we are root.
    Made when absent; an existing ``bidou-pg`` whose group is another is given its own."""
    if os.geteuid() != 0:
        return None
    try:
        group = grp.getgrnam(PG_USER).gr_gid
    except KeyError:
        subprocess.run(["groupadd", "--system", PG_USER], check=True)
        group = grp.getgrnam(PG_USER).gr_gid
    try:
        user = pwd.getpwnam(PG_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                        "/usr/sbin/nologin", "--gid", PG_USER, PG_USER], check=True)
    else:
        if user.pw_gid != group:
            subprocess.run(["usermod", "--gid", PG_USER, PG_USER], check=True)
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
        self.password_file = os.path.join(self.folder, "owner.password")

    @property
    def password(self) -> str:
        return Path(self.password_file).read_text().strip()

    @property
    def dsn(self) -> str:
        """The owner's DSN (with its password: keep it in 0600 files only)."""
        return self.dsn_for(DB_USER, self.password)

    def dsn_for(self, role: str, password: str) -> str:
        return (f"host=127.0.0.1 port={self.port} user={role} dbname={DB_NAME} "
                f"password={password}")

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = [os.path.join(self.bin, args[0]), *args[1:]]
        group = None if self.user is None else pwd.getpwnam(self.user).pw_gid
        return subprocess.run(cmd, user=self.user, group=group,
                              extra_groups=None if self.user is None else [],
                              check=check, capture_output=True, text=True, cwd="/",
                              timeout=120)

    def _give(self, path: str) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(path, entry.pw_uid, entry.pw_gid)

    def _new_password(self) -> str:
        password = secrets.token_urlsafe(24)
        write_private(self.password_file, password + "\n")
        self._give(self.password_file)  # initdb reads it as that user
        return password

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
            self._new_password()
            done = self._run("initdb", "-D", self.data, "-U", DB_USER,
                             f"--pwfile={self.password_file}", "--auth=scram-sha-256",
                             "-E", "UTF8", "--locale=C.UTF-8", check=False)
            if done.returncode != 0:
                raise RuntimeError(f"initdb failed in {self.data}: {done.stderr.strip()}")
        Path(self.logfile).touch()
        self._give(self.logfile)

    def _hba(self, text: str) -> None:
        path = os.path.join(self.data, "pg_hba.conf")
        write_private(path, text)
        self._give(path)

    def start(self) -> None:
        """Start it (waits until it accepts connections), and make the venue's database."""
        unset = not os.path.exists(self.password_file)  # a cluster whose owner has none
        if unset:  # the owner is given one through the socket, which only we can reach
            self._hba(f"local all {DB_USER} trust\n")
        else:
            self._hba(HBA)
        self._pg_ctl_start()
        if unset:
            password = self._new_password()
            with psycopg.connect(host=self.folder, port=self.port, user=DB_USER,
                                 dbname="postgres", autocommit=True) as db:
                db.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                    sql.Identifier(DB_USER), sql.Literal(password)))
            self._hba(HBA)
            self._run("pg_ctl", "-D", self.data, "reload")
        with psycopg.connect(self.dsn.replace(f"dbname={DB_NAME}", "dbname=postgres"),
                             autocommit=True) as db:
            if db.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                          (DB_NAME,)).fetchone() is None:
                db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DB_NAME)))

    def _pg_ctl_start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=on -c max_connections=50")
        done = self._run("pg_ctl", "-D", self.data, "-l", self.logfile, "-o", options,
                         "-w", "-t", "60", "start", check=False)
        if done.returncode != 0:
            tail = Path(self.logfile).read_text(errors="replace")[-800:]
            raise RuntimeError(f"PostgreSQL did not start on port {self.port}: "
                               f"{done.stderr.strip()} {tail}")

    def stop(self, mode: str = "fast") -> None:
        """Stop it (idempotent): ``fast`` ends sessions, ``immediate`` is a crash."""
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()
