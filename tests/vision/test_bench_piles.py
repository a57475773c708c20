"""The piles bench (``tablesight bench vision --game``): its scenes pile disks as it
says, its tally counts what it says, and it runs through on a game whose disks lie on
one another (figures only; nothing here asserts on time)."""

from __future__ import annotations

import math

import numpy as np

from tablesight.bench_piles import PileTally, bench_piles, pile_scene
from tests.test_cli import run
from vision.detect.pipeline import SeenBase
from vision.layout import game_layout
from vision.synth.scene import Base, Scene


def seen(b: Base, sticker: int | None, layer: int, dx: float = 0.0) -> SeenBase:
    return SeenBase("battlefield", b.x + dx, b.y, b.diameter, b.owner, 1.0, sticker,
                    "read" if sticker is not None else "unreadable", 1.0, layer=layer)


def test_the_scenes_pile_disks_and_keep_groups_apart() -> None:
    layout = game_layout("diskwars")
    scene = pile_scene(layout, np.random.default_rng(3))
    bases = scene.bases
    assert len({b.tag for b in bases}) == len(bases)  # each sticker printed once
    overlapping = sum(1 for i, a in enumerate(bases) for b in bases[i + 1:]
                      if math.hypot(a.x - b.x, a.y - b.y) < (a.diameter + b.diameter) / 2)
    assert overlapping >= 5
    x0, y0, x1, y1 = layout.regions[0].bbox
    assert all(x0 <= b.x - b.diameter / 2 and b.x + b.diameter / 2 <= x1
               and y0 <= b.y - b.diameter / 2 and b.y + b.diameter / 2 <= y1 for b in bases)


def test_the_tally_counts_identity_order_and_disks_where_none_lies() -> None:
    layout = game_layout("diskwars")
    low = Base(300.0, 300.0, "p1", 2, 89.0)
    top = Base(330.0, 300.0, "p2", 17, 45.0)
    alone = Base(600.0, 600.0, "p1", 5, 64.0)
    covered = Base(700.0, 300.0, "p1", 6, 45.0)
    over = Base(705.0, 300.0, "p2", 18, 89.0)
    scene = Scene(layout, [low, top, alone, covered, over])
    t = PileTally()
    t.add(scene, [seen(low, 2, 0, dx=1.5), seen(top, 17, 1), seen(alone, None, 0),
                  seen(over, 19, 0), seen(Base(100.0, 900.0, "p1", 7, 45.0), 7, 0)])
    r = t.report()
    assert r["disks_centre_showing"] == 4 and r["disks_centre_covered"] == 1
    assert r["found"] == 1.0 and r["identity_told"] == 0.5
    assert r["identity_unread"] == 1 and r["identity_wrong"] == 1
    assert r["disks_where_none_lies"] == 1
    assert r["on_top"] == {"told": 1, "undecided": 0, "wrong": 0}
    assert r["centre_error_mm"]["p99"] == 1.5


def test_the_piles_bench_runs_through_on_a_game_of_disks() -> None:
    out = bench_piles("diskwars", quick=True, scenes=1)
    assert set(out["all"]) == {"720p", "1080p"}
    for m in out["all"].values():
        assert m["disks_centre_showing"] > 0 and 0.0 <= m["found"] <= 1.0
    assert all(t["ratio"] > 0 for t in out["timing"].values())


def test_the_piles_bench_refuses_a_game_of_places_in_one_line() -> None:
    r = run("bench", "vision", "--game", "warseer")
    assert r.returncode == 2 and "stand in places" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run("bench", "vision", "--game", "nosuch")
    assert r.returncode == 2 and "nosuch" in r.stderr


def test_a_disk_hidden_under_another_in_its_place_does_not_take_its_reading() -> None:
    """Three small disks piled at nearly one place: the bottom one, hidden, lies a
    millimetre nearer the disk seen on top than the top one does (the middle one's centre
    is covered too). The top one is paired with what was read as it, and the order the
    camera saw is told, not called wrong."""
    layout = game_layout("diskwars")
    bottom = Base(440.0, 334.0, "p1", 5, 45.0)
    middle = Base(443.0, 343.0, "p2", 31, 45.0)
    top = Base(440.0, 335.5, "p1", 10, 45.0)
    t = PileTally()
    t.add(Scene(layout, [bottom, middle, top]),
          [seen(bottom, 10, 1), seen(middle, None, 0)])
    r = t.report()
    assert r["disks_centre_covered"] == 2 and r["identity_told"] == 1.0
    assert r["on_top"] == {"told": 1, "undecided": 0, "wrong": 0}
