"""The game log: an SQLite file in WAL mode, written before anything is shown.

One database holds any number of games; each game is its setup plus an append-only list
of entries (accepted actions, undos, corrections, device events, observation commits,
desyncs, warnings). Replaying a game's ``action``/``undo``/``correction`` entries over its
setup gives its state, which is how a crash or a power cut is survived.

The file is ours only if it says so: ``PRAGMA application_id`` holds a magic number and
``PRAGMA user_version`` the schema version. Anything else (a text file, an empty file,
another program's database, a newer schema) is refused with a message; a foreign file
is never turned silently into a new game.

No game lost on disk: every entry carries a hash chain and the head file records where
each game ends (``integrity.py``), so a log that lost or damaged entries says so and
refuses to resume a shorter game (``GameLog.check``). Each commit is followed by a
checkpoint, so the main file holds the whole game even without its ``-wal``, and
``GameLog.backup`` copies a live log safely (SQLite's backup API).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table import registry

from . import integrity

APPLICATION_ID = 0x54534754  # "TSGT"
SCHEMA_VERSION = 4
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
    game: str = ""  # the game system's name ("" in a log from before schema 4)
    rules_version: str = ""  # its rules version when the game was started ("": unknown)


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


def _v3(db: sqlite3.Connection) -> None:
    # Version 3: the hash chain of every entry, and which game is on the table.
    db.execute("ALTER TABLE entries ADD COLUMN chain TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    for game, setup in db.execute("SELECT id, setup FROM games").fetchall():
        rows = db.execute("SELECT seq, time, kind, source, body FROM entries WHERE game=? "
                          "ORDER BY seq", (game,)).fetchall()
        for row, chain in zip(rows, integrity.chains(setup, rows), strict=True):
            db.execute("UPDATE entries SET chain=? WHERE game=? AND seq=?",
                       (chain, game, row[0]))
    playing = db.execute("SELECT MAX(id) FROM games WHERE status='playing'").fetchone()[0]
    if playing is not None:  # what version 2 resumed: keep doing so after the upgrade
        db.execute("INSERT INTO meta VALUES ('on_table', ?)", (str(playing),))


def _v4(db: sqlite3.Connection) -> None:
    # Version 4: which game system each game is, and the rules version it started under,
    # so a game record says what it is a record of. Older games name their system in the
    # setup (or are of the one system there was); their rules version is unknown.
    db.execute("ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE games ADD COLUMN rules_version TEXT NOT NULL DEFAULT ''")
    for game, setup in db.execute("SELECT id, setup FROM games").fetchall():
        try:
            system = json.loads(setup).get("system")
        except (ValueError, AttributeError):
            system = None  # a damaged setup: left for the check that reads it to report
        db.execute("UPDATE games SET game=? WHERE id=?",
                   (system if isinstance(system, str) else registry.default(), game))


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1, 2: _v2, 3: _v3,
                                                                4: _v4}


class GameLog:
    """The database file. Thread-safe: one connection, one lock around it."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        if not self.path.exists() and not create:
            raise StorageError(f"{self.path}: no such game database")
        if self.path.exists() and self.path.is_dir():
            raise StorageError(f"{self.path} is a directory, not a game database")
        wal = self.path.with_name(self.path.name + "-wal")
        if not self.path.exists() and wal.exists():
            raise StorageError(f"{wal.name} is there without {self.path.name}: the game log "
                               "was moved or deleted without its -wal file; put it back, "
                               f"or move {wal.name} away to start a new log")
        if self.path.exists() and self.path.stat().st_size == 0:
            raise StorageError(f"{self.path} is empty (0 bytes): a damaged or unfinished copy? "
                               "Restore the game log from a backup, or delete the file to "
                               "start a new log")
        if self.path.exists():
            self._check_header()
        self._heads = integrity.read_heads(self.path)
        try:
            self.db = sqlite3.connect(str(self.path), check_same_thread=False,
                                      isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit survives a power cut, not only a crash of this process.
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
            self._checkpoint()  # whatever an earlier run left in the -wal goes home now
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

    @contextlib.contextmanager
    def _use(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock; SQLite's errors become ``StorageError``
        (a file damaged after it was opened fails here, with its name)."""
        with self._lock:
            try:
                yield self.db
            except sqlite3.DatabaseError as e:
                raise StorageError(f"{self.path} is damaged or unreadable: {e}") from None

    def _checkpoint(self) -> None:
        # PASSIVE: copies what it can without waiting for readers. The main file then
        # holds every committed entry, so a copy without the -wal loses nothing.
        self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    @property
    def schema_version(self) -> int:
        with self._use() as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            with contextlib.suppress(sqlite3.DatabaseError):
                self._checkpoint()
            self.db.close()

    # -- games -------------------------------------------------------------------------
    def new_game(self, setup: dict[str, Any], game: str = "", rules_version: str = "") -> int:
        text = json.dumps(setup, sort_keys=True)
        with self._use() as db:
            cur = db.execute("INSERT INTO games(created, setup, game, rules_version) "
                             "VALUES (?, ?, ?, ?)", (time.time(), text, game, rules_version))
            game = int(cur.lastrowid or 0)
            self._checkpoint()
            self._heads[game] = (0, integrity.root(text))
            integrity.write_heads(self.path, self._heads)
            return game

    def games(self) -> list[GameRow]:
        with self._use() as db:
            rows = db.execute(
                "SELECT g.id, g.created, g.setup, g.status, "
                "(SELECT COUNT(*) FROM entries e WHERE e.game = g.id), g.game, "
                "g.rules_version FROM games g ORDER BY g.id").fetchall()
        return [GameRow(r[0], r[1], _load(r[2], f"game {r[0]} setup"), r[3], r[4], r[5], r[6])
                for r in rows]

    def game(self, game_id: int) -> GameRow:
        for g in self.games():
            if g.id == game_id:
                return g
        raise StorageError(f"{self.path}: no game {game_id}")

    def latest_playing(self) -> GameRow | None:
        playing = [g for g in self.games() if g.status == "playing"]
        return playing[-1] if playing else None

    def on_table(self) -> GameRow | None:
        """The game a restart resumes: the one last put on the table (started or resumed
        there, whatever was created after it) while it is unfinished; None when it is
        over. A log from before the table was recorded: its newest unfinished game."""
        with self._use() as db:
            row = db.execute("SELECT value FROM meta WHERE key='on_table'").fetchone()
        if row is None:
            return self.latest_playing()
        game = next((g for g in self.games() if str(g.id) == row[0]), None)
        return game if game is not None and game.status == "playing" else None

    def log_id(self) -> str:
        """This log file's own id (32 hex digits), made at first use and kept in it: how
        a store's hub tells one table's log from another's, and from a new file."""
        with self._use() as db:
            row = db.execute("SELECT value FROM meta WHERE key='log_id'").fetchone()
            if row is not None:
                return str(row[0])
            made = uuid.uuid4().hex
            db.execute("INSERT INTO meta VALUES ('log_id', ?) ON CONFLICT(key) DO NOTHING",
                       (made,))
            self._checkpoint()
            return str(db.execute("SELECT value FROM meta WHERE key='log_id'").fetchone()[0])

    def put_on_table(self, game_id: int) -> None:
        with self._use() as db:
            db.execute("INSERT INTO meta VALUES ('on_table', ?) ON CONFLICT(key) "
                       "DO UPDATE SET value=excluded.value", (str(game_id),))
            self._checkpoint()

    def set_status(self, game_id: int, status: str) -> None:
        with self._use() as db:
            db.execute("UPDATE games SET status=? WHERE id=?", (status, game_id))
            self._checkpoint()

    # -- entries -----------------------------------------------------------------------
    def append(self, game_id: int, kind: str, body: dict[str, Any], source: str = "",
               at: float | None = None) -> Entry:
        """Write one entry and commit it (durable when this returns)."""
        text = json.dumps(body, sort_keys=True)
        t = float(time.time() if at is None else at)
        with self._use() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                seq, prev = self._last(db, game_id)
                seq += 1
                chain = integrity.link(prev, seq, t, kind, source, text)
                db.execute("INSERT INTO entries(game, seq, time, kind, body, source, chain) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (game_id, seq, t, kind, text, source, chain))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            self._checkpoint()
            self._heads[game_id] = (seq, chain)
            integrity.write_heads(self.path, self._heads)
        return Entry(int(seq), t, kind, source, body)

    def _last(self, db: sqlite3.Connection, game_id: int) -> tuple[int, str]:
        row = db.execute("SELECT seq, chain FROM entries WHERE game=? ORDER BY seq DESC "
                         "LIMIT 1", (game_id,)).fetchone()
        if row is not None:
            return int(row[0]), str(row[1])
        setup = db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
        if setup is None:
            raise StorageError(f"{self.path}: no game {game_id}")
        return 0, integrity.root(setup[0])

    def entries(self, game_id: int, kinds: tuple[str, ...] | None = None) -> Iterator[Entry]:
        with self._use() as db:
            rows = db.execute("SELECT seq, time, kind, source, body FROM entries "
                              "WHERE game=? ORDER BY seq", (game_id,)).fetchall()
        for seq, t, kind, source, body in rows:
            if kinds is None or kind in kinds:
                yield Entry(seq, t, kind, source, _load(body, f"entry {seq}"))

    # -- integrity -----------------------------------------------------------------------
    def check(self, game_id: int) -> int:
        """Verify one game's entries (the chain, and the head file's last entry); the
        number of entries, or ``StorageError`` saying what was lost or damaged."""
        with self._use() as db:
            setup = db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
            if setup is None:
                raise StorageError(f"{self.path}: no game {game_id}")
            rows = db.execute("SELECT seq, time, kind, source, body, chain FROM entries "
                              "WHERE game=? ORDER BY seq", (game_id,)).fetchall()
        chains = {0: integrity.root(setup[0])}
        for n, (row, chain) in enumerate(zip(rows, integrity.chains(setup[0], rows),
                                             strict=True), start=1):
            seq, kind, stored = row[0], row[2], row[5]
            if seq != n:
                raise StorageError(f"{self.path}: game {game_id} lost entry {n} (the log "
                                   f"jumps to {seq}); {_RESTORE}")
            if chain != stored:
                raise StorageError(f"{self.path}: game {game_id}'s entry {seq} ({kind}) is "
                                   f"damaged; {_RESTORE}")
            chains[seq] = chain
        head = self._heads.get(game_id)
        if head is not None:
            seq, want = head
            if seq > len(rows):
                head_file = integrity.head_path(self.path).name
                raise StorageError(
                    f"{self.path}: game {game_id} lost its last {seq - len(rows)} of {seq} "
                    f"entries (its -wal file was lost or damaged?); {_RESTORE}; to resume "
                    f"the shorter game anyway, move {head_file} away")
            if chains[seq] != want:
                raise StorageError(f"{self.path}: game {game_id} does not match the head "
                                   f"file {integrity.head_path(self.path).name}; {_RESTORE}")
        return len(rows)

    def backup(self, dest: str | Path) -> Path:
        """A consistent copy of the live log (SQLite's backup API: safe while games are
        being written), with its head file, checked after copying."""
        dest = Path(dest)
        if dest.exists():
            raise StorageError(f"{dest} exists already; give a new file name")
        with self._use() as db:
            out = sqlite3.connect(str(dest))
            try:
                db.backup(out)
                # A backup is one file: no -wal for a careless copy to leave behind.
                out.execute("PRAGMA journal_mode=DELETE")
            finally:
                out.close()
            heads = dict(self._heads)
        integrity.write_heads(dest, heads)
        copy = GameLog(dest, create=False)
        try:
            for g in copy.games():
                copy.check(g.id)
        finally:
            copy.close()
        return dest


_RESTORE = ("restore the game log from a backup (tablesight backup makes one), or start a "
            "new game (--new)")


def _load(text: str, what: str) -> dict[str, Any]:
    try:
        out = json.loads(text)
    except json.JSONDecodeError as e:
        raise StorageError(f"{what} is damaged: {e}") from None
    if not isinstance(out, dict):
        raise StorageError(f"{what} is damaged: not an object")
    return out
