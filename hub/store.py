"""The hub's storage in PostgreSQL: tables and their tokens, staff accounts, and the
games the tables publish, each entry stored once.

**Exactly once from at-least-once.** A table sends its log again whenever it is not
sure the hub has it (a lost reply, a restart on either side), so every batch may repeat
entries. Each entry is keyed by (log, game, number) and carries the chain hash after it
(``table.session.integrity``): an entry the hub has is compared by its chain and skipped;
a new one must follow the last stored entry of its game, number and chain, or the batch
stops there and the reply says where the hub stands (``have``) for the table to resume.
So a game's entries are stored in order, with no gap, each once; one that differs from
what is stored under its number is refused as a conflict, not stored twice.

A game's rows are locked while a batch for it is stored, so two deliveries of the same
batch at once store it once. Each stored batch notifies ``hub`` (PostgreSQL's NOTIFY)
with the table's id, which the staff view's live stream listens to."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from table.session import integrity

from . import schema
from .batch import Batch, GameIn
from .standings import Result

TOKEN_BYTES = 24
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # about 50 ms a password on a small machine


class StoreError(RuntimeError):
    """Something the hub cannot do; the message says what and why."""


class Refused(ValueError):
    """A batch the hub will not store (another table's log, a conflicting entry)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class TableRow:
    id: int
    name: str
    revoked: bool


@dataclass(frozen=True)
class Stored:
    """What a batch did: entries new to the hub, and the last entry it has of each
    game of the batch (where the table resumes)."""

    new: int
    have: dict[int, int]


def token_hash(token: str) -> str:
    """Tokens are random (``TOKEN_BYTES``), so a plain SHA-256 keeps them safe at rest."""
    return hashlib.sha256(token.encode()).hexdigest()


def password_hash(password: str, salt: bytes | None = None) -> str:
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode(), salt=salt, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def password_ok(password: str, stored: str) -> bool:
    try:
        kind, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        mine = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), **_SCRYPT)
    except ValueError:
        return False
    return hmac.compare_digest(mine.hex(), digest)


