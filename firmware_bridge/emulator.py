"""The real firmware, emulated: builds the .elf with avr-gcc and runs it in simavr
through the C harness, which exposes UART0 as a pty and takes button presses.

Needs Debian's gcc-avr, avr-libc, simavr and libsimavr-dev (``.ci/run`` installs them).
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from pathlib import Path

FIRMWARE_DIR = Path(__file__).parent / "firmware"


class EmulatorError(RuntimeError):
    pass


def build(build_dir: Path | None = None) -> tuple[Path, Path]:
    """``make`` the firmware and the harness; returns (elf, harness)."""
    for tool in ("make", "avr-gcc", "pkg-config", "cc"):
        if shutil.which(tool) is None:
            raise EmulatorError(f"{tool} is not installed (apt-get install gcc-avr avr-libc "
                                "simavr libsimavr-dev libelf-dev make pkg-config)")
    out = build_dir or FIRMWARE_DIR / "build"
    for target in ("all", "harness"):
        r = subprocess.run(["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={out}", target],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise EmulatorError(f"make {target} failed:\n{r.stdout}{r.stderr}")
    return out / "tablebox.elf", out / "tablebox-sim"


class Emulator:
    """One emulated box. ``port`` is the pty path; call ``run()`` after opening it.
    ``eeprom_ms``: how long the chip takes to write one EEPROM byte (the ATmega328P's
    3.4 ms by default; simavr alone writes at once, which would hide what a journal
    write costs)."""

    def __init__(self, speed: float = 1.0, build_dir: Path | None = None,
                 eeprom_ms: float = 3.4) -> None:
        elf, harness = build(build_dir)
        self.proc = subprocess.Popen([str(harness), str(elf), "--speed", str(speed),
                                      "--eeprom-ms", str(eeprom_ms)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.port = ""
        self.lines: list[str] = []
        self.taps = 0
        self._idles = 0
        self.pressed_at: dict[int, float] = {}  # tap number -> monotonic seconds
        self._cv = threading.Condition()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline() if self.proc.stdout else ""
            if not line:
                raise EmulatorError(f"the harness exited: {self._stderr()}")
            if line.startswith("PTY "):
                self.port = line.split()[1]
                break
        if not self.port:
            raise EmulatorError("the harness did not report its pty")
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        # Drain stderr too: a full pipe would block the harness (and freeze the box).
        self.errors: list[str] = []
        self._err_reader = threading.Thread(target=self._read_errors, daemon=True)
        self._err_reader.start()

    def _read_errors(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors = [*self.errors[-50:], line.rstrip()]

    def _stderr(self) -> str:
        try:
            return self.proc.stderr.read()[-500:] if self.proc.stderr else ""
        except Exception:
            return ""

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._cv:
                self.lines.append(line.strip())
                if line.startswith("TAPPED "):
                    self.taps = int(line.split()[1])
                elif line.startswith("PRESSED "):
                    _, n, ns = line.split()
                    self.pressed_at[int(n)] = int(ns) / 1e9
                self._cv.notify_all()

    def _send(self, cmd: str) -> None:
        if self.proc.poll() is not None or self.proc.stdin is None:
            raise EmulatorError("the emulator is not running")
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def run(self) -> None:
        """Start the MCU (open the pty first: pyserial flushes input on open)."""
        self._send("START")

    def press(self, player: str, button: str) -> None:
        self._send(f"PRESS {player} {button}")

    def release(self, player: str, button: str) -> None:
        self._send(f"RELEASE {player} {button}")

    def tap(self, player: str, button: str, hold_ms: int = 20, gap_ms: int = 20) -> None:
        """Queue a press/release in MCU time (taps run one after another)."""
        self._send(f"TAP {player} {button} {hold_ms} {gap_ms}")

    def burst(self, count: int, hold_ms: int = 10, gap_ms: int = 10) -> None:
        """``count`` times, the eight non-roll buttons pressed together (load test)."""
        self._send(f"BURST {count} {hold_ms} {gap_ms}")

    def idle(self, ms: int, timeout: float = 10.0) -> bool:
        """Wait until ``ms`` of the MCU's own time have passed after the taps queued
        (a starved simulation runs behind the wall clock, so a sleep would not do)."""
        self._idles += 1
        self._send(f"IDLE {ms}")
        return self.wait_line(f"IDLED {self._idles}", timeout) is not None

    def reset(self) -> None:
        """The reset pin: RAM kept, EEPROM kept."""
        self._send("RESET")

    def power_cut(self) -> None:
        """Power off and on: RAM garbled, EEPROM kept."""
        self._send("POWERCUT")

    def erase(self) -> None:
        """EEPROM erased (a re-flash with chip erase; to the host, another box), then
        power on."""
        self._send("ERASE")

    def tear(self) -> None:
        """Cut the power as soon as the firmware has written part of its next EEPROM
        record (a write torn by a power cut); ``wait_line("TORN")`` says when."""
        self._send("TEAR")

    def wait_line(self, prefix: str, timeout: float) -> str | None:
        """The first harness line starting with ``prefix`` (already seen or to come)."""
        deadline = time.monotonic() + timeout
        with self._cv:
            while True:
                for line in self.lines:
                    if line.startswith(prefix):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cv.wait(left)

    def wait_taps(self, n: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cv:
            while self.taps < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cv.wait(left)
        return True

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send("QUIT")
                self.proc.wait(timeout=3)
            except (EmulatorError, subprocess.TimeoutExpired, BrokenPipeError):
                self.proc.kill()
        self.proc.wait(timeout=3)

    def __enter__(self) -> Emulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
