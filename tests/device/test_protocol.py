"""The wire format on its own: framing, parsing, fuzzing."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as P


def test_crc_and_encoding_match_the_documented_example():
    assert P.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE check value
    assert P.ack(5, "7CF23A76") == P.encode("ACK 5 7CF23A76")
    assert P.encode("PING 7") == b"PING 7*%04X\n" % P.crc16(b"PING 7")
    with pytest.raises(ValueError):
        P.encode("A*B")
    with pytest.raises(ValueError):
        P.encode("X" * 100)


def test_parse_every_box_message():
    b = "7CF23A76"
    assert P.parse(f"HELLO 2 2.0.0 {b} 5 4 - -") == P.Hello(2, "2.0.0", b, 5, 4)
    assert P.parse(f"HELLO 2 2.0.0 {b} 1 0 7 2") == P.Hello(2, "2.0.0", b, 1, 0, 7, 2)
    assert P.parse(f"HELLO 1 1.0.0 {b} 5 4").protocol == 1  # named, then refused
    assert P.parse(f"HB {b} 502 3 1 5") == P.Heartbeat(b, 502, 3, 1, 5)
    assert P.parse("OK 9") == P.Reply(True, 9, None)
    assert P.parse("ERR - unknown") == P.Reply(False, None, "unknown")
    assert P.parse(f"EV {b} 3 BTN p2 strike") == P.Event(b, 3, "BTN", player="p2",
                                                         button="strike")
    ev = P.parse(f"EV {b} 4 ROLL 7 attack p1 1,M,B,3")
    assert ev.faces == (1, "miss", "blade", 3) and ev.request == 7 and ev.player == "p1"
    assert P.parse(f"EV {b} 5 ROLL - init - 6").faces == (6,)
    assert P.parse(f"EV {b} 6 LOST 3").lost == 3
    assert P.parse(f"EV {b} 7 LOST 4294967295").lost == 2**32 - 1  # no 255 cap
    # A numbered event the host cannot read keeps its place in the sequence (to be
    # acknowledged and skipped): a newer box's event kind, another button, odd faces.
    for unknown in ("BTN p3 roll", "ROLL 2 attack p1 7", "ROLL 2 init p1 M", "BTN p1 dance",
                    "TILT p1 left"):
        ev = P.parse(f"EV {b} 9 {unknown}")
        assert ev.kind == "UNKNOWN" and ev.seq == 9 and ev.text == unknown
    for bad in (f"EV {b} x BTN p1 roll", f"EV {b} 070 BTN p1 roll", "EV 1 BTN p1 roll",
                f"EV {b} 70000 BTN p1 roll", "EV 7cf23a76 1 BTN p1 roll", "HELLO 2",
                "NOPE", "HELLO 2 2.0.0 7cf23a76 5 4", "HELLO 2 2.0.0 7CF23A7 5 4",
                "HELLO 2 2.0.0 7CF2 3A76 5", f"HELLO 2 2.0.0 {b} 05 4 - -",
                f"HELLO 2 2.0.0 {b} 5 4 - 3", f"HELLO 2 2.0.0 {b} 5 4 x y", f"HB {b} 1 70000 1 1",
                "HB 1 1 1", "OK 65536", f"HB {b} ² 1 1 1"):
        with pytest.raises(P.ProtocolError):
            P.parse(bad)


def test_parser_drops_bad_frames_and_resyncs():
    good = P.encode("EV 1 BTN p1 ready")
    corrupted = bytearray(good)
    corrupted[4] ^= 0x04
    stream = b"\x00\xffnoise" + b"\n" + bytes(corrupted) + good + b"X" * 200 + b"\n" + good
    parser = P.FrameParser()
    assert list(parser.feed(stream)) == ["EV 1 BTN p1 ready", "EV 1 BTN p1 ready"]
    assert parser.dropped == 3


def test_split_delivery_byte_by_byte():
    parser = P.FrameParser()
    out = []
    for b in P.encode("HB 1 2 3") + P.encode("OK 4"):
        out += list(parser.feed(bytes([b])))
    assert out == ["HB 1 2 3", "OK 4"]


@settings(max_examples=300)
@given(st.binary(max_size=400))
def test_fuzz_random_bytes_never_raise(data):
    parser = P.FrameParser()
    for body in parser.feed(data):
        # Anything delivered from noise has a valid CRC by construction; parse may refuse.
        try:
            P.parse(body)
        except P.ProtocolError:
            pass


@settings(max_examples=300)
@given(st.sampled_from(["EV 12 BTN p1 ready", "EV 3 ROLL 9 attack p2 1,2,3,M,B",
                        "HELLO 1 1.0.0 00C0FFEE 1 0", "HB 500 0 0", "OK 17"]),
       st.integers(0, 40), st.integers(0, 7))
def test_fuzz_no_corrupted_frame_is_delivered(body, pos, bit):
    frame = bytearray(P.encode(body))
    pos %= len(frame) - 1  # never the newline itself
    frame[pos] ^= 1 << bit
    got = list(P.FrameParser().feed(bytes(frame)))
    # CRC-16 catches every error of up to 16 bits in a row: a flipped bit never passes.
    assert got == []


def test_sequence_numbers_wrap():
    assert P.seq_after(1, 65535)
    assert not P.seq_after(65535, 1)
    assert P.seq_after(5, 4) and not P.seq_after(4, 4)
