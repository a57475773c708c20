"""The hub's PostgreSQL schema, as numbered migrations.

``migrate`` brings a database to the newest version, each step in its own transaction,
and records the version in ``hub_schema``. A database newer than this code is refused,
not touched. ``tablesight hub setup`` runs it; the server checks the version at start."""

from __future__ import annotations

import psycopg

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        # A table of the store: its name, and the hash of the token it publishes with.
        """CREATE TABLE tables (
            id serial PRIMARY KEY,
            name text NOT NULL UNIQUE,
            token_hash text NOT NULL UNIQUE,
            created timestamptz NOT NULL DEFAULT now(),
            revoked timestamptz,
            last_seen timestamptz,
            status jsonb NOT NULL DEFAULT '{}'::jsonb)""",
        # Each game log file a table publishes, bound to that table at first sight: no
        # other table may publish into it.
        """CREATE TABLE logs (
            uid text PRIMARY KEY,
            table_id integer NOT NULL REFERENCES tables(id),
            first_seen timestamptz NOT NULL DEFAULT now())""",
        """CREATE TABLE games (
            log_uid text NOT NULL REFERENCES logs(uid),
            game integer NOT NULL,
            table_id integer NOT NULL REFERENCES tables(id),
            system text NOT NULL,
            rules_version text NOT NULL,
            created double precision NOT NULL,
            setup text NOT NULL,
            status text NOT NULL,
            last_seq integer NOT NULL DEFAULT 0,
            last_chain text NOT NULL,
            updated timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (log_uid, game))""",
        # Entries exactly as the table's log holds them (the body as its JSON text: the
        # chain covers those characters), with the hub's own time of arrival.
        """CREATE TABLE entries (
            log_uid text NOT NULL,
            game integer NOT NULL,
            seq integer NOT NULL,
            time double precision NOT NULL,
            kind text NOT NULL,
            source text NOT NULL,
            body text NOT NULL,
            chain text NOT NULL,
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (log_uid, game, seq),
            FOREIGN KEY (log_uid, game) REFERENCES games(log_uid, game))""",
        "CREATE INDEX entries_kind ON entries (kind)",
        """CREATE TABLE staff (
            id serial PRIMARY KEY,
            username text NOT NULL UNIQUE,
            password_hash text NOT NULL,
            created timestamptz NOT NULL DEFAULT now())""",
    ),
}
NEWEST = max(MIGRATIONS)


class SchemaError(RuntimeError):
    """The database cannot be used by this hub; says why and what to do."""


def version(conn: psycopg.Connection) -> int:
    """The schema version of the database (0: none yet)."""
    with conn.transaction():
        found = conn.execute("SELECT to_regclass('hub_schema')").fetchone()
        if found is None or found[0] is None:
            return 0
        row = conn.execute("SELECT version FROM hub_schema").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: psycopg.Connection) -> tuple[int, int]:
    """Bring the schema to ``NEWEST``; (the version before, after)."""
    before = version(conn)
    if before > NEWEST:
        raise SchemaError(f"the hub's database is at schema {before}, newer than this "
                          f"tablesight ({NEWEST}): upgrade tablesight")
    for v in range(before + 1, NEWEST + 1):
        with conn.transaction():
            if v == 1:
                conn.execute("CREATE TABLE hub_schema (version integer NOT NULL)")
                conn.execute("INSERT INTO hub_schema VALUES (0)")
            for statement in MIGRATIONS[v]:
                conn.execute(statement)  # type: ignore[arg-type]
            conn.execute("UPDATE hub_schema SET version = %s", (v,))
    return before, NEWEST


def check(conn: psycopg.Connection) -> None:
    """Refuse a database whose schema is not this code's (``hub setup`` fixes it)."""
    v = version(conn)
    if v != NEWEST:
        raise SchemaError(f"the hub's database is at schema {v}, this tablesight needs "
                          f"{NEWEST}: run 'tablesight hub setup' first" if v < NEWEST else
                          f"the hub's database is at schema {v}, newer than this "
                          f"tablesight ({NEWEST}): upgrade tablesight")
