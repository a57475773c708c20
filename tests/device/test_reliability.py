"""The real firmware (simavr) through what a store's worst day does to a table box, with
the count of presses delivered, lost and reported, lost silently (must be 0) and
delivered twice (must be 0) for each case. ``pytest -s`` prints the table's rows:

| case | pressed | delivered | lost, reported | lost silently | twice | over-reported |
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from firmware_bridge.bridge import TableBox
from firmware_bridge.emulator import Emulator
from firmware_bridge.relay import FaultyRelay
from table.session import GameLog, Session

from ..session.helpers import sample_setup

BUTTONS = [(p, b) for p in ("p1", "p2") for b in ("ready", "shift", "strike", "undo")]


@dataclass
class Tally:
    """What was pressed and what the host made of it."""

    pressed: list[tuple[str, str]] = field(default_factory=list)
    # (player, button, (boot, seq)): a restart before the journal caught up numbers
    # events again, so a press is named by its boot and number together.
    delivered: list[tuple[str, str, tuple[str, int]]] = field(default_factory=list)
    boot: str = ""  # the boot the host last connected to
    reported: int = 0  # lost and said so, with a count
    unknown: int = 0  # "may have lost presses" without a count: not allowed here
    # A damaged frame that passed its CRC-16 anyway (one in 65,536 damaged frames: a
    # noisy cable damages thousands a run) and read as no known event: skipped and said
    # (``unknown_event``), its press lost with it. Never a wrong press: that would
    # fail the order check below.
    garbled: int = 0
    other: list = field(default_factory=list)

    def take(self, box: TableBox, until: float, want: int | None = None,
             connected: bool = False) -> None:
        """Read the host's events until ``until``, or until every press is accounted for
        (``want``), or (``connected``) until the link is back."""
        want = len(self.pressed) if want is None else want
        while time.monotonic() < until and len(self.delivered) + self.reported < want:
            try:
                ev = box.events.get(timeout=0.2)
            except Exception:
                continue
            if ev.kind == "connected":
                self.boot = ev.detail["boot_id"]
                if connected:
                    return
            if ev.kind == "button":
                self.delivered.append((ev.player, ev.button, (self.boot, ev.seq)))
            elif ev.kind == "lost_events":
                if ev.detail.get("count") is None:
                    self.unknown += 1
                else:
                    self.reported += ev.detail["count"]
            elif ev.kind == "unknown_event":
                self.garbled += 1
            elif ev.kind not in ("connected", "lost"):
                self.other.append(ev)

    def check(self, name: str, garbled: int = 0) -> None:
        """``garbled``: how many damaged frames that passed their CRC may be skipped
        (the case's expected number is far under one; see ``garbled``)."""
        seqs = [s for *_, s in self.delivered]
        twice = len(seqs) - len(set(seqs))
        unaccounted = len(self.pressed) - len(set(seqs)) - self.reported - self.garbled
        silent, over = max(unaccounted, 0), max(-unaccounted, 0)
        print(f"\n| {name:<38} | {len(self.pressed):>7} | {len(set(seqs)):>9} | "
              f"{self.reported + self.garbled:>8} | {silent:>6} | {twice:>5} | {over:>5} |")
        assert self.other == [] and self.unknown == 0, (self.other, self.unknown)
        assert self.garbled <= garbled, f"{self.garbled} damaged frames passed their CRC"
        assert twice == 0, f"{twice} presses delivered twice"
        assert silent == 0, f"{silent} presses lost silently"
        assert over == 0, f"{over} presses reported lost that were not"
        # What arrived is what was pressed, in order (the reported ones left out).
        it = iter(self.pressed)
        assert all(any((a, b) == q for q in it) for a, b, _ in self.delivered)


@contextmanager
def rig(**relay_faults: float) -> Iterator[tuple[Emulator, FaultyRelay, TableBox, Tally]]:
    """The firmware in simavr behind a fault-injecting relay, the host connected."""
    with Emulator(speed=1) as emu:
        relay = FaultyRelay(emu.port, seed=2026, **relay_faults).start()
        box = TableBox(relay.url, heartbeat_timeout=1.0, reconnect_interval=0.05).start()
        try:
            time.sleep(0.3)
            emu.run()
            # (A busy machine may make the host give up once before the box answers.)
            ev = box.events.get(timeout=10)
            while ev.kind == "lost":
                ev = box.events.get(timeout=10)
            assert ev.kind == "connected", ev
            yield emu, relay, box, Tally(boot=ev.detail["boot_id"])
        finally:
            box.stop()
            relay.stop()


def press(emu: Emulator, tally: Tally, n: int, gap_ms: int = 45) -> None:
    for i in range(n):
        p = BUTTONS[(len(tally.pressed) + i) % len(BUTTONS)]
        emu.tap(*p, 15, gap_ms)
    tally.pressed += [BUTTONS[(len(tally.pressed) + i) % len(BUTTONS)] for i in range(n)]
    assert emu.wait_taps(len(tally.pressed), 120), f"taps stalled at {emu.taps}"


def settle_boot() -> None:
    # Presses while the box boots (~20 ms of entropy gathering, the journal read) are
    # seen by nobody, real box or not: these tests press after it.
    time.sleep(0.3)


def test_noisy_cable_and_unplugs():
    """1 % of bytes corrupted, 1 % dropped, five unplug cycles, 2,000 presses."""
    n = 2000
    with rig(corrupt=0.01, drop=0.01) as (emu, relay, box, tally):
        for k in range(6):
            press(emu, tally, n // 6 + (n % 6 if k == 5 else 0))
            if k < 5:
                relay.unplug(0.2)
        tally.take(box, time.monotonic() + 30)
        time.sleep(0.5)
        tally.take(box, time.monotonic() + 0.5, want=10**9)  # nothing may come twice, late
    # About 3,700 damaged frames reach the host a run (measured: bad_frames): a CRC-16
    # lets one through in about one run in eighteen. Most then read as no message at all
    # (bad_messages); one that still reads as a numbered event is skipped and said
    # (seen once in CI, 2026-11-25: "BT p2 strike", its N dropped).
    print(f"relay {relay.stats}, host {box.stats}")
    tally.check("noisy cable (1%+1%), 5 unplugs", garbled=1)
    assert relay.stats["corrupted"] > 100 and relay.stats["dropped"] > 100
    assert box.reconnects >= 5 and box.stats["duplicates"] > 0, box.stats


def test_lost_boot_announcements_mid_stream():
    """Three resets whose boot HELLO never reaches the host, each mid-stream."""
    with rig() as (emu, relay, box, tally):
        for _ in range(3):
            press(emu, tally, 20, gap_ms=25)
            relay.mute_hellos(1)
            emu.reset()
            settle_boot()
        press(emu, tally, 20, gap_ms=25)
        tally.take(box, time.monotonic() + 20)
    tally.check("3 resets, boot HELLO lost")
    assert relay.stats["muted"] == 3 and box.stats["reboots"] == 3


@pytest.mark.parametrize("power_cut", [False, True], ids=["reset", "power cut"])
def test_reboots_with_presses_waiting(power_cut):
    """Three times: the cable out, presses queued in the box, and it restarts (reset)
    or loses power. Then once while presses stream over a live cable. Each restart comes
    0.1 s of the box's time after the last press: a press needs that long to be in the
    EEPROM (PROTOCOL.md); one in that window is like a press on a switched-off box (see
    test_a_restart_inside_the_journal_window)."""
    def restart() -> None:
        assert emu.idle(100)
        emu.power_cut() if power_cut else emu.reset()
        settle_boot()
        tally.take(box, time.monotonic() + 10, want=10**9, connected=True)

    with rig() as (emu, relay, box, tally):
        for _ in range(3):
            press(emu, tally, 10)
            tally.take(box, time.monotonic() + 5)
            relay.unplug(1.0)
            press(emu, tally, 7)  # queued in the box, nobody listening
            restart()
        press(emu, tally, 30, gap_ms=15)
        restart()
        press(emu, tally, 10)
        tally.take(box, time.monotonic() + 20)
    tally.check(("power cuts" if power_cut else "resets") + ", cable out / mid-stream")
    assert tally.reported >= 21, tally.reported  # 3 x 7 queued presses died, and said so


@pytest.mark.parametrize("power_cut", [False, True], ids=["reset", "power cut"])
def test_a_restart_inside_the_journal_window(power_cut):
    """Presses stream over a live cable and the box restarts 10 ms after the last one:
    its event is out (a frame takes under 5 ms), its journal record (34 ms at the chip's
    3.4 ms a byte) is not. Three times. The new boot numbers again from its journal;
    the host takes the step back as such: everything pressed arrives once, nothing is
    reported lost."""
    with rig() as (emu, _relay, box, tally):
        for _ in range(3):
            press(emu, tally, 12, gap_ms=15)
            assert emu.idle(10)
            emu.power_cut() if power_cut else emu.reset()
            tally.take(box, time.monotonic() + 10, want=10**9, connected=True)
            settle_boot()
        press(emu, tally, 10)
        tally.take(box, time.monotonic() + 20)
    tally.check(("power cuts" if power_cut else "resets") + " inside the journal window")
    assert box.stats["journal_steps_back"] >= 1, box.stats


def test_sustained_presses():
    """All eight non-roll buttons pressed together every 30 ms, 150 times (267 presses a
    second, PROTOCOL.md's sustained rate): every one delivered, in order."""
    with rig() as (emu, _relay, box, tally):
        taps = emu.taps
        emu.burst(150, 10, 20)
        tally.pressed += BUTTONS * 150
        assert emu.wait_taps(taps + 150, 60), f"bursts stalled at {emu.taps}"
        tally.take(box, time.monotonic() + 20)
    tally.check("8 buttons every 30 ms, 150 times")


def test_full_queue_while_unplugged():
    """The cable out for 4 s while 60 presses come: the box keeps 40, counts the rest
    in its journal, and the host reports them when the cable is back."""
    with rig() as (emu, relay, box, tally):
        press(emu, tally, 5)
        relay.unplug(4.0)
        press(emu, tally, 60, gap_ms=20)
        tally.take(box, time.monotonic() + 20)
    tally.check("60 presses, cable out, queue of 40")
    assert tally.reported >= 20  # (one more when the last ACK before the unplug died)


def test_garbage_only_link():
    """For 3 s the host gets only garbage from the box (a broken cable): it gives up on
    the link (no valid frame), then takes it back; presses made meanwhile arrive."""
    with rig() as (emu, relay, box, tally):
        press(emu, tally, 10)
        relay.garble(3.0)
        press(emu, tally, 20, gap_ms=100)
        tally.take(box, time.monotonic() + 20)
    tally.check("3 s of garbage only")
    assert box.reconnects >= 1


def test_host_restarts_mid_game(tmp_path):
    """The host process dies twice mid-game (acknowledgements in flight die with it) and
    comes back from the game's SQLite log: nothing is delivered twice, presses made while
    it was down arrive."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(sample_setup(), log)
    with Emulator(speed=1) as emu:
        tally = Tally()
        box = TableBox(emu.port, heartbeat_timeout=1.0, reconnect_interval=0.05,
                       on_event=session.device).start()
        time.sleep(0.3)
        emu.run()
        try:
            for _ in range(2):
                assert box.events.get(timeout=10).kind == "connected"
                press(emu, tally, 15, gap_ms=15)  # the host dies mid-stream
                box.stop()
                tally.take(box, time.monotonic() + 0.5, want=10**9)
                press(emu, tally, 10)  # nobody listening: queued in the box
                session = Session.resume(log, session.game_id)
                box = TableBox(emu.port, heartbeat_timeout=1.0, reconnect_interval=0.05,
                               on_event=session.device,
                               resume=session.box_resume()).start()
            press(emu, tally, 10)
            tally.take(box, time.monotonic() + 20)
        finally:
            box.stop()
    tally.check("2 host restarts mid-game (SQLite)")


def test_a_journal_record_torn_by_a_power_cut():
    """The power goes while the box writes the EEPROM record for a press (the cable is
    out, so the press is queued, unsent). The next boot finds that record torn (its CRC
    fails), goes on from the one before, and the host sees a consistent stream: no gap
    it cannot explain, nothing twice, the numbering going on. The press in the torn
    record was never sent, so no one saw it: like a press on a switched-off box (the
    window is the write itself, a few ms per byte on a real chip)."""
    with rig() as (emu, relay, box, tally):
        press(emu, tally, 6)
        tally.take(box, time.monotonic() + 5)
        last = tally.delivered[-1][2][1]
        relay.unplug(1.0)
        time.sleep(0.2)
        emu.tear()
        emu.tap("p1", "ready", 15, 15)
        torn = emu.wait_line("TORN", 5)
        assert torn is not None, "the harness saw no EEPROM write"
        settle_boot()
        tally.take(box, time.monotonic() + 10, want=10**9, connected=True)
        press(emu, tally, 5)
        tally.take(box, time.monotonic() + 10, want=len(tally.pressed))
        assert [s for *_, (_, s) in tally.delivered[6:]] == list(range(last + 1, last + 6))
        assert tally.reported == 0 and tally.unknown == 0
    # (The torn press is not among the presses counted: no box ever told anyone of it.)
    tally.check("power cut tearing a journal record")
    print(f"{torn} byte(s) of the record written; the box went on from the one before")
