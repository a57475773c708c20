"""The game log: an SQLite file in WAL mode, written before anything is shown.

One database holds any number of games; each game is its setup plus an append-only list
of entries (accepted actions, undos, corrections, device events, observation commits,
desyncs, warnings). Replaying a game's ``action``/``undo``/``correction`` entries over its
setup gives its state, which is how a crash or a power cut is survived.

The file is ours only if it says so: ``PRAGMA application_id`` holds a magic number and
``PRAGMA user_version`` the schema version. Anything else (a text file, another
program's database, a newer schema) is refused with a message; a foreign file is never
turned silently into a new game.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x54534754  # "TSGT"
SCHEMA_VERSION = 2
REPLAYED_KINDS = ("action", "undo", "correction")


class StorageError(RuntimeError):
    """The database cannot be used; the message says which file and why."""


@dataclass(frozen=True)
class Entry:
    seq: int
    time: float
    kind: str
    source: str
    body: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "time": round(self.time, 3), "kind": self.kind,
                "source": self.source, **self.body}


@dataclass(frozen=True)
class GameRow:
    id: int
    created: float
    setup: dict[str, Any]
    status: str  # "playing" or "over"
    entries: int


def _v1(db: sqlite3.Connection) -> None:
    # One statement per execute: executescript would commit the migration's transaction.
    db.execute("""CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            created REAL NOT NULL,
            setup TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing')""")
    db.execute("""CREATE TABLE entries (
            game INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            time REAL NOT NULL,
            kind TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (game, seq))""")


def _v2(db: sqlite3.Connection) -> None:
    # Version 2 records where each entry came from (camera, box, dashboard, replay).
    db.execute("ALTER TABLE entries ADD COLUMN source TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE INDEX entries_kind ON entries(game, kind)")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1, 2: _v2}


class GameLog:
    """The database file. Thread-safe: one connection, one lock around it."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        if not self.path.exists() and not create:
            raise StorageError(f"{self.path}: no such game database")
        if self.path.exists() and self.path.is_dir():
            raise StorageError(f"{self.path} is a directory, not a game database")
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if not fresh:
            self._check_header()
        try:
            self.db = sqlite3.connect(str(self.path), check_same_thread=False,
                                      isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit survives a power cut, not only a crash of this process.
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as e:
            raise StorageError(f"{self.path} is not a usable tablesight game database: {e}") \
                from None

    def _check_header(self) -> None:
        with self.path.open("rb") as f:
            head = f.read(16)
        if head != b"SQLite format 3\x00":
            raise StorageError(f"{self.path} is not an SQLite database (refusing to "
                               "overwrite it; give another --db path)")

    def _migrate(self) -> None:
        db = self.db
        # Read through SQLite, not from the file: in WAL mode a new header may still
        # be in the -wal file.
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app != APPLICATION_ID:
            if tables:
                raise StorageError(f"{self.path} is an SQLite database of another program "
                                   f"(application id {app:#x}), not a tablesight game log")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StorageError(f"{self.path} was written by a newer tablesight (schema "
                               f"{version}; this one knows up to {SCHEMA_VERSION})")
        for v in range(version + 1, SCHEMA_VERSION + 1):
            db.execute("BEGIN IMMEDIATE")
            try:
                MIGRATIONS[v](db)
                db.execute(f"PRAGMA user_version={v}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"games", "entries"} <= tables:
            raise StorageError(f"{self.path}: tables are missing; the file is damaged")
        ok = db.execute("PRAGMA quick_check").fetchone()[0]
        if ok != "ok":
            raise StorageError(f"{self.path} is damaged: {ok}")

    @property
    def schema_version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # -- games -------------------------------------------------------------------------
    def new_game(self, setup: dict[str, Any]) -> int:
        with self._lock:
            cur = self.db.execute("INSERT INTO games(created, setup) VALUES (?, ?)",
                                  (time.time(), json.dumps(setup, sort_keys=True)))
            return int(cur.lastrowid or 0)

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self.db.execute(
                "SELECT g.id, g.created, g.setup, g.status, "
                "(SELECT COUNT(*) FROM entries e WHERE e.game = g.id) "
                "FROM games g ORDER BY g.id").fetchall()
        return [GameRow(r[0], r[1], _load(r[2], f"game {r[0]} setup"), r[3], r[4])
                for r in rows]

    def game(self, game_id: int) -> GameRow:
        for g in self.games():
            if g.id == game_id:
                return g
        raise StorageError(f"{self.path}: no game {game_id}")

    def latest_playing(self) -> GameRow | None:
        playing = [g for g in self.games() if g.status == "playing"]
        return playing[-1] if playing else None

    def set_status(self, game_id: int, status: str) -> None:
        with self._lock:
            self.db.execute("UPDATE games SET status=? WHERE id=?", (status, game_id))

    # -- entries -----------------------------------------------------------------------
    def append(self, game_id: int, kind: str, body: dict[str, Any], source: str = "",
               at: float | None = None) -> Entry:
        """Write one entry and commit it (durable when this returns)."""
        text = json.dumps(body, sort_keys=True)
        t = time.time() if at is None else at
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM entries "
                                      "WHERE game=?", (game_id,)).fetchone()[0]
                self.db.execute("INSERT INTO entries(game, seq, time, kind, body, source) "
                                "VALUES (?, ?, ?, ?, ?, ?)",
                                (game_id, seq, t, kind, text, source))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return Entry(int(seq), t, kind, source, body)

    def entries(self, game_id: int, kinds: tuple[str, ...] | None = None) -> Iterator[Entry]:
        with self._lock:
            rows = self.db.execute("SELECT seq, time, kind, source, body FROM entries "
                                   "WHERE game=? ORDER BY seq", (game_id,)).fetchall()
        for seq, t, kind, source, body in rows:
            if kinds is None or kind in kinds:
                yield Entry(seq, t, kind, source, _load(body, f"entry {seq}"))


def _load(text: str, what: str) -> dict[str, Any]:
    try:
        out = json.loads(text)
    except json.JSONDecodeError as e:
        raise StorageError(f"{what} is damaged: {e}") from None
    if not isinstance(out, dict):
        raise StorageError(f"{what} is damaged: not an object")
    return out
