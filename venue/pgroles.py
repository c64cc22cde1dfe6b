"""The venue's database roles: each part connects with only what it needs.

The owner (``bidou``, ``venue.pgcluster``) makes the schema; then:

- the ingester's role writes the store: inserts and updates ``events``, ``tables`` and
  ``problems`` (it never deletes an event), and writes ``games``, ``results`` and ``players``,
  which it derives from the events in the same transaction (``venue.store``);
- the screen's role only reads.

Neither is a superuser, owns a table, may create anything, or may run a program as the
server (``COPY ... TO PROGRAM`` needs superuser or ``pg_execute_server_program``). Each gets a
new random password every time this runs; the DSNs returned carry them (keep them in 0600
files).
"""

from __future__ import annotations

import secrets
from typing import Any

import psycopg
from psycopg import sql

from venue import store

INGESTER = "bidou_ingest"
SCREEN = "bidou_screen"
#: what the ingester may insert and update (never delete)
INGESTER_RECORDS = ("events", "tables", "problems")
#: what the ingester derives from the events, and so may rewrite (``derived.derive_many``,
#: ``bidou-venue rebuild``)
INGESTER_DERIVES = ("games", "results", "players")
#: where the ingester keeps a table's entries that wait for earlier ones, deleting each once
#: it is stored (``store.py``'s ``held``)
INGESTER_HOLDS = ("held",)


def set_up_roles(owner_dsn: str) -> dict[str, str]:
    """Make (or update) the two roles with fresh passwords and their grants, in the database
    of ``owner_dsn``; {role: its DSN}."""
    passwords = {role: secrets.token_urlsafe(24) for role in (INGESTER, SCREEN)}
    with store.connect(owner_dsn) as db, db.transaction():  # the schema, made by its owner
        for role, password in passwords.items():
            login_role(db, role, password)
        both = sql.SQL(", ").join(sql.Identifier(r) for r in passwords)
        name = sql.Identifier(db.info.dbname)
        for statement in (
                "REVOKE ALL ON DATABASE {name} FROM PUBLIC",
                "GRANT CONNECT ON DATABASE {name} TO {both}",
                "REVOKE ALL ON SCHEMA public FROM PUBLIC",
                "GRANT USAGE ON SCHEMA public TO {both}",
                "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {both}",
                "GRANT SELECT ON ALL TABLES IN SCHEMA public TO {both}",
                "GRANT INSERT, UPDATE ON {records} TO {ingester}",
                "GRANT INSERT, UPDATE, DELETE ON {derives} TO {ingester}",
                "GRANT INSERT, DELETE ON {holds} TO {ingester}",
                "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {ingester}"):
            db.execute(sql.SQL(statement).format(
                name=name, both=both, ingester=sql.Identifier(INGESTER),
                records=sql.SQL(", ").join(map(sql.Identifier, INGESTER_RECORDS)),
                derives=sql.SQL(", ").join(map(sql.Identifier, INGESTER_DERIVES)),
                holds=sql.SQL(", ").join(map(sql.Identifier, INGESTER_HOLDS))))
        # the connection's own, not get_parameters(), which leaves out what the owner's DSN
        # left to libpq's defaults (install-hub names no port)
        host, port, dbname = db.info.host, db.info.port, db.info.dbname
    return {role: f"host={host} port={port} user={role} dbname={dbname} password={password}"
            for role, password in passwords.items()}


def login_role(db: psycopg.Connection[Any], role: str, password: str) -> None:
    """Make ``role`` (or update it) a login role with ``password`` and no other power."""
    known = db.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    # Made without SUPERUSER and REPLICATION; naming them again in an ALTER needs a superuser,
    # which install-hub's owner (CREATEROLE only) is not, so a second run leaves them out.
    powers = "NOCREATEDB NOCREATEROLE" if known else \
        "NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION"
    db.execute(sql.SQL("{} ROLE {} LOGIN {} PASSWORD {}").format(
        sql.SQL("ALTER" if known else "CREATE"), sql.Identifier(role), sql.SQL(powers),
        sql.Literal(password)))


def set_up_reader(db: psycopg.Connection[Any], role: str) -> str:
    """Make (or update) ``role``, with a fresh password, able only to read every table of
    ``db``'s database (its owner's connection, the schema in place); its DSN."""
    password = secrets.token_urlsafe(24)
    with db.transaction():
        login_role(db, role, password)
        name, ident = sql.Identifier(db.info.dbname), sql.Identifier(role)
        for statement in ("GRANT CONNECT ON DATABASE {name} TO {role}",
                          "GRANT USAGE ON SCHEMA public TO {role}",
                          "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {role}",
                          "GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"):
            db.execute(sql.SQL(statement).format(name=name, role=ident))
    info = db.info  # not get_parameters(): see set_up_roles
    return (f"host={info.host} port={info.port} user={role} "
            f"dbname={info.dbname} password={password}")
