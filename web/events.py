"""Live push: Server-Sent Events.

``SSEEvent`` is a value whose ``str`` is exactly the bytes on the wire. The ``Broker``
numbers every event, keeps the last ones for late or reconnecting browsers (resume with
``Last-Event-ID``), and gives each subscriber its own bounded queue so one slow screen
never holds the others back; a subscriber that falls too far behind is told to reload.
"""

from __future__ import annotations

import json
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

KEEP = 500  # events kept for Last-Event-ID replay
QUEUE = 1000  # per subscriber; beyond this it is dropped and told to reload
HEARTBEAT_S = 15.0
MAX_SUBSCRIBERS = 100  # each holds a server thread; a store's tables have a few screens


class BrokerFull(RuntimeError):
    """As many screens follow this table as it serves; the next one must wait."""


@dataclass(frozen=True)
class SSEEvent:
    event: str
    data: Any
    id: int | None = None
    retry_ms: int | None = None

    def __str__(self) -> str:
        lines = []
        if self.retry_ms is not None:
            lines.append(f"retry: {self.retry_ms}")
        if self.id is not None:
            lines.append(f"id: {self.id}")
        # Event names and ids cannot hold line breaks; data can, one "data:" per line.
        lines.append(f"event: {self.event.replace(chr(10), ' ').replace(chr(13), ' ')}")
        text = self.data if isinstance(self.data, str) else json.dumps(self.data,
                                                                        separators=(",", ":"))
        for line in text.splitlines() or [""]:
            lines.append(f"data: {line}")
        return "\n".join(lines) + "\n\n"

    def encode(self) -> bytes:
        return str(self).encode("utf-8")


HEARTBEAT = ": heartbeat\n\n"


class Closing(Iterator[Any]):
    """An iterator that runs ``cleanup`` once when closed, even if it was never read: a
    generator closed before its first step skips its own ``finally`` (a browser that
    hangs up at once would otherwise keep its place)."""

    def __init__(self, it: Iterator[Any], cleanup: Callable[[], None]) -> None:
        self._it = it
        self._cleanup: Callable[[], None] | None = cleanup

    def __next__(self) -> Any:
        return next(self._it)

    def close(self) -> None:
        close = getattr(self._it, "close", None)
        if close is not None:
            close()
        if self._cleanup is not None:
            cleanup, self._cleanup = self._cleanup, None
            cleanup()


class Subscriber:
    def __init__(self) -> None:
        self.q: queue.Queue[SSEEvent | None] = queue.Queue(QUEUE)
        self.dropped = False


class Broker:
    def __init__(self, keep: int = KEEP, max_subscribers: int = MAX_SUBSCRIBERS) -> None:
        self.max_subscribers = max_subscribers
        self._lock = threading.Lock()
        self._recent: deque[SSEEvent] = deque(maxlen=keep)
        self._subs: list[Subscriber] = []
        self._next = 1

    @property
    def last_id(self) -> int:
        return self._next - 1

    def publish(self, event: str, data: Any) -> SSEEvent:
        with self._lock:
            ev = SSEEvent(event, data, self._next)
            self._next += 1
            self._recent.append(ev)
            subs = list(self._subs)
        for s in subs:
            try:
                s.q.put_nowait(ev)
            except queue.Full:
                s.dropped = True
                self.unsubscribe(s)
        return ev

    def subscribe(self, last_id: int | None = None) -> tuple[Subscriber, list[SSEEvent]]:
        """A new subscriber and the events it missed since ``last_id`` (a reload is
        asked for when they are no longer all kept)."""
        sub = Subscriber()
        with self._lock:
            if len(self._subs) >= self.max_subscribers:
                raise BrokerFull(f"{len(self._subs)} screens already follow this table")
            self._subs.append(sub)
            missed: list[SSEEvent] = []
            if last_id is not None:
                missed = [e for e in self._recent if e.id is not None and e.id > last_id]
                oldest = self._recent[0].id if self._recent else self._next
                if last_id + 1 < (oldest or 0) or last_id >= self._next:
                    missed = [SSEEvent("reload", {"reason": "missed events"}, self.last_id)]
        return sub, missed

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)
        try:
            sub.q.put_nowait(None)
        except queue.Full:
            pass

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subs)

    def stream(self, last_id: int | None = None, heartbeat_s: float = HEARTBEAT_S,
               stop: threading.Event | None = None) -> Iterator[str]:
        """The text of one subscriber's stream, forever (until ``stop`` or a drop).
        Subscribes at once (``BrokerFull`` is raised here, not at the first read)."""
        sub, missed = self.subscribe(last_id)
        return Closing(self._follow(sub, missed, heartbeat_s, stop),
                       lambda: self.unsubscribe(sub))

    def _follow(self, sub: Subscriber, missed: list[SSEEvent], heartbeat_s: float,
                stop: threading.Event | None) -> Iterator[str]:
        try:
            yield str(SSEEvent("hello", {"last_id": self.last_id}, retry_ms=2000))
            for ev in missed:
                yield str(ev)
            while stop is None or not stop.is_set():
                try:
                    ev = sub.q.get(timeout=heartbeat_s)
                except queue.Empty:
                    yield HEARTBEAT
                    continue
                if ev is None:
                    if sub.dropped:
                        yield str(SSEEvent("reload", {"reason": "too slow"}))
                    return
                yield str(ev)
        finally:
            self.unsubscribe(sub)
