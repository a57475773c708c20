"""A table publishing its game log to the store's hub (``docs/hub.md``).

The table's SQLite log stays the truth: the publisher reads it with a connection of its
own (WAL lets it read while the game writes), in a thread of its own, and the game never
waits for it. It asks the hub where it stands with this log (``/api/v1/progress``),
sends what the hub lacks in batches, in order, and moves on by what the hub says it has.
Anything going wrong (the hub down, the network gone, a reply lost) only means asking
again later: the hub stores each entry once however often it is sent, so the table is
free to send again. After a restart of either side it resumes from the hub's answer.

What it last managed is kept in ``state`` (for the table's terminal and dashboard)."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "tablesight-batch/1"
BATCH_ENTRIES = 500  # entries a batch carries at most (the hub takes up to 2000)
IDLE_S = 0.5  # how often a table with nothing new looks at its log
STATUS_EVERY_S = 5.0  # how often it tells the hub what it shows, with nothing new
RETRY_S = (1.0, 2.0, 5.0, 10.0, 20.0)  # waits after failures in a row
TIMEOUT_S = 10.0


@dataclass
class PublishState:
    connected: bool = False
    behind: int = 0  # entries in the log the hub has not confirmed
    sent: int = 0  # entries the hub took as new since this table started
    error: str = ""  # the last failure, in words ("" when the last call worked)
    since: float = field(default_factory=time.time)


class Publisher:
    """Publishes ``db`` (a table's game log) to ``url`` with ``token``. ``status``: what
    the table shows now (the game, the prompt, health), for the staff view."""

    def __init__(self, db: str | Path, log_id: str, url: str, token: str,
                 status: Callable[[], dict[str, Any]] | None = None) -> None:
        self.db = Path(db)
        self.log_id = log_id
        self.url = url.rstrip("/")
        self.token = token
        self.status = status
        self.state = PublishState()
        self._have: dict[int, int] | None = None
        self._sent_status: dict[int, str] = {}
        self._last_sent = 0.0
        self._db: sqlite3.Connection | None = None
        self._idle_at: int | None = None  # the log's data_version when the hub had it all
        self._board_sent: str | None = None  # the board the hub last took, as JSON
        self._board_pending: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- running ----------------------------------------------------------------------
    def start(self) -> Publisher:
        self._thread = threading.Thread(target=self._run, name="publish", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0, drain_s: float = 0.0) -> None:
        """Stop publishing; with ``drain_s``, first wait up to that long for the hub to
        have the whole log (a table shutting down after its game)."""
        end = time.monotonic() + drain_s
        while drain_s and time.monotonic() < end and self._thread is not None \
                and self._thread.is_alive() and not self.up_to_date():
            time.sleep(0.1)
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close_reader()

    def up_to_date(self) -> bool:
        """The hub has every entry and every game's status as the log has them now."""
        have = self._have
        if have is None or not self.state.connected:
            return False
        try:
            db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5.0)
            try:
                games, behind = self._unsent(db, dict(have))
            finally:
                db.close()
        except sqlite3.Error:
            return False
        return not games and behind == 0

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                sent_something = self.step()
                failures = 0
                if not sent_something:
                    self._stop.wait(IDLE_S)
            except PublishError as e:
                self._have = None  # ask the hub where it stands before sending again
                self._board_sent = None  # and send the board again
                self.state.connected, self.state.error = False, str(e)
                self._stop.wait(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1

    def step(self) -> bool:
        """One round: True when something was sent. ``PublishError`` on failure."""
        if self._have is None:
            reply = self._call("GET", f"/api/v1/progress?log={self.log_id}")
            self._have = {int(g): int(n) for g, n in reply.get("have", {}).items()}
            self._sent_status.clear()
            self._idle_at = None
        db = self._reader()
        try:
            # SQLite counts the commits other connections made: with none since the hub
            # last had everything, there is nothing to look for.
            version = db.execute("PRAGMA data_version").fetchone()[0]
            if version == self._idle_at:
                games, behind = [], 0
            else:
                games, behind = self._unsent(db, self._have)
                if not games:
                    self._idle_at = version
        except sqlite3.Error as e:
            self._close_reader()
            raise PublishError(f"cannot read the game log: {e}") from None
        self.state.behind = behind
        now = time.time()
        if not games and now - self._last_sent < STATUS_EVERY_S:
            return False
        batch = {"format": FORMAT, "log": self.log_id, "games": games,
                 "status": self._status()}
        reply = self._call("POST", "/api/v1/batches", batch)
        if "board" in batch["status"]:
            self._board_sent = self._board_pending
        for g, n in reply.get("have", {}).items():
            self._have[int(g)] = int(n)
        for g in games:
            self._sent_status[g["game"]] = g["status"]
        self._last_sent = now
        self.state.sent += int(reply.get("stored", 0))
        self.state.connected, self.state.error = True, ""
        self.state.behind = max(0, behind - sum(len(g["entries"]) for g in games))
        return bool(games)

    # -- the log ------------------------------------------------------------------------
    def _reader(self) -> sqlite3.Connection:
        """The publishing thread's own read-only connection to the log."""
        if self._db is None:
            try:
                self._db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5.0,
                                           check_same_thread=False)
            except sqlite3.Error as e:
                raise PublishError(f"cannot read the game log: {e}") from None
        return self._db

    def _close_reader(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _unsent(self, db: sqlite3.Connection, have: dict[int, int]
                ) -> tuple[list[dict[str, Any]], int]:
        """The games with entries the hub lacks (or a status it has not been told), up to
        ``BATCH_ENTRIES`` entries, and how many entries the hub lacks in all."""
        db.execute("BEGIN")  # one read transaction: games and entries as of one moment
        try:
            games = db.execute("SELECT id, created, setup, status, game, rules_version "
                               "FROM games ORDER BY id").fetchall()
            out: list[dict[str, Any]] = []
            room = BATCH_ENTRIES
            behind = 0
            for gid, created, setup, status, system, rules_version in games:
                last = db.execute("SELECT MAX(seq) FROM entries WHERE game=?",
                                  (gid,)).fetchone()[0]
                lacking = int(last or 0) - have.get(gid, 0)
                behind += max(0, lacking)
                if lacking <= 0 and self._sent_status.get(gid) == status \
                        and gid in have:
                    continue
                if room <= 0:
                    continue
                rows = db.execute("SELECT seq, time, kind, source, body, chain FROM entries "
                                  "WHERE game=? AND seq>? ORDER BY seq LIMIT ?",
                                  (gid, have.get(gid, 0), room)).fetchall()
                room -= len(rows)
                out.append({"game": gid, "system": system or "",
                            "rules_version": rules_version or "", "created": created,
                            "setup": setup, "status": status,
                            "entries": [{"seq": s, "time": t, "kind": k, "source": src,
                                         "body": b, "chain": c}
                                        for s, t, k, src, b, c in rows]})
                if len(out) >= 20:
                    break
        finally:
            db.execute("COMMIT")
        return out, behind

    def _status(self) -> dict[str, Any]:
        """What the table shows now; its board only when it changed since the hub last
        took it (a board is some 20 KB, the rest a few hundred bytes)."""
        if self.status is None:
            return {}
        try:
            status = dict(self.status())
        except Exception as e:  # the table's own trouble must not stop publishing
            return {"prompt": f"(the table could not say what it shows: {type(e).__name__})"}
        if "board" in status:
            drawn = json.dumps(status["board"], sort_keys=True)
            if drawn == self._board_sent:
                del status["board"]
            else:
                self._board_pending = drawn
        return status

    # -- the hub ------------------------------------------------------------------------
    def _call(self, method: str, path: str, body: dict[str, Any] | None = None
              ) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:
                reply = json.loads(resp.read(1024 * 1024) or b"{}")
        except urllib.error.HTTPError as e:
            try:
                said = json.loads(e.read(4096)).get("error", "")
            except (ValueError, AttributeError, OSError):
                said = ""
            raise PublishError(f"the hub refused ({e.code}): {said or e.reason}") from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", e)
            raise PublishError(f"the hub at {self.url} cannot be reached: {reason}") from None
        if not isinstance(reply, dict):
            raise PublishError("the hub's reply is not what a hub says")
        return reply


class PublishError(RuntimeError):
    """A round that did not reach the hub or was refused; says which."""


def table_status(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What a table shows now, for the hub, from a session's snapshot."""
    game = snapshot.get("game") or {}
    setup = snapshot.get("setup") or {}
    names = setup.get("names") or {}
    out: dict[str, Any] = {
        "game": str(game.get("title") or game.get("name") or "")[:300],
        "prompt": str((snapshot.get("prompt") or {}).get("text") or "")[:300],
        "players": [str(v)[:60] for _, v in sorted(names.items())][:8],
        "health": {str(k)[:20]: {"ok": bool(v.get("ok")), "message": str(v.get("message")
                                                                         or "")[:300]}
                   for k, v in list((snapshot.get("health") or {}).items())[:8]},
    }
    if isinstance(snapshot.get("board"), dict):
        out["board"] = snapshot["board"]
    colors = setup.get("colors")
    if isinstance(colors, dict):
        out["colors"] = {p: c for p, c in colors.items() if p in ("p1", "p2")}
    desync = snapshot.get("desync")
    if desync:
        out["desync"] = (" ".join(desync) if isinstance(desync, list) else str(desync))[:300]
    return out
