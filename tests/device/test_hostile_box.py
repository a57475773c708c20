"""The host against a box that misbehaves: a scripted peer (``peer.py``, no code shared
with the host's parser) sends what a newer, broken or hostile box would."""

from __future__ import annotations

import threading
import time

import pytest

from firmware_bridge.bridge import DeviceError, TableBox
from table.device import DeviceEvent, StreamPosition
from table.session import GameLog, Session

from ..session.helpers import sample_setup
from .peer import Peer

BOOT = "1A2B3C4D"
BOX = "00C0FFEE"


@pytest.fixture
def peer():
    p = Peer()
    yield p
    p.close()


def connect(peer: Peer, boot: str = BOOT, acked: int = 0, **kw) -> TableBox:
    box = TableBox(peer.port, heartbeat_timeout=1.0, reconnect_interval=0.1, **kw)
    box.start()
    peer.wait_for("HELLO?")
    peer.send(f"HELLO 3 9.9.9 {boot} {acked + 1} {acked} {BOX} 0")
    got = box.events.get(timeout=3)
    assert got.kind == "connected", got
    return box


def events(box: TableBox, n: int, timeout: float = 3.0) -> list[DeviceEvent]:
    out: list[DeviceEvent] = []
    end = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < end:
        try:
            out.append(box.events.get(timeout=0.05))
        except Exception:
            pass
    return out


def test_an_unknown_event_is_acknowledged_skipped_and_said_once(peer: Peer) -> None:
    box = connect(peer)
    try:
        peer.send(f"EV {BOOT} 1 TILT p1 left")  # a newer box's event
        peer.send(f"EV {BOOT} 2 BTN p1 dance")  # a button this host does not know
        peer.send(f"EV {BOOT} 3 TILT p2 right")  # the same new kind again: not said twice
        peer.send(f"EV {BOOT} 4 BTN p2 ready")
        got = events(box, 3)
        assert [e.kind for e in got] == ["unknown_event", "unknown_event", "button"]
        assert got[0].detail["text"] == "TILT p1 left" and got[2].seq == 4
        assert peer.wait_for(f"ACK 4 {BOOT}")  # the stream moved on: nothing stalls
        assert box.stats["skipped"] == 3
    finally:
        box.stop()


def test_an_event_with_malformed_tokens_is_skipped_like_an_unknown_one(peer: Peer) -> None:
    """A valid boot and number with anything unreadable after them (a missing button, a
    face beyond the die, an empty face) is the box's own bug: resent, it would be the same
    bytes. It takes its place (acknowledged, skipped), the table told of the first of
    each kind; a roll waited for that comes back unreadable fails at once."""
    box = connect(peer)
    try:
        for seq, body in enumerate(["BTN p1", "ROLL - d6 p1 7", "ROLL - d6 p1 1,,2",
                                    "BTN p9 ready", "ROLL - d6 p1"], start=1):
            peer.send(f"EV {BOOT} {seq} {body}")
        peer.send(f"EV {BOOT} 6 BTN p2 ready")
        got = events(box, 3)
        assert [(e.kind, e.detail.get("text")) for e in got] == [
            ("unknown_event", "BTN p1"), ("unknown_event", "ROLL - d6 p1 7"),
            ("button", None)]
        assert got[2].seq == 6 and box.stats["skipped"] == 5
        assert peer.wait_for(f"ACK 6 {BOOT}")
    finally:
        box.stop()


@pytest.mark.parametrize("bad", [f"EV {BOOT} 1 BTN p1 re*dy",  # two * in the line
                                 f"EV {BOOT} 1 BTN p1 ready ",  # a trailing space
                                 f"EV {BOOT} 1 BTN p1  ready",  # a doubled one
                                 f" EV {BOOT} 1 BTN p1 ready"])  # a leading one
