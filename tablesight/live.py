"""The live table: the one place where camera, table box and session meet.

    camera frames -> Detector -> Stabilizer -> Session.observe
    table box events ----------------------> Session.device
    Session events (dice needed) ----------> box.arm (what the roll button rolls)

Each part runs in its own thread; the session orders what they say. A camera that stops
delivering or freezes and a box that is unplugged are reported to the session (and so to
the dashboard) as health; the game goes on by manual entry meanwhile.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from table.device import DeviceEvent
from table.session import Session, SessionEvent
from vision.camera import FrameSource
from vision.config import VisionConfig
from vision.layout import Layout

from .keep_frames import FrameKeeper

HEALTH_EVERY_S = 0.5
PREVIEW_EVERY_S = 0.2  # annotated camera pictures for the dashboard, when someone looks


@dataclass
class CameraStats:
    frames: int = 0
    commits: int = 0
    faults: int = 0  # inputs the session failed on (bugs), survived and logged
    detect_ms: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        ms = sorted(self.detect_ms[-300:])
        med = ms[len(ms) // 2] if ms else None
        return {"frames": self.frames, "commits": self.commits,
                "detect_ms_median": None if med is None else round(med, 2)}


class LiveTable:
    def __init__(self, session: Session, layout: Layout, camera: FrameSource | None = None,
                 box: Any | None = None, config: VisionConfig | None = None) -> None:
        from vision.detect import Detector
        from vision.stabilizer import Stabilizer

        self.session = session
        self.layout = layout
        self.camera = camera
        self.box = box
        self.cfg = config or VisionConfig()
        self.detector = Detector(layout, self.cfg)
        self.stabilizer = Stabilizer(self.cfg.stable_frames, self.cfg.static_occlusion_frames)
        self.stats = CameraStats()
        # How the camera frames the map ("" when well; None until the map is found).
        self.framing_advice: str | None = None
        # What the last frame worked on asks of a person (the map not found, a learned
        # board the light has left behind); None: nothing.
        self.detect_advice: str | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._arm_q: queue.Queue[tuple[str, int, int] | None] = queue.Queue()
        self._armed: dict[str, tuple[int, int]] = {}  # asked for: player -> (sides, dice)
        self.armed_ok: dict[str, tuple[int, int]] = {}  # confirmed by the box
        self._preview: bytes | None = None
        self._preview_cv = threading.Condition()
        self._preview_wanted = 0.0
        self._last_preview = 0.0
        self.on_frame: Callable[[int, float], None] | None = None  # for benchmarks
        # The last frames, written out on a desync (``--keep-frames``); None: not kept.
        self.keeper: FrameKeeper | None = None
        self._cam_stop = threading.Event()
        self._cam_thread: threading.Thread | None = None
        self._unsubscribe = session.subscribe(self._on_session_event)

    # -- lifecycle ----------------------------------------------------------------------
    def start(self) -> LiveTable:
        self._spawn(self._arm_loop, "box-arm")
        self._start_camera()
        self._start_box()
        return self

    def _start_camera(self) -> None:
        if self.camera is not None:
            self._cam_stop = threading.Event()
            self._cam_thread = self._spawn(self._camera_loop, "camera")
        else:
            self.session.report_health("camera", False, "no camera: moves are entered by hand")

    def _start_box(self) -> None:
        if self.box is not None:
            self.box.on_event = self._on_device
            self.box.start()
        else:
            self.session.report_health("box", False, "no table box: dice are typed in")
        self._rearm()

    def use_camera(self, camera: FrameSource | None) -> None:
        """Swap the camera while the game goes on (the setup page's camera choice)."""
        old, thread = self.camera, self._cam_thread
        if thread is not None:
            self._cam_stop.set()
            thread.join(timeout=5)
        if old is not None:
            old.close()
        self.camera = camera
        # A new camera sees the table afresh.
        self.stabilizer = type(self.stabilizer)(self.cfg.stable_frames,
                                                self.cfg.static_occlusion_frames)
        self.framing_advice = None
        self._start_camera()

    def use_box(self, box: Any | None) -> None:
        """Swap the table box (another serial port) while the game goes on."""
        if self.box is not None:
            self.box.stop()
        self.box = box
        self._armed.clear()
        self.armed_ok.clear()
        self._start_box()

    def attach(self, session: Session) -> None:
        """Follow another game (a new or resumed one from the setup page)."""
        self._unsubscribe()
        self.session = session
        self._unsubscribe = session.subscribe(self._on_session_event)
        if self.stabilizer.current is not None:
            session.observe(self.stabilizer.current)  # the board as it stands now
        self._armed.clear()
        self._rearm()

    def _spawn(self, fn: Callable[[], None], name: str) -> threading.Thread:
        t = threading.Thread(target=fn, name=name, daemon=True)
        t.start()
        self._threads.append(t)
        return t

    def stop(self) -> None:
        self._stop.set()
        self._cam_stop.set()
        self._arm_q.put(None)
        if self.box is not None:
            self.box.stop()
        for t in self._threads:
            t.join(timeout=5)
        if self.camera is not None:
            self.camera.close()
        if self.keeper is not None:
            self.keeper.flush()  # incidents being written are finished, not cut off

    # -- camera -------------------------------------------------------------------------
    def _camera_loop(self) -> None:
        camera, stop = self.camera, self._cam_stop
        assert camera is not None
        next_health = 0.0
        while not self._stop.is_set() and not stop.is_set():
            frame = camera.read()
            now = time.monotonic()
            if now >= next_health:
                next_health = now + HEALTH_EVERY_S
                h = camera.health()
                said = [m for m in (h.message, self.detect_advice) if m]
                message = "; ".join(said) or "camera ok"
                if self.framing_advice:
                    message += f"; tip: {self.framing_advice}"
                covered = self.stabilizer.covered
                if covered:
                    message += (f"; {' '.join(sorted(covered))} covered for a while "
                                "(something lying on the map? clear it: moves there are "
                                "not seen)")
                self.session.report_health(
                    "camera", h.connected and not h.frozen and not self.detect_advice, message)
            if frame is None:
                time.sleep(0.05)
                continue
            t0 = time.perf_counter()
            try:
                det = self.detector.detect(frame.image)
            except (ValueError, cv2.error) as e:
                # One bad picture must not stop the camera: say so and take the next.
                self.session.report_health("camera", False, f"camera picture unusable: {e}")
                continue
            self.stats.frames += 1
            self.detect_advice = det.advice[0] if det.advice else None
            self.stats.detect_ms.append((time.perf_counter() - t0) * 1000)
            if len(self.stats.detect_ms) > 1000:
                del self.stats.detect_ms[:500]
            if self.keeper is not None:
                self.keeper.add(frame.image, frame.index, frame.time, det)
            if (det.fix.found and det.fix.moved) or self.framing_advice is None:
                framed = det.framing()  # when the map is first found, and after a bump
                if framed is not None:
                    self.framing_advice = framed.advice or ""
            obs = self.stabilizer.push(det, frame.time, frame.index)
            if obs is not None:
                self.stats.commits += 1
                self._guarded("camera", self.session.observe, obs)
            if self.on_frame is not None:
                self.on_frame(frame.index, frame.time)
            if now - self._preview_wanted < 5 and now - self._last_preview >= PREVIEW_EVERY_S:
                self._last_preview = now
                self._make_preview(frame.image, det)

    def _piece_name(self, b: Any) -> str:
        """A base as players read it on the Camera tab: the piece its sticker is on,
        "?" when the sticker was not read. OpenCV's font draws ASCII only."""
        ref = self.session.referee.stickers.ref_of.get(b.sticker) \
            if b.sticker is not None else None
        if ref is None:
            return "?" if b.tag != "none" else ""
        return self.session.words.humanize(ref).encode("ascii", "replace").decode()[:40]

    def _make_preview(self, image: np.ndarray, det: Any) -> None:
        from vision.annotate import annotate

        pic = annotate(image, det, self._piece_name)
        if pic.shape[1] > 960:
            pic = cv2.resize(pic, (960, int(pic.shape[0] * 960 / pic.shape[1])),
                             interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", pic, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            with self._preview_cv:
                self._preview = buf.tobytes()
                self._preview_cv.notify_all()

    def preview(self, timeout: float = 1.0, newer_than: bytes | None = None) -> bytes | None:
        """The latest annotated picture (JPEG); asking keeps previews coming for 5 s."""
        self._preview_wanted = time.monotonic()
        with self._preview_cv:
            if self._preview is None or self._preview is newer_than:
                self._preview_cv.wait(timeout)
            return self._preview

    # -- table box ----------------------------------------------------------------------
    def _guarded(self, part: str, fn: Callable[[Any], Any], arg: Any) -> None:
        """Hand one input to the session. A fault in processing it (a bug) must not kill
        the thread that feeds the table for the rest of the day: the traceback goes to
        the log, the dashboard hears about it, the next input is taken."""
        try:
            fn(arg)
        except Exception as e:  # the reader thread outlives any bug
            traceback.print_exc()
            self.stats.faults += 1
            self.session.report_health(part, False, f"a {part} input could not be processed "
                                       f"({type(e).__name__}: {e}); see the log")

    def _on_device(self, ev: DeviceEvent) -> None:
        self._guarded("box", self.session.device, ev)
        if ev.kind == "connected":
            self._armed.clear()  # a rebooted box forgot what it was armed with
            self.armed_ok.clear()
            self._rearm()
        elif ev.kind == "roll" and ev.player:
            self._armed.pop(ev.player, None)  # the box disarms after each roll
            self.armed_ok.pop(ev.player, None)
            self._rearm()

    def _on_session_event(self, ev: SessionEvent) -> None:
        if ev.kind in ("prompt", "action", "undo"):
            self._rearm()
        elif ev.kind == "desync" and self.keeper is not None:
            self.keeper.incident("desync", list(ev.data.get("problems") or []))

    def _rearm(self) -> None:
        if self.box is None:
            return
        for need in self.session.dice_needed():
            if need.die is None:
                continue  # dice the game has no face table for: typed in only
            armed = _roll_of(need.die.sides, need.n)
            # One six-sided die is what an unarmed button rolls: nothing to ask.
            if armed != (6, 1) and self._armed.get(need.player) != armed:
                self._armed[need.player] = armed
                self._arm_q.put((need.player, *armed))

    def ready_to_roll(self, player: str, sides: int, n: int) -> bool:
        """Is the box ready to roll (the first part of) ``player``'s ``n`` dice of
        ``sides`` sides?"""
        armed = _roll_of(sides, n)
        return armed == (6, 1) or self.armed_ok.get(player) == armed

    def _arm_loop(self) -> None:
        from firmware_bridge.bridge import DeviceError

        while True:
            item = self._arm_q.get()
            if item is None:
                return
            player, sides, n = item
            box = self.box
            if box is None:
                continue
            try:
                box.arm(player, sides, n)
                self.armed_ok[player] = (sides, n)
            except DeviceError:
                # No answer (a busy or reconnecting box): try again shortly while the
                # dice are still needed; a "connected" event re-arms as well.
                self._armed.pop(player, None)
                if not self._stop.wait(0.3):
                    self._rearm()


def _roll_of(sides: int, n: int) -> tuple[int, int]:
    """One roll of the box for ``n`` dice: at most what it holds at a time (PROTOCOL.md);
    a bigger roll is made in parts, the prompt asking for the rest."""
    from firmware_bridge.protocol import max_dice

    return sides, min(n, max_dice(sides))


__all__ = ["LiveTable"]
