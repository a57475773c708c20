"""Disks lying on one another (``vision/detect/piles.py``), on rendered piles of two
disks of mixed sizes (40 to 76 mm) overlapping by 15 to 50 % of their width, straight
and tilted: each disk is found where it lies, and which one is on top is told, or left
undecided, never wrong. Bases merely touching side by side are not a pile, and the
steady board the table receives carries each disk's layer. ``pytest -s`` prints the
figures."""

from __future__ import annotations

import math
import random

from table.maps import free_area, layout_document
from vision.detect import Detector
from vision.layout import Layout
from vision.stabilizer import Stabilizer
from vision.synth import Conditions, Scene
from vision.synth.scene import Base, SceneRenderer

PLAYERS = {"p1": "#F0780A", "p2": "#1A78E0"}
SPOTS = [(120, 120), (300, 150), (470, 260), (200, 300)]


def _mat() -> Layout:
    return Layout.from_dict(layout_document("mat", "test", [free_area(600.0, 400.0)],
                                            (25.0, 102.0), PLAYERS, piles=True))


def _piles(lay: Layout, rng: random.Random) -> tuple[list[Base], set[str]]:
    """Four piles of two; the second disk of each is drawn last: it lies on top."""
    x0, y0 = lay.regions[0].bbox[:2]
    bases, top = [], set()
    for k, (px, py) in enumerate(SPOTS):
        d1, d2 = rng.choice([40.0, 50.0, 64.0, 76.0]), rng.choice([40.0, 50.0, 64.0])
        ang, sep = rng.uniform(0, 2 * math.pi), (d1 + d2) / 2 * rng.uniform(0.5, 0.85)
        low = Base(x0 + px, y0 + py, "p1", k, d1, rng.uniform(0, 360), 0.0, f"low{k}")
        high = Base(low.x + sep * math.cos(ang), low.y + sep * math.sin(ang), "p2", 16 + k,
                    d2, rng.uniform(0, 360), 0.0, f"top{k}")
        bases += [low, high]
        top.add(high.piece or "")
    return bases, top


def test_piles_of_disks_are_taken_apart_and_the_top_is_never_guessed() -> None:
    lay = _mat()
    rng = random.Random(12)
    found = decided = wrong = pairs = 0
    for trial in range(12):
        bases, top = _piles(lay, rng)
        cond = Conditions(tilt_deg=25 * (trial % 2), noise=2 + trial % 3)
        det = Detector(lay).detect(SceneRenderer(lay).render(Scene(lay, bases), cond,
                                                             size=(1600, 1200), seed=trial))
        assert len(det.bases) <= len(bases)  # never a disk that is not there
        for b in bases:
            seen = min(det.bases, key=lambda s: math.hypot(s.x_mm - b.x, s.y_mm - b.y))
            if math.hypot(seen.x_mm - b.x, seen.y_mm - b.y) > 4.0:
                continue  # hidden too much to be found (under a bigger disk)
            found += 1
            on_top = b.piece in top
            pairs += on_top
            decided += on_top and seen.layer == 1
            wrong += seen.layer != (1 if on_top else 0) and seen.layer != 0
    print(f"\npiles: {found} of {12 * 8} disks found, the top one told in {decided} of "
          f"{pairs} pairs, wrong {wrong}")
    assert wrong == 0
    assert found >= 0.95 * 12 * 8  # measured: 96 of 96
    assert decided >= 0.6 * pairs  # measured: 33 of 48


def test_touching_bases_are_side_by_side_not_a_pile() -> None:
    lay = Layout.from_dict(layout_document("cells", "test", [free_area(300.0, 200.0)],
                                           (25.0, 32.0), PLAYERS))
    x0, y0 = lay.regions[0].bbox[:2]
    row = [Base(x0 + 60 + 32.0 * i, y0 + 100, "p1" if i % 2 else "p2", i, 32.0, 40.0 * i, 0.2)
           for i in range(5)]  # each touching the next, as in a crowded cell
    for cond in (Conditions(), Conditions(tilt_deg=25, noise=3)):
        det = Detector(lay).detect(SceneRenderer(lay).render(Scene(lay, row), cond,
                                                             size=(1280, 960), seed=4))
        assert len(det.bases) == 5 and all(b.layer == 0 for b in det.bases)
        xs = sorted(b.x_mm for b in det.bases)
        assert all(abs(x - (x0 + 60 + 32.0 * i)) < 2.0 for i, x in enumerate(xs))


