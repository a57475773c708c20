"""Pieces touching one another (``vision/detect/clusters.py``): a row, a block of nine,
a triangle are taken apart into their discs, not called a hand; a hand, a cup, and a
hand reaching in over the sheet's edge are left alone."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tablesight.bench_scoring import VisionTally, match_bases
from vision.detect import Detector
from vision.detect.bases import BaseCandidate
from vision.detect.clusters import take_apart
from vision.synth.scene import Base, Conditions, Scene

R = 12.5  # a 25 mm piece at 1 px a mm
STEP = 25.6  # touching


def _groups() -> list[tuple[float, float]]:
    """Where the pieces stand (mm): a 2 x 2 block, a row of four, a 3 x 3 block, a
    triangle, each inside the map's cells."""
    return ([(131 + (i - 0.5) * STEP, 656 + (j - 0.5) * STEP) for i in range(2) for j in range(2)]
            + [(300 + i * STEP, 420) for i in range(4)]
            + [(450 + i * STEP, 250 + j * STEP) for i in range(3) for j in range(3)]
            + [(200, 250), (200 + STEP, 250), (200 + STEP / 2, 250 + STEP * 0.87)])


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_touching_pieces_on_the_printed_map_are_bases_not_a_hand(layout, renderer, size):
    """20 stickered pieces in touching groups on the printed map. Called a hand before
    (7 of 20 found, the 3 x 3 block and the 2 x 2 block hiding five cells); now every
    group is taken apart: 19-20 of 20 found, no cell hidden, no wrong owner or id."""
    rng = np.random.default_rng(3)
    bases = []
    for k, (x, y) in enumerate(_groups()):
        owner = "p1" if rng.random() < 0.5 else "p2"
        bases.append(Base(x, y, owner, k % 16 + (16 if owner == "p2" else 0), 25.0,
                          float(rng.uniform(0, 360)), 0.0))
    scene = Scene(layout, bases)
    d = Detector(layout).detect(renderer.render(scene, Conditions(), size, seed=3))
    pairs, extra = match_bases(scene.bases, d.bases)
    tally = VisionTally()
    tally.add(layout, scene, d)
    r = tally.report()
    assert not d.occluded
    assert sum(got is not None for _, got in pairs) >= 19 and not extra
    assert r["wrong_owners"] == 0 and r["wrong_ids"] == 0


def _mask(discs: list[tuple[float, float]], shape=(300, 400)) -> np.ndarray:
    """Pieces as the foreground shows them: a rim and a contact shadow join neighbours
    into one blob."""
    mask = np.zeros(shape, np.uint8)
    for x, y in discs:
        cv2.circle(mask, (round(x), round(y)), round(R + 1), 255, -1)
    return mask


def _apart(mask: np.ndarray, cands: list[BaseCandidate] | None = None,
           loose: np.ndarray | None = None) -> list[BaseCandidate]:
    h, w = mask.shape
    inner = np.zeros((h // 2, w // 2), np.uint8)
    inner[5:-5, 5:-5] = 255  # the sheet, inside the work area
    half = cv2.resize(mask, (w // 2, h // 2), interpolation=cv2.INTER_NEAREST)
    return take_apart(mask, cands or [], R * 0.85, R + 4, 0.8,
                      half if loose is None else loose, inner)


def test_a_block_of_nine_is_nine_discs() -> None:
    centres = [(150 + i * STEP, 100 + j * STEP) for i in range(3) for j in range(3)]
    found = _apart(_mask(centres))
    assert len(found) == 9 and all(c.grouped and c.peak == c.radius for c in found)
    for x, y in centres:
        assert min(math.hypot(c.x - x, c.y - y) for c in found) < 3.0


def test_a_hand_a_cup_and_a_reach_over_the_edge_stay_as_they_were() -> None:
    # a palm with an arm, fingers spread: no border of base-sized arcs
    hand = np.zeros((300, 400), np.uint8)
    cv2.rectangle(hand, (150, 120), (230, 200), 255, -1)
    cv2.rectangle(hand, (175, 200), (205, 299), 255, -1)
    for k in range(4):
        cv2.rectangle(hand, (152 + k * 20, 70), (164 + k * 20, 120), 255, -1)
    kept = [BaseCandidate(190.0, 160.0, 14.0, 30.0, False)]
    assert _apart(hand, kept) == kept
    cup = np.zeros((300, 400), np.uint8)
    cv2.circle(cup, (200, 150), 40, 255, -1)  # one circle, larger than any base
    assert _apart(cup) == []
    # three fingertips in a row, round as pieces, their hand off the map: the looser
    # mask joins them to the sheet's edge
    tips = _mask([(200 + i * STEP, 40) for i in range(3)])
    loose = cv2.resize(tips, (200, 150), interpolation=cv2.INTER_NEAREST)
    loose[0:20, 95:135] = 255
    assert _apart(tips, loose=loose) == []
    assert len(_apart(tips)) == 3  # the same fingertips away from the edge: pieces
