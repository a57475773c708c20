"""A table box simulated in Python, speaking protocol 3 on a pty: the embedded default
when no box is attached (``tablesight demo``), and a second, independent implementation
of the protocol that the bridge's tests run against (the real firmware in simavr is the
other). It shares no code with the host's ``protocol`` module: its framing, CRC and
command parsing are its own, written from ``PROTOCOL.md``.

    sim = BoxSimulator().start()
    box = TableBox(sim.port).start(wait=2)
    sim.press("p1", "ready")
"""

from __future__ import annotations

import os
import re
import secrets
import select
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass

PROTOCOL = 3
FIRMWARE = "sim-3.1.0"
BUTTON_NAMES = ("roll", "ready", "shift", "strike", "undo")
# The most dice one roll may hold, by the die's sides (PROTOCOL.md's table).
MOST_DICE = ((8, 24), (16, 17), (32, 16), (64, 13), (128, 11), (250, 10))
LINE_MAX = 96
JOURNAL_LAG = 32  # the most numbers sent ahead of the saved journal


def _crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, the way the firmware computes it (one bit at a time, MSB
    first), not the host's way."""
    crc = 0xFFFF
    for byte in data:
        for bit in range(7, -1, -1):
            top = (crc >> 15) ^ ((byte >> bit) & 1)
            crc = (crc << 1) & 0xFFFF
            if top:
                crc ^= 0x1021
    return crc


class _Lines:
    """Bytes from the host in, checked frame bodies out (bad ones dropped silently)."""

    def __init__(self) -> None:
        self.buf = b""

    def feed(self, data: bytes) -> list[str]:
        self.buf += data.replace(b"\r", b"")
        out = []
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            if len(line) + 1 > LINE_MAX or len(line) < 6 or line[-5:-4] != b"*":
                continue
            body, tail = line[:-5], line[-4:]
            if any(b < 0x20 or b > 0x7E for b in body) or b"*" in body:
                continue
            if tail != b"%04X" % _crc(body):
                continue
            out.append(body.decode("ascii"))
        if len(self.buf) > LINE_MAX:
            self.buf = b""  # an over-long line: dropped whole at its newline
        return out


def _number(token: str, limit: int = 0xFFFF) -> int | None:
    if not token.isascii() or not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        return None
    value = int(token)
    return value if value <= limit else None


def _later(a: int, b: int) -> bool:
    """Sequence number ``a`` after ``b`` (serial arithmetic modulo 2^16)."""
    return a != b and (a - b) % 65536 < 32768


@dataclass
class _Event:
    seq: int
    body: str