class HubStore:
    """The hub's database, through short-lived connections (one per call), so any
    thread of the server may use it and a restarted PostgreSQL is simply reconnected."""

    def __init__(self, dsn: str, *, connect_timeout: float = 5.0) -> None:
        self.dsn = dsn
        self.connect_timeout = connect_timeout

    @contextmanager
    def connect(self) -> Iterator[psycopg.Connection]:
        try:
            conn = psycopg.connect(self.dsn, connect_timeout=max(1, int(self.connect_timeout)))
        except psycopg.OperationalError as e:
            raise StoreError(f"cannot reach the hub's database: {_first_line(e)}") from None
        try:
            yield conn
        finally:
            conn.close()

    # -- setup ------------------------------------------------------------------------
    def setup(self) -> tuple[int, int]:
        """Create or upgrade the schema; (version before, after)."""
        with self.connect() as conn:
            return schema.migrate(conn)

    def check(self) -> None:
        with self.connect() as conn:
            schema.check(conn)

    # -- tables -----------------------------------------------------------------------
    def add_table(self, name: str) -> str:
        """Register a table; its token (shown once: only its hash is kept)."""
        name = name.strip()
        if not 1 <= len(name) <= 40 or not name.isprintable():
            raise StoreError("a table's name: 1 to 40 printable characters")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self.connect() as conn, conn.transaction():
            try:
                conn.execute("INSERT INTO tables (name, token_hash) VALUES (%s, %s)",
                             (name, token_hash(token)))
            except psycopg.errors.UniqueViolation:
                raise StoreError(f"a table named {name!r} is registered already") from None
        return token

    def revoke_table_id(self, table_id: int) -> str:
        """Revoke by the table's id (the staff view); its name."""
        with self.connect() as conn, conn.transaction():
            row = conn.execute("UPDATE tables SET revoked = now() WHERE id = %s AND revoked "
                               "IS NULL RETURNING name", (table_id,)).fetchone()
        if row is None:
            raise StoreError("no such table with a valid token")
        return str(row[0])

    def revoke_table(self, name: str) -> None:
        with self.connect() as conn, conn.transaction():
            cur = conn.execute("UPDATE tables SET revoked = now() WHERE name = %s "
                               "AND revoked IS NULL", (name,))
            if cur.rowcount == 0:
                raise StoreError(f"no table named {name!r} with a valid token")

    def table_for_token(self, token: str) -> TableRow | None:
        """The table a token belongs to, if any and not revoked."""
        with self.connect() as conn:
            row = conn.execute("SELECT id, name, revoked IS NOT NULL FROM tables "
                               "WHERE token_hash = %s", (token_hash(token),)).fetchone()
        if row is None or row[2]:
            return None
        return TableRow(row[0], row[1], row[2])

    def tables(self) -> list[dict[str, Any]]:
        """Every table with what it last said and its games' counts, for staff."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT t.id, t.name, t.revoked IS NOT NULL, t.last_seen, t.status, "
                "(SELECT count(*) FROM games g WHERE g.table_id = t.id), "
                "(SELECT count(*) FROM games g WHERE g.table_id = t.id AND g.status = 'over') "
                "FROM tables t ORDER BY t.name").fetchall()
        return [{"id": r[0], "name": r[1], "revoked": r[2], "last_seen": r[3],
                 "status": r[4], "games": r[5], "finished": r[6]} for r in rows]

    # -- publishing -------------------------------------------------------------------
    def progress(self, table: TableRow, log: str) -> dict[int, int]:
        """The last entry the hub has of each game of ``log`` (empty for a new log)."""
        with self.connect() as conn:
            owner = conn.execute("SELECT table_id FROM logs WHERE uid = %s",
                                 (log,)).fetchone()
            if owner is not None and owner[0] != table.id:
                raise Refused("this log is published by another table", 403)
            rows = conn.execute("SELECT game, last_seq FROM games WHERE log_uid = %s",
                                (log,)).fetchall()
        return {int(g): int(s) for g, s in rows}

    def store(self, table: TableRow, batch: Batch) -> Stored:
        """Store a batch (see the module's note); ``Refused`` when it is another table's
        log or an entry conflicts with one stored under its number."""
        new = 0
        have: dict[int, int] = {}
        with self.connect() as conn, conn.transaction():
            conn.execute("INSERT INTO logs (uid, table_id) VALUES (%s, %s) "
                         "ON CONFLICT (uid) DO NOTHING", (batch.log, table.id))
            owner = conn.execute("SELECT table_id FROM logs WHERE uid = %s",
                                 (batch.log,)).fetchone()
            if owner is None or owner[0] != table.id:
                raise Refused("this log is published by another table", 403)
            for g in batch.games:
                added, last = self._store_game(conn, table, batch.log, g)
                new += added
                have[g.game] = last
            # A board is sent when it changed: without one, the last stays.
            conn.execute("UPDATE tables SET last_seen = now(), status = CASE WHEN %s THEN %s "
                         "ELSE %s || jsonb_build_object('board', status->'board') END "
                         "WHERE id = %s", ("board" in batch.status, Jsonb(batch.status),
                                           Jsonb(batch.status), table.id))
            newest = max((e.time for g in batch.games for e in g.entries), default=None)
            conn.execute("SELECT pg_notify('hub', %s)",
                         (json.dumps({"table": table.id, "newest": newest}),))
        return Stored(new, have)

    def _store_game(self, conn: psycopg.Connection, table: TableRow, log: str,
                    g: GameIn) -> tuple[int, int]:
        conn.execute(
            "INSERT INTO games (log_uid, game, table_id, system, rules_version, created, "
            "setup, status, last_chain) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (log_uid, game) DO NOTHING",
            (log, g.game, table.id, g.system, g.rules_version, g.created, g.setup,
             g.status, integrity.root(g.setup)))
        row = conn.execute("SELECT setup, last_seq, last_chain FROM games WHERE "
                           "log_uid = %s AND game = %s FOR UPDATE", (log, g.game)).fetchone()
        assert row is not None
        setup, last, chain = row
        if setup != g.setup:
            raise Refused(f"game {g.game}: its setup differs from the one stored")
        # An entry the hub has must be the one it has: its content, linked to the stored
        # chain before it, must give the chain stored after it.
        stored_chains: dict[int, str] = {0: integrity.root(setup)}
        repeats = [e.seq for e in g.entries if e.seq <= last]
        if repeats:
            stored_chains.update(conn.execute(
                "SELECT seq, chain FROM entries WHERE log_uid = %s AND game = %s "
                "AND seq BETWEEN %s AND %s", (log, g.game, min(repeats) - 1, max(repeats)))
                .fetchall())
        added = 0
        for e in g.entries:
            if e.seq <= last:
                stored = stored_chains.get(e.seq)
                if stored != e.chain or stored != integrity.link(
                        stored_chains.get(e.seq - 1, ""), e.seq, e.time, e.kind, e.source,
                        e.body):
                    raise Refused(f"game {g.game}, entry {e.seq}: differs from the entry "
                                  "stored under that number")
                continue
            if e.seq != last + 1:
                break  # a gap: the table resends from ``have``
            expected = integrity.link(chain, e.seq, e.time, e.kind, e.source, e.body)
            if expected != e.chain:
                raise Refused(f"game {g.game}, entry {e.seq}: its chain does not follow "
                              "the entry before it (a changed or missing entry)")
            conn.execute("INSERT INTO entries (log_uid, game, seq, time, kind, source, "
                         "body, chain) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                         (log, g.game, e.seq, e.time, e.kind, e.source, e.body, e.chain))
            last, chain = e.seq, e.chain
            added += 1
        conn.execute("UPDATE games SET last_seq = %s, last_chain = %s, status = %s, "
                     "updated = now() WHERE log_uid = %s AND game = %s",
                     (last, chain, g.status, log, g.game))
        return added, last

    # -- reading ----------------------------------------------------------------------
    def games(self, table_id: int | None = None, status: str | None = None
              ) -> list[dict[str, Any]]:
        """Games stored, newest first, with their table and last entry."""
        where, args = [], []
        if table_id is not None:
            where.append("g.table_id = %s")
            args.append(table_id)
        if status is not None:
            where.append("g.status = %s")
            args.append(status)
        sql = ("SELECT t.name, g.log_uid, g.game, g.system, g.status, g.setup, g.last_seq, "
               "g.created, g.updated FROM games g JOIN tables t ON t.id = g.table_id"
               + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY g.updated DESC LIMIT 200")
        with self.connect() as conn:
            rows = conn.execute(sql, args).fetchall()  # type: ignore[arg-type]
        return [{"table": r[0], "log": r[1], "game": r[2], "system": r[3], "status": r[4],
                 "setup": _json(r[5]), "entries": r[6], "created": r[7], "updated": r[8]}
                for r in rows]

    def entries(self, log: str, game: int) -> list[dict[str, Any]]:
        with self.connect() as conn:
            rows = conn.execute("SELECT seq, time, kind, source, body FROM entries "
                                "WHERE log_uid = %s AND game = %s ORDER BY seq",
                                (log, game)).fetchall()
        return [{"seq": r[0], "time": r[1], "kind": r[2], "source": r[3],
                 "body": _json(r[4])} for r in rows]

    def results(self) -> list[Result]:
        """Every finished game with its result (the last ``result`` entry of its log:
        an undone ending is followed by the one that stands)."""
        with self.connect() as conn:
            rows = conn.execute(
                "SELECT t.name, g.log_uid, g.game, g.system, g.setup, r.body, r.received "
                "FROM games g JOIN tables t ON t.id = g.table_id "
                "JOIN LATERAL (SELECT body, received FROM entries e WHERE e.log_uid = "
                "g.log_uid AND e.game = g.game AND e.kind = 'result' ORDER BY e.seq DESC "
                "LIMIT 1) r ON true WHERE g.status = 'over'").fetchall()
        out = []
        for table, log, game, system, setup, body, received in rows:
            names = (_json(setup) or {}).get("names") or {}
            said = _json(body) or {}
            winner = said.get("winner")
            points = said.get("points") if isinstance(said.get("points"), dict) else {}
            out.append(Result(received, table, system, f"{log}/{game}",
                              _name(names, "p1"), _name(names, "p2"),
                              winner if winner in ("p1", "p2", "draw") else None,
                              {p: n for p, n in points.items() if p in ("p1", "p2")
                               and isinstance(n, int) and not isinstance(n, bool)}))
        return out

    def count_entries(self) -> int:
        with self.connect() as conn:
            row = conn.execute("SELECT count(*) FROM entries").fetchone()
        return int(row[0]) if row else 0

    # -- staff ------------------------------------------------------------------------
    def add_staff(self, username: str, password: str) -> None:
        if not 1 <= len(username) <= 40 or not username.isprintable():
            raise StoreError("a username: 1 to 40 printable characters")
        if len(password) < 10:
            raise StoreError("a staff password: at least 10 characters")
        with self.connect() as conn, conn.transaction():
            conn.execute("INSERT INTO staff (username, password_hash) VALUES (%s, %s) "
                         "ON CONFLICT (username) DO UPDATE SET "
                         "password_hash = excluded.password_hash",
                         (username, password_hash(password)))

    def staff_ok(self, username: str, password: str) -> bool:
        with self.connect() as conn:
            row = conn.execute("SELECT password_hash FROM staff WHERE username = %s",
                               (username,)).fetchone()
        if row is None:
            password_hash(password)  # the same time for a name that does not exist
            return False
        return password_ok(password, row[0])


def _name(names: Any, p: str) -> str:
    v = names.get(p) if isinstance(names, dict) else None
    return v[:60] if isinstance(v, str) else ""


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
