"""The host bridge against both backends: the Python simulator and the real firmware
running in simavr (the same tests, python-can style)."""

import contextlib
import time

import pytest

from firmware_bridge.bridge import DeviceError
from firmware_bridge.fairness import chi_square

from .conftest import connected_box, wait_kind


def test_handshake_buttons_and_order(backend, box):
    assert box.connected and box.boot_id and box.firmware
    for player, button in [("p1", "ready"), ("p2", "strike"), ("p1", "undo")]:
        backend.press(player, button)
    got = []
    deadline = time.monotonic() + 5
    while len(got) < 3 and time.monotonic() < deadline:
        ev = wait_kind(box, "button", 1)
        if ev:
            got.append((ev.player, ev.button, ev.seq))
    assert [(p, b) for p, b, _ in got] == [("p1", "ready"), ("p2", "strike"), ("p1", "undo")]
    seqs = [s for *_, s in got]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3


def test_host_requested_rolls(backend, box):
    ev = box.roll(6, 8, "p2")
    assert ev.kind == "roll" and ev.player == "p2" and ev.sides == 6 and len(ev.numbers) == 8
    assert set(ev.numbers) <= set(range(1, 7))
    two = box.roll(6, 2)
    assert len(two.numbers) == 2 and two.player is None
    # Any die from 2 to 250 sides, up to the most a roll holds (PROTOCOL.md's table).
    for sides, most in ((2, 24), (8, 24), (9, 17), (16, 17), (20, 16), (54, 13),
                        (100, 11), (250, 10)):
        big = box.roll(sides, most, "p1")
        assert big.sides == sides and len(big.numbers) == most
        assert all(1 <= n <= sides for n in big.numbers)
    for sides, dice in ((6, 25), (16, 18), (250, 11), (1, 1), (251, 1), (6, 0)):
        with pytest.raises(ValueError):
            box.roll(sides, dice)


def test_roll_button_rolls_what_was_armed(backend, box):
    box.arm("p1", 20, 3)
    backend.press("p1", "roll")
    assert wait_kind(box, "button", 5, player="p1", button="roll")
    ev = wait_kind(box, "roll", 5, player="p1")
    assert ev.sides == 20 and len(ev.numbers) == 3 and ev.request is None
    backend.press("p1", "roll")  # the arming is used once: back to one six-sided die
    ev = wait_kind(box, "roll", 5, player="p1")
    assert ev.sides == 6 and len(ev.numbers) == 1


def test_leds_and_ping(backend, box):
    box.set_leds(0x05)
    assert box.ping() < 1.0


@pytest.mark.parametrize("power_cut", [False, True], ids=["reset", "power cut"])
def test_reboot_is_noticed_and_numbering_goes_on(backend, box, power_cut):
    """The box keeps where its numbering stands (EEPROM): after a reset or a power cut
    the next event has the next number, so the host sees no gap and reports no loss."""
    backend.press("p1", "ready")
    first = wait_kind(box, "button", 5)
    old_boot = box.boot_id
    backend.settle()  # the journal has the press (within 70 ms of it on a real chip)
    backend.reboot(power_cut=power_cut)
    ev = wait_kind(box, ("connected", "lost_events"), 5)
    assert ev is not None and ev.kind == "connected", ev
    assert ev.detail["rebooted"] and box.boot_id != old_boot and ev.seq == first.seq
    backend.press("p2", "ready")
    after = wait_kind(box, "button", 5)
    assert after.player == "p2" and after.seq == first.seq + 1


