"""Frames that found a fault, kept (python-chess's way with positions that once broke
it): held-out renders through the webcam model, each with the base the detector got
wrong and what it must do now. ``cases.json`` (beside the ``frames`` folder, which
``vision.photoreal.frames.save`` writes) says which frame, which base, what went wrong
and in which session; adding a case is adding a frame and a line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tablesight.bench_scoring import match_bases
from vision.detect import Detector
from vision.layout import game_layout
from vision.photoreal import frames

FOLDER = Path(__file__).resolve().parents[1] / "data" / "vision-regressions"
LAYOUT = game_layout()
CASES = json.loads((FOLDER / "cases.json").read_text())


@pytest.fixture(scope="module")
def by_name() -> dict[str, frames.Frame]:
    return {f.name: f for f in frames.load(LAYOUT, FOLDER / "frames")}


def test_every_case_names_a_kept_frame(by_name: dict[str, frames.Frame]) -> None:
    assert CASES and {c["frame"] for c in CASES} <= set(by_name)
    assert {c["expect"] for c in CASES} <= {"read right", "never wrong"}


@pytest.mark.parametrize("case", CASES, ids=[c["frame"] for c in CASES])
def test_the_base_that_went_wrong(by_name: dict[str, frames.Frame], case: dict) -> None:
    f = by_name[case["frame"]]
    det = Detector(LAYOUT).detect(f.image)
    x, y = case["base_mm"]
    truth = min(f.scene.bases, key=lambda b: math.hypot(b.x - x, b.y - y))
    assert math.hypot(truth.x - x, truth.y - y) < 2, "the case names no true base"
    pairs, extra = match_bases(f.scene.bases, det.bases)
    seen = {id(b): s for b, s in pairs}[id(truth)]
    what = case["fault"]
    if case["expect"] == "read right":
        assert seen is not None, f"not found: {what}"
        assert (seen.owner, seen.sticker) == (truth.owner, truth.tag), \
            f"read as {seen.owner} {seen.sticker} ({seen.tag}): {what}"
    if seen is not None:
        assert seen.owner in (None, truth.owner), f"owner {seen.owner}: {what}"
        assert seen.tag != "read" or seen.sticker == truth.tag, \
            f"read as sticker {seen.sticker}: {what}"
    # ... and nothing else on the frame is read wrong
    for b, s in pairs:
        if s is not None:
            assert s.owner in (None, b.owner) and (s.tag != "read" or s.sticker == b.tag), \
                f"another base at ({b.x:.0f}, {b.y:.0f}) read as {s.owner} {s.sticker}"
    # ... and no disc that is no base (a figure's head, a shadow) is named
    for s in extra:
        assert s.owner is None and s.tag != "read", \
            f"a disc at ({s.x_mm:.0f}, {s.y_mm:.0f}) that is no base read as {s.owner} {s.sticker}"
