"""``tablesight bench vision --game NAME`` for a game whose pieces lie anywhere and on one
another (its layout has ``piles``): disks scattered over the battlefield and piled two
and three high, a small one sometimes lying wholly within a large one's outline,
rendered through the synthetic camera under the bench's conditions at 720p and 1080p.
Per disk: found, its identity (told, unread, wrong), its centre's error in mm (median,
p99); per pair of overlapping disks: which lies on top (told, undecided, wrong); disks
reported where none lies. Timing beside OpenCV's bare ArUco pass on the same frames
(the peer: the ratio is what compares across machines). Figures only: no test asserts
on time.

A disk whose centre another disk covers may be hidden from the camera altogether (the
table's rules know it is there); it is counted apart ("centre covered"), and the goals
are read on the disks whose centres show.
"""

from __future__ import annotations

import math
import statistics
import time
from typing import Any

from .bench import _pct
from .bench_scoring import conditions

SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}
PILE_CONDITIONS = ("clean", "tilt", "dim", "glare", "shadow", "grey ink")
OVERLAP_MM = 4.0  # two disks overlapping by less are side by side


def pile_scene(layout: Any, rng: Any, piles: int = 5, alone: int = 4) -> Any:
    """Disks of the layout's smallest, largest and a middle size: ``piles`` piles of two
    (a third on top in some) and ``alone`` disks by themselves, none touching another
    pile. Drawn in order: a later disk lies on an earlier one."""
    from vision.synth.scene import Base, Scene
    from vision.tags import IDS_PER_PLAYER

    x0, y0, x1, y1 = layout.regions[0].bbox
    small, large = layout.base_diameters
    sizes = (small, (small + large) / 2, large)
    players = list(layout.players)
    ids = {p: list(range(k * IDS_PER_PLAYER, (k + 1) * IDS_PER_PLAYER))
           for k, p in enumerate(players)}
    for v in ids.values():
        rng.shuffle(v)
    bases: list[Base] = []
    spots: list[tuple[float, float, float]] = []  # each group's centre and reach

    def free(x: float, y: float, reach: float) -> bool:
        return (x0 + reach + 5 <= x <= x1 - reach - 5 and y0 + reach + 5 <= y <= y1 - reach - 5
                and all(math.hypot(x - sx, y - sy) > reach + sr + 8 for sx, sy, sr in spots))

    def disk(x: float, y: float, d: float) -> Base:
        owner = players[int(rng.integers(0, len(players)))]
        return Base(x, y, owner, ids[owner].pop(), d, float(rng.uniform(0, 360)), 0.0)

    for k in range(piles + alone):
        group = []
        d1 = float(sizes[int(rng.integers(0, 3))])
        if k < piles:
            d2 = float(sizes[int(rng.integers(0, 3))])
            # From barely overlapping to one centred on the other.
            sep = (d1 + d2) / 2 * float(rng.uniform(0.0, 0.85))
            ang = float(rng.uniform(0, 2 * math.pi))
            group = [(0.0, 0.0, d1), (sep * math.cos(ang), sep * math.sin(ang), d2)]
            if rng.random() < 0.3:
                d3 = float(sizes[0])
                ang3 = float(rng.uniform(0, 2 * math.pi))
                r3 = float(rng.uniform(0, (d1 + d2) / 3))
                group.append((r3 * math.cos(ang3), r3 * math.sin(ang3), d3))
        else:
            group = [(0.0, 0.0, d1)]
        reach = max(math.hypot(dx, dy) + d / 2 for dx, dy, d in group)
        for _ in range(200):
            cx, cy = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
            if free(cx, cy, reach):
                spots.append((cx, cy, reach))
                bases += [disk(cx + dx, cy + dy, d) for dx, dy, d in group]
                break
    return Scene(layout, bases)


