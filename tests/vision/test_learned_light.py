"""How the light changed since a board was learned (``foreground.light_gain``): any
brightness, each colour channel on its own, pieces left out, and the edge of a sun
patch kept close to where it lies."""

from __future__ import annotations

import numpy as np

from vision.detect.board_light import light_gain


def _pieces(ratio: np.ndarray, value: float) -> np.ndarray:
    """Base-sized discs (25 px across, at 1 px a mm) of another ratio dotted over it."""
    out = ratio.copy()
    yy, xx = np.mgrid[0:ratio.shape[0], 0:ratio.shape[1]]
    for cy in range(30, ratio.shape[0] - 20, 70):
        for cx in range(30, ratio.shape[1] - 20, 70):
            out[(yy - cy) ** 2 + (xx - cx) ** 2 <= 12.5 ** 2] = value
    return out


def test_a_frame_far_brighter_than_the_board_is_followed() -> None:
    """A board learned in a dim room, played under a lamp four times as bright: the
    gain is four, where it once stopped at 2.55 and every cell differed."""
    gain = light_gain(_pieces(np.full((240, 320), 4.0, np.float32), 1.2), 4)
    assert gain.shape == (240, 320)
    assert np.allclose(gain, 4.0, rtol=0.05)  # a block half on a piece is a step or two off


def test_each_colour_channel_has_its_own_gain() -> None:
    """Daylight against lamp light: blue up, red down. Each channel's gain is found
    apart, the pieces' own colour left out."""
    ratio = np.dstack([np.full((200, 280), v, np.float32) for v in (1.6, 1.1, 0.7)])
    ratio = _pieces(ratio, 1.0)
    gain = light_gain(ratio, 4)
    assert gain.shape == ratio.shape
    for channel, value in enumerate((1.6, 1.1, 0.7)):
        assert np.allclose(gain[..., channel], value, rtol=0.05)


def test_a_sun_patchs_edge_stays_sharp() -> None:
    """A sun patch's edge: three times the light on its right. The gain steps within a
    block or two of the edge (4 px blocks), not over the median's whole window, so the
    band beside it that differs from the board is narrower than a base, and no hand."""
    ratio = np.ones((200, 300), np.float32)
    ratio[:, 150:] = 3.0
    gain = light_gain(ratio, 4)
    row = gain[100]
    assert np.allclose(row[:142], 1.0, rtol=0.03) and np.allclose(row[158:], 3.0, rtol=0.03)


def test_black_in_the_frame_gives_a_floor_not_a_zero() -> None:
    gain = light_gain(np.zeros((64, 64, 3), np.float32), 4)
    assert float(gain.min()) >= 0.05 and np.isfinite(gain).all()
