"""The table-box wire protocol, v3 (``PROTOCOL.md``): framing and messages.

A frame is one line of printable ASCII: ``<body>*<CRC>\\n``, where CRC is the
CRC-16/CCITT-FALSE of the body as four upper-case hex digits. Bodies are space-separated
tokens, the first naming the message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

PROTOCOL_VERSION = 3
MAX_FRAME = 96  # bytes, including "*CRC\n"
BUTTONS = ("roll", "ready", "shift", "strike", "undo")
MAX_SIDES = 250
# A box sends events ahead of its EEPROM journal by at most this many numbers, so a
# restart may number again from up to this far behind the last number the host heard.
JOURNAL_LAG = 32


def max_dice(sides: int) -> int:
    """The most dice of ``sides`` sides one roll holds (PROTOCOL.md): 24 up to a d8,
    then what the box's 80 bits per event and a 96-byte frame allow."""
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"a die has 2 to {MAX_SIDES} sides, not {sides}")
    bits = max(3, (sides - 1).bit_length())
    return {3: 24, 4: 17, 5: 16, 6: 13, 7: 11, 8: 10}[bits]


def crc16(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def encode(body: str) -> bytes:
    raw = body.encode("ascii")
    if any(b < 0x20 or b > 0x7E or b == 0x2A for b in raw):
        raise ValueError(f"frame body must be printable ASCII without '*': {body!r}")
    frame = raw + b"*%04X\n" % crc16(raw)
    if len(frame) > MAX_FRAME:
        raise ValueError(f"frame longer than {MAX_FRAME} bytes: {body!r}")
    return frame


class FrameParser:
    """Bytes in, valid frame bodies out. Garbage, over-long lines and bad CRCs are
    counted and dropped; nothing from a bad frame is ever delivered."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._bad = False
        self.dropped = 0

    def feed(self, data: bytes) -> Iterator[str]:
        for byte in data:
            if byte == 0x0A:
                frame, bad = bytes(self._buf), self._bad
                self._buf.clear()
                self._bad = False
                body = None if bad else self._check(frame)
                if body is None:
                    if frame or bad:
                        self.dropped += 1
                else:
                    yield body
            elif byte == 0x0D:
                continue
            elif byte < 0x20 or byte > 0x7E or len(self._buf) >= MAX_FRAME - 1:
                self._bad = True
            else:
                self._buf.append(byte)

    @staticmethod
    def _check(frame: bytes) -> str | None:
        if len(frame) < 6 or frame[-5:-4] != b"*":
            return None
        body, crc_text = frame[:-5], frame[-4:]
        if b"*" in body:  # the first * ends a body: a line with two is malformed
            return None
        if not all(c in b"0123456789ABCDEF" for c in crc_text):  # upper-case only
            return None
        if crc16(body) != int(crc_text, 16):
            return None
        return body.decode("ascii")


# -- messages from the box -----------------------------------------------------------
@dataclass(frozen=True)
class Hello:
    protocol: int
    firmware: str
    boot_id: str
    next_seq: int
    acked: int
    # The box's own id (kept in its EEPROM; None from a protocol 1 box) and how many
    # presses it has ever lost to a full queue (modulo 2^32): the host counts losses
    # from the difference with the last value it heard of this box.
    box_id: str | None = None
    lost: int = 0


@dataclass(frozen=True)
class Heartbeat:
    boot_id: str
    uptime_ms: int
    acked: int
    pending: int
    next_seq: int
    lost: int


@dataclass(frozen=True)
class Reply:
    ok: bool
    request: int | None
    detail: str | None


@dataclass(frozen=True)
class Event:
    boot_id: str
    seq: int
    kind: str  # BTN, ROLL; UNKNOWN: a numbered event this host cannot read
    player: str | None = None
    button: str | None = None
    request: int | None = None
    sides: int | None = None  # a roll's dice
    numbers: tuple[int, ...] = ()  # what each die shows, 1..sides
    text: str = ""  # an UNKNOWN event's body (cut), for the report


Message = Hello | Heartbeat | Reply | Event


class ProtocolError(ValueError):
    """A frame with a valid CRC whose content is not a protocol 3 message."""


_NUMBER = re.compile(r"0|[1-9][0-9]{0,9}")  # ASCII digits, no leading zero
_BOOT = re.compile(r"[0-9A-F]{8}")  # the boot id goes back in every ACK: nothing else


def _int(token: str, what: str, limit: int = 0xFFFF) -> int:
    if not _NUMBER.fullmatch(token) or int(token) > limit:
        raise ProtocolError(f"{what} must be a number from 0 to {limit}, got {token[:12]!r}")
    return int(token)


def parse(body: str) -> Message:
    t = body.split(" ")
    if "" in t:
        # A leading, trailing or doubled space breaks the framing rule: the frame is
        # ignored (not acknowledged), so the box sends it again, as it would a frame
        # whose CRC failed; read as an event it would take the place of the real one.
        raise ProtocolError(f"tokens separated by exactly one space: {body[:40]!r}")
    kind = t[0]
    if kind == "HELLO" and len(t) >= 3 and t[1] != str(PROTOCOL_VERSION):
        # Another version's box (whatever shape its HELLO has there): named by its
        # version and firmware, then refused; nothing else of it is read.
        return Hello(_int(t[1], "protocol"), t[2][:20], "", 0, 0)
    if kind == "HELLO" and len(t) == 8:
        return Hello(_int(t[1], "protocol"), t[2][:20], _boot(t[3]),
                     _int(t[4], "next seq"), _int(t[5], "acked"), _boot(t[6], "box id"),
                     _int(t[7], "lost", 0xFFFFFFFF))
    if kind == "HB" and len(t) == 7:
        return Heartbeat(_boot(t[1]), _int(t[2], "uptime", 0xFFFFFFFF),
                         _int(t[3], "acked"), _int(t[4], "pending"),
                         _int(t[5], "next seq"), _int(t[6], "lost", 0xFFFFFFFF))
    if kind in ("OK", "ERR") and len(t) in (2, 3):
        req = None if t[1] == "-" else _int(t[1], "request")
        return Reply(kind == "OK", req, t[2] if len(t) == 3 else None)
    if kind == "EV" and len(t) >= 4:
        boot, seq = _boot(t[1]), _int(t[2], "seq")
        try:
            return _event(boot, seq, t[3:])
        except ProtocolError:
            # A numbered event this host cannot read (a newer box, another button):
            # it still takes its place in the sequence, to be acknowledged and
            # skipped; an event never acknowledged would stall the stream for ever.
            return Event(boot, seq, "UNKNOWN", text=" ".join(t[3:])[:40])
    raise ProtocolError(f"not a protocol {PROTOCOL_VERSION} message: {body!r}")


def _boot(token: str, what: str = "boot id") -> str:
    if not _BOOT.fullmatch(token):
        raise ProtocolError(f"{what} must be 8 upper-case hex digits, got {token[:12]!r}")
    return token


def _event(boot: str, seq: int, t: list[str]) -> Event:
    if t[0] == "BTN" and len(t) == 3 and t[1] in ("p1", "p2") and t[2] in BUTTONS:
        return Event(boot, seq, "BTN", player=t[1], button=t[2])
    if t[0] == "ROLL" and len(t) == 5 and t[2][:1] == "d":
        req = None if t[1] == "-" else _int(t[1], "request")
        sides = _int(t[2][1:], "sides", MAX_SIDES)
        player = None if t[3] == "-" else t[3]
        if player not in (None, "p1", "p2"):
            raise ProtocolError(f"bad player {t[3]!r}")
        if sides < 2:
            raise ProtocolError(f"a die of {sides} sides")
        numbers = tuple(_int(f, "die face", sides) for f in t[4].split(","))
        if 0 in numbers or len(numbers) > max_dice(sides):
            raise ProtocolError(f"bad dice {t[4][:40]!r} for a d{sides}")
        return Event(boot, seq, "ROLL", player=player, request=req, sides=sides,
                     numbers=numbers)
    raise ProtocolError(f"unknown event {' '.join(t)[:40]!r}")


# -- commands to the box -------------------------------------------------------------
def hello_query() -> bytes:
    return encode(f"HELLO? {PROTOCOL_VERSION}")


def ack(seq: int, boot_id: str) -> bytes:
    """Acknowledgements name the boot they belong to: a late one from before a reboot
    must not acknowledge the new boot's events that happen to share its number."""
    return encode(f"ACK {seq} {boot_id}")


def roll(request: int, sides: int, dice: int, player: str | None = None) -> bytes:
    return encode(f"ROLL {request} d{sides} {dice} {player or '-'}")


def arm(request: int, sides: int, dice: int, player: str) -> bytes:
    return encode(f"ARM {request} d{sides} {dice} {player}")


def leds(request: int, mask: int) -> bytes:
    return encode(f"LED {request} {mask & 0xFF:02X}")


def seed(request: int, entropy: bytes) -> bytes:
    return encode(f"SEED {request} {entropy.hex().upper()}")


def ping(request: int) -> bytes:
    return encode(f"PING {request}")


def seq_after(a: int, b: int) -> bool:
    """Is sequence number ``a`` after ``b``, modulo 2^16 (0 is never used)?"""
    return a != b and ((a - b) & 0xFFFF) < 0x8000


def seq_next(n: int) -> int:
    """The event number after ``n`` (65535 is followed by 1: 0 is never used)."""
    return n % 0xFFFF + 1


def seq_gap(last: int, upto: int) -> int | None:
    """How many event numbers come after ``last`` up to and including ``upto`` (0 is
    skipped when the numbering wraps); None when ``upto`` is before ``last``: the
    numbering went back, which only a box whose memory was erased does."""
    if upto == last:
        return 0
    if not seq_after(upto, last):
        return None
    d = (upto - last) & 0xFFFF
    return d - 1 if upto < last else d  # the wrap passed 0, which no event has
