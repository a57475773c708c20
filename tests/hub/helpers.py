"""Batches from a real game log, read the way a table's publisher reads it (a second
reading of the same SQLite file, written here for the tests)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from table.session import GameLog

FORMAT = "tablesight-batch/1"


def game_log(path: Path, entries: int = 5, game: str = "warseer") -> GameLog:
    """A log with one game of ``entries`` entries (a note each)."""
    log = GameLog(path)
    gid = log.new_game({"system": game, "names": {"p1": "Ann", "p2": "Bob"}}, game, "test/1")
    for i in range(entries):
        log.append(gid, "note", {"text": f"step {i + 1}", "n": i}, "dashboard")
    return log


def batch_of(log: GameLog, since: dict[int, int] | None = None, most: int = 10_000,
             status: str | None = None) -> dict[str, Any]:
    since = since or {}
    db = sqlite3.connect(log.path)
    try:
        games = []
        for gid, created, setup, st, system, rv in db.execute(
                "SELECT id, created, setup, status, game, rules_version FROM games"):
            rows = db.execute("SELECT seq, time, kind, source, body, chain FROM entries "
                              "WHERE game=? AND seq>? ORDER BY seq LIMIT ?",
                              (gid, since.get(gid, 0), most)).fetchall()
            games.append({"game": gid, "system": system, "rules_version": rv,
                          "created": created, "setup": setup, "status": status or st,
                          "entries": [dict(zip(("seq", "time", "kind", "source", "body",
                                                "chain"), r, strict=True)) for r in rows]})
    finally:
        db.close()
    return {"format": FORMAT, "log": log.log_id(), "games": games}


def finished(path: Path, p1: str, p2: str, winner: str, points: dict[str, int],
             system: str = "warseer") -> GameLog:
    """A log with one finished game and its result, as a session writes them."""
    log = GameLog(path)
    gid = log.new_game({"format": "tablesight-setup/1", "system": system,
                        "names": {"p1": p1, "p2": p2}}, system, "test/1")
    log.append(gid, "action", {"action": "p1 end", "events": []}, "dashboard")
    log.append(gid, "result", {"winner": winner, "points": points}, "dashboard")
    log.set_status(gid, "over")
    return log
