"""Backends for the bridge tests (python-can style): the same tests run against the
Python simulator and against the real firmware in simavr."""

import time

import pytest

from firmware_bridge.bridge import TableBox
from firmware_bridge.emulator import Emulator
from firmware_bridge.simulator import BoxSimulator


class SimBackend:
    name = "simulator"

    def __init__(self, journal_s: float = 0.034) -> None:
        self.sim = BoxSimulator(journal_s=journal_s).start()
        self.port = self.sim.port

    def press(self, player, button):
        self.sim.press(player, button)

    def reboot(self, power_cut=False):
        self.sim.reboot(power_cut=power_cut)

    def settle(self):
        """Until the journal holds where the box stands."""
        self.sim.settle()

    def erase(self):
        self.sim.reboot(erase=True)

    def close(self):
        self.sim.stop()


class EmuBackend:
    name = "emulator"

    def __init__(self, eeprom_ms: float = 3.4) -> None:
        self.emu = Emulator(speed=1, eeprom_ms=eeprom_ms)
        self.port = self.emu.port
        self._taps = 0

    def started(self):
        self.emu.run()

    def press(self, player, button):
        self._taps += 1
        self.emu.tap(player, button, 15, 15)
        assert self.emu.wait_taps(self._taps, 10)

    def settle(self):
        """Until the journal holds where the box stands: a record is 10 bytes of 3.4 ms,
        and one may have been in progress (under 70 ms of the MCU's time)."""
        assert self.emu.idle(100)

    def reboot(self, power_cut=False):
        if power_cut:
            self.emu.power_cut()
        else:
            self.emu.reset()

    def erase(self):
        self.emu.erase()

    def close(self):
        self.emu.close()


@pytest.fixture(params=["simulator", "emulator"])
def backend(request):
    b = SimBackend() if request.param == "simulator" else EmuBackend()
    yield b
    b.close()


@pytest.fixture(params=["simulator", "emulator"])
def slow_journal_backend(request):
    """A box whose journal takes a second per record (a real one ~34 ms): a restart
    soon after a press then always comes before the journal holds it."""
    b = SimBackend(journal_s=1.0) if request.param == "simulator" else EmuBackend(100)
    yield b
    b.close()


def connected_box(backend):
    tb = TableBox(backend.port, heartbeat_timeout=1.5, reconnect_interval=0.1)
    tb.start()
    time.sleep(0.2)  # the port is open before the MCU starts (pyserial flushes on open)
    if hasattr(backend, "started"):
        backend.started()
    assert wait_kind(tb, "connected", 10)
    return tb


@pytest.fixture
def box(backend):
    tb = connected_box(backend)
    yield tb
    tb.stop()


def wait_kind(tb, kind, timeout, **fields):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            ev = tb.events.get(timeout=0.1)
        except Exception:
            continue
        kinds = (kind,) if isinstance(kind, str) else kind
        if ev.kind in kinds and all(getattr(ev, k) == v for k, v in fields.items()):
            return ev
    return None