class BoxSimulator:
    def __init__(self, queue_size: int = 40, heartbeat_s: float = 0.5,
                 retransmit_s: float = 0.06, journal_s: float = 0.034) -> None:
        self.queue_size = queue_size
        self.heartbeat_s = heartbeat_s
        self.retransmit_s = retransmit_s
        self.journal_s = journal_s  # one journal record's EEPROM write (10 bytes)
        self.boot_id = secrets.token_hex(4).upper()
        # What the firmware keeps in EEPROM (its journal): the box's id, where the
        # numbering stands and the presses ever lost to a full queue. A record follows
        # the events in the background (``journal_s`` each): a restart goes on from the
        # last whole one, and events are sent at most JOURNAL_LAG numbers ahead of it.
        self.box_id = secrets.token_hex(4).upper()
        self.next_seq = 1
        self.saved = (1, 0)  # (next_seq, lost) as the last whole record has them
        self._writing: tuple[tuple[int, int], float] | None = None  # record, done at
        self.acked = 0
        self.queue: deque[_Event] = deque()
        self.sent = 0
        self.lost = 0  # since the box's memory began, modulo 2^32
        self.leds = 0
        self.armed: dict[str, tuple[int, int]] = {}  # player -> (sides, dice)
        self.recent: deque[int] = deque(maxlen=8)  # the last 8 ROLL request ids served
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lines = _Lines()
        self._start = time.monotonic()

    # -- the physical side ------------------------------------------------------------
    def press(self, player: str, button: str) -> None:
        if player not in ("p1", "p2") or button not in BUTTON_NAMES:
            raise ValueError(f"no button {player} {button}")
        with self._lock:
            # A roll press is its BTN and its ROLL: both fit in the queue or neither.
            if len(self.queue) + (2 if button == "roll" else 1) > self.queue_size:
                self.lost = (self.lost + 1) % 2**32
                return
            self._push(f"BTN {player} {button}")
            if button == "roll":
                sides, n = self.armed.pop(player, (6, 1))
                self._push(f"ROLL - d{sides} {player} {self._faces(sides, n)}")

    def reboot(self, power_cut: bool = False, erase: bool = False) -> None:
        """Lose RAM like the real box: the queue, what was armed, the boot id, and a
        journal record not yet whole (a reset and a power cut alike end it: the record
        is written byte by byte, so either leaves it torn; ``power_cut`` is accepted for
        the tests' sake). Numbering and the lost count go on from the last whole record;
        ``erase`` loses the journal too (a re-flash, or to the host another box)."""
        with self._lock:
            if erase:
                self.box_id = secrets.token_hex(4).upper()
                self.saved = (1, 0)
            self.next_seq, self.lost = self.saved
            self._writing = None
            self.boot_id = secrets.token_hex(4).upper()
            self.acked = self.next_seq - 1  # numbering goes on: nothing of it is pending
            self.sent = 0
            self.queue.clear()
            self.armed.clear()
            self._write(self._hello())

    def settle(self, timeout: float = 2.0) -> None:
        """Wait until the journal holds where the box stands (a test's power cut then
        loses nothing but the queue)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if self.saved == (self.next_seq, self.lost):
                    return
            time.sleep(0.005)

    def _hello(self) -> str:
        # Only the saved lost count is ever reported: one still in RAM could be lost to
        # a power cut, and the next count would go back.
        return (f"HELLO {PROTOCOL} {FIRMWARE} {self.boot_id} {self.next_seq} {self.acked} "
                f"{self.box_id} {self.saved[1]}")

    def _journal(self, now: float) -> None:
        """The EEPROM journal's background writer: one record at a time, each carrying
        where the box stood when it began."""
        if self._writing and now >= self._writing[1]:
            self.saved, self._writing = self._writing[0], None
        if not self._writing and self.saved != (self.next_seq, self.lost):
            self._writing = ((self.next_seq, self.lost), now + self.journal_s)

    def _sendable(self, seq: int) -> bool:
        """Sent at once, unless the journal is JOURNAL_LAG numbers behind it."""
        behind = (seq - self.saved[0]) % 0x10000
        if seq < self.saved[0]:
            behind -= 1  # the numbering skips 0
        return behind >= 0x8000 or behind < JOURNAL_LAG

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
    def _faces(sides: int, n: int) -> str:
        return ",".join(str(secrets.randbelow(sides) + 1) for _ in range(n))

    @staticmethod
    def _dice(t: list[str]) -> tuple[int, int] | None:
        """``ROLL``/``ARM`` arguments as (sides, dice), or None when malformed."""
        if len(t) not in (4, 5) or not t[2].startswith("d"):
            return None
        sides, n = _number(t[2][1:]), _number(t[3])
        if sides is None or not 2 <= sides <= 250 or n is None:
            return None
        most = next(m for top, m in MOST_DICE if sides <= top)
        if not 1 <= n <= most or (len(t) == 5 and t[4] not in ("p1", "p2", "-")):
            return None
        return sides, n

    def _push(self, body: str) -> bool:
        if len(self.queue) >= self.queue_size:
            return False
        # Protocol 2: every event names its boot.
        self.queue.append(_Event(self.next_seq, f"EV {self.boot_id} {self.next_seq} {body}"))
        self.next_seq = self.next_seq % 0xFFFF + 1
        return True

    def _write(self, body: str) -> None:
        raw = body.encode("ascii")
        try:
            os.write(self.master, raw + b"*%04X\n" % _crc(raw))
        except OSError:
            pass

    def _run(self) -> None:
        self._write(self._hello())
        last_hb = last_send = time.monotonic()
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    data = b""
                for body in self._lines.feed(data):
                    self._command(body)
            now = time.monotonic()
            with self._lock:
                if now - last_hb >= self.heartbeat_s:
                    last_hb = now
                    up = int((now - self._start) * 1000)
                    self._write(f"HB {self.boot_id} {up} {self.acked} {len(self.queue)} "
                                f"{self.next_seq} {self.saved[1]}")
                self._journal(now)
                while self.sent < len(self.queue) and self._sendable(self.queue[self.sent].seq):
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
                self._write(self._hello())
                return
            if t[0] == "ACK" and not (len(t) == 3 and _number(t[1]) is not None
                                      and re.fullmatch(r"[0-9A-Fa-f]{8}", t[2])):
                self._write("ERR - args")  # a malformed ACK: it has no request id
                return
            if t[0] == "ACK":
                if t[2].upper() != self.boot_id:  # compared without regard to case
                    return  # a late acknowledgement for a previous boot
                seq = _number(t[1])
                # Acknowledges only events sent: an ACK beyond them is ignored.
                while self.queue and self.sent and not _later(self.queue[0].seq, seq):
                    self.acked = self.queue.popleft().seq
                    self.sent = max(0, self.sent - 1)
                return
            req = _number(t[1]) if len(t) >= 2 else None
            if not req:  # none at all, or not a request id (0, a word, too big)
                self._write("ERR - args" if len(t) < 2 else "ERR - req")
                return
            if t[0] == "PING":
                self._write(f"OK {req}")
            elif t[0] in ("ROLL", "ARM"):
                dice = self._dice(t)
                player = t[4] if len(t) > 4 and t[4] in ("p1", "p2") else None
                if dice is None:
                    self._write(f"ERR {req} args")
                elif t[0] == "ARM":
                    if player is None:
                        self._write(f"ERR {req} args")
                    else:
                        self.armed[player] = dice
                        self._write(f"OK {req}")
                elif req in self.recent:
                    self._write(f"OK {req} dup")
                elif self._push(f"ROLL {req} d{dice[0]} {player or '-'} "
                                f"{self._faces(*dice)}"):
                    self.recent.append(req)
                else:
                    self._write(f"ERR {req} busy")
            elif t[0] == "LED":  # exactly two hex digits, either case
                if len(t) != 3 or not re.fullmatch(r"[0-9A-Fa-f]{2}", t[2]):
                    self._write(f"ERR {req} args")
                    return
                self.leds = int(t[2], 16)
                self._write(f"OK {req}")
            elif t[0] == "SEED":  # 1 to 32 hex digits
                if len(t) != 3 or not re.fullmatch(r"[0-9A-Fa-f]{1,32}", t[2]):
                    self._write(f"ERR {req} args")
                    return
                self._write(f"OK {req}")
            else:
                self._write(f"ERR {req} unknown")