def test_a_malformed_event_is_ignored_and_the_real_one_delivered(peer: Peer, bad: str) -> None:
    # Framing says such a line is no message: not acknowledged, so the box sends the
    # event again; taken as an unknown event it would be acknowledged, and the real
    # press with its number then dropped as a duplicate: lost without a word.
    box = connect(peer)
    try:
        peer.send(bad)  # the peer frames it with a CRC that matches
        time.sleep(0.2)
        assert not any(line.startswith("ACK 1") for line in peer.lines(0.1))
        peer.send(f"EV {BOOT} 1 BTN p1 ready")  # the box's resend, well formed
        got = events(box, 1)
        assert [(e.kind, e.seq, e.button) for e in got] == [("button", 1, "ready")]
        assert peer.wait_for(f"ACK 1 {BOOT}")
        assert box.stats["skipped"] == 0
    finally:
        box.stop()


def _asking(box: TableBox, **kw) -> tuple[threading.Thread, list]:
    """``box.roll(**kw)`` in a thread; what it returned or raised lands in the list."""
    result: list = []

    def run() -> None:
        try:
            result.append(box.roll(**kw))
        except DeviceError as e:
            result.append(e)

    th = threading.Thread(target=run)
    th.start()
    return th, result


@pytest.mark.parametrize(("answer", "why"), [
    ("d6 p2 3,3", "for p1, not 2 d6 for p2"),  # the other player's dice
    ("d8 p1 3,3", "not 2 d8"),  # other sides
    ("d6 p1 3", "not 1 d6"),  # another number of dice
])
def test_a_roll_answer_unlike_the_roll_asked_is_set_aside(peer: Peer, answer: str,
                                                          why: str) -> None:
    box = connect(peer)
    try:
        th, result = _asking(box, sides=6, dice=2, player="p1", timeout=2.0)
        req = peer.wait_for("ROLL ").split()[1]
        peer.send(f"EV {BOOT} 1 ROLL {req} {answer}")
        th.join(1.0)  # at once, not at the timeout
        assert not th.is_alive() and isinstance(result[0], DeviceError), result
        got = events(box, 1)
        assert [e.kind for e in got] == ["stale_roll"] and why in got[0].detail["reason"]
    finally:
        box.stop()


def test_an_unreadable_roll_answer_fails_the_roll_at_once(peer: Peer) -> None:
    box = connect(peer)
    try:
        th, result = _asking(box, sides=6, dice=2, player="p1", timeout=3.0)
        req = peer.wait_for("ROLL ").split()[1]
        t0 = time.monotonic()
        peer.send(f"EV {BOOT} 1 ROLL {req} d6 p1 3,9")  # a 9 on a d6: no such face
        th.join(2.0)
        assert time.monotonic() - t0 < 1.0 and "could not be read" in str(result[0])
        assert peer.wait_for(f"ACK 1 {BOOT}")  # skipped like any unreadable event
    finally:
        box.stop()


def test_entropy_beyond_one_seed_is_refused_not_cut(peer: Peer) -> None:
    box = connect(peer)
    try:
        with pytest.raises(ValueError, match="1 to 16 bytes"):
            box.add_entropy(bytes(17))
    finally:
        box.stop()


def test_a_second_or_late_roll_answer_is_set_aside(peer: Peer) -> None:
    box = connect(peer)
    try:
        th, result = _asking(box, sides=6, dice=1, player="p1")
        req = peer.wait_for("ROLL ").split()[1]
        peer.send(f"EV {BOOT} 1 ROLL {req} d6 p1 4")
        th.join(2.0)
        assert result[0].numbers == (4,)
        peer.send(f"EV {BOOT} 2 ROLL {req} d6 p1 6")  # answered twice
        th, result = _asking(box, sides=6, dice=1, player="p2", timeout=0.3)
        late = peer.wait_for("ROLL ").split()[1]
        th.join(2.0)
        assert isinstance(result[0], DeviceError)  # given up...
        peer.send(f"EV {BOOT} 3 ROLL {late} d6 p2 2")  # ...and answered after all
        got = events(box, 3)
        assert [e.kind for e in got] == ["roll", "stale_roll", "stale_roll"]
        assert all("no longer waited for" in e.detail["reason"] for e in got[1:])
        assert peer.wait_for(f"ACK 3 {BOOT}")  # set aside, still acknowledged
    finally:
        box.stop()


