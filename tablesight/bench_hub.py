"""``tablesight bench hub``: a store's day, sped up. A throw-away PostgreSQL, the hub's
server as its own process, and ``--tables`` table processes, each playing games of the
installed games back to back (random legal actions and fair dice, through a real
session writing a real SQLite log) and publishing them with the table's own publisher;
a staff browser's live stream stays open throughout.

It reports entries stored a second, the delay from a table writing an entry to the
staff stream hearing of it (p50, p99: from the entry's time to the stream's event; the
table publishes every half second, so that is most of it), and the memory of the hub
and of the tables at the start and at the end (flat is the goal)."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

WARMUP_S = 10.0  # memory "at the start" is read after this (imports, first games)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def bench_hub(tables: int = 20, seconds: float = 120.0, pace: float = 0.05) -> dict[str, Any]:
    from hub.store import HubStore

    from .pgcluster import Cluster

    folder = Path(tempfile.mkdtemp(prefix="tablesight-bench-hub-"))
    os.chmod(folder, 0o755)  # the server runs as postgres under root
    cluster = Cluster(folder / "pg", port=_port()).create().start()
    procs: list[subprocess.Popen[str]] = []
    try:
        dsn = cluster.create_database("hub")
        store = HubStore(dsn)
        store.setup()
        store.add_staff("bench", "bench password 1")
        port = _port()
        hub = subprocess.Popen([sys.executable, "-m", "tablesight", "hub", "serve", "--dsn",
                                dsn, "--port", str(port)], stdout=subprocess.PIPE, text=True)
        procs.append(hub)
        assert hub.stdout is not None
        if "store hub:" not in hub.stdout.readline():
            raise RuntimeError("the hub did not start")
        url = f"http://127.0.0.1:{port}"
        heard: list[float] = []
        stop = threading.Event()
        listener = threading.Thread(target=_staff_stream, args=(url, heard, stop),
                                    daemon=True)
        listener.start()
        for i in range(tables):
            token = store.add_table(f"Table {i + 1}")
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "tablesight.bench_hub", "--db",
                 str(folder / f"table{i}.db"), "--hub", url, "--seed", str(i),
                 "--pace", str(pace)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True))
            assert procs[-1].stdin is not None
            procs[-1].stdin.write(token + "\n")
            procs[-1].stdin.flush()
        time.sleep(min(WARMUP_S, seconds / 4))
        entries0, t0 = store.count_entries(), time.monotonic()
        mem0 = {"hub": _rss_mb(hub.pid),
                "tables": statistics.median(_rss_mb(p.pid) for p in procs[1:])}
        heard_from = len(heard)
        time.sleep(max(1.0, seconds - min(WARMUP_S, seconds / 4)))
        entries1, t1 = store.count_entries(), time.monotonic()
        mem1 = {"hub": _rss_mb(hub.pid),
                "tables": statistics.median(_rss_mb(p.pid) for p in procs[1:])}
        delays = sorted(heard[heard_from:])
        stop.set()
        games = len(store.results())
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
        cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "tables": tables,
        "seconds_measured": round(t1 - t0, 1),
        "entries_stored_per_second": round((entries1 - entries0) / (t1 - t0), 1),
        "games_finished": games,
        "staff_stream_events": len(delays),
        "entry_to_staff_view_ms_p50": round(_pct(delays, 50) * 1000, 1),
        "entry_to_staff_view_ms_p99": round(_pct(delays, 99) * 1000, 1),
        "memory_mb_start": {k: round(v, 1) for k, v in mem0.items()},
        "memory_mb_end": {k: round(v, 1) for k, v in mem1.items()},
        "machine_cores": os.cpu_count(),
    }


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))]


def _staff_stream(url: str, heard: list[float], stop: threading.Event) -> None:
    """Sign in as staff, as a browser does (the form and its CSRF token), and listen to
    the live stream: for each event, now minus the newest entry's time."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    page = opener.open(url + "/login", timeout=10).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    form = urllib.parse.urlencode({"username": "bench", "password": "bench password 1",
                                   "csrf_token": token.group(1)}).encode()
    opener.open(url + "/login", data=form, timeout=10).read()
    cookie = "; ".join(f"{c.name}={c.value}" for h in opener.handlers
                       if isinstance(h, urllib.request.HTTPCookieProcessor)
                       for c in h.cookiejar)
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", "/stream", headers={"Cookie": cookie})
    resp = conn.getresponse()
    while not stop.is_set():
        line = resp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            newest = json.loads(line[6:]).get("newest")
            if isinstance(newest, int | float):
                heard.append(time.time() - newest)


# -- one table of the bench (a process of its own) --------------------------------------------
def _table(db: Path, hub: str, token: str, seed: int, pace: float) -> None:
    from table import registry
    from table.playout import play_session
    from table.session import GameLog, Session, Setup

    from .publish import Publisher

    log = GameLog(db)
    rng = random.Random(seed)
    games = list(registry.systems())
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    session = Session.new(Setup.sample(games[seed % len(games)]), log)
    publisher = Publisher(db, log.log_id(), hub, token, status=lambda: {
        "game": session.system.title, "prompt": session.prompt().text[:300]}).start()
    while play_session(session, rng, pace=pace, stop=stop):
        session = Session.new(Setup.sample(rng.choice(games)), log)
    publisher.stop()
    log.close()


def _main() -> None:
    p = argparse.ArgumentParser(description="one table of tablesight bench hub")
    p.add_argument("--db", required=True)
    p.add_argument("--hub", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--pace", type=float, default=0.05)
    args = p.parse_args()
    _table(Path(args.db), args.hub, sys.stdin.readline().strip(), args.seed, args.pace)


if __name__ == "__main__":
    _main()
