"""Edge-to-edge measurement on rendered scenes with known truth: the error distribution
(printed with ``pytest -s``) and that the stated error covers the truth."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from table.maps import free_area, layout_document
from vision.detect import Detector
from vision.layout import Layout
from vision.measure import MM_PER_INCH, edge_to_edge, mm_per_px
from vision.synth import Conditions, Scene
from vision.synth.scene import Base, SceneRenderer

PLAYERS = {"p1": "#F0780A", "p2": "#1A78E0"}


def test_a_gap_in_millimetres_and_inches() -> None:
    m = edge_to_edge((0.0, 0.0), 25.0, (177.4, 0.0), 25.0)
    assert m.mm == pytest.approx(152.4) and m.inches == pytest.approx(6.0)
    assert m.error_mm == pytest.approx(2 * math.sqrt(2) * 0.5)
    assert str(m) == '6.00" ± 0.06" (152 mm)'
    touching = edge_to_edge((0.0, 0.0), 32.0, (32.0, 0.0), 32.0)
    assert touching.mm == pytest.approx(0.0)
    # The map fit's residual, in millimetres at the bases' place, widens the error.
    h = np.diag([2.0, 2.0, 1.0])  # 2 px per mm everywhere
    assert mm_per_px(h, 100, 100) == pytest.approx(0.5)
    wide = edge_to_edge((0.0, 0.0), 25.0, (100.0, 0.0), 25.0, h, reprojection_px=3.0)
    assert wide.error_mm == pytest.approx(m.error_mm + 2 * 1.5)


def test_measured_gaps_against_the_truth() -> None:
    layout = Layout.from_dict(layout_document(
        "measure", "test", [free_area(700, 450)], (25.0, 40.0), PLAYERS))
    x0, y0, x1, y1 = layout.regions[0].bbox
    detector = Detector(layout)
    renderer = SceneRenderer(layout)
    rng = random.Random(11)
    errors: list[float] = []
    gaps: list[float] = []
    covered = total = 0
    centre_errors: list[float] = []
    for k, cond in enumerate([Conditions(), Conditions(tilt_deg=20, noise=3),
                              Conditions(tilt_deg=30, yaw_deg=5, jpeg=80)] * 3):
        bases: list[Base] = []
        while len(bases) < 8:
            d = rng.choice((25.0, 32.0, 40.0))
            x, y = rng.uniform(x0 + d, x1 - d), rng.uniform(y0 + d, y1 - d)
            if all(math.dist((x, y), (b.x, b.y)) > (d + b.diameter) / 2 + 15 for b in bases):
                bases.append(Base(x, y, rng.choice(("p1", "p2")), None, d, 0.0, 0.0))
        img = renderer.render(Scene(layout, bases), cond, size=(1600, 1200), seed=k)
        det = detector.detect(img)
        assert det.fix.found and len(det.bases) == len(bases)
        seen = {}
        for b in bases:
            s = min(det.bases, key=lambda s: math.dist((s.x_mm, s.y_mm), (b.x, b.y)))
            seen[b] = s
            centre_errors.append(math.dist((s.x_mm, s.y_mm), (b.x, b.y)))
        for a, b in itertools.combinations(bases, 2):
            m = edge_to_edge((seen[a].x_mm, seen[a].y_mm), a.diameter,
                             (seen[b].x_mm, seen[b].y_mm), b.diameter,
                             det.fix.homography, det.fix.reprojection_px or 0.0)
            truth = math.dist((a.x, a.y), (b.x, b.y)) - (a.diameter + b.diameter) / 2
            errors.append(abs(m.mm - truth))
            gaps.append(truth)
            covered += abs(m.mm - truth) <= m.error_mm
            total += 1
    e = np.array(errors)
    c = np.array(centre_errors)
    print(f"\n{total} gaps ({min(gaps) / MM_PER_INCH:.1f} to {max(gaps) / MM_PER_INCH:.1f} "
          f"inches) in 9 frames: error median {np.median(e):.2f} mm, "
          f"p95 {np.percentile(e, 95):.2f} mm, max {e.max():.2f} mm "
          f"({e.max() / MM_PER_INCH:.3f} in); within the stated error: {covered / total:.1%}; "
          f"centre error median {np.median(c):.2f} mm, p95 {np.percentile(c, 95):.2f} mm")
    assert covered / total >= 0.95
    assert np.percentile(e, 95) < 2.0  # a twelfth of an inch