def test_dice_are_fair(backend, box):
    """60,000 six-sided dice from the box (2,500 requests of 24), and 17,000 of a d16
    (its 4-bit packing): chi-square p > 0.001 each.

    Four such checks a run fail a fair box about once in 250 runs (CI met one: d6,
    p = 0.00033). So a check that fails is drawn once more, as a new sample, and the box
    fails only if that one fails too: a fair box then about once in 250,000 runs, while
    a bias large enough to fail one sample fails the second as surely."""
    if backend.name == "simulator":
        n_requests = 500  # the simulator uses the host's CSPRNG; a smaller check suffices
    else:
        n_requests = 2500

    def sample(sides: int, dice: int, requests: int) -> tuple[float, float, dict[int, int]]:
        counts = dict.fromkeys(range(1, sides + 1), 0)
        for _ in range(requests):
            for n in box.roll(sides, dice, timeout=5).numbers:
                counts[n] += 1
        assert sum(counts.values()) == dice * requests
        stat, p = chi_square(list(counts.values()), [1 / sides] * sides)
        return stat, p, counts

    for sides, dice, requests in ((6, 24, n_requests), (16, 17, n_requests * 2 // 5)):
        stat, p, counts = sample(sides, dice, requests)
        if p <= 0.001:
            first = f"first sample chi-square {stat:.1f}, p = {p:.2g}"
            stat, p, counts = sample(sides, dice, requests)
            assert p > 0.001, \
                f"d{sides}: {first}; second chi-square {stat:.1f}, p = {p:.2g}: {counts}"


def test_no_box_gives_a_clear_error(tmp_path):
    from firmware_bridge.bridge import TableBox

    tb = TableBox(str(tmp_path / "no-such-port"), reconnect_interval=0.05)
    with pytest.raises(DeviceError, match="no table box answered"):
        tb.start(wait=0.5)
    ev = tb.events.get(timeout=1)
    reason = ev.detail["reason"]
    assert ev.kind == "lost" and reason.startswith("no device at ") \
        and "is the box plugged in?" in reason
    assert "Errno" not in reason  # what staff read: no raw OS error
    tb.stop()


def test_a_port_that_will_not_open_says_what_to_do(tmp_path) -> None:
    import errno

    import serial

    from firmware_bridge.bridge import cannot_open

    busy = serial.SerialException(errno.EBUSY, "could not open port x: [Errno 16] busy")
    assert cannot_open("/dev/ttyACM0", busy) == "/dev/ttyACM0 is in use by another program"
    denied = serial.SerialException(errno.EACCES, "could not open port: [Errno 13]")
    assert "dialout group" in cannot_open("/dev/ttyACM0", denied)
    assert cannot_open("bogus://x", ValueError("invalid URL, protocol 'bogus' not known")) \
        == "cannot open bogus://x: invalid URL, protocol 'bogus' not known"


def test_chi_square_itself():
    stat, p = chi_square([100, 100, 100], [1 / 3] * 3)
    assert stat == 0 and p == pytest.approx(1.0)
    _, p = chi_square([300, 0, 0], [1 / 3] * 3)
    assert p < 1e-50
    _, p = chi_square([10, 20], [0.5, 0.5])  # 3.33 on 1 df
    assert p == pytest.approx(0.0679, abs=1e-3)


def test_any_pyserial_url_opens_and_silence_is_reported():
    """loop:// echoes our own frames back: they are not box messages and are ignored."""
    from firmware_bridge.bridge import TableBox

    tb = TableBox("loop://", reconnect_interval=0.05)
    with pytest.raises(DeviceError):
        tb.start(wait=0.6)
    assert tb.stats["bad_messages"] >= 1  # our own HELLO? came back and was refused
    assert not tb.connected
    tb.stop()


def test_a_late_ack_from_before_a_reboot_acknowledges_nothing(backend, box):
    from firmware_bridge import protocol as P

    backend.press("p1", "ready")
    first = wait_kind(box, "button", 5)
    old_boot = box.boot_id
    backend.reboot()
    assert wait_kind(box, "connected", 5)
    box._write(P.ack(first.seq, old_boot))  # the old boot's number 1 is the new boot's too
    backend.press("p2", "shift")
    ev = wait_kind(box, "button", 5)
    assert ev is not None and (ev.player, ev.button) == ("p2", "shift")


@contextlib.contextmanager
def relayed(backend, heartbeat_timeout: float):
    """The backend's box behind a relay (to unplug it, or to lose frames on purpose),
    connected, with one press already delivered."""
    from firmware_bridge.bridge import TableBox
    from firmware_bridge.relay import FaultyRelay

    relay = FaultyRelay(backend.port).start()
    box = TableBox(relay.url, heartbeat_timeout=heartbeat_timeout,
                   reconnect_interval=0.05).start()
    time.sleep(0.2)
    if hasattr(backend, "started"):
        backend.started()
    try:
        assert wait_kind(box, "connected", 10)
        backend.press("p1", "ready")
        assert wait_kind(box, "button", 5)
        yield relay, box
    finally:
        box.stop()
        relay.stop()


def test_a_reboot_whose_hello_is_lost_loses_no_press_silently(backend):
    """The box restarts and its boot HELLO is lost on the wire (protocol 1 stalled here:
    of 60 presses 20 never arrived and nothing said so). Every press is delivered once
    or reported lost with its count; none is lost silently, none arrives twice."""
    with relayed(backend, heartbeat_timeout=1.0) as (relay, box):
        relay.mute_hellos(1)
        backend.reboot()
        time.sleep(0.3)  # presses while a box boots are read by nobody (real or not)
        presses = [("p1", "ready"), ("p2", "shift"), ("p1", "strike"), ("p2", "undo")]
        sent = [presses[i % 4] for i in range(60)]
        for player, button in sent:
            backend.press(player, button)
            time.sleep(0.03)  # faster than hands: about 33 presses a second
        got, seqs, reported = [], [], 0
        deadline = time.monotonic() + 30
        while len(got) + reported < len(sent) and time.monotonic() < deadline:
            ev = wait_kind(box, ("button", "lost_events"), 0.5)
            if ev is None:
                continue
            if ev.kind == "lost_events":
                reported += ev.detail["count"]
            else:
                got.append((ev.player, ev.button))
                seqs.append(ev.seq)
        silent = len(sent) - len(got) - reported
        print(f"{backend.name}: {len(sent)} pressed, {len(got)} delivered, {reported} lost "
              f"and reported, {silent} lost silently, {len(seqs) - len(set(seqs))} twice")
        assert relay.stats["muted"] == 1
        assert silent == 0 and len(set(seqs)) == len(seqs)
        # What arrived is what was pressed, in order (the reported ones left out).
        it = iter(sent)
        assert all(any(p == q for q in it) for p in got)


@pytest.mark.parametrize("power_cut", [False, True], ids=["reset", "power cut"])
def test_a_reboot_with_presses_undelivered_reports_how_many(backend, power_cut):
    """The cable is out, five presses wait in the box, and the box restarts (watchdog,
    reset button) or loses power: they are gone with its RAM, and the host says exactly
    how many (the box's numbering goes on from its EEPROM journal: the gap is them)."""
    with relayed(backend, heartbeat_timeout=0.8) as (relay, box):
        relay.unplug(2.5)
        time.sleep(0.3)
        for _ in range(5):
            backend.press("p2", "shift")
        backend.settle()
        backend.reboot(power_cut=power_cut)
        time.sleep(0.3)
        backend.press("p1", "undo")  # after the restart: delivered
        lost = wait_kind(box, "lost_events", 10)
        assert lost is not None and lost.detail["count"] == 5, lost
        assert "restarted" in lost.detail["reason"]
        after = wait_kind(box, "button", 5)
        assert (after.player, after.button) == ("p1", "undo")


@pytest.mark.parametrize("power_cut", [False, True], ids=["reset", "power cut"])
def test_a_restart_before_the_journal_caught_up_numbers_again(slow_journal_backend,
                                                              power_cut):
    """Events go out at once and the journal follows: a restart before it held the
    numbers the host heard makes the new boot number them again. The host takes that
    step back as such (the boot id tells the new events from the old): no loss is
    reported, nothing is dropped as a duplicate, nothing is called uncountable."""
    backend = slow_journal_backend
    box = connected_box(backend)
    try:
        backend.press("p1", "ready")
        first = wait_kind(box, "button", 5)
        backend.reboot(power_cut=power_cut)  # the journal's record is a second away
        ev = wait_kind(box, ("connected", "lost_events"), 10)
        assert ev is not None and ev.kind == "connected" and ev.detail["rebooted"], ev
        assert ev.seq == first.seq - 1  # the new boot's acked: where its journal stood
        backend.press("p2", "strike")
        after = wait_kind(box, "button", 5)
        assert (after.player, after.button, after.seq) == ("p2", "strike", first.seq)
        assert box.stats["journal_steps_back"] == 1 and box.stats["duplicates"] == 0
        assert box.stats["lost_in_reboots"] == 0
    finally:
        box.stop()


def test_a_press_during_a_burst_of_host_lines_is_seen():
    """The firmware samples its buttons in the 1 ms timer interrupt, not between host
    lines: a burst of lines kept the main loop busy for longer than a short press, and
    the press was never seen. Here the burst is the host's HELLO? piled up over a long
    boot (an EEPROM fifteen times slower than the chip's: 50 ms a byte), and the press
    comes as the box answers them."""
    from .conftest import EmuBackend

    backend = EmuBackend(eeprom_ms=50)
    try:
        box = connected_box(backend)
        try:
            backend.press("p1", "ready")
            assert wait_kind(box, "button", 5, player="p1", button="ready")
        finally:
            box.stop()
    finally:
        backend.close()


def test_a_box_whose_memory_was_erased_is_not_taken_for_the_old_one(backend, box):
    """A re-flash that erased the EEPROM (or another box on the same port) starts its
    numbering afresh under a new box id: the host says it cannot tell what the old box
    lost, instead of reading the new numbers as the old box's."""
    backend.press("p1", "ready")
    assert wait_kind(box, "button", 5)
    old_box = box.box_id
    backend.erase()
    lost = wait_kind(box, "lost_events", 5)
    assert lost is not None and lost.detail["count"] is None
    assert "another table box" in lost.detail["reason"] and box.box_id != old_box
    backend.press("p2", "ready")
    after = wait_kind(box, "button", 5)
    assert after.player == "p2" and after.seq == 1


def test_presses_beyond_a_full_queue_are_counted_and_reported(backend):
    """The cable is out and more presses come than the box can keep: the ones that
    found the queue full are counted (in the box's journal) and the host reports
    exactly how many when the cable is back; the others arrive."""
    with relayed(backend, heartbeat_timeout=0.8) as (relay, box):
        relay.unplug(4.0)
        time.sleep(0.3)
        for _ in range(50):
            backend.press("p1", "shift")
        got, reported = 0, 0
        deadline = time.monotonic() + 15
        while got + reported < 50 and time.monotonic() < deadline:
            ev = wait_kind(box, ("button", "lost_events"), 0.5)
            if ev is not None and ev.kind == "button":
                got += 1
            elif ev is not None:
                reported += ev.detail["count"]
        assert got + reported == 50 and got >= 30 and reported >= 10, (got, reported)
        assert box.stats["lost_presses"] == reported


def test_a_roll_press_needs_room_for_its_dice_too(backend):
    """A roll press is two events, its BTN and its ROLL: with one place left in the
    queue (40) the press is lost whole and counted, never a roll button without dice;
    a press of another button still takes that place."""
    with relayed(backend, heartbeat_timeout=0.8) as (relay, box):
        time.sleep(0.2)  # the first press's ACK is in: the queue is empty
        relay.unplug(5.0)
        time.sleep(0.3)
        for _ in range(39):
            backend.press("p1", "shift")
        backend.press("p2", "roll")  # one place left: lost, counted
        backend.press("p2", "undo")  # fits
        got: list[tuple[str, str]] = []
        reported = 0
        deadline = time.monotonic() + 15
        while len(got) + reported < 41 and time.monotonic() < deadline:
            ev = wait_kind(box, ("button", "roll", "lost_events"), 0.5)
            if ev is not None and ev.kind == "lost_events":
                reported += ev.detail["count"]
            elif ev is not None:
                got.append((ev.kind, ev.button or ""))
        assert reported == 1 and got == [("button", "shift")] * 39 + [("button", "undo")]


def test_a_heartbeats_pending_counts_the_events_not_yet_acknowledged(backend):
    """Read raw (no host): ``HB ... <pending> ...`` is the number of events in the box's
    queue not yet acknowledged, sent or not; a cumulative ACK takes them off."""
    import serial

    from .peer import frame

    port = serial.serial_for_url(backend.port, baudrate=115200, timeout=0.05)
    raw = b""

    def heartbeat_after(mark: int) -> list[str]:
        """The first heartbeat read after byte ``mark`` of what came, split in tokens."""
        nonlocal raw
        end = time.monotonic() + 3
        while time.monotonic() < end:
            raw += port.read(4096)
            for line in raw[mark:].split(b"\n")[:-1]:
                if line.startswith(b"HB "):
                    return line.rpartition(b"*")[0].decode().split(" ")
        raise AssertionError(f"no heartbeat: {raw[mark:]!r}")

    try:
        if hasattr(backend, "started"):
            backend.started()
        time.sleep(0.3)
        for player, button in (("p1", "ready"), ("p2", "strike"), ("p1", "undo")):
            backend.press(player, button)
        time.sleep(0.1)
        raw += port.read(4096)
        hb = heartbeat_after(len(raw))
        evs = [line.split(b" ") for line in raw.split(b"\n") if line.startswith(b"EV ")]
        boot = evs[0][1].decode()
        second = sorted({int(ev[2]) for ev in evs})[1]  # resent lines come again
        assert hb[4] == "3", hb  # HB <boot> <uptime> <acked> <pending> ...
        port.write(frame(f"ACK {second} {boot}"))
        time.sleep(0.05)
        raw += port.read(4096)
        hb = heartbeat_after(len(raw))
        assert (hb[3], hb[4]) == (str(second), "1"), hb
    finally:
        port.close()


def test_every_frame_the_box_sends_keeps_the_framing_rules(backend):
    """Both box implementations, read raw (no host parser): every line is printable
    ASCII with no ``\\r`` (a sender MUST NOT send them), single spaces, no ``*`` in the
    body, an upper-case CRC that checks, at most 96 bytes; ACK, ROLL, PING, an unknown
    command and a malformed one all get what the spec says."""
    import re

    import serial

    from .peer import crc, frame

    port = serial.serial_for_url(backend.port, baudrate=115200, timeout=0.05)
    try:
        if hasattr(backend, "started"):
            backend.started()
        time.sleep(0.3)
        # The longest frame the protocol makes (17 two-digit faces of a d16), and a
        # protocol 2 host's roll, refused as malformed.
        for body in ("HELLO? 3", "ROLL 11 d6 24 p1", "PING 12", "FLY 13", "PING x",
                     "ROLL 14 d16 17 p2", "ROLL 15 attack 3 p1", "ROLL 16 d6 25 p1"):
            port.write(frame(body))
            time.sleep(0.05)
        backend.press("p2", "roll")
        raw = b""
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            raw += port.read(4096)
            if b"ROLL 11" in raw and b"BTN p2 roll" in raw and b"ROLL -" in raw:
                port.write(frame("ACK 1 00000000"))
        lines = raw.split(b"\n")[:-1]
        assert lines and b"\r" not in raw
        bodies = []
        for line in lines:
            assert len(line) + 1 <= 96 and all(0x20 <= b <= 0x7E for b in line), line
            body, star, tail = line.rpartition(b"*")
            assert star and re.fullmatch(rb"[0-9A-F]{4}", tail), line
            assert int(tail, 16) == crc(body) and b"*" not in body, line
            assert re.fullmatch(rb"[^ ]+( [^ ]+)*", body), line  # single spaces only
            bodies.append(body.decode())
        kinds = {b.split(" ")[0] for b in bodies}
        assert {"HELLO", "HB", "EV", "OK", "ERR"} <= kinds, kinds
        assert "OK 12" in bodies and "ERR 13 unknown" in bodies and "ERR - req" in bodies
        assert "ERR 15 args" in bodies and "ERR 16 args" in bodies
        rolls = [b for b in bodies if " ROLL 11 d6 p1 " in b]
        assert rolls and len(rolls[0].rsplit(" ", 1)[1].split(",")) == 24
        big = [b for b in bodies if " ROLL 14 d16 p2 " in b]
        assert big and len(big[0].rsplit(" ", 1)[1].split(",")) == 17
    finally:
        port.close()



def test_a_fresh_box_says_acked_0_and_next_seq_1(backend):
    """PROTOCOL.md: at boot ``acked`` is ``next_seq - 1`` as a plain number, so a box
    whose memory is new says 0 (not 65535). Both boxes, read raw."""
    import serial

    from .peer import crc, frame

    port = serial.serial_for_url(backend.port, baudrate=115200, timeout=0.05)
    try:
        if hasattr(backend, "started"):
            backend.started()
        time.sleep(0.3)
        backend.erase()
        time.sleep(0.3)
        port.reset_input_buffer()
        port.write(frame("HELLO? 3"))
        raw = b""
        end = time.monotonic() + 2
        while time.monotonic() < end and b"HELLO 3 " not in raw:
            raw += port.read(4096)
        hellos = [line.rpartition(b"*")[0].decode() for line in raw.split(b"\n")
                  if line.startswith(b"HELLO 3 ")
                  and line.rpartition(b"*")[2] == b"%04X" % crc(line.rpartition(b"*")[0])]
        assert hellos, raw
        _, _, _, _, next_seq, acked, _, lost = hellos[-1].split(" ")
        assert (next_seq, acked, lost) == ("1", "0", "0"), hellos[-1]
    finally:
        port.close()


REPLIES = [  # PROTOCOL.md's ERR codes: the request id judged first, then the arguments
    ("PING", "ERR - args"), ("PING x", "ERR - req"), ("PING 0", "ERR - req"),
    ("ROLL", "ERR - args"), ("ROLL 5", "ERR 5 args"), ("FLY", "ERR - args"),
    ("FLY 7", "ERR 7 unknown"), ("LED 3", "ERR 3 args"), ("LED 3 1f", "OK 3"),
    ("LED 3 1F", "OK 3"), ("LED 3 F", "ERR 3 args"), ("LED 3 100", "ERR 3 args"),
    ("LED 3 zz", "ERR 3 args"), ("ACK", "ERR - args"), ("ACK 1", "ERR - args"),
    ("ACK 1 zz", "ERR - args"), ("SEED 4", "ERR 4 args"), ("SEED 4 " + "A" * 33, "ERR 4 args"),
    ("SEED 4 ab", "OK 4"), ("SEED 4 " + "f" * 32, "OK 4"),
]


def test_both_boxes_answer_malformed_commands_as_the_spec_says(backend):
    import serial

    from .peer import frame

    port = serial.serial_for_url(backend.port, baudrate=115200, timeout=0.05)
    try:
        if hasattr(backend, "started"):
            backend.started()
        time.sleep(0.3)
        got = {}
        for command, _ in REPLIES:
            port.reset_input_buffer()
            port.write(frame(command))
            raw = b""
            end = time.monotonic() + 1.0
            while time.monotonic() < end and not any(
                    line.startswith((b"OK", b"ERR")) for line in raw.split(b"\n")):
                raw += port.read(256)
            got[command] = next((line.rpartition(b"*")[0].decode() for line in raw.split(b"\n")
                                 if line.startswith((b"OK", b"ERR"))), None)
        assert got == dict(REPLIES)
    finally:
        port.close()
