"""Real tables publishing to a real hub: ``tablesight demo`` processes of every installed
game and ``tablesight hub serve`` on loopback, the hub down when the tables start, killed
and restarted mid-stream, PostgreSQL restarted; afterwards the hub holds every entry of
every table's log exactly once, as the log holds it."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hub.store import HubStore
from table import registry

pytestmark = pytest.mark.slow


def _report(name: str, figures: dict) -> None:
    """What a run stored, for whoever reads the test's artifacts."""
    import json

    from tests.web.test_browser import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"hub-{name}.json").write_text(json.dumps(figures, indent=1))


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tablesight(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tablesight", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "tablesight", *args], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


class Hub:
    def __init__(self, dsn: str, port: int) -> None:
        self.dsn, self.port, self.proc = dsn, port, None

    def start(self) -> None:
        self.proc = _tablesight("hub", "serve", "--dsn", self.dsn, "--port", str(self.port))
        line = self.proc.stdout.readline()
        assert "store hub:" in line, line + self.proc.stdout.read()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(10)


def _log_entries(db: Path) -> dict[int, list[tuple]]:
    conn = sqlite3.connect(db)
    try:
        out: dict[int, list[tuple]] = {}
        for g, seq, t, kind, source, body in conn.execute(
                "SELECT game, seq, time, kind, source, body FROM entries ORDER BY game, seq"):
            out.setdefault(g, []).append((seq, t, kind, source, body))
        row = conn.execute("SELECT value FROM meta WHERE key='log_id'").fetchone()
    finally:
        conn.close()
    return (row[0] if row else None), out


def test_tables_of_every_game_publish_through_hub_and_database_restarts(cluster, dsn,
                                                                        tmp_path):
    _run("hub", "setup", "--dsn", dsn)
    games = [*registry.systems(), registry.default()]  # every game, and one twice
    tokens = []
    for i, _ in enumerate(games):
        token_file = tmp_path / f"table{i}.token"
        token_file.write_text(_run("hub", "table", "add", f"Table {i + 1}", "--dsn", dsn))
        tokens.append(token_file)
    port = _port()
    hub = Hub(dsn, port)
    tables = [_tablesight("demo", "--game", g, "--fast", "--no-web", "--quiet", "--fps", "5",
                          "--seed", str(i), "--db", str(tmp_path / f"table{i}.db"),
                          "--hub", f"http://127.0.0.1:{port}", "--hub-token-file",
                          str(tokens[i]))
              for i, g in enumerate(games)]
    try:
        time.sleep(8)  # the tables play with no hub at all
        hub.start()
        time.sleep(8)
        hub.kill()  # mid-stream, with no goodbye
        time.sleep(2)
        hub.start()
        time.sleep(6)
        cluster.restart()  # the database goes away under the hub
        time.sleep(8)
    finally:
        for t in tables:
            t.send_signal(signal.SIGTERM)  # each sends what the hub lacks, then ends
        outputs = [t.communicate(timeout=60)[0] for t in tables]
        hub.stop()
    for t, out in zip(tables, outputs, strict=True):
        assert t.returncode in (0, 1), out[-2000:]  # 1: the game was stopped unfinished
    store = HubStore(dsn)
    total = 0
    for i, _ in enumerate(games):
        log_id, by_game = _log_entries(tmp_path / f"table{i}.db")
        assert by_game, f"table {i} played nothing"
        for g, rows in by_game.items():
            stored = [(e["seq"], e["time"], e["kind"], e["source"]) for e in
                      store.entries(log_id, g)]
            assert stored == [r[:4] for r in rows], f"table {i}, game {g}"
            total += len(rows)
    assert store.count_entries() == total  # each once
    statuses = {t["name"]: t["status"] for t in store.tables()}
    assert all(s.get("game") for s in statuses.values()), statuses
    _report("tables_through_restarts", {"tables": games, "entries_in_logs": total,
                                        "entries_stored": store.count_entries()})


def _whole_game(db: Path, game: str, seed: int) -> int:
    """A real session plays a whole game into the log at ``db`` (random legal actions,
    dice by the game's chance); the number of entries written."""
    import random

    from table.playout import play_session
    from table.session import GameLog, Session, Setup

    log = GameLog(db)
    play_session(Session.new(Setup.sample(game), log), random.Random(seed))
    log.close()
    return sum(len(rows) for rows in _log_entries(db)[1].values())


def test_a_table_offline_for_a_whole_game_catches_up(dsn, tmp_path):
    from table.session import GameLog
    from tablesight.publish import Publisher

    HubStore(dsn).setup()
    token = HubStore(dsn).add_table("Table 1")
    db = tmp_path / "table.db"
    written = _whole_game(db, registry.default(), seed=5)
    log = GameLog(db)
    port = _port()
    publisher = Publisher(db, log.log_id(), f"http://127.0.0.1:{port}", token).start()
    time.sleep(1.5)
    assert not publisher.state.connected and "cannot be reached" in publisher.state.error
    hub = Hub(dsn, port)
    hub.start()
    try:
        deadline = time.monotonic() + 60
        while not publisher.up_to_date() and time.monotonic() < deadline:
            time.sleep(0.2)
        publisher.stop()
    finally:
        hub.stop()
    store = HubStore(dsn)
    assert store.count_entries() == written
    [finished] = store.games(status="over")
    assert finished["entries"] == written and finished["table"] == "Table 1"
    assert publisher.state.sent == written and publisher.state.error == ""
    _report("offline_whole_game", {"entries_in_log": written,
                                   "entries_stored": store.count_entries()})


def test_a_table_whose_clock_is_wrong_is_stored_as_it_says_and_seen_by_the_hubs(
        store, tmp_path):
    from hub.batch import parse_batch
    from table.session import GameLog

    from .helpers import batch_of

    log = GameLog(tmp_path / "t.db")
    gid = log.new_game({"names": {"p1": "Ann", "p2": "Bob"}}, "warseer", "test/1")
    for at in (1000.0, 4.1e9, 2000.0):  # 1970, 2099, 1970 again: out of order
        log.append(gid, "note", {"text": f"at {at}"}, "dashboard", at=at)
    table = store.table_for_token(store.add_table("Table 1"))
    assert store.store(table, parse_batch(batch_of(log))).new == 3
    assert [e["time"] for e in store.entries(log.log_id(), gid)] == [1000.0, 4.1e9, 2000.0]
    [t] = store.tables()
    assert abs(t["last_seen"].timestamp() - time.time()) < 60  # the hub's clock, not its


@pytest.mark.parametrize("args, said", [
    (["--hub", "ftp://hub"], "--hub: the hub's address"),
    (["--hub", "http://127.0.0.1:9", "--hub-token-file", "/nonexistent/token"],
     "--hub-token-file: No such file"),
    (["--hub", "http://127.0.0.1:9"], "--hub needs this table's token"),
])
def test_a_table_refuses_a_bad_hub_before_it_starts(args, said, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TABLESIGHT_HUB_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "tablesight", "demo", "--no-web", "--fast",
                           "--exit-at-end", "--db", str(tmp_path / "t.db"), *args],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2 and said in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t.db").exists()  # refused before any game was made
