"""The camera on maps other than Dreamblade's grid: a hex map and a free battlefield,
built with ``table.maps`` (as any game builds its printed map), drawn by the synthetic
renderer and read by the real detector. Each base lands in its hex; on the free area,
each base's centre and diameter in map millimetres are measured."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from table.maps import free_area, hex_grid, layout_document
from vision.detect import Detector
from vision.layout import Layout
from vision.synth import Conditions, Scene
from vision.synth.scene import Base, SceneRenderer

PLAYERS = {"p1": "#F0780A", "p2": "#1A78E0"}


def hex_layout() -> Layout:
    return Layout.from_dict(layout_document(
        "hex-test", "test", hex_grid(9, 7, 44.0), (25.0, 32.0), PLAYERS))


def test_a_hex_map_is_a_layout_like_any_other() -> None:
    layout = hex_layout()
    cells = layout.cells
    assert len(cells) == 63 and {c.name for c in cells} >= {"a1", "i7"}
    # Neighbouring hexes share an edge: a1's centre is one hex (44 mm) from a2's and
    # from b1's.
    by = {c.name: np.array(c.center) for c in cells}
    assert np.linalg.norm(by["a1"] - by["a2"]) == pytest.approx(44.0, abs=0.01)
    assert np.linalg.norm(by["a1"] - by["b1"]) == pytest.approx(44.0, abs=0.01)
    assert by["a1"][1] > by["a7"][1]  # row 1 at the bottom, p1's edge
    # Markers all around, on a sheet that holds the grid and the marker band.
    assert len(layout.markers) >= 8
    w, h = layout.sheet
    assert all(0 <= x <= w and 0 <= y <= h for m in layout.markers for x, y in m.corners)


@pytest.mark.parametrize("cond", [Conditions(), Conditions(tilt_deg=25, noise=3)],
                         ids=["straight", "tilted"])
def test_bases_on_a_hex_map_are_found_in_their_hex(cond: Conditions) -> None:
    layout = hex_layout()
    rng = random.Random(4)
    hexes = rng.sample(list(layout.cells), 12)
    bases = []
    for i, h in enumerate(hexes):
        x, y = h.center
        owner = "p1" if i % 2 else "p2"
        tag = (i // 2) if owner == "p1" else 16 + i // 2
        bases.append(Base(x + rng.uniform(-3, 3), y + rng.uniform(-3, 3), owner, tag,
                          rng.choice((25.0, 32.0)), rng.uniform(0, 360), 0.3, f"{owner}#{i}"))
    scene = Scene(layout, bases)
    img = SceneRenderer(layout).render(scene, cond, size=(1280, 960), seed=2)
    det = Detector(layout).detect(img)
    assert det.fix.found
    # Every base in its hex; each one read names the right owner and sticker (one whose
    # ring a figure hides may be unreadable: never guessed).
    assert sorted(b.region for b in det.bases) == sorted(h.name for h in hexes)
    truth = {h.name: b for h, b in zip(hexes, bases, strict=True)}
    read = [b for b in det.bases if b.tag == "read"]
    assert all((b.owner, b.sticker) == (truth[b.region].owner, truth[b.region].tag)
               for b in read)
    assert all(b.owner in (None, truth[b.region].owner) for b in det.bases)
    assert len(read) >= 11, [b for b in det.bases if b.tag != "read"]


def test_on_a_free_battlefield_positions_and_sizes_are_measured() -> None:
    """A 600 x 400 mm area (a skirmish mat's corner): bases of 25 to 40 mm anywhere;
    each is found at its centre within 1.5 mm. Its diameter is the outline the camera
    sees: the base's bevelled side (1 mm all round, as rendered) and its contact shadow
    make it read 2.5 to 4 mm wider than the top (measured: see docs/vision), the same
    for every size, so sizes 7 mm apart are told apart."""
    layout = Layout.from_dict(layout_document(
        "free-test", "test", [free_area(600, 400)], (25.0, 40.0), PLAYERS))
    area = layout.regions[0]
    x0, y0, x1, y1 = area.bbox
    rng = random.Random(7)
    bases: list[Base] = []
    while len(bases) < 10:
        d = rng.choice((25.0, 32.0, 40.0))
        x, y = rng.uniform(x0 + d, x1 - d), rng.uniform(y0 + d, y1 - d)
        if all(np.hypot(x - b.x, y - b.y) > (d + b.diameter) / 2 + 12 for b in bases):
            owner = rng.choice(("p1", "p2"))
            bases.append(Base(x, y, owner, None, d, 0.0, 0.0))
    img = SceneRenderer(layout).render(Scene(layout, bases), Conditions(), size=(1600, 1200),
                                       seed=3)
    det = Detector(layout).detect(img)
    assert det.fix.found and len(det.bases) == len(bases)
    for b in bases:
        s = min(det.bases, key=lambda s: np.hypot(s.x_mm - b.x, s.y_mm - b.y))
        assert s.region == "battlefield" and s.owner == b.owner
        assert np.hypot(s.x_mm - b.x, s.y_mm - b.y) < 1.5, (b, s)
        assert 1.5 < s.diameter_mm - b.diameter < 4.5, (b, s)


def test_bases_from_25_mm_to_4_inch_disks_are_found_and_sized_in_order() -> None:
    """One size per frame, four of them on a free area: every base found; the measured
    diameter grows with the true one and neighbouring sizes never overlap."""
    layout = Layout.from_dict(layout_document(
        "disks", "test", [free_area(700, 400)], (25.0, 102.0), PLAYERS))
    x0, y0, _, _ = layout.regions[0].bbox
    detector = Detector(layout)
    ranges = []
    for d in (25.0, 32.0, 40.0, 50.0, 60.0, 80.0, 102.0):
        bases = [Base(x0 + 80 + i * 150, y0 + 90 + (i % 2) * 200, "p1" if i % 2 else "p2",
                      None, d, 0.0, 0.0) for i in range(4)]
        img = SceneRenderer(layout).render(Scene(layout, bases), Conditions(),
                                           size=(1600, 1200), seed=3)
        det = detector.detect(img)
        assert len(det.bases) == 4, d
        measured = [b.diameter_mm for b in det.bases]
        ranges.append((min(measured), max(measured)))
    assert all(a[1] < b[0] for a, b in itertools.pairwise(ranges)), ranges
