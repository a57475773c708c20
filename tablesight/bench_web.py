"""``tablesight bench web``: the dashboard server under load on loopback.

* 50 (``--subscribers``) SSE clients in another process (as browsers would be) hold
  ``/api/events`` open; the session emits numbered events at a steady rate; each client
  notes when each one arrives. Latency: from the session emitting the event to its
  arrival at a subscriber (CLOCK_MONOTONIC is shared by both processes).
* Then plain API load: client threads in another process fetching ``/api/state`` (what
  every screen fetches after an event) and ``/api/health`` for a few seconds.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing as mp
import socket
import threading
import time
from typing import Any

from table.session import Session, Setup

MARK = "bench-"


def _subscriber(port: int, n_events: int, ready: Any, out: Any, deadline: float) -> None:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream"
                 b"\r\n\r\n")
    sock.settimeout(1.0)
    ready.release()
    arrivals: dict[int, float] = {}
    buf = b""
    while len(arrivals) < n_events and time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            break
        now = time.monotonic()
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            if line.startswith(b"data: ") and MARK.encode() in line:
                try:
                    msg = json.loads(line[6:])["message"]
                    arrivals[int(msg[len(MARK):])] = now
                except (ValueError, KeyError):
                    pass
    sock.close()
    out.put(arrivals)


def _subscribers_process(port: int, n: int, n_events: int, ready: Any, out: Any,
                         seconds: float) -> None:
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=_subscriber, args=(port, n_events, ready, out, deadline))
               for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _load_process(port: int, paths: list[str], threads: int, seconds: float, out: Any) -> None:
    counts: dict[str, int] = {p: 0 for p in paths}
    errors = [0]
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def worker(path: str) -> None:
        while time.monotonic() < end:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                c.request("GET", path)
                r = c.getresponse()
                r.read()
                c.close()
                with lock:
                    if r.status == 200:
                        counts[path] += 1
                    else:
                        errors[0] += 1
            except OSError:
                with lock:
                    errors[0] += 1

    ts = [threading.Thread(target=worker, args=(paths[i % len(paths)],)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out.put({"counts": counts, "errors": errors[0]})


def bench_web(subscribers: int = 50, events: int = 200, rate: float = 20.0,
              load_seconds: float = 5.0, load_threads: int = 8) -> dict[str, Any]:
    from web import TableServices, create_app

    from .server import Server

    session = Session.new(Setup.sample())
    services = TableServices(session)
    server = Server(create_app(services), "127.0.0.1", 0).start()
    ctx = mp.get_context("spawn")
    ready = ctx.Semaphore(0)
    out: Any = ctx.Queue()
    seconds = events / rate + 30
    proc = ctx.Process(target=_subscribers_process,
                       args=(server.port, subscribers, events, ready, out, seconds))
    proc.start()
    for _ in range(subscribers):
        ready.acquire(timeout=30)
    end = time.monotonic() + 10
    while services.broker.subscribers < subscribers and time.monotonic() < end:
        time.sleep(0.05)
    sent: dict[int, float] = {}
    for i in range(events):
        sent[i] = time.monotonic()
        session.report_health("bench", i % 2 == 0, f"{MARK}{i}")  # a real session event
        time.sleep(1.0 / rate)
    results = [out.get(timeout=seconds) for _ in range(subscribers)]
    proc.join(timeout=10)
    lat = sorted((t - sent[i]) * 1000 for arr in results for i, t in arr.items())
    delivered = len(lat)

    def pct(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p / 100 * (len(lat) - 1)))], 2) if lat else None

    load_out: Any = ctx.Queue()
    paths = ["/api/state", "/api/health"]
    lp = ctx.Process(target=_load_process,
                     args=(server.port, paths, load_threads, load_seconds, load_out))
    lp.start()
    load = load_out.get(timeout=load_seconds + 60)
    lp.join(timeout=10)
    server.stop()
    return {
        "benchmark": "web",
        "subscribers": subscribers, "events": events, "rate_per_s": rate,
        "delivered": delivered, "expected": subscribers * events,
        "event_to_subscriber_ms": {"p50": pct(50), "p90": pct(90), "p99": pct(99),
                                   "max": round(lat[-1], 2) if lat else None},
        "requests_per_s": {p: round(n / load_seconds, 1) for p, n in load["counts"].items()},
        "request_errors": load["errors"], "load_threads": load_threads,
    }
