"""The host side of a table box (python-can's bus, pyserial's ``serial.threaded``).

    box = TableBox("/dev/ttyACM0")          # or "socket://127.0.0.1:7000", "loop://", a pty
    box.start()
    event = box.events.get()                # DeviceEvent: button, roll, connected, lost...
    numbers = box.roll(6, 5).numbers        # five six-sided dice: (3, 1, 6, 6, 2)

One supervisor thread keeps the link: it opens the port, runs a ``ReaderThread`` with the
framing protocol, handshakes, watches heartbeats, and reopens the port when the box
vanishes. Every failure (read error, unplugged cable, silent box) ends in one place,
``_connection_lost``. Box events are delivered to ``events`` exactly once and in order:
duplicates (retransmissions after a lost ACK, after a reconnect) are recognised by the
box's boot id and sequence number.
"""

from __future__ import annotations

import errno
import itertools
import queue
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable

import serial
import serial.threaded
from serial.tools import list_ports

from table.device import DeviceEvent, StreamPosition

from . import protocol as P

# How often HELLO? is repeated until the box answers. The box keeps at most 40 unacknowledged
# events, and events are ignored until the handshake: on a noisy cable each try fails often
# (a corrupted byte in either direction), so try often; a HELLO? costs 15 bytes.
HELLO_RETRY = 0.05
HELLO_PATIENCE = 40  # tries (2 s); then a box that talks but never answers is said so
HELLO_SLOW = 1.0  # and asked once a second, not twenty times
MISMATCH_BACKOFF_MAX = 30.0  # a box of another protocol version: reopened ever more slowly


class DeviceError(RuntimeError):
    """The box did not answer, or refused a command."""


class _Framing(serial.threaded.Protocol):
    """Framing as a protocol class: bytes in, parsed messages out to the owner."""

    def __init__(self, owner: TableBox) -> None:
        self.owner = owner
        self.parser = P.FrameParser()
        self.transport: serial.threaded.ReaderThread | None = None
        self._counted = 0  # of the parser's dropped frames, already added to the stats

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.owner._rx_bytes += len(data)
        for body in self.parser.feed(data):
            try:
                msg = P.parse(body)
            except P.ProtocolError:
                self.owner.stats["bad_messages"] += 1
                continue
            # Liveness counts valid messages: a box sending only garbage is gone.
            self.owner._rx_time = time.monotonic()
            self.owner._rx_valid = True
            self.owner._on_message(msg)
        # Counted over the whole run, not reset by each reconnect.
        self.owner.stats["bad_frames"] += self.parser.dropped - self._counted
        self._counted = self.parser.dropped

    def connection_lost(self, exc: BaseException | None) -> None:
        if self.owner._link_down.is_set():
            return  # closed by the host after it lost the link: the reason is said already
        self.owner._connection_lost(f"serial link closed: {exc or 'closed'}")


def cannot_open(url: str, exc: BaseException) -> str:
    """Why a port did not open, as staff at the table can act on it (pyserial's text
    repeats the OS error twice and names no remedy)."""
    code = getattr(exc, "errno", None)
    if code == errno.ENOENT:
        return f"no device at {url}: is the box plugged in? (tablesight device list)"
    if code in (errno.EACCES, errno.EPERM):
        return f"no permission to open {url}: add this user to the dialout group"
    if code == errno.EBUSY:
        return f"{url} is in use by another program"
    if isinstance(exc, ValueError):  # pyserial's own: a URL it does not know
        return f"cannot open {url}: {exc}"
    why = getattr(exc, "strerror", None) or "it does not open as a serial port"
    return f"cannot open {url}: {why}"


