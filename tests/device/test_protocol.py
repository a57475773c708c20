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
    box = "00C0FFEE"
    assert P.parse(f"HELLO 3 3.0.0 {b} 5 4 {box} 0") == P.Hello(3, "3.0.0", b, 5, 4, box, 0)
    assert P.parse(f"HELLO 3 3.0.0 {b} 1 0 {box} 4294967295").lost == 2**32 - 1  # no cap
    assert P.parse(f"HELLO 1 1.0.0 {b} 5 4").protocol == 1  # named, then refused
    assert P.parse(f"HELLO 2 2.0.0 {b} 5 4 {box} 0").protocol == 2  # the old dice: refused
    assert P.parse("HELLO 4 4.0.0 whatever").protocol == 4  # a newer box: refused too
    assert P.parse(f"HB {b} 502 3 1 5 7") == P.Heartbeat(b, 502, 3, 1, 5, 7)
    assert P.parse("OK 9") == P.Reply(True, 9, None)
    assert P.parse("ERR - unknown") == P.Reply(False, None, "unknown")
    assert P.parse(f"EV {b} 3 BTN p2 strike") == P.Event(b, 3, "BTN", player="p2",
                                                         button="strike")
    ev = P.parse(f"EV {b} 4 ROLL 7 d6 p1 1,4,6,3")
    assert ev.numbers == (1, 4, 6, 3) and ev.sides == 6 and ev.request == 7
    assert ev.player == "p1"
    assert P.parse(f"EV {b} 5 ROLL - d6 - 6").numbers == (6,)
    assert P.parse(f"EV {b} 5 ROLL - d250 - 250,1").numbers == (250, 1)
    assert P.parse(f"EV {b} 5 ROLL 3 d16 p2 " + ",".join(["16"] * 17)).sides == 16
    # A numbered event the host cannot read keeps its place in the sequence (to be
    # acknowledged and skipped): a newer box's event kind, another button, odd faces.
    for unknown in ("BTN p3 roll", "ROLL 2 d6 p1 7", "ROLL 2 d6 p1 0", "ROLL 2 d6 p1 M",
                    "ROLL 2 attack p1 1,M", "ROLL 2 d1 p1 1", "ROLL 2 d251 p1 1",
                    "ROLL 2 d06 p1 1", "ROLL 2 d6 p1 1,,2", "ROLL 2 d6 p1 01",
                    "ROLL 2 d16 p1 " + ",".join(["1"] * 18), "ROLL 2 d6 p3 1",
                    "BTN p1 dance", "TILT p1 left",
                    "LOST 3"):  # LOST: counted in HB since protocol 2, not events
        ev = P.parse(f"EV {b} 9 {unknown}")
        assert ev.kind == "UNKNOWN" and ev.seq == 9 and ev.text == unknown[:40]
    for bad in (f"EV {b} x BTN p1 roll", f"EV {b} 070 BTN p1 roll", "EV 1 BTN p1 roll",
                f"EV {b} 70000 BTN p1 roll", "EV 7cf23a76 1 BTN p1 roll", "HELLO 3",
                "NOPE", "HELLO 3 3.0.0 7cf23a76 5 4", "HELLO 3 3.0.0 7CF23A7 5 4",
                "HELLO 3 3.0.0 7CF2 3A76 5", f"HELLO 3 3.0.0 {b} 05 4 - -",
                f"HELLO 3 3.0.0 {b} 5 4 - -", f"HELLO 3 3.0.0 {b} 5 4 00c0ffee 0",
                f"HELLO 3 3.0.0 {b} 5 4 00C0FFEE 4294967296", f"HELLO 3 3.0.0 {b} 5 4",
                f"HB {b} 1 70000 1 1 0", f"HB {b} 1 1 1 1", f"HB {b} 1 1 1 1 01",
                "HB 1 1 1", "OK 65536", f"HB {b} ² 1 1 1 0"):
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
@given(st.sampled_from(["EV 12 BTN p1 ready", "EV 3 ROLL 9 d6 p2 1,2,3,4,6",
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
    assert (P.seq_next(7), P.seq_next(65535), P.seq_next(0)) == (8, 1, 1)


@pytest.mark.parametrize(("last", "upto", "gap"), [
    (5, 9, 4), (9, 9, 0), (0, 3, 3),  # 0: nothing delivered yet
    (65534, 2, 3),  # 65535, 1, 2: the wrap skips 0, which no event has
    (65535, 0, 0),  # a new boot starting at 1 after 65535 says acked 0
    (9, 5, None), (1, 65535, None),  # the numbering went back: the box forgot it
])
def test_the_gap_between_two_event_numbers(last, upto, gap):
    assert P.seq_gap(last, upto) == gap


def test_the_worked_example_in_the_spec_has_valid_frames():
    """Every frame of PROTOCOL.md's worked example checks (a reader copying it gets frames
    a box and a host accept) and parses as what it says it is."""
    import re
    from pathlib import Path

    spec = (Path(P.__file__).parent / "PROTOCOL.md").read_text()
    example = spec.split("## Worked example", 1)[1].split("```")[1]
    frames = re.findall(r"(?:host→box|box→host)  (\S.*?\*[0-9A-F]{4})(?:\s|$)", example)
    assert len(frames) == 8
    for text in frames:
        assert list(P.FrameParser().feed(text.encode() + b"\n")) == [text.split("*")[0]]
    hello = P.parse(frames[1].split("*")[0])
    assert isinstance(hello, P.Hello) and hello.box_id == "00C0FFEE"


@pytest.mark.parametrize("body", ["EV 1A2B3C4D 1 BTN p1 re*dy"])
def test_a_line_with_two_stars_is_no_frame(body: str) -> None:
    raw = body.encode()
    parser = P.FrameParser()
    assert list(parser.feed(raw + b"*%04X\n" % P.crc16(raw))) == [] and parser.dropped == 1


@pytest.mark.parametrize("body", ["EV 1A2B3C4D 1 BTN p1 ready ", "EV 1A2B3C4D 1 BTN p1  ready",
                                  " EV 1A2B3C4D 1 BTN p1 ready", "HB 1A2B3C4D 5 0 0 1 0 ",
                                  "OK 3 "])
def test_spaces_out_of_place_make_a_malformed_message(body: str) -> None:
    with pytest.raises(P.ProtocolError, match="exactly one space"):
        P.parse(body)
