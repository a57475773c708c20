"""Light of two colours over the sheet (a warm lamp on one side, daylight on the other):
the paper's tint varies, and that is not a hand (``ForegroundModel._learn_cast``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import Detector
from vision.synth import Conditions, Hand, Scene, random_scene


def _warm_on_the_left(img: np.ndarray, strength: float) -> np.ndarray:
    """The frame as lit by a warm lamp from the left: blue (and a little green) falls
    off toward the left edge, smoothly, as a second light's colour takes over."""
    w = img.shape[1]
    t = np.clip(1.2 - np.linspace(0, 1, w) * 1.6, 0, 1)[None, :]  # 1 at the left, 0 past 3/4
    out = img.astype(np.float32)
    out[..., 0] *= 1 - strength * t
    out[..., 1] *= 1 - 0.35 * strength * t
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("strength", [0.25, 0.4])
def test_a_tint_that_varies_over_the_sheet_is_no_hand(layout, renderer, strength):
    scene = random_scene(layout, np.random.default_rng(41), 16)
    img = renderer.render(scene, Conditions(tilt_deg=10), (1280, 720), seed=41)
    det = Detector(layout).detect(_warm_on_the_left(img, strength))
    assert det.fix.found
    assert det.occluded == set(), f"a tint called a hand over {sorted(det.occluded)}"
    assert len(det.bases) == len(scene.bases)


def test_a_hand_under_the_same_tint_is_still_a_hand(layout, renderer):
    base = random_scene(layout, np.random.default_rng(3), 12)
    scene = Scene(layout, base.bases, [Hand(300, 450, "bottom")])
    img = renderer.render(scene, Conditions(), (1280, 720), seed=3)
    det = Detector(layout).detect(_warm_on_the_left(img, 0.4))
    truth = scene.occluded_regions()
    assert len(det.occluded & truth) >= 0.8 * len(truth)
    assert det.occluded <= truth | _neighbours(layout, truth)


def _neighbours(layout, names: set[str]) -> set[str]:
    """Regions within 15 mm of ``names`` (the occlusion margin round a hand may reach
    them), by their bounding boxes."""
    boxes = {r.name: r.bbox for r in layout.regions}
    return {r for r, (ax0, ay0, ax1, ay1) in boxes.items()
            if any(ax0 <= bx1 + 15 and bx0 <= ax1 + 15 and ay0 <= by1 + 15 and by0 <= ay1 + 15
                   for bx0, by0, bx1, by1 in (boxes[n] for n in names))}
