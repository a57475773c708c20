"""Backends for the bridge tests (python-can style): the same tests run against the
Python simulator and against the real firmware in simavr."""

import time

import pytest

from firmware_bridge.bridge import TableBox
from firmware_bridge.emulator import Emulator
from firmware_bridge.simulator import BoxSimulator


class SimBackend:
    name = "simulator"

    def __init__(self) -> None:
        self.sim = BoxSimulator().start()
        self.port = self.sim.port

    def press(self, player, button):
        self.sim.press(player, button)

    def reboot(self, power_cut=False):
        self.sim.reboot(power_cut=power_cut)

    def erase(self):
        self.sim.reboot(erase=True)

    def close(self):
        self.sim.stop()


class EmuBackend:
    name = "emulator"

    def __init__(self) -> None:
        self.emu = Emulator(speed=1)
        self.port = self.emu.port
        self._taps = 0

    def started(self):
        self.emu.run()

    def press(self, player, button):
        self._taps += 1
        self.emu.tap(player, button, 15, 15)
        assert self.emu.wait_taps(self._taps, 10)

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


@pytest.fixture
def box(backend):
    tb = TableBox(backend.port, heartbeat_timeout=1.5, reconnect_interval=0.1)
    tb.start()
    time.sleep(0.2)  # the port is open before the MCU starts (pyserial flushes on open)
    if hasattr(backend, "started"):
        backend.started()
    assert wait_kind(tb, "connected", 5)
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