def test_a_boot_id_with_reserved_characters_is_refused_and_nothing_breaks(peer: Peer) -> None:
    box = TableBox(peer.port, heartbeat_timeout=1.0, reconnect_interval=0.1).start()
    try:
        peer.wait_for("HELLO?")
        for bad in ("7CF2*A76", "7cf23a76", "ZZZZZZZZ", "7CF23A7"):
            peer.send(f"HELLO 3 1.0.0 {bad} 1 0 {BOX} 0")
        time.sleep(0.3)
        assert not box.connected and box.stats["bad_messages"] >= 3
        peer.send(f"HELLO 3 1.0.0 {BOOT} 1 0 {BOX} 0")  # a good one is taken, the link intact
        end = time.monotonic() + 2
        while not box.connected and time.monotonic() < end:
            time.sleep(0.02)
        assert box.connected and box.boot_id == BOOT
    finally:
        box.stop()


def test_a_roll_answer_for_an_earlier_host_is_set_aside(peer: Peer) -> None:
    box = connect(peer)
    try:
        stale = (box._issued[-1] + 1000) % 65535 + 1 if box._issued else 4242
        peer.send(f"EV {BOOT} 1 ROLL {stale} d6 p1 3,3,3")
        peer.send(f"EV {BOOT} 2 BTN p1 ready")
        got = events(box, 2)
        assert [e.kind for e in got] == ["stale_roll", "button"]
        assert box.stats["stale_rolls"] == 1
    finally:
        box.stop()


def test_request_ids_do_not_restart_with_each_host_process(peer: Peer) -> None:
    firsts = {next(TableBox("loop://")._requests) for _ in range(20)}
    assert len(firsts) > 15  # random starts, not 1 every time


def test_a_garbage_only_link_times_out(peer: Peer) -> None:
    box = connect(peer)
    try:
        end = time.monotonic() + 2.5
        lost = None
        while time.monotonic() < end and lost is None:
            peer.raw(b"\x00garbage\xff without a frame*ZZZZ\n" * 4)
            for e in events(box, 1, 0.05):
                if e.kind == "lost":
                    lost = e
        assert lost is not None and "no heartbeat" in lost.detail["reason"]
        assert box.stats["bad_frames"] > 0
    finally:
        box.stop()


def test_a_box_that_never_answers_hello_is_named_and_asked_slowly(peer: Peer) -> None:
    box = TableBox(peer.port, heartbeat_timeout=5.0, reconnect_interval=0.1).start()
    try:
        asked = 0
        end = time.monotonic() + 3.5
        while time.monotonic() < end:
            peer.send(f"HB {BOOT} 100 0 0 1 0")  # alive, but deaf to HELLO?
            asked += sum(1 for line in peer.lines(0.1) if line.startswith("HELLO?"))
        late = 0
        for _ in range(10):
            peer.send(f"HB {BOOT} 100 0 0 1 0")
            late += sum(1 for line in peer.lines(0.1) if line.startswith("HELLO?"))
        assert late <= 2, f"{late} HELLO? in the last second"  # about one a second now
        assert "does not answer HELLO?" in box.last_reason
    finally:
        box.stop()


@pytest.mark.parametrize("hello,advice", [
    ("HELLO 4 4.0.0 {boot} 1 0", "update tablesight"),  # a newer box
    # a protocol 2 box (firmware 2.0.0: the dice of one game only)
    ("HELLO 2 2.0.0 {boot} 1 0 00C0FFEE 0", "flash the box's firmware again")])
def test_a_box_of_another_protocol_version_is_refused_clearly_and_slowly(
        peer: Peer, hello: str, advice: str) -> None:
    box = TableBox(peer.port, heartbeat_timeout=1.0, reconnect_interval=0.1)
    box.start()
    version = hello.split()[1]
    try:
        hellos = 0
        end = time.monotonic() + 3.0
        while time.monotonic() < end:
            for line in peer.lines(0.05):
                if line.startswith("HELLO?"):
                    hellos += 1
                    peer.send(hello.format(boot=BOOT))
        assert not box.connected
        assert f"protocol {version}" in box.last_reason and advice in box.last_reason
        # Backed off: 1 s, then 2 s between openings, not ten openings a second.
        assert hellos <= 4, hellos
        with pytest.raises(DeviceError, match=f"protocol {version}"):
            raise DeviceError(f"no table box answered ({box.last_reason})")
    finally:
        box.stop()