class PileTally:
    def __init__(self) -> None:
        self.disks = self.covered = self.found = self.told = self.unread = 0
        self.wrong_id = self.wrong_owner = self.false = 0
        self.pairs = self.on_top_told = self.on_top_undecided = self.on_top_wrong = 0
        self.centre_mm: list[float] = []

    def add(self, scene: Any, seen: list[Any]) -> None:
        truth = scene.bases
        covered = [any(math.hypot(o.x - b.x, o.y - b.y) < o.diameter / 2
                       for o in truth[i + 1:]) for i, b in enumerate(truth)]
        # Each true disk paired with a seen one within a third of its size: one read as
        # that disk first, then disks whose centres show, then the nearest (a disk
        # hidden under another at nearly the same place must not take the one on top
        # of it); each seen disk pairs once.
        cands = sorted((s.sticker != b.tag, covered[i], math.hypot(s.x_mm - b.x, s.y_mm - b.y),
                        i, j) for i, b in enumerate(truth) for j, s in enumerate(seen))
        match: dict[int, int] = {}
        used: set[int] = set()
        for _, _, dist, i, j in cands:
            if i in match or j in used or dist > truth[i].diameter / 3:
                continue
            match[i] = j
            used.add(j)
        self.false += len(seen) - len(used)
        for i, b in enumerate(truth):
            if covered[i]:
                self.covered += 1
                continue
            self.disks += 1
            if i not in match:
                continue
            s = seen[match[i]]
            self.found += 1
            self.centre_mm.append(math.hypot(s.x_mm - b.x, s.y_mm - b.y))
            if s.sticker is None:
                self.unread += 1
            elif s.sticker == b.tag:
                self.told += 1
            else:
                self.wrong_id += 1
            if s.owner is not None and s.owner != b.owner:
                self.wrong_owner += 1
        for i, low in enumerate(truth):
            for k in range(i + 1, len(truth)):
                top = truth[k]
                if math.hypot(top.x - low.x, top.y - low.y) >= \
                        (top.diameter + low.diameter) / 2 - OVERLAP_MM:
                    continue
                if i not in match or k not in match:
                    continue
                self.pairs += 1
                lt, lb = seen[match[k]].layer, seen[match[i]].layer
                if lt > lb:
                    self.on_top_told += 1
                elif lt < lb:
                    self.on_top_wrong += 1
                else:
                    self.on_top_undecided += 1

    def report(self) -> dict[str, Any]:
        n = max(1, self.disks)
        return {
            "disks_centre_showing": self.disks, "disks_centre_covered": self.covered,
            "found": round(self.found / n, 4), "identity_told": round(self.told / n, 4),
            "identity_unread": self.unread, "identity_wrong": self.wrong_id,
            "owner_wrong": self.wrong_owner, "disks_where_none_lies": self.false,
            "centre_error_mm": {"median": round(_pct(self.centre_mm, 50), 2),
                                "p99": round(_pct(self.centre_mm, 99), 2)},
            "overlapping_pairs": self.pairs,
            "on_top": {"told": self.on_top_told, "undecided": self.on_top_undecided,
                       "wrong": self.on_top_wrong},
        }


def bench_piles(game: str, quick: bool = False, seed: int = 1,
                scenes: int | None = None) -> dict[str, Any]:
    import cv2
    import numpy as np

    from vision.detect import Detector
    from vision.layout import game_layout
    from vision.synth import SceneRenderer

    cv2.setNumThreads(1)
    layout = game_layout(game)
    if not layout.piles:
        raise ValueError(f"{game}'s pieces stand in places of the map, not on one another")
    renderer = SceneRenderer(layout)
    aruco = cv2.aruco
    peer = aruco.ArucoDetector(aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary)),
                               aruco.DetectorParameters())
    if scenes is None:
        scenes = 3 if quick else 10
    named = conditions()
    out: dict[str, Any] = {"game": game, "scenes_per_condition": scenes, "conditions": {}}
    overall = {k: PileTally() for k in SIZES}
    ms: dict[str, list[float]] = {k: [] for k in SIZES}
    peer_ms: dict[str, list[float]] = {k: [] for k in SIZES}
    for name in PILE_CONDITIONS[:3] if quick else PILE_CONDITIONS:
        cond, _ = named[name]
        tallies = {k: PileTally() for k in SIZES}
        for i in range(scenes):
            rng = np.random.default_rng(seed * 1000 + i)
            scene = pile_scene(layout, rng)
            for size_name, size in SIZES.items():
                frame = renderer.render(scene, cond, size, seed=seed * 1000 + i)
                t0 = time.perf_counter()
                det = Detector(layout).detect(frame)
                ms[size_name].append((time.perf_counter() - t0) * 1000)
                gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
                t0 = time.perf_counter()
                peer.detectMarkers(gray)
                peer_ms[size_name].append((time.perf_counter() - t0) * 1000)
                tallies[size_name].add(scene, det.bases)
                overall[size_name].add(scene, det.bases)
        out["conditions"][name] = {k: t.report() for k, t in tallies.items()}
    out["all"] = {k: t.report() for k, t in overall.items()}
    out["timing"] = {}
    for k in SIZES:
        mine, peer_t = statistics.median(ms[k]), statistics.median(peer_ms[k])
        out["timing"][k] = {"detect_median_ms": round(mine, 1),
                            "aruco_median_ms": round(peer_t, 1),
                            "ratio": round(mine / max(1e-6, peer_t), 1)}
    return out
