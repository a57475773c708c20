"""``--keep-frames``: when the board and the game disagree, the last camera frames are
written to disk as the detector read them, with what it saw, and the detector reads the
saved pixels the same way again."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from table.session import Session, Setup
from tablesight.keep_frames import FrameKeeper
from tablesight.live import LiveTable
from vision.detect import Detector
from vision.layout import game_layout
from vision.synth.camera import SyntheticCamera
from vision.synth.scene import Base, Conditions, Scene, SceneRenderer

from .waiting import wait_for


def test_a_desync_writes_the_frames_the_detector_saw(tmp_path: Path) -> None:
    layout = game_layout()
    session = Session.new(Setup.sample())
    camera = SyntheticCamera(SceneRenderer(layout), Conditions(tilt_deg=10.0), fps=30.0)
    camera.show(Scene(layout))
    live = LiveTable(session, layout, camera, None)
    told: list[Path] = []
    live.keeper = FrameKeeper(tmp_path / "kept", keep=4, announce=told.append)
    live.start()
    try:
        assert wait_for(lambda: session.last_obs is not None, 15.0)
        assert session.desync is None
        # A base on the map before the game has spawned anything: a desync.
        x, y = next(r for r in layout.regions if r.name == "a2").center
        camera.show(Scene(layout, [Base(x, y, "p1", 3, figure=0.0)]))
        assert wait_for(lambda: session.desync is not None, 15.0)
    finally:
        live.stop()  # waits for the incident being written
    assert len(told) == 1 and told[0].parent == tmp_path / "kept"
    incident = json.loads((told[0] / "incident.json").read_text())
    assert incident["kind"] == "desync" and incident["problems"] == session.desync
    frames = incident["frames"]
    assert 1 <= len(frames) <= 4
    assert [f["index"] for f in frames] == sorted(f["index"] for f in frames)
    # The newest frame shows the base; its pixels are saved losslessly and the
    # detector, run again on the file, sees what it saw live.
    last = frames[-1]
    image = cv2.imread(str(told[0] / last["file"]))
    assert image is not None and image.shape == (720, 1280, 3)
    assert cv2.imread(str(told[0] / last["seen"])) is not None
    def seen(det: dict) -> dict[str, list[tuple[str, int]]]:
        return {cell: [(b["owner"], b["sticker"]) for b in bases]
                for cell, bases in det["cells"].items() if bases}

    assert seen(last["detection"]) == {"a2": [("p1", 3)]}
    assert seen(Detector(layout).detect(image).to_dict()) == {"a2": [("p1", 3)]}


def test_incidents_are_spaced_and_bounded(tmp_path: Path) -> None:
    keeper = FrameKeeper(tmp_path, keep=2, at_most=2, quiet_s=0.0)
    assert keeper.incident("desync", ["x"]) is None  # nothing seen yet: nothing to write
    for k in range(3):
        keeper.add(np.full((20, 30, 3), k, np.uint8), k, float(k), None)
    first = keeper.incident("desync", ["a2: a base the game does not have"])
    second = keeper.incident("Desync / again!", [])
    assert keeper.incident("desync", []) is None  # at most two per run
    keeper.flush()
    assert first is not None and second is not None and second.name.endswith("-desync-again")
    listed = json.loads((first / "incident.json").read_text())["frames"]
    assert [f["index"] for f in listed] == [1, 2]  # only the last two were kept
    assert int(cv2.imread(str(first / listed[1]["file"]))[0, 0, 0]) == 2
    spaced = FrameKeeper(tmp_path / "spaced", quiet_s=60.0)
    spaced.add(np.zeros((20, 30, 3), np.uint8), 0, 0.0, None)
    assert spaced.incident("desync", []) is not None
    assert spaced.incident("desync", []) is None  # the same desync, reworded
    with pytest.raises(ValueError, match="at least one frame"):
        FrameKeeper(tmp_path, keep=0)
