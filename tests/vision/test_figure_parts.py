"""A figure's head or arms beside its base are no base of their own.

A tall figure seen under a tilt leans away from the camera; its head, or a wide figure's
arms, make a second peak in the foreground next to the base's, and the disc found there
overlaps the base further than two bases standing side by side can.
"""

import math
import random

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.detect.bases import APART, BaseCandidate, BaseFinder, crowded, figure_parts
from vision.layout import game_layout


def _mask(discs: list[tuple[float, float, float]]) -> np.ndarray:
    """A foreground mask (1 px/mm) with these discs (x, y, radius) drawn."""
    m = np.zeros((200, 300), np.uint8)
    for x, y, r in discs:
        cv2.circle(m, (round(x), round(y)), round(r), 255, -1)
    return m


@pytest.fixture(scope="module")
def finder() -> BaseFinder:
    return BaseFinder(game_layout(), VisionConfig())


def test_a_head_beside_its_base_is_found_and_then_dropped(finder: BaseFinder) -> None:
    """A 28 mm base with a 22 mm wide head 17 mm away (measured on rendered frames:
    such discs lie 0.4-0.7 of the two radii apart): the peaks find two discs, and the
    head's goes."""
    cands = finder.find(_mask([(100, 100, 14), (100, 83, 11)]))
    assert len(cands) == 2  # the trap this guards against
    gone = figure_parts(cands, [False, False])
    kept = [c for c, g in zip(cands, gone, strict=True) if not g]
    assert len(kept) == 1
    assert math.hypot(kept[0].x - 100, kept[0].y - 100) < 4  # the base stays, not the head


@pytest.mark.parametrize("gap", [0.0, 1.0, 4.0])
def test_bases_side_by_side_are_all_kept(finder: BaseFinder, gap: float) -> None:
    """Touching or nearly touching bases of both sizes, in a row and a triangle."""
    row = [(60 + i * (28 + gap), 100, 14) for i in range(4)]
    tri = [(200, 60, 16), (232 + gap, 60, 16), (216 + gap / 2, 60 + 28 + gap, 16)]
    cands = finder.find(_mask(row + tri))
    assert len(cands) == 7
    assert not any(figure_parts(cands, [False] * 7))


def test_a_read_sticker_is_never_taken_for_a_figure() -> None:
    base = BaseCandidate(100, 100, 14, 14)
    head = BaseCandidate(100, 84, 11, 11)
    assert figure_parts([base, head], [False, True]) == [True, False]
    assert figure_parts([base, head], [True, True]) == [False, False]


def test_the_answer_does_not_depend_on_the_order() -> None:
    rnd = random.Random(3)
    for _ in range(200):
        cands = [BaseCandidate(rnd.uniform(0, 120), rnd.uniform(0, 120), r, r)
                 for r in (rnd.uniform(11, 17) for _ in range(rnd.randint(2, 7)))]
        read = [rnd.random() < 0.3 for _ in cands]
        gone = figure_parts(cands, read)
        order = list(range(len(cands)))
        rnd.shuffle(order)
        again = figure_parts([cands[i] for i in order], [read[i] for i in order])
        assert [gone[i] for i in order] == again
        # What stays: no two discs overlapping further than bases can, unless both
        # carry a sticker read; and every read sticker stays.
        assert not any(g and r for g, r in zip(gone, read, strict=True))
        left = [(c, r) for c, r, g in zip(cands, read, gone, strict=True) if not g]
        for i, (a, ra) in enumerate(left):
            for b, rb in left[i + 1:]:
                apart = math.hypot(a.x - b.x, a.y - b.y) >= APART * (a.radius + b.radius)
                assert apart or (ra and rb)


def test_a_disc_smaller_than_any_base_touching_another_is_a_figure_part() -> None:
    """A tall figure's head under a strong tilt lies further out (0.76-1.07 of the two
    radii on rendered frames), but it reads smaller than the smallest base, which no
    base touching another did."""
    base = BaseCandidate(100, 100, 16, 16)
    head = BaseCandidate(100, 78, 11.2, 11.2)  # 0.81 of the radii away
    assert figure_parts([base, head], [False, False]) == [False, False]
    assert figure_parts([base, head], [False, False], smallest=12.5) == [False, True]
    # A small base beside a big one: at its size or more, kept however close it stands.
    small = BaseCandidate(100, 72, 12.6, 12.6)
    assert figure_parts([base, small], [False, False], smallest=12.5) == [False, False]
    # Standing clear of any other, a disc that reads small is a base.
    alone = BaseCandidate(100, 60, 11.2, 11.2)
    assert figure_parts([base, alone], [False, False], smallest=12.5) == [False, False]


def test_crowded_names_both_discs_of_a_figure_and_none_side_by_side(
        finder: BaseFinder) -> None:
    """``crowded``: the discs whose ring may be sampled over another's sticker (a
    reading against the frame's print is not believed there, ``pipeline``): both the
    base and the head beside it, and no base among bases standing side by side."""
    base = BaseCandidate(100, 100, 14, 14)
    head = BaseCandidate(100, 84, 11, 11)
    far = BaseCandidate(200, 100, 14, 14)
    assert crowded([base, head, far]) == [True, True, False]
    assert crowded([base]) == [False]
    row = finder.find(_mask([(60 + i * 29, 100, 14) for i in range(4)]))
    assert len(row) == 4 and not any(crowded(row))
    # the same rule as figure_parts: what it may drop is crowded
    rnd = random.Random(5)
    for _ in range(100):
        cands = [BaseCandidate(rnd.uniform(0, 120), rnd.uniform(0, 120), r, r)
                 for r in (rnd.uniform(11, 17) for _ in range(rnd.randint(2, 6)))]
        near = crowded(cands, 12.5)
        gone = figure_parts(cands, [False] * len(cands), 12.5)
        assert all(n for n, g in zip(near, gone, strict=True) if g)
