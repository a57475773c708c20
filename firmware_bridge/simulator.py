"""A table box simulated in Python, speaking protocol v1 on a pty: the embedded default
when no box is attached (``tablesight demo``), and a second, independent implementation
of the protocol that the bridge's tests run against (the real firmware in simavr is the
other).

    sim = BoxSimulator().start()
    box = TableBox(sim.port).start(wait=2)
    sim.press("p1", "ready")
"""

from __future__ import annotations

import os
import secrets
import select
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass

from . import protocol as P

ATTACK_SYMBOLS = ("1", "2", "3", "M", "M", "B")


@dataclass
class _Event:
    seq: int
    body: str


class BoxSimulator:
    def __init__(self, queue_size: int = 32, heartbeat_s: float = 0.5,
                 retransmit_s: float = 0.06) -> None:
        self.queue_size = queue_size
        self.heartbeat_s = heartbeat_s
        self.retransmit_s = retransmit_s
        self.boot_id = secrets.token_hex(4).upper()
        self.next_seq = 1
        self.acked = 0
        self.queue: deque[_Event] = deque()
        self.sent = 0
        self.lost = 0
        self.leds = 0
        self.armed: dict[str, tuple[str, int]] = {}
        self.recent: deque[int] = deque(maxlen=8)
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._parser = P.FrameParser()
        self._start = time.monotonic()

    # -- the physical side ------------------------------------------------------------
    def press(self, player: str, button: str) -> None:
        if player not in ("p1", "p2") or button not in P.BUTTONS:
            raise ValueError(f"no button {player} {button}")
        with self._lock:
            self._flush_lost()
            if not self._push(f"BTN {player} {button}"):
                self.lost += 1
                return
            if button == "roll":
                kind, n = self.armed.pop(player, ("init", 1))
                if not self._push(f"ROLL - {kind} {player} {self._faces(kind, n)}"):
                    self.lost += 1

    def reboot(self) -> None:
        """Lose RAM like the real box: queue, sequence numbers, a new boot id."""
        with self._lock:
            self.boot_id = secrets.token_hex(4).upper()
            self.next_seq, self.acked, self.sent, self.lost = 1, 0, 0, 0
            self.queue.clear()
            self.armed.clear()
            self._write(f"HELLO {P.PROTOCOL_VERSION} sim-1.0.0 {self.boot_id} 1 0")

    # -- lifecycle --------------------------------------------------------------------
    def start(self) -> BoxSimulator:
        self._thread = threading.Thread(target=self._run, name="box-simulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> BoxSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- internals --------------------------------------------------------------------
    @staticmethod
    def _faces(kind: str, n: int) -> str:
        if kind == "init":
            return ",".join(str(secrets.randbelow(6) + 1) for _ in range(n))
        return ",".join(ATTACK_SYMBOLS[secrets.randbelow(6)] for _ in range(n))

    def _push(self, body: str) -> bool:
        if len(self.queue) >= self.queue_size:
            return False
        self.queue.append(_Event(self.next_seq, f"EV {self.next_seq} {body}"))
        self.next_seq = self.next_seq % 0xFFFF + 1
        return True

    def _flush_lost(self) -> None:
        if self.lost and self._push(f"LOST {self.lost}"):
            self.lost = 0

    def _write(self, body: str) -> None:
        try:
            os.write(self.master, P.encode(body))
        except OSError:
            pass

    def _run(self) -> None:
        self._write(f"HELLO {P.PROTOCOL_VERSION} sim-1.0.0 {self.boot_id} 1 0")
        last_hb = last_send = time.monotonic()
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    data = b""
                for body in self._parser.feed(data):
                    self._command(body)
            now = time.monotonic()
            with self._lock:
                if now - last_hb >= self.heartbeat_s:
                    last_hb = now
                    up = int((now - self._start) * 1000)
                    self._write(f"HB {up} {self.acked} {len(self.queue)}")
                while self.sent < len(self.queue):
                    self._write(self.queue[self.sent].body)
                    if self.sent == 0:
                        last_send = now
                    self.sent += 1
                if self.queue and now - last_send >= self.retransmit_s:
                    last_send = now
                    for ev in list(self.queue)[:4]:
                        self._write(ev.body)

    def _command(self, body: str) -> None:
        t = body.split(" ")
        with self._lock:
            if t[0] == "HELLO?":
                self._write(f"HELLO {P.PROTOCOL_VERSION} sim-1.0.0 {self.boot_id} "
                            f"{self.next_seq} {self.acked}")
                return
            if t[0] == "ACK" and len(t) == 3 and t[1].isdigit():
                if t[2] != self.boot_id:
                    return  # a late acknowledgement for a previous boot
                seq = int(t[1])
                while self.queue and not P.seq_after(self.queue[0].seq, seq):
                    self.acked = self.queue.popleft().seq
                    self.sent = max(0, self.sent - 1)
                return
            if len(t) < 2 or not t[1].isdigit() or int(t[1]) == 0:
                self._write("ERR - args")
                return
            req = int(t[1])
            if t[0] == "PING":
                self._write(f"OK {req}")
            elif t[0] in ("ROLL", "ARM") and len(t) >= 4 and t[2] in ("init", "attack") \
                    and t[3].isdigit() and 1 <= int(t[3]) <= 24:
                player = t[4] if len(t) > 4 and t[4] in ("p1", "p2") else None
                if t[0] == "ARM":
                    if player is None:
                        self._write(f"ERR {req} args")
                    else:
                        self.armed[player] = (t[2], int(t[3]))
                        self._write(f"OK {req}")
                elif req in self.recent:
                    self._write(f"OK {req} dup")
                elif self._push(f"ROLL {req} {t[2]} {player or '-'} "
                                f"{self._faces(t[2], int(t[3]))}"):
                    self.recent.append(req)
                else:
                    self._write(f"ERR {req} busy")
            elif t[0] == "LED" and len(t) == 3:
                try:
                    self.leds = int(t[2], 16)
                except ValueError:
                    self._write(f"ERR {req} args")
                    return
                self._write(f"OK {req}")
            elif t[0] == "SEED" and len(t) == 3:
                self._write(f"OK {req}")
            else:
                self._write(f"ERR {req} unknown")
