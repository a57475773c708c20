"""A scripted box for attacking the host: a pty whose far end the test drives frame by
frame. It shares no code with the host's parser (its own CRC, table-driven; its own
line splitting), so a framing mistake in one is not hidden by the same one in the other.
"""

from __future__ import annotations

import os
import select
import time
import tty

_TABLE = []
for _i in range(256):
    _c = _i << 8
    for _ in range(8):
        _c = ((_c << 1) ^ 0x1021) if _c & 0x8000 else (_c << 1)
    _TABLE.append(_c & 0xFFFF)


def crc(data: bytes) -> int:
    value = 0xFFFF
    for b in data:
        value = ((value << 8) & 0xFFFF) ^ _TABLE[(value >> 8) ^ b]
    return value


def frame(body: str) -> bytes:
    raw = body.encode()
    return raw + f"*{crc(raw):04X}\n".encode()


class Peer:
    """The box end of a pty: ``send`` frames (or raw bytes), ``lines`` reads what the
    host wrote (bodies whose CRC checks)."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave  # kept open so the pty survives the host's reopenings
        self._buf = b""

    def send(self, body: str) -> None:
        os.write(self.master, frame(body))

    def raw(self, data: bytes) -> None:
        os.write(self.master, data)

    def lines(self, timeout: float = 0.3) -> list[str]:
        end = time.monotonic() + timeout
        out: list[str] = []
        while time.monotonic() < end:
            r, _, _ = select.select([self.master], [], [], 0.02)
            if r:
                try:
                    self._buf += os.read(self.master, 4096)
                except OSError:
                    break
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                body, star, tail = line.rpartition(b"*")
                if star and tail == f"{crc(body):04X}".encode():
                    out.append(body.decode())
        return out

    def wait_for(self, prefix: str, timeout: float = 3.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in self.lines(0.05):
                if line.startswith(prefix):
                    return line
        raise AssertionError(f"the host sent no {prefix!r} in {timeout} s")

    def close(self) -> None:
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