def test_the_steady_board_carries_the_layer() -> None:
    lay = _mat()
    bases, _ = _piles(lay, random.Random(12))
    det = Detector(lay).detect(SceneRenderer(lay).render(Scene(lay, bases), Conditions(),
                                                         size=(1600, 1200), seed=0))
    assert any(b.layer for b in det.bases)
    stab = Stabilizer()
    obs = None
    for f in range(8):
        obs = stab.push(det, f / 30, f) or obs
    assert obs is not None
    seen = sorted(b.layer for bs in obs.regions.values() for b in bs)
    assert seen == sorted(b.layer for b in det.bases)


def test_a_disk_flipped_within_the_battlefield_is_a_new_board() -> None:
    """The whole mat is one region: a disk flipped across it keeps the count, its id and
    its layer, and only its place says it moved. The steady board follows it there; a
    fit's jitter of a few millimetres publishes nothing."""
    lay = _mat()
    x0, y0 = lay.regions[0].bbox[:2]
    stay = Base(x0 + 120, y0 + 120, "p1", 3, 50.0, 20.0, 0.0, "stay")
    before = Base(x0 + 300, y0 + 200, "p2", 17, 64.0, 40.0, 0.0, "flipped")
    after = Base(before.x + 64.0, before.y, "p2", 17, 64.0, 220.0, 0.0, "flipped")
    renderer, detector = SceneRenderer(lay), Detector(lay)

    def seen(bases: list[Base], seed: int):
        return detector.detect(renderer.render(Scene(lay, bases), Conditions(),
                                               size=(1600, 1200), seed=seed))

    stab = Stabilizer()
    frames = [seen([stay, before], 0)] * 8 + [seen([stay, before], 1)] * 8 \
        + [seen([stay, after], 2)] * 8
    published = []
    for f, det in enumerate(frames):
        obs = stab.push(det, f / 30, f)
        if obs is not None:
            published.append((f, {b.sticker: (b.x_mm, b.y_mm) for bs in obs.regions.values()
                                  for b in bs}))
    assert [f for f, _ in published] == [3, 19]
    x, y = published[1][1][17]
    assert math.hypot(x - after.x, y - after.y) < 2.0


def test_a_disk_lying_within_another_s_outline_is_found_on_top() -> None:
    """A small disk flipped onto a large one adds nothing (or a sliver) to the pile's
    outline. Its sticker's white centre finds it, with its own size; lying within the
    other's outline it is on top. Under a tilt, too; the large disk is still found."""
    lay = _mat()
    x0, y0 = lay.regions[0].bbox[:2]
    found = 0
    for trial, (dx, dy) in enumerate([(0, 0), (12, -8), (-20, 10), (15, 20)]):
        big = Base(x0 + 150 + 150 * (trial % 2), y0 + 150 + 100 * (trial // 2), "p1", 2,
                   89.0, 30.0 * trial, 0.0, "big")
        small = Base(big.x + dx, big.y + dy, "p2", 19, 45.0, 70.0 * trial, 0.0, "small")
        cond = Conditions(tilt_deg=20 * (trial % 2), noise=2)
        det = Detector(lay).detect(SceneRenderer(lay).render(Scene(lay, [big, small]), cond,
                                                             size=(1600, 1200), seed=trial))
        assert len(det.bases) == 2, det.bases
        for b in (big, small):
            seen = min(det.bases, key=lambda s: math.hypot(s.x_mm - b.x, s.y_mm - b.y)
                       + abs(s.diameter_mm - b.diameter))
            assert math.hypot(seen.x_mm - b.x, seen.y_mm - b.y) < 3.0
            assert abs(seen.diameter_mm - b.diameter) < 8.0  # the outline reads wider
            assert seen.sticker in (b.tag, None)
            assert seen.layer == (1 if b is small else 0)
            found += seen.sticker == b.tag
    # Measured: every small disk read, and the large one in 3 of 4 (in one its ring is
    # too much hidden by the small disk to read).
    assert found >= 7
