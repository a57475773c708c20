"""``tablesight bench table``: the live table at 30 fps, from a physical change in the
frame stream to the session's event, and the CPU the whole table uses meanwhile.

Two passes. First a game is scripted with a perfect camera (no rendering), recording
every scene the players make and every die and button in order. Then each scene is
rendered once and the recording is played back to a fresh live table (detector,
stabiliser, session, game log) as a 30 fps camera stream: a hand over the map for a
third of a second, then the board after the change. The clock starts at the first
frame without the hand and stops when the session announces the change.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from table.device import DeviceEvent
from table.observation import Observation, ObservedBase
from table.session import GameLog, Session, SessionEvent, Setup
from vision.camera import FrameSource
from vision.layout import Layout, game_layout
from vision.synth.scene import Conditions, Scene, SceneRenderer

HAND_FRAMES = 10
AFTER_FRAMES = 30


@dataclass
class _Step:
    kind: str  # "scene", "device", "command"
    payload: Any
    board: tuple = ()  # for a scene without hands: where every miniature is afterwards
    announces: bool = False  # the change is a rules action (taking a destroyed base off
    # is not: the session only notes it)


class _RecordingCamera:
    """Stands in for the camera while scripting: keeps the scenes, and tells the session
    what a perfect camera would see once the hands are gone."""

    def __init__(self, session: Session, layout: Layout, steps: list[_Step]) -> None:
        self.session, self.layout, self.steps = session, layout, steps
        self.frames = 0
        self.version = 0
        self._served = 0

    def show(self, scene: Scene) -> None:
        self.version += 1
        self.frames += 1
        self._served = self.version
        self.steps.append(_Step("scene", scene))
        if not scene.hands:
            regions: dict[str, list[ObservedBase]] = {}
            for name, bases in scene.truth().items():
                regions[name] = [ObservedBase(b["owner"], b["sticker"], "read", 1.0, b["x"],
                                              b["y"]) for b in bases]
            ops = len(self.session.ops)
            self.session.observe(Observation(0.0, self.frames,
                                             {k: tuple(v) for k, v in regions.items()}))
            self.steps[-1].announces = len(self.session.ops) > ops
            self.steps[-1].board = _where(self.session, self.session.state)

    def wait_served(self, version: int, timeout: float = 0.0) -> bool:
        return True


def _where(session: Session, state: Any) -> tuple:
    """Where every piece is, as the game's board model says (region or zone)."""
    pieces = session.referee.view(state)["board"]["pieces"]
    return tuple((p["ref"], p["region"], p["zone"]) for p in pieces)


def script_game(layout: Layout, seed: int, changes: int,
                game: str | None = None) -> tuple[list[_Step], Any]:
    from .scripted import ScriptedTable

    session = Session.new(Setup.sample(game))
    steps: list[_Step] = []
    cam = _RecordingCamera(session, layout, steps)
    rng = random.Random(seed)

    def press(player: str, button: str) -> None:
        if button == "roll":
            # What the box rolls: the dice it was armed with (default one d6).
            need = [d for d in session.dice_needed() if d.player == player and d.die]
            sides = need[0].die.sides if need else 6
            n = need[0].n if need else 1
            ev = DeviceEvent("roll", 0.0, player, sides=sides,
                             numbers=tuple(rng.randint(1, sides) for _ in range(n)))
        else:
            ev = DeviceEvent("button", 0.0, player, button=button)
        steps.append(_Step("device", ev))
        session.device(ev)

    real_command = session.command

    def command(cmd: dict, source: str = "dashboard") -> list[SessionEvent]:
        steps.append(_Step("command", cmd))
        return real_command(cmd, source)

    session.command = command  # type: ignore[method-assign]
    players = ScriptedTable(session, cam, layout, press, rng, timeout=0.01)  # type: ignore[arg-type]
    players.sync_from(session.state)
    referee = session.referee
    while not referee.is_over(session.state) and \
            sum(1 for s in steps if s.announces) < changes:
        it = referee.autoplay(session.state, rng)
        if it is None:
            break
        players.act(it)
    return steps, session.setup


