"""A frozen or unplugged camera and a lost table box are reported, and the game goes on
by hand meanwhile."""

from __future__ import annotations

import time

import numpy as np

from firmware_bridge.bridge import TableBox
from firmware_bridge.simulator import BoxSimulator
from table.session import Session, Setup
from tablesight.live import LiveTable
from vision.layout import game_layout
from vision.synth.camera import SyntheticCamera
from vision.synth.scene import Base, Conditions, Scene, SceneRenderer

from .waiting import wait_for


def test_camera_and_box_trouble_is_reported_and_play_goes_on() -> None:
    layout = game_layout()
    session = Session.new(Setup.sample())
    camera = SyntheticCamera(SceneRenderer(layout), Conditions(tilt_deg=10.0), fps=30.0)
    camera.freeze.frozen_after = 0.5
    camera.show(Scene(layout))
    sim = BoxSimulator().start()
    live = LiveTable(session, layout, camera, TableBox(sim.port)).start()
    try:
        assert wait_for(lambda: session.health.get("camera", {}).get("ok") is True)
        assert wait_for(lambda: session.health.get("box", {}).get("ok") is True)
        assert wait_for(lambda: session.last_obs is not None)
        # The synthetic camera films the portrait map in a landscape picture: the
        # health line carries the tip to turn it.
        assert wait_for(lambda: "quarter turn" in session.health["camera"]["message"])
        assert session.health["camera"]["ok"] is True
        # A camera that keeps sending the very same picture is frozen.
        camera.paused = True
        assert wait_for(lambda: "frozen" in session.health["camera"]["message"])
        assert session.health["camera"]["ok"] is False
        camera.paused = False
        assert wait_for(lambda: session.health["camera"]["ok"] is True)
        # Unplugged: no pictures at all.
        camera.unplugged = True
        assert wait_for(lambda: "disconnected" in session.health["camera"]["message"])
        # The box goes away too; dice are typed in and the game moves on.
        sim.stop()
        assert wait_for(lambda: session.health["box"]["ok"] is False)
        session.command({"do": "initiative", "player": "p1", "die": 6})
        session.command({"do": "initiative", "player": "p2", "die": 2})
        assert session.state.phase.value == "spawn"
        said = [h["message"] for h in session.history if h["kind"] == "health"]
        assert any("frozen" in m for m in said) and any("disconnected" in m for m in said)
    finally:
        live.stop()


def test_garbage_frames_never_reach_the_session() -> None:
    from vision.camera import FrameSource

    class Garbage(FrameSource):
        def _grab(self):
            time.sleep(0.01)
            return np.zeros((0, 0), np.uint8), time.time()

    session = Session.new(Setup.sample())
    live = LiveTable(session, game_layout(), Garbage(), None).start()
    try:
        time.sleep(0.5)
        assert session.last_obs is None and session.state.phase.value == "initiative"
        assert live._threads[0].is_alive()  # the camera loop survived the garbage
        assert session.health["box"]["ok"] is False  # no box: typed dice
    finally:
        live.stop()


def test_camera_and_box_can_be_swapped_while_the_game_goes_on() -> None:
    layout = game_layout()
    session = Session.new(Setup.sample())
    live = LiveTable(session, layout, None, None).start()
    sim = BoxSimulator().start()
    try:
        assert session.health["camera"]["ok"] is False and session.health["box"]["ok"] is False
        camera = SyntheticCamera(SceneRenderer(layout), Conditions(tilt_deg=10.0), fps=30.0)
        camera.show(Scene(layout))
        live.use_camera(camera)
        live.use_box(TableBox(sim.port))
        assert wait_for(lambda: session.health["camera"]["ok"] is True)
        assert wait_for(lambda: session.health["box"]["ok"] is True)
        assert wait_for(lambda: session.last_obs is not None)
        sim.press("p1", "roll")
        assert wait_for(lambda: "p1" in session.referee.init_dice)
        # A new game follows the same camera: it gets the board as it stands.
        other = Session.new(Setup.sample())
        live.attach(other)
        assert other.last_obs is not None
        live.use_camera(None)
        assert wait_for(lambda: other.health.get("camera", {}).get("ok") is False)
    finally:
        live.stop()
        sim.stop()


def test_a_fault_processing_one_input_does_not_blind_the_table(capsys) -> None:
    layout = game_layout()
    session = Session.new(Setup.sample())
    camera = SyntheticCamera(SceneRenderer(layout), Conditions(tilt_deg=10.0), fps=30.0)
    camera.show(Scene(layout))
    real = session.observe
    calls = {"n": 0}

    def flaky(obs):  # the first board fails inside the session (a bug, say)
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("boom")
        return real(obs)

    session.observe = flaky  # type: ignore[method-assign]
    live = LiveTable(session, layout, camera).start()
    try:
        assert wait_for(lambda: live.stats.faults == 1)
        said = [h["message"] for h in session.history if h["kind"] == "health"]
        assert any("RuntimeError: boom" in m for m in said)
        assert "boom" in capsys.readouterr().err  # the traceback is in the log
        # The camera thread lives on: the next board it settles on reaches the session.
        x, y = next(r.center for r in layout.regions if r.name == "e1")
        camera.show(Scene(layout, [Base(x, y, "p1", 0, 26.0, 0.0, 0.3, "p1#0")]))
        assert wait_for(lambda: session.last_obs is not None)
        assert session.last_obs.regions.get("e1")
        assert live._cam_thread is not None and live._cam_thread.is_alive()
    finally:
        live.stop()


def test_something_left_on_the_map_is_reported_and_the_rest_goes_on() -> None:
    """A cup put down on a5 looks like a hand that never moves. It holds the table only
    for a while (``static_occlusion_frames``): then the camera's health line names the
    covered cell as something to clear, and moves elsewhere are seen again."""
    from dataclasses import replace

    from vision.config import VisionConfig
    from vision.synth.scene import Hand

    layout = game_layout()
    session = Session.new(Setup.sample())
    camera = SyntheticCamera(SceneRenderer(layout), Conditions(tilt_deg=10.0), fps=30.0)
    camera.show(Scene(layout))
    cfg = replace(VisionConfig(), static_occlusion_frames=20)
    live = LiveTable(session, layout, camera, None, cfg).start()
    try:
        assert wait_for(lambda: session.last_obs is not None)
        a5 = next(r for r in layout.cells if r.name == "a5")
        cup = Hand(*a5.center, "top", 60.0)
        e1 = next(r for r in layout.cells if r.name == "e1")
        camera.show(Scene(layout, [Base(*e1.center, "p1", 0, 26.0)], [cup]))
        said = lambda: session.health.get("camera", {}).get("message", "")  # noqa: E731
        assert wait_for(lambda: "covered for a while" in said()), said()
        assert "a5" in said().split("; ")[-1]  # the arm's cells, a5 among them
        assert session.health["camera"]["ok"] is True  # the camera works; the map is not clear
        # The base that came with the cup is seen (a spawn in e1), the cup does not hold it.
        assert wait_for(lambda: session.last_obs is not None
                        and len(session.last_obs.regions.get("e1", ())) == 1)
        assert "a5" in session.last_obs.occluded
    finally:
        live.stop()
