"""A base's centre where its outline is no circle.

A figure leaning past its base, or a pale part of a sticker the foreground lost, bends
the base's outline on one side: opposite rays from the peak then disagree, and the
disc was marked not round and kept no reading against the frame's print (held-out
1080p seed 4: 8 of 264 bases). The rest of the rays still end on the base's edge, so
the circle most of them lie on is the base's (``bases._circle_of_most``)."""

import math

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from table.maps import free_area, layout_document
from vision.config import VisionConfig
from vision.detect.bases import ROUND_ENDS, BaseFinder, _circle_of_most
from vision.layout import Layout, game_layout

LAYOUT = game_layout()
ANGLES = np.linspace(0, 2 * np.pi, 16, endpoint=False)


def _ends(cx: float, cy: float, r: float, longer: dict[int, float]) -> np.ndarray:
    """Sixteen rays' ends on a circle, those in ``longer`` (ray -> extra length) past it."""
    extra = np.array([longer.get(k, 0.0) for k in range(16)])
    return np.stack([cx + np.cos(ANGLES) * (r + extra), cy + np.sin(ANGLES) * (r + extra)],
                    axis=1)


@settings(max_examples=200, deadline=None)
@given(cx=st.floats(20, 300), cy=st.floats(20, 200), r=st.floats(12, 17),
       start=st.integers(0, 15), run=st.integers(0, 4), extra=st.floats(2.5, 12),
       seed=st.integers(0, 2**32 - 1))
def test_the_circle_the_ends_fit_is_the_bases(cx: float, cy: float, r: float, start: int,
                                              run: int, extra: float, seed: int) -> None:
    """Up to four neighbouring rays run on past the edge (a figure's overhang), and
    every end is up to 0.3 px off (the mask's pixels, the rays' half-pixel steps): the
    circle is found through the others, to half a pixel."""
    ends = _ends(cx, cy, r, {(start + k) % 16: extra for k in range(run)})
    ends += np.random.default_rng(seed).uniform(-0.3, 0.3, ends.shape)
    found = _circle_of_most(ends, 11.0, 20.0, 1.0, ROUND_ENDS)
    assert found is not None
    x, y, radius = found
    assert math.hypot(x - cx, y - cy) < 0.5 and abs(radius - r) < 0.5


def test_five_rays_over_a_wide_overhang_still_find_the_base() -> None:
    """Five of sixteen rays 6 px long past the edge: the circle through the eleven
    others (counting ends near a circle instead of weighing how near once chose a wider
    circle shifted 3.6 px toward the overhang)."""
    found = _circle_of_most(_ends(50, 60, 13, {k: 6.0 for k in range(5)}), 11.0, 20.0,
                            1.0, ROUND_ENDS)
    assert found is not None and math.hypot(found[0] - 50, found[1] - 60) < 0.1


def test_too_few_ends_on_one_circle_give_none() -> None:
    """Six rays of sixteen off the circle leave ten on it: under ``ROUND_ENDS``, so the
    outline is not taken for a circle (a pile of disks, two bases read as one)."""
    ends = _ends(100, 100, 14, {k: 6.0 for k in range(6)})
    assert _circle_of_most(ends, 11.0, 20.0, 1.0, ROUND_ENDS) is None


def test_no_circle_outside_the_base_sizes() -> None:
    ends = _ends(100, 100, 30, {})
    assert _circle_of_most(ends, 11.0, 20.0, 1.0, ROUND_ENDS) is None


def test_a_base_with_a_figure_leaning_past_it_is_centred_on_the_base() -> None:
    """The mask of a base (radius 14 px, 1 px/mm) and a figure's overhang beside it: the
    rays toward the overhang run on, so opposite rays disagree (before the circle fit
    the disc was marked not round); the disc found is the base's, and round."""
    mask = np.zeros((200, 200), np.uint8)
    cv2.circle(mask, (100, 100), 14, 255, -1)
    cv2.circle(mask, (114, 100), 9, 255, -1)  # reaches 9 px past the base's edge
    found = BaseFinder(LAYOUT, VisionConfig()).find(mask)
    assert len(found) == 1
    c = found[0]
    assert c.round
    assert math.hypot(c.x - 100, c.y - 100) < 1.0 and abs(c.radius - 14.5) < 1.0


def test_where_pieces_pile_a_disc_whose_rays_disagree_is_left_to_the_pile_stage() -> None:
    """On a layout where disks lie on one another, the same outline may be a pile (the
    lower disk peeking out on one side): it stays not round, for ``piles.split``."""
    piles = Layout.from_dict(layout_document(
        "mat", "test", [free_area(200.0, 200.0)], (25.0, 32.0),
        {"p1": "#F0780A", "p2": "#1A78E0"}, piles=True))
    mask = np.zeros((200, 200), np.uint8)
    cv2.circle(mask, (100, 100), 14, 255, -1)
    cv2.circle(mask, (114, 100), 9, 255, -1)
    found = BaseFinder(piles, VisionConfig()).find(mask)
    assert len(found) == 1 and not found[0].round
