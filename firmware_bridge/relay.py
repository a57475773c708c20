"""A fault-injecting relay between the host and a box, for reliability tests.

It serves the host on ``socket://127.0.0.1:PORT`` (pyserial's URL handler) and talks to
the box on its serial port or pty. Each byte, in both directions, may be corrupted,
dropped or duplicated, writes are split at random, and ``unplug()`` drops the host's
connection and refuses it for a while, as a pulled USB cable would.
"""

from __future__ import annotations

import random
import socket
import threading
import time

import serial


class FaultyRelay:
    def __init__(self, box_port: str, corrupt: float = 0.0, drop: float = 0.0,
                 duplicate: float = 0.0, seed: int = 0) -> None:
        self.box = serial.serial_for_url(box_port, baudrate=115200, timeout=0.01)
        self.corrupt, self.drop, self.duplicate = corrupt, drop, duplicate
        self.rng = random.Random(seed)
        self._rng_lock = threading.Lock()
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.server.settimeout(0.05)
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.client: socket.socket | None = None
        self._unplugged_until = 0.0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.stats = {"bytes": 0, "corrupted": 0, "dropped": 0, "duplicated": 0, "unplugs": 0,
                      "muted": 0}
        self._mute = 0  # box->host frames starting with b"HELLO " still to swallow
        self._garble_until = 0.0
        self._line = b""  # a partial line held while muting
        self._threads = [threading.Thread(target=self._accept, daemon=True),
                         threading.Thread(target=self._box_to_host, daemon=True)]

    def start(self) -> FaultyRelay:
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=2)
        self._drop_client()
        self.server.close()
        self.box.close()

    def unplug(self, seconds: float) -> None:
        """Pull the cable: the host's link breaks, and cannot come back for ``seconds``."""
        self.stats["unplugs"] += 1
        self._unplugged_until = time.monotonic() + seconds
        self._drop_client()

    def mute_hellos(self, n: int = 1) -> None:
        """Lose the box's next ``n`` HELLO frames on the wire (a reboot announcement
        that never arrives), whatever else passes."""
        with self._lock:
            self._mute += n

    def garble(self, seconds: float) -> None:
        """For ``seconds``, the host gets only garbage from the box (a broken cable, a
        crashed USB bridge): lines of noise that never make a valid frame."""
        self._garble_until = time.monotonic() + seconds

    def _filter(self, data: bytes) -> bytes:
        if time.monotonic() < self._garble_until:
            with self._rng_lock:
                noise = bytes(self.rng.choice(b"0123456789ABCDEF *#~EVHB") for _ in data)
            return noise.replace(b"*", b"*#") + b"\n"  # never "*XXXX": no CRC tail
        with self._lock:
            if not self._mute and not self._line:
                return data
            self._line += data
            *lines, self._line = self._line.split(b"\n")
            out = []
            for line in lines:
                if self._mute and line.startswith(b"HELLO "):
                    self._mute -= 1
                    self.stats["muted"] += 1
                    continue
                out.append(line + b"\n")
            return b"".join(out)

    def _drop_client(self) -> None:
        with self._lock:
            client, self.client = self.client, None
        if client is not None:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            client.close()

    def _mangle(self, data: bytes) -> bytes:
        out = bytearray()
        with self._rng_lock:
            for b in data:
                self.stats["bytes"] += 1
                r = self.rng.random()
                if r < self.drop:
                    self.stats["dropped"] += 1
                    continue
                if r < self.drop + self.corrupt:
                    self.stats["corrupted"] += 1
                    b ^= 1 << self.rng.randrange(8)
                out.append(b)
                if self.rng.random() < self.duplicate:
                    self.stats["duplicated"] += 1
                    out.append(b)
        return bytes(out)

    def _send_split(self, sock: socket.socket, data: bytes) -> None:
        i = 0
        while i < len(data):
            with self._rng_lock:
                n = self.rng.randint(1, 16)
            sock.sendall(data[i:i + n])
            i += n

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.server.accept()
            except (TimeoutError, OSError):
                continue
            if time.monotonic() < self._unplugged_until:
                conn.close()  # still unplugged
                continue
            self._drop_client()
            conn.settimeout(0.05)
            with self._lock:
                self.client = conn
            threading.Thread(target=self._host_to_box, args=(conn,), daemon=True).start()

    def _host_to_box(self, conn: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                data = conn.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            self.box.write(self._mangle(data))

    def _box_to_host(self) -> None:
        while not self._stop.is_set():
            data = self.box.read(256)
            if not data:
                continue
            data = self._filter(data)
            if not data:
                continue
            with self._lock:
                client = self.client
            if client is None:
                continue  # unplugged: the box talks into nothing
            try:
                self._send_split(client, self._mangle(data))
            except OSError:
                self._drop_client()
