"""A base whose mask a light figure opened into a "C" against a touching base is found
by its outline: on the rendered frames with figures, the only bases lost
were of this kind (a white or bone figure over its base's sticker, the base touching
another; tuning scene 107, held-out scene 10505)."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.detect.bases import BaseFinder
from vision.detect.foreground import fill_holes
from vision.layout import game_layout

LAYOUT = game_layout()
DISC_AREA = float(np.pi * (LAYOUT.base_diameters[1] / 2 * 1.2) ** 2)  # as ForegroundModel
SHAPE = (220, 320)


def _finder(**over: float) -> BaseFinder:
    return BaseFinder(LAYOUT, replace(VisionConfig(), **over))


def _found(mask: np.ndarray, **over: float) -> list[tuple[float, float, float]]:
    return [(c.x, c.y, c.radius) for c in _finder(**over).find(fill_holes(mask, DISC_AREA))]


def _opened(centre: tuple[int, int], r: int, figure: tuple[int, int], figure_r: int
            ) -> np.ndarray:
    """A base of radius ``r`` with a light figure (a disc at ``figure`` from its centre)
    cut out of its mask: what the foreground tests leave."""
    m = np.zeros(SHAPE, np.uint8)
    cv2.circle(m, centre, r, 255, -1)
    cv2.circle(m, (centre[0] + figure[0], centre[1] + figure[1]), figure_r, 0, -1)
    return m


@pytest.mark.parametrize("figure", [(0, -5), (4, 3), (-5, 0), (3, -4), (0, 5)])
def test_a_base_opened_by_a_light_figure_against_its_neighbour_is_found(
        figure: tuple[int, int]) -> None:
    """The figure (radius 11) cuts the base's rim open on one side and leaves a ring
    4-10 px wide on the other, as on the renders."""
    neighbour, base, r = (120, 90), (146, 103), 15  # 29 px apart: touching
    mask = _opened(base, r, figure, 11)
    cv2.circle(mask, neighbour, 15, 255, -1)
    found = _found(mask)
    assert len(found) == 2
    x, y, radius = min(found, key=lambda c: np.hypot(c[0] - base[0], c[1] - base[1]))
    assert np.hypot(x - base[0], y - base[1]) < 2.0 and abs(radius - r) < 2.5
    # The distance transform alone loses it: what the outline is there for.
    assert len(_found(mask, traced_arc_deg=999.0)) == 1


def test_an_opened_base_alone_is_closed_by_its_hull_and_found_once() -> None:
    mask = _opened((150, 110), 15, (0, -5), 11)
    found = _found(mask)
    assert len(found) == 1 and np.hypot(found[0][0] - 150, found[0][1] - 110) < 2.5


@pytest.mark.parametrize("centres", [
    [(100, 110), (130, 110)],  # two touching
    [(80, 110), (110, 110), (140, 110), (170, 110)],  # a row
    [(120, 90), (150, 90), (135, 116)],  # a triangle
    [(120, 90), (148, 97), (170, 118), (200, 110)],  # a crooked row, two sizes
])
def test_whole_bases_side_by_side_give_no_more_bases(centres: list[tuple[int, int]]
                                                     ) -> None:
    """(The triangle's gap leaves a small peak between the three, which
    ``figure_parts`` removes: not the outline's doing.)"""
    mask = np.zeros(SHAPE, np.uint8)
    for k, c in enumerate(centres):
        cv2.circle(mask, c, 15 if k % 2 else 13, 255, -1)
    assert _found(mask) == _found(mask, traced_arc_deg=999.0)
    assert len(_found(mask)) >= len(centres)


def test_a_light_figure_is_no_base_of_its_own() -> None:
    """The figure's own outline is a circle of nearly a base's size too (the inner edge
    of the "C"), with the ring outside it: no base."""
    mask = _opened((146, 103), 15, (3, -4), 11)
    cv2.circle(mask, (120, 90), 15, 255, -1)
    found = _found(mask)
    assert len(found) == 2
    assert all(np.hypot(x - 149, y - 99) > 3 for x, y, _ in found)


def test_a_round_bite_out_of_a_blob_is_no_base() -> None:
    """A light round thing (a figure, a token) biting into a large blob: the outline
    traces its circle, but the blob lies outside that circle, not inside."""
    mask = np.zeros(SHAPE, np.uint8)
    cv2.rectangle(mask, (100, 70), (200, 130), 255, -1)
    cv2.circle(mask, (150, 75), 14, 0, -1)
    assert _finder()._traced(mask, []) == []


def test_a_figure_beside_its_base_traces_no_base() -> None:
    """A base with its figure's head and arm leaning over the paper: one blob larger
    than a base, with no second circle in its outline."""
    mask = np.zeros(SHAPE, np.uint8)
    cv2.circle(mask, (150, 120), 15, 255, -1)
    cv2.ellipse(mask, (150, 100), (7, 11), 20, 0, 360, 255, -1)  # the head, leaning
    cv2.rectangle(mask, (160, 95), (185, 101), 255, -1)  # a spear
    traced = _finder()._traced(mask, [])
    assert len([c for c in traced if np.hypot(c.x - 150, c.y - 120) > 12 * 1.2]) == 0


def test_a_hand_traces_no_base() -> None:
    """An arm and spread fingers: outlines of a hand's size, not a base's circle."""
    mask = np.zeros(SHAPE, np.uint8)
    cv2.ellipse(mask, (160, 140), (45, 30), 0, 0, 360, 255, -1)
    for k in range(4):
        cv2.rectangle(mask, (128 + 18 * k, 60), (136 + 18 * k, 120), 255, -1)
    cv2.rectangle(mask, (200, 125), (319, 160), 255, -1)
    assert _finder()._traced(mask, []) == []


def test_a_traced_base_belongs_to_the_blob_its_ring_lies_on() -> None:
    """Its centre is bare (the light figure): taking piles apart must count it with the
    blob it is part of, or a circle fitted there finds it a second time (held-out scene
    10505 at 1080p, MJPEG 90: one base read twice)."""
    from vision.detect.bases import BaseCandidate
    from vision.detect.piles import _label_of
    from vision.shrink import halve

    mask = _opened((146, 103), 15, (3, -4), 11)
    cv2.circle(mask, (120, 90), 15, 255, -1)
    cv2.circle(mask, (250, 150), 14, 255, -1)  # another blob
    _, labels = cv2.connectedComponents(halve(fill_holes(mask, DISC_AREA)))
    traced = BaseCandidate(148.0, 101.0, 15.0, 0.0)
    assert labels[101 // 2, 148 // 2] == 0  # bare at its centre
    assert _label_of(labels, traced) == labels[90 // 2, 120 // 2] != 0
    assert _label_of(labels, BaseCandidate(250.0, 150.0, 14.0, 14.0)) == \
        labels[150 // 2, 250 // 2] != labels[90 // 2, 120 // 2]