class TableBox:
    def __init__(self, url: str, *, baudrate: int = 115200, heartbeat_timeout: float = 2.0,
                 reconnect_interval: float = 0.3, command_retry: float = 0.25,
                 resume: StreamPosition | None = None,
                 on_event: Callable[[DeviceEvent], None] | None = None) -> None:
        self.url = url
        self.baudrate = baudrate
        self.heartbeat_timeout = heartbeat_timeout
        self.reconnect_interval = reconnect_interval
        self.command_retry = command_retry
        self.on_event = on_event
        self.events: queue.Queue[DeviceEvent] = queue.Queue()
        self.box_id: str | None = resume.box_id if resume else None
        self.boot_id: str | None = resume.boot_id if resume else None
        self.last_seq = resume.seq if resume else 0
        # The box's lifetime count of presses lost to a full queue, as last heard: a
        # loss is a difference from it (None: nothing heard of this box yet).
        self.lost_total: int | None = resume.lost_total if resume else None
        self.firmware: str | None = None
        self.connected = False
        self.reconnects = 0
        self.stats = {"openings": 0, "delivered": 0, "duplicates": 0, "out_of_order": 0,
                      "bad_frames": 0, "bad_messages": 0, "reboots": 0, "skipped": 0,
                      "stale_rolls": 0, "lost_in_reboots": 0, "lost_presses": 0,
                      "lost_count_went_back": 0, "journal_steps_back": 0}
        self.last_reason = ""  # why the link is down, for people (CLI, dashboard)
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._reader: serial.threaded.ReaderThread | None = None
        self._framing: _Framing | None = None
        self._stop = threading.Event()
        self._link_down = threading.Event()
        self._hello = threading.Event()
        self._rx_time = 0.0
        self._rx_bytes = 0  # bytes received since the port was opened
        self._rx_valid = False  # a valid message received since the port was opened
        # Request ids start at random: a second host process (another CLI run, a restart)
        # must not be answered with what the box remembers of the first one's.
        self._requests = itertools.count(secrets.randbelow(0xFFFF))
        self._issued: deque[int] = deque(maxlen=256)  # this process's requests
        self._replies: dict[int, P.Reply | P.Event] = {}  # only for requests in _issued
        # The rolls this process waits for now: request -> (sides, dice, player or None).
        # An answer to any other (answered already, given up) or unlike what was asked is
        # set aside, never taken as the table's dice.
        self._rolls_asked: dict[int, tuple[int, int, str | None]] = {}
        self._unknown_kinds: set[str] = set()  # reported once each
        self._backoff = 0.0  # extra wait before reopening (version mismatch)
        self._reply_cv = threading.Condition()
        self._thread: threading.Thread | None = None
        self._lost_reported = False
        self._early: dict[int, P.Event] = {}  # arrived ahead of a missing one (bounded)

    # -- lifecycle --------------------------------------------------------------------
    def start(self, wait: float | None = None) -> TableBox:
        self._thread = threading.Thread(target=self._supervise, name="tablebox", daemon=True)
        self._thread.start()
        if wait is not None and not self._hello.wait(wait):
            why = f" ({self.last_reason})" if self.last_reason else ""
            raise DeviceError(f"no table box answered on {self.url} within {wait} s{why}")
        return self

    def stop(self) -> None:
        self._stop.set()
        self._link_down.set()
        if self._thread:
            self._thread.join(timeout=3)
        self._close()

    def __enter__(self) -> TableBox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the link ---------------------------------------------------------------------
    def _supervise(self) -> None:
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.1)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._report_lost(cannot_open(self.url, exc))
                self._stop.wait(self.reconnect_interval)
                continue
            self._link_down.clear()
            self._hello.clear()
            self.stats["openings"] += 1
            framing = _Framing(self)
            reader = serial.threaded.ReaderThread(port, lambda f=framing: f)
            with self._lock:
                self._reader, self._framing = reader, framing
            self._rx_bytes, self._rx_valid = 0, False
            reader.start()
            self._rx_time = time.monotonic()
            next_hello = 0.0
            tries = 0
            greeted = said = False  # a HELLO on this opening; the silence said
            while not self._stop.is_set() and not self._link_down.is_set():
                now = time.monotonic()
                if self._hello.is_set():
                    tries = 0  # a handshake lost later (a reboot) starts a new round
                    greeted = True
                elif now >= next_hello:
                    self._write(P.hello_query())
                    tries += 1
                    next_hello = now + (HELLO_RETRY if tries < HELLO_PATIENCE else HELLO_SLOW)
                    if tries == HELLO_PATIENCE and self._rx_valid and not said:
                        said = True
                        self._report_lost(f"the box on {self.url} sends frames but does not "
                                          "answer HELLO? (another program on the port, or "
                                          "firmware of another protocol version?)")
                if now - self._rx_time > self.heartbeat_timeout:
                    if greeted:  # it spoke on this opening, then stopped: reopen
                        self._connection_lost(f"no heartbeat for {self.heartbeat_timeout:.1f} s")
                        break
                    # Never heard on this opening: the port stays open (each opening
                    # resets an Uno, which would then never finish starting) and HELLO?
                    # goes on, once a second; said once, by what arrived.
                    if not said:
                        said = True
                        self._report_lost(self._silence())
                self._link_down.wait(0.05)
            self._close()
            if not self._stop.is_set():
                self._stop.wait(self.reconnect_interval + self._backoff)

    def _silence(self) -> str:
        if self._rx_valid:
            return (f"the box on {self.url} sends frames but does not answer HELLO? "
                    "(another program on the port, or firmware of another protocol "
                    "version?)")
        if self._rx_bytes:
            return (f"the device on {self.url} sends only noise, nothing a table box sends "
                    "(another device on the port, or the wrong baud rate?)")
        return (f"the box on {self.url} is silent: nothing came since the port was opened "
                "(not a table box, its firmware not running, or its cable only powers it?)")

    def _close(self) -> None:
        with self._lock:
            reader, self._reader, self._framing = self._reader, None, None
        if reader is not None:
            try:
                reader.close()
            except Exception:
                pass

    def _connection_lost(self, reason: str) -> None:
        """Every way the link can fail ends here."""
        self._link_down.set()
        self._hello.clear()
        self._report_lost(reason)

    def _report_lost(self, reason: str) -> None:
        self.last_reason = reason
        was = self.connected
        self.connected = False
        if was or not self._lost_reported:
            self._lost_reported = True
            self._emit(DeviceEvent("lost", time.monotonic(), detail={"reason": reason}))

    def _write(self, frame: bytes) -> bool:
        with self._lock:
            reader = self._reader
        if reader is None:
            return False
        try:
            with self._write_lock:
                reader.write(frame)
            return True
        except Exception:
            self._connection_lost("write failed")
            return False

    def _emit(self, event: DeviceEvent) -> None:
        self.events.put(event)
        if self.on_event is not None:
            self.on_event(event)

    # -- messages from the box --------------------------------------------------------
    def _on_message(self, msg: P.Message) -> None:
        if isinstance(msg, P.Hello):
            self._on_hello(msg)
        elif isinstance(msg, P.Heartbeat):
            if not self._foreign_boot(msg.boot_id) and msg.boot_id == self.boot_id:
                self._note_lost(msg.lost)
        elif isinstance(msg, P.Event):
            self._on_event(msg)
        elif isinstance(msg, P.Reply) and msg.request in self._issued:
            # Replies to requests this process never made are dropped: nothing piles up.
            with self._reply_cv:
                self._replies[msg.request] = msg
                self._reply_cv.notify_all()

    def _foreign_boot(self, boot_id: str) -> bool:
        """A heartbeat or an event of another boot than the handshake's: the box
        restarted and its boot HELLO was lost on the wire. Nothing of it is taken until
        a new handshake (the supervisor asks HELLO? again) says where its numbers stand."""
        if not self._hello.is_set() or boot_id == self.boot_id:
            return False
        self._hello.clear()
        return True

    def _note_lost(self, total: int) -> None:
        """The box's lifetime count of presses lost to a full queue (HELLO, heartbeats):
        any rise since we last heard it is reported (modulo 2^32: it never saturates). A
        count that went back (a box that broke the rule of reporting only its saved
        count, then lost power) cannot be read as a rise of four billion: it is said to
        be uncountable, and the new count is the baseline."""
        if self.lost_total is not None and total != self.lost_total:
            n = (total - self.lost_total) % 2**32
            if n < 2**31:
                self.stats["lost_presses"] += n
                detail: dict[str, object] = {
                    "count": n, "lost_total": total,
                    "reason": "its queue of unsent presses was full (the host away, or "
                              "its acknowledgements lost)"}
            else:
                self.stats["lost_count_went_back"] += 1
                detail = {"count": None, "lost_total": total,
                          "reason": "its count of lost presses went back (its memory lost "
                                    "a write), so what it lost cannot be counted"}
            self._emit(DeviceEvent("lost_events", time.monotonic(), detail=detail))
        self.lost_total = total

    def _on_hello(self, msg: P.Hello) -> None:
        if msg.protocol != P.PROTOCOL_VERSION:
            # Reopening at once would reset an Uno several times a second, for ever.
            self._backoff = min(MISMATCH_BACKOFF_MAX, max(1.0, self._backoff * 2))
            newer = msg.protocol > P.PROTOCOL_VERSION
            self._connection_lost(
                f"the box on {self.url} speaks table-box protocol {msg.protocol} (firmware "
                f"{msg.firmware}), this host protocol {P.PROTOCOL_VERSION}: "
                + ("update tablesight" if newer else "flash the box's firmware again "
                   "(make -C firmware_bridge/firmware flash PORT=...)"))
            return
        self._backoff = 0.0
        rebooted = self.boot_id is not None and msg.boot_id != self.boot_id
        if msg.boot_id != self.boot_id:
            lost: int | None = 0  # a box we knew nothing of: its past is not this game's
            why = "the box restarted before they reached the host"
            if self.boot_id is None:
                pass
            elif self.box_id is not None and msg.box_id != self.box_id:
                lost, why = None, "another table box is connected (or this one's memory " \
                                  "was erased)"
            else:
                # Numbering goes on across boots (the box keeps it in EEPROM, whatever
                # ended the old boot): the numbers between the last event we delivered
                # and where the new boot started are exactly the events that died.
                lost = P.seq_gap(self.last_seq, msg.acked)
                behind = P.seq_gap(msg.acked, self.last_seq) if lost is None else None
                if behind is not None and behind <= P.JOURNAL_LAG:
                    # A restart before the journal caught up with events we heard: the
                    # new boot numbers them again (its boot id tells them apart), and
                    # nothing it knew of died.
                    lost = 0
                    self.stats["journal_steps_back"] += 1
                elif lost is None:
                    why = "the box's numbering went back (its memory was erased?)"
            if lost is None or self.box_id != msg.box_id:
                self.lost_total = None  # another box's count: a new baseline
            self.box_id = msg.box_id
            self.boot_id = msg.boot_id
            self.last_seq = msg.acked
            self._early.clear()
            if rebooted:
                self.stats["reboots"] += 1
            if lost != 0:
                self.stats["lost_in_reboots"] += lost or 0
                self._emit(DeviceEvent("lost_events", time.monotonic(),
                                       detail={"count": lost, "reason": why}))
        self._note_lost(msg.lost)
        detail = {"box_id": msg.box_id, "boot_id": msg.boot_id, "firmware": msg.firmware,
                  "rebooted": rebooted, "url": self.url, "lost_total": msg.lost}
        if rebooted and self._hello.is_set():
            # The box restarted under us (watchdog, power): say so, it lost its queue.
            self._emit(DeviceEvent("connected", time.monotonic(), seq=self.last_seq,
                                   detail=detail))
        if not self._hello.is_set():
            if self.connected is False and self._lost_reported:
                self.reconnects += 1
            self.firmware = msg.firmware
            self.connected = True
            self._hello.set()
            self._emit(DeviceEvent("connected", time.monotonic(), seq=self.last_seq,
                                   detail=detail))

    def _on_event(self, msg: P.Event) -> None:
        if not self._hello.is_set() or self._foreign_boot(msg.boot_id):
            return  # before the handshake the boot is unknown: it will be resent
        expected = P.seq_next(self.last_seq)
        if msg.seq == expected:
            # Deliver it, then whatever already arrived behind it, and acknowledge the
            # last one (acknowledgements are cumulative).
            while True:
                self.last_seq = msg.seq
                self.stats["delivered"] += 1
                self._deliver(msg)
                nxt = self._early.pop(P.seq_next(self.last_seq), None)
                if nxt is None:
                    break
                msg = nxt
            self._write(P.ack(self.last_seq, self.boot_id or "00000000"))
        elif P.seq_after(msg.seq, self.last_seq):
            # A gap: one before it was lost. Keep this one until the gap is filled.
            self.stats["out_of_order"] += 1
            if len(self._early) < 128:
                self._early[msg.seq] = msg
        else:
            self.stats["duplicates"] += 1
            self._write(P.ack(self.last_seq, self.boot_id or "00000000"))

    def _deliver(self, msg: P.Event) -> None:
        now = time.monotonic()
        if msg.kind == "BTN":
            ev = DeviceEvent("button", now, player=msg.player, button=msg.button, seq=msg.seq)
        elif msg.kind == "UNKNOWN":
            # Acknowledged (it took its place in the sequence) and skipped; said once
            # for each kind, so a newer box never stalls or floods the table.
            self.stats["skipped"] += 1
            words = msg.text.split(" ")
            if len(words) > 1 and words[0] == "ROLL" and words[1].isdigit():
                with self._reply_cv:  # a roll waited for fails at once, not at its timeout
                    if int(words[1]) in self._rolls_asked:
                        self._replies[int(words[1])] = P.Reply(False, int(words[1]),
                                                               "unreadable")
                        self._reply_cv.notify_all()
            kind = words[0]
            if kind in self._unknown_kinds:
                return
            self._unknown_kinds.add(kind)
            ev = DeviceEvent("unknown_event", now, seq=msg.seq, detail={"text": msg.text})
        elif msg.kind == "ROLL" and msg.request is not None:
            with self._reply_cv:
                asked = self._rolls_asked.get(msg.request)
                why = _set_aside(msg, asked, msg.request in self._issued)
                if asked is not None:
                    # The waiting roll() takes its answer, or says at once it was wrong.
                    del self._rolls_asked[msg.request]
                    self._replies[msg.request] = msg
                    self._reply_cv.notify_all()
            if why:
                self.stats["stale_rolls"] += 1
                ev = DeviceEvent("stale_roll", now, seq=msg.seq, request=msg.request,
                                 sides=msg.sides, numbers=msg.numbers, player=msg.player,
                                 detail={"reason": why})
            else:
                ev = DeviceEvent("roll", now, player=msg.player, sides=msg.sides,
                                 numbers=msg.numbers, request=msg.request, seq=msg.seq)
        elif msg.kind == "ROLL":  # a roll button's own roll: the table's dice
            ev = DeviceEvent("roll", now, player=msg.player, sides=msg.sides,
                             numbers=msg.numbers, seq=msg.seq)
        else:
            return  # the kinds above are all the parser makes
        self._emit(ev)

    # -- commands ---------------------------------------------------------------------
    def _request(self, build: Callable[[int], bytes], want_event: bool,
                 timeout: float) -> P.Reply | P.Event:
        req = next(self._requests) % 65535 + 1
        self._issued.append(req)
        try:
            return self._await(req, build, want_event, timeout)
        finally:
            with self._reply_cv:
                self._rolls_asked.pop(req, None)  # no longer waited for

    def _await(self, req: int, build: Callable[[int], bytes], want_event: bool,
               timeout: float) -> P.Reply | P.Event:
        deadline = time.monotonic() + timeout
        frame = build(req)
        while time.monotonic() < deadline:
            self._write(frame)
            retry_at = time.monotonic() + self.command_retry
            with self._reply_cv:
                while time.monotonic() < min(retry_at, deadline):
                    got = self._replies.get(req)
                    if isinstance(got, P.Event) or (isinstance(got, P.Reply) and not want_event
                                                    and got.ok):
                        self._replies.pop(req, None)
                        return got
                    if isinstance(got, P.Reply) and not got.ok and got.detail == "unreadable":
                        self._replies.pop(req, None)
                        raise DeviceError("the box's answer could not be read (set aside)")
                    if isinstance(got, P.Reply) and not got.ok and got.detail != "busy":
                        self._replies.pop(req, None)
                        raise DeviceError(f"the box refused {frame!r}: {got.detail}")
                    self._reply_cv.wait(0.02)
        raise DeviceError(f"no answer from the table box within {timeout} s")

    def roll(self, sides: int = 6, dice: int = 1, player: str | None = None,
             timeout: float = 3.0) -> DeviceEvent:
        """Ask the box to roll ``dice`` dice of ``sides`` sides; returns the roll event
        (also delivered to ``events``). What the numbers mean is the game's."""
        _check_dice(sides, dice)

        def ask(r: int) -> bytes:
            with self._reply_cv:
                self._rolls_asked[r] = (sides, dice, player)
            return P.roll(r, sides, dice, player)

        msg = self._request(ask, True, timeout)  # waited for no more, once it returns
        assert isinstance(msg, P.Event)
        if _set_aside(msg, (sides, dice, player), True):
            raise DeviceError(f"asked for {dice} d{sides} for {player or 'anyone'}, the box "
                              f"rolled {msg.numbers} of d{msg.sides} for {msg.player or '-'}: "
                              "set aside")
        return DeviceEvent("roll", time.monotonic(), player=msg.player, sides=msg.sides,
                           numbers=msg.numbers, request=msg.request, seq=msg.seq)

    def arm(self, player: str, sides: int, dice: int, timeout: float = 2.0) -> None:
        """What ``player``'s roll button rolls next, once (default: one d6)."""
        _check_dice(sides, dice)
        self._request(lambda r: P.arm(r, sides, dice, player), False, timeout)

    def set_leds(self, mask: int, timeout: float = 2.0) -> None:
        self._request(lambda r: P.leds(r, mask), False, timeout)

    def add_entropy(self, data: bytes, timeout: float = 2.0) -> None:
        """Mix ``data`` (1 to 16 bytes: what one SEED carries) into the box's dice."""
        if not 1 <= len(data) <= 16:
            raise ValueError(f"SEED carries 1 to 16 bytes of entropy, not {len(data)}: "
                             "send more in several")
        self._request(lambda r: P.seed(r, data), False, timeout)

    def ping(self, timeout: float = 2.0) -> float:
        t0 = time.monotonic()
        self._request(P.ping, False, timeout)
        return time.monotonic() - t0


