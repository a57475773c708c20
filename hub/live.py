"""The staff view's live updates: one thread LISTENs to the hub's NOTIFY channel and
hands each notification to every open page's queue (one queue per subscriber, so a slow
browser never holds up another). A lost database connection is retried; pages only miss
updates meanwhile, and reload what they show on the next one."""

from __future__ import annotations

import queue
import threading
import time

import psycopg

MAX_QUEUED = 100  # a page this far behind gets the latest only


class Notifications:
    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._subscribers: set[queue.Queue[str]] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Notifications:
        self._thread = threading.Thread(target=self._listen, name="hub-listen", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def subscribe(self) -> queue.Queue[str]:
        q: queue.Queue[str] = queue.Queue(MAX_QUEUED)
        with self._lock:
            self._subscribers.add(q)
        return q

    def unsubscribe(self, q: queue.Queue[str]) -> None:
        with self._lock:
            self._subscribers.discard(q)

    def publish(self, payload: str) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for q in subscribers:
            try:
                q.put_nowait(payload)
            except queue.Full:
                continue  # that page reloads everything on the next one anyway

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True, connect_timeout=5) as conn:
                    conn.execute("LISTEN hub")
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=1.0):
                            self.publish(n.payload)
            except psycopg.Error:
                time.sleep(1.0)
