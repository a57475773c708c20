"""How the light on a learned board changed since it was learned
(``foreground.ForegroundModel`` against a board the project did not print)."""

from __future__ import annotations

import cv2
import numpy as np

from ..shrink import shrink

# ``light_gain``'s log scale (steps a stop: 1/16 to 16 in a byte) and its median's width
# in blocks.
GAIN_STEPS, GAIN_MEDIAN = 32, 9


def light_gain(ratio: np.ndarray, block: int) -> np.ndarray:
    """How the light changed since the board was learned, from ``ratio`` (a frame over
    the learned board, float32, one or three channels): the ratio's mean per ``block``
    x ``block`` pixels (4 mm: 4 working pixels, 2 at half resolution), then the median
    of ``GAIN_MEDIAN`` x ``GAIN_MEDIAN`` blocks (36 mm), which bases and figures are too
    small to move, enlarged again.

    A median keeps a step where it is: at the edge of a sun patch the gain changes
    within a block or two, and what differs from the board beside the edge is a band
    too thin for a base or a hand (blocks twice as large blend the step over a hand's
    width, and the edge is taken for an arm). Any gain from 1/16 to 16, however bright
    or dim the frame against the board (a lamp switched on over a board learned in a
    dim room), in steps of 2 %; never under 0.05, where the frame is black.

    What a median cannot tell from light: pieces touching one another that cover more
    than half of a window (a row of four, a block of nine Go stones) move it as a
    change of light would, and some of them are lost."""
    small = shrink(ratio, block).astype(np.float32)
    # As a byte on a log scale (OpenCV's median takes windows over 5 of bytes only).
    code = np.rint(np.clip(np.log2(np.maximum(small, 1 / 64)) * GAIN_STEPS + 128, 0, 255))
    code = cv2.medianBlur(code.astype(np.uint8), GAIN_MEDIAN)
    small = np.exp2((code.astype(np.float32) - 128) / GAIN_STEPS)
    big = cv2.resize(small, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.maximum(big.reshape(ratio.shape), np.float32(0.05))