class _Playback(FrameSource):
    """Pre-rendered frames at a fixed rate, as a camera delivers them."""

    def __init__(self, fps: float) -> None:
        super().__init__()
        self.fps = fps
        self.image: np.ndarray | None = None
        self._next = 0.0
        self._noise = np.random.default_rng(1).integers(0, 3, (720, 1280, 3), dtype=np.uint8)
        self.delivered = threading.Condition()
        self.count = 0

    def _grab(self) -> tuple[np.ndarray, float] | None:
        now = time.monotonic()
        if now < self._next:
            time.sleep(self._next - now)
        self._next = max(now, self._next) + 1.0 / self.fps
        if self.image is None:
            return None
        img = self.image if self.count % 2 else cv2.add(self.image, self._noise)
        with self.delivered:
            self.count += 1
            self.delivered.notify_all()
        return img, time.monotonic()

    def wait_frames(self, n: int) -> None:
        with self.delivered:
            end = self.count + n
            while self.count < end:
                self.delivered.wait(1.0)


def bench_table(changes: int = 30, seed: int = 2, fps: float = 30.0) -> dict[str, Any]:
    from .live import LiveTable

    layout = game_layout()
    steps, setup = script_game(layout, seed, changes)
    renderer = SceneRenderer(layout)
    cond = Conditions(tilt_deg=12.0, noise=1.5)
    t_render = time.perf_counter()
    images = {id(s.payload): renderer.render(s.payload, cond, (1280, 720), seed=seed)
              for s in steps if s.kind == "scene"}
    t_render = time.perf_counter() - t_render

    tmp = Path(tempfile.mkdtemp(prefix="tablesight-bench-"))
    log = GameLog(tmp / "bench.db")
    session = Session.new(setup, log)
    cam = _Playback(fps)
    live = LiveTable(session, layout, cam, None)
    announced: list[float] = []
    kinds: dict[str, int] = {}

    def listen(ev: SessionEvent) -> None:
        if ev.kind in ("action", "confirm", "desync") and (
                ev.kind != "action" or ev.data.get("source") == "camera"):
            announced.append(time.monotonic())
            kinds[ev.kind] = kinds.get(ev.kind, 0) + 1

    session.subscribe(listen)
    first = next(s for s in steps if s.kind == "scene")
    cam.image = images[id(first.payload)]
    live.start()
    cam.wait_frames(AFTER_FRAMES)
    latencies: list[float] = []
    missed = 0
    cpu0, wall0 = time.process_time(), time.monotonic()
    frames0 = cam.count
    for step in steps[steps.index(first) + 1:]:
        if step.kind == "device":
            session.device(step.payload)
            continue
        if step.kind == "command":
            try:
                session.command(step.payload, source="bench")
            except ValueError:
                pass
            continue
        cam.image = images[id(step.payload)]
        if step.payload.hands:
            cam.wait_frames(HAND_FRAMES)
            continue
        n0 = len(announced)
        with cam.delivered:
            target = cam.count + 1
            while cam.count < target:
                cam.delivered.wait(1.0)
        t_change = time.monotonic()  # the first frame without the hand is out
        cam.wait_frames(AFTER_FRAMES)
        if not step.announces:
            continue
        if len(announced) > n0:
            latencies.append((announced[n0] - t_change) * 1000)
        else:
            missed += 1
        if session.confirm:
            # A person picks the reading that matches what was really done.
            pick = [i for i, e in enumerate(session.confirm)
                    if _where(session, e.state) == step.board]
            if pick:
                session.command({"do": "choose", "option": pick[0]}, source="bench")
    wall = time.monotonic() - wall0
    cpu = time.process_time() - cpu0
    frames = cam.count - frames0
    live.stop()
    log.close()
    lat = sorted(latencies)

    def pct(p: float) -> float | None:
        if not lat:
            return None
        return round(lat[min(len(lat) - 1, int(round(p / 100 * (len(lat) - 1))))], 1)

    return {
        "benchmark": "table",
        "frame_size": [1280, 720], "fps_target": fps,
        "fps_delivered": round(frames / wall, 1),
        "changes": len(lat) + missed, "announced": len(lat), "missed": missed,
        "events": kinds,
        "change_to_event_ms": {"p50": pct(50), "p90": pct(90), "p99": pct(99),
                               "max": round(lat[-1], 1) if lat else None,
                               "mean": round(statistics.fmean(lat), 1) if lat else None},
        "stabilizer_frames": live.cfg.stable_frames,
        "cpu": {"cores_used": round(cpu / wall, 3), "seconds": round(cpu, 1),
                "wall_seconds": round(wall, 1)},
        "detect_ms_median": live.stats.to_dict()["detect_ms_median"],
        "render_s": round(t_render, 1),
        "note": "cores_used counts everything in the process during playback: capture "
                "stand-in, detector, stabiliser, session, SQLite log",
    }