def test_a_restarted_host_delivers_nothing_twice(tmp_path, peer: Peer) -> None:
    """The host's log keeps where the box's stream stood; a new host process resumes
    there, and the events whose acknowledgement was lost are not counted again."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(sample_setup(), log)
    box = connect(peer, on_event=session.device)
    for seq in (1, 2, 3):
        peer.send(f"EV {BOOT} {seq} BTN p1 shift")
    assert [e.seq for e in events(box, 4) if e.kind == "button"] == [1, 2, 3]
    box.stop()  # the host dies; the box never got (say) the last ACK
    resume = Session.resume(log, session.game_id).box_resume()
    assert resume == StreamPosition(BOX, BOOT, 3, 0)
    again = TableBox(peer.port, heartbeat_timeout=1.0, reconnect_interval=0.1,
                     resume=resume).start()
    try:
        peer.wait_for("HELLO?")
        peer.send(f"HELLO 3 9.9.9 {BOOT} 5 1 {BOX} 0")  # the box only knows ACK 1
        for seq in (2, 3, 4):  # it resends what it thinks is unacknowledged
            peer.send(f"EV {BOOT} {seq} BTN p1 shift")
        got = [e for e in events(again, 3, 2.0) if e.kind == "button"]
        assert [e.seq for e in got] == [4]  # 2 and 3 were delivered before the restart
        assert again.stats["duplicates"] == 2
    finally:
        again.stop()


def test_a_host_restarted_while_the_box_rebooted_counts_what_died(tmp_path, peer) -> None:
    """The host is down while the box loses power with two events unsent and three
    presses lost to a full queue: the restarted host, resuming from the log, reports
    exactly those (the box's numbering and lost count go on across its boots)."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(sample_setup(), log)
    box = connect(peer, on_event=session.device)
    peer.send(f"EV {BOOT} 1 BTN p1 ready")
    assert [e.seq for e in events(box, 2) if e.kind == "button"] == [1]
    box.stop()
    again = TableBox(peer.port, heartbeat_timeout=1.0, reconnect_interval=0.1,
                     resume=Session.resume(log, session.game_id).box_resume()).start()
    try:
        peer.wait_for("HELLO?")
        peer.send(f"HELLO 3 9.9.9 99AA77BB 4 3 {BOX} 3")  # events 2 and 3 died with it
        got = events(again, 3)
        assert [(e.kind, e.detail.get("count")) for e in got] == \
            [("lost_events", 2), ("lost_events", 3), ("connected", None)]
    finally:
        again.stop()


def test_the_box_lost_presses_are_counted_from_its_lifetime_total(peer: Peer) -> None:
    """Protocol 2 keeps no LOST event: heartbeats carry the box's lifetime count of
    presses lost to a full queue (modulo 2^32), and the host reports each rise once."""
    box = TableBox(peer.port, heartbeat_timeout=1.0, reconnect_interval=0.1).start()
    try:
        peer.wait_for("HELLO?")
        peer.send(f"HELLO 3 9.9.9 {BOOT} 1 0 {BOX} 4294967290")  # a box's long past
        assert events(box, 1)[0].kind == "connected"
        for total in (4294967290, 4294967294, 4294967294, 1):  # wraps: 4, then 3 more
            peer.send(f"HB {BOOT} 900 0 0 1 {total}")
        got = events(box, 3, 1.0)
        assert [e.detail["count"] for e in got if e.kind == "lost_events"] == [4, 3]
    finally:
        box.stop()


def test_a_lost_count_that_goes_back_is_uncountable_not_four_billion(peer: Peer) -> None:
    """A box that reported a count from RAM and lost power before saving it says a lower
    count after the reboot: the table is told the losses cannot be counted (never
    4,294,967,295 presses), and a later rise is counted from the new value."""
    box = TableBox(peer.port, heartbeat_timeout=1.0, reconnect_interval=0.1).start()
    try:
        peer.wait_for("HELLO?")
        peer.send(f"HELLO 3 9.9.9 {BOOT} 1 0 {BOX} 7")
        assert events(box, 1)[0].kind == "connected"
        for total in (6, 6, 8):  # back by one, then two presses lost
            peer.send(f"HB {BOOT} 900 0 0 1 {total}")
        got = [e for e in events(box, 2, 1.0) if e.kind == "lost_events"]
        assert [e.detail["count"] for e in got] == [None, 2]
        assert "cannot be counted" in got[0].detail["reason"]
        assert box.stats["lost_presses"] == 2 and box.stats["lost_count_went_back"] == 1
    finally:
        box.stop()


@pytest.mark.parametrize(("box_id", "old", "first", "count", "why"), [
    (BOX, 1, 4, 2, "restarted"),  # numbering went on from 4: events 2 and 3 died unsent
    ("0BADF00D", 1, 1, None, "another table box"),  # another box (or erased): unknowable
    (BOX, 40, 1, None, "went back"),  # this box, but its memory was erased
    # A restart before the journal held the numbers heard: those are numbered again
    # (the boot id tells the new events apart), and nothing the box knew of died.
    (BOX, 40, 40, 0, ""),
    (BOX, 40, 40 - 31, 0, ""),  # as far back as JOURNAL_LAG allows
    (BOX, 40, 40 - 32, None, "went back"),  # further: no journal lags that much
])
def test_a_reboot_whose_hello_is_lost_is_noticed_from_the_next_frame(
        peer: Peer, box_id: str, old: int, first: int, count: int | None, why: str) -> None:
    """Protocol 2: every event and heartbeat names its boot. The box restarts and its
    boot HELLO never arrives; its next frame says so, the host asks HELLO? again, and
    what the old boot had not delivered is reported: exactly, from the gap in the
    numbering that goes on across boots, or as unknown when the box is not the one the
    host knew."""
    box = connect(peer, acked=old - 1)
    try:
        peer.send(f"EV {BOOT} {old} BTN p1 ready")
        assert [e.seq for e in events(box, 1)] == [old]
        new = "99AA77BB"
        peer.lines(0.1)
        peer.send(f"EV {new} {first} BTN p2 strike")  # the new boot's first event
        assert peer.wait_for("HELLO?")  # not acknowledged as the old boot's: asked who
        assert not any(line.startswith(f"ACK {first} ") for line in peer.lines(0.2))
        peer.send(f"HELLO 3 9.9.9 {new} {first + 1} {first - 1} {box_id} 0")
        peer.send(f"EV {new} {first} BTN p2 strike")
        got = events(box, 3 if count != 0 else 2)
        if count == 0:  # nothing to report
            assert [e.kind for e in got] == ["connected", "button"]
            assert box.stats["journal_steps_back"] == 1
        else:
            assert [e.kind for e in got] == ["lost_events", "connected", "button"]
            assert got[0].detail["count"] == count and why in got[0].detail["reason"]
        assert got[-1].seq == first and got[-1].player == "p2" and box.boot_id == new
        assert peer.wait_for(f"ACK {first} {new}")
    finally:
        box.stop()


@pytest.mark.parametrize(("noise", "says"), [(b"", "is silent: nothing came"),
                                             (b"\x00\xfe~~~\x13" * 8, "sends only noise")])
def test_a_box_never_heard_is_named_and_its_port_not_reopened(peer: Peer, noise: bytes,
                                                              says: str) -> None:
    """Each opening of the port resets an Uno: a box that says nothing readable is
    asked on (HELLO?, slowly) with the port kept open, and named for what came."""
    box = TableBox(peer.port, heartbeat_timeout=0.5, reconnect_interval=0.1).start()
    try:
        end = time.monotonic() + 2.5
        while time.monotonic() < end:
            if noise:
                peer.raw(noise)
            peer.lines(0.1)
        assert box.stats["openings"] == 1, box.stats
        assert says in box.last_reason and "heartbeat" not in box.last_reason
        assert not box.connected
        peer.raw(b"\n")  # the noise's last line ends
        peer.send(f"HELLO 3 9.9.9 {BOOT} 1 0 {BOX} 0")  # the box starts after all
        end = time.monotonic() + 2
        while not box.connected and time.monotonic() < end:
            time.sleep(0.02)
        assert box.connected and box.stats["openings"] == 1
    finally:
        box.stop()