def find_box(timeout: float = 1.5) -> str | None:
    """The first serial port that answers the handshake (Arduino-like ports first)."""
    ports = sorted(list_ports.comports(),
                   key=lambda p: (0 if (p.vid in (0x2341, 0x2A03, 0x1A86, 0x0403)) else 1,
                                  p.device))
    for info in ports:
        box = TableBox(info.device, reconnect_interval=10)
        try:
            box.start(wait=timeout)
            return info.device
        except DeviceError:
            continue
        finally:
            box.stop()
    return None


def _check_dice(sides: int, dice: int) -> None:
    if not isinstance(sides, int) or not 2 <= sides <= P.MAX_SIDES:
        raise ValueError(f"a die has 2 to {P.MAX_SIDES} sides, not {sides!r}")
    most = P.max_dice(sides)
    if not isinstance(dice, int) or not 1 <= dice <= most:
        raise ValueError(f"the box rolls 1 to {most} d{sides} at a time, not {dice!r}")


def _set_aside(msg: P.Event, asked: tuple[int, int, str | None] | None,
               ours: bool) -> str:
    """Why a roll answer is not the table's dice ("" when it is): a request this process
    never made (an earlier host's, before a crash), one it no longer waits for (answered
    already, or given up), or dice unlike those asked for."""
    if not ours:
        return "it answers a roll asked for before a restart"
    if asked is None:
        return "it answers a roll no longer waited for (answered already, or given up)"
    sides, dice, player = asked
    if msg.sides != sides or len(msg.numbers) != dice or (player and msg.player != player):
        return (f"it is not the roll asked for ({dice} d{sides} for {player or 'anyone'}, "
                f"not {len(msg.numbers)} d{msg.sides} for {msg.player or 'anyone'})")
    return ""
