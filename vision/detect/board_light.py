"""A board the project did not print, learned from a photo of it empty: how the light
on it changed since, and what differs from it (``foreground.ForegroundModel`` against
such a board)."""

from __future__ import annotations

import cv2
import numpy as np

from ..config import VisionConfig
from ..shrink import double, halve, shrink
from .ring_fit import lab_of
from .workarea import Box

# ``light_gain``'s log scale (steps a stop: 1/16 to 16 in a byte) and its median's width
# in blocks.
GAIN_STEPS, GAIN_MEDIAN = 32, 9


def lab_ab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab's (a, b) of a BGR picture, float32: colour apart from brightness."""
    return np.ascontiguousarray(lab_of(bgr)[..., 1:])


def light_gain(ratio: np.ndarray, block: int, covered: np.ndarray | None = None
               ) -> np.ndarray:
    """How the light changed since the board was learned, from ``ratio`` (a frame over
    the learned board, float32, one or three channels): the ratio's mean per ``block``
    x ``block`` pixels (4 mm: 4 working pixels, 2 at half resolution), then the median
    of ``GAIN_MEDIAN`` x ``GAIN_MEDIAN`` blocks (36 mm), which bases and figures are too
    small to move, enlarged again. ``covered`` (0/255, full resolution): where pieces
    are known to stand; the gain there is carried in from the board around them.

    A median keeps a step where it is: at the edge of a sun patch the gain changes
    within a block or two, and what differs from the board beside the edge is a band
    too thin for a base or a hand (blocks twice as large blend the step over a hand's
    width, and the edge is taken for an arm). Any gain from 1/16 to 16, however bright
    or dim the frame against the board (a lamp switched on over a board learned in a
    dim room), in steps of 2 %; never under 0.05, where the frame is black.

    What a median cannot tell from light: pieces touching one another that cover more
    than half of a window (a row of four, a block of nine Go stones) move it as a
    change of light would (``LearnedBoard.compare`` carries the gain over them)."""
    small = shrink(ratio, block).astype(np.float32)
    # As a byte on a log scale (OpenCV's median takes windows over 5 of bytes only).
    code = np.rint(np.clip(np.log2(np.maximum(small, 1 / 64)) * GAIN_STEPS + 128, 0, 255))
    code = code.astype(np.uint8)
    if covered is not None:
        hidden = cv2.resize(covered, (code.shape[1], code.shape[0]),
                            interpolation=cv2.INTER_AREA) > 0
        if hidden.any():
            code = cv2.inpaint(code, hidden.astype(np.uint8), 2,
                               cv2.INPAINT_TELEA).reshape(code.shape)
    code = cv2.medianBlur(code, GAIN_MEDIAN)
    small = np.exp2((code.astype(np.float32) - 128) / GAIN_STEPS)
    big = cv2.resize(small, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.maximum(big.reshape(ratio.shape), np.float32(0.05))


def learned_from(boards: list[np.ndarray]) -> np.ndarray:
    """One empty board from several pictures of it (BGR, the work area from above, each
    taken in its own light): each brought to the light of their median, pixel by
    pixel, then the median of them all. What shows in fewer than half of them (a sun
    patch, a hand, a glare that moved) is left out: with three pictures, what is in
    one; with two, nothing is left out, only the sensor's noise halved."""
    if len(boards) == 1:
        return boards[0]
    stack = np.stack([b.astype(np.float32) for b in boards])
    middle = np.maximum(np.median(stack, axis=0), np.float32(1.0))
    for k in range(len(stack)):
        # The picture's light against the middle's: a sun patch in it is a gain (its
        # edge kept sharp by the median), divided out again; a hand is too small to
        # move the gain and stays, for the median over pictures to leave out.
        stack[k] /= light_gain(cv2.divide(stack[k], middle), 4)
    return np.clip(np.median(stack, axis=0), 0, 255).astype(np.uint8)


# Hands by their colour (``LearnedBoard.unlike``): the frame's colour as it came, against
# the board's, judged in tiles this wide (working px, 32 mm). The board's fine detail
# (finer than DETAIL_SIGMA px) still showing in a tile, correlating DETAIL_MATCH or more
# with the board's, is the board under other light; where the board shows too little
# detail to tell (under DETAIL_LEAST grey levels, rms) the colour stands. A tile a
# quarter white-out shows no detail either, and is light (a sun patch clipped; a hand is
# no white-out). Measured on rendered oak boards, per 8 mm block: the board under other
# light 0.83-0.96 (median), under pieces 0.0-0.1.
DETAIL_TILE, DETAIL_SIGMA, DETAIL_LEAST, DETAIL_MATCH = 32, 1.5, 1.5, 0.35
WHITE_OUT, WHITE_SHARE = 225, 0.1


def fine_detail(gray: np.ndarray) -> np.ndarray:
    """What is finer than ``DETAIL_SIGMA`` in a grey picture (float32)."""
    g = gray.astype(np.float32)
    return g - cv2.GaussianBlur(g, (0, 0), DETAIL_SIGMA)


# The groups of touching pieces whose footprint ``LearnedBoard.compare`` carries the
# board's light over, in bases' areas: from two pieces (one alone does not move the
# median) to a 4 x 4 block (a 3 x 3 block is about 11.5). A sun patch's edge found all
# round it makes a far larger outline, and stays light.
GROUP_LEAST, GROUP_MOST = 1.5, 16


class LearnedBoard:
    """A board the camera saw empty, and each frame compared with it: darker or lighter
    than the board, or of another colour, after the light's change since, is a piece."""

    def __init__(self, ref: np.ndarray, cfg: VisionConfig, region_mask: np.ndarray,
                 disc_area: float) -> None:
        """``ref``: the empty board from above (BGR, the work area); ``region_mask``:
        where pieces may stand (0/255, the work area); ``disc_area``: the largest area
        one base covers (working px)."""
        self.cfg = cfg
        gray = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY)
        self.gray = np.maximum(gray.astype(np.float32), np.float32(1.0))
        # (numpy's maximum: cv2.max with a number floors only the first channel)
        self.colour = np.maximum(halve(ref).astype(np.float32), np.float32(1.0))
        self.ab = lab_ab(halve(ref))
        self.detail = fine_detail(gray)
        self.region_mask = region_mask
        self.disc_area = disc_area

    def compare(self, gray: np.ndarray, colour: np.ndarray, box: Box
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The pieces in ``gray`` (the work area's ``box``, full resolution) and
        ``colour`` (half resolution) as a mask (0/255, before morphology), with the
        brightness relative to the board's, the colour's distance from the board's
        (Lab a, b, half resolution) and the light's gain in grey.

        Pieces touching one another (a row of four, a block of nine Go stones) cover
        more than half of the gain's window, and their middle is measured as light;
        their outline is found all the same. So what each group's outline encloses is
        compared again, the gain carried over it from the board around
        (``light_gain``'s ``covered``)."""
        at, half = box.slices, box.halved().slices
        raw = cv2.divide(gray.astype(np.float32), self.gray[at])
        seen = colour.astype(np.float32)
        tint = cv2.divide(seen, self.colour[half])
        gain, colour_gain = light_gain(raw, 4), light_gain(tint, 2)
        mask, rel, ab_diff = self._differs(raw, seen, gain, colour_gain, at, half)
        c = self.cfg
        # The groups by the looser tests that find hands: a group's middle, measured
        # partly as light, still differs a little.
        near = cv2.bitwise_or(cv2.compare(rel, 1 - c.hand_dark_diff, cv2.CMP_LT),
                              cv2.compare(rel, 1 + c.board_light_diff, cv2.CMP_GT))
        near = cv2.bitwise_or(near, double(cv2.compare(ab_diff, c.board_hand_colour_diff,
                                                       cv2.CMP_GT))[:near.shape[0],
                                                                    :near.shape[1]])
        near = cv2.bitwise_and(near, self.region_mask[at])
        near = cv2.morphologyEx(near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        near = cv2.morphologyEx(near, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
        groups = enclosed(near, GROUP_LEAST * self.disc_area, GROUP_MOST * self.disc_area)
        if not groups:
            return mask, rel, ab_diff, gain
        footprint = np.zeros_like(mask)
        cv2.drawContours(footprint, groups, -1, 255, -1)
        gain2, colour_gain2 = light_gain(raw, 4, footprint), light_gain(tint, 2, footprint)
        # Compared again only round the groups (as far as the median reaches), even: a
        # box's halves are whole pixels at half resolution.
        reach = GAIN_MEDIAN * 4
        rows, cols = mask.shape
        for cnt in groups:
            x, y, w, h = cv2.boundingRect(cnt)
            x0, y0 = max(0, (x - reach) // 2 * 2), max(0, (y - reach) // 2 * 2)
            x1, y1 = min(cols, x + w + reach) // 2 * 2, min(rows, y + h + reach) // 2 * 2
            full = np.s_[y0:y1, x0:x1]
            part = np.s_[y0 // 2:y1 // 2, x0 // 2:x1 // 2]
            sub = (slice(at[0].start + y0, at[0].start + y1),
                   slice(at[1].start + x0, at[1].start + x1))
            sub_half = (slice(half[0].start + y0 // 2, half[0].start + y1 // 2),
                        slice(half[1].start + x0 // 2, half[1].start + x1 // 2))
            m, r, ab = self._differs(raw[full], seen[part], gain2[full], colour_gain2[part],
                                     sub, sub_half)
            mask[full], rel[full], ab_diff[part], gain[full] = m, r, ab, gain2[full]
        return mask, rel, ab_diff, gain

    def unlike(self, gray: np.ndarray, colour: np.ndarray, box: Box) -> np.ndarray:
        """Where the frame's colour, as it came, is unlike the board's and the board's
        own detail does not show through (0/255, half resolution): a hand, a sleeve.

        ``compare`` follows the light's colour as closely as its brightness, so a
        change of light (daylight after lamp light, a sun patch) is no piece; but a hand
        or an arm, wider than that window, has a colour of its own, and would be
        followed as if it were the light's. Light leaves the board's grain, lines and
        print where they are, only brighter or darker or tinted; a hand hides them."""
        c = self.cfg
        at, half = box.slices, box.halved().slices
        unlike = cv2.compare(np.linalg.norm(lab_ab(colour) - self.ab[half], axis=2)
                             .astype(np.float32), c.board_hand_colour_diff, cv2.CMP_GT)
        if not unlike.any():
            return unlike
        k = DETAIL_TILE
        f, b = fine_detail(gray), self.detail[at]
        fb, ff, bb = shrink(f * b, k), shrink(f * f, k), shrink(b * b, k)
        match = fb / np.sqrt(ff * bb + 1e-6)
        white = shrink((gray >= WHITE_OUT).astype(np.float32), k)
        light = ((bb >= DETAIL_LEAST ** 2) & (match >= DETAIL_MATCH)) | (white >= WHITE_SHARE)
        tiles = cv2.resize(light.astype(np.uint8), (unlike.shape[1], unlike.shape[0]),
                           interpolation=cv2.INTER_NEAREST)
        return cv2.bitwise_and(unlike, np.where(tiles > 0, 0, 255).astype(np.uint8))

    def _differs(self, raw: np.ndarray, seen: np.ndarray, gain: np.ndarray,
                 colour_gain: np.ndarray, at: tuple[slice, slice],
                 half: tuple[slice, slice]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where the frame (``raw``: its grey over the board's; ``seen``: its colour at
        half resolution) differs from the board after the light's ``gain`` and
        ``colour_gain``: the mask (0/255), the relative brightness, the colour distance.
        ``at``/``half``: where these lie in the work area, full and half resolution."""
        c = self.cfg
        rel = cv2.divide(raw, gain)
        balanced = cv2.divide(seen, colour_gain)
        ab_diff = np.linalg.norm(lab_ab(np.clip(balanced, 0, 255).astype(np.uint8))
                                 - self.ab[half], axis=2).astype(np.float32)
        other = double(cv2.compare(ab_diff, c.board_colour_diff, cv2.CMP_GT))
        mask = cv2.bitwise_or(cv2.compare(rel, 1 - c.dark_diff, cv2.CMP_LT),
                              cv2.compare(rel, 1 + c.board_light_diff, cv2.CMP_GT))
        mask = cv2.bitwise_or(mask, other[:mask.shape[0], :mask.shape[1]])
        return cv2.bitwise_and(mask, self.region_mask[at]), rel, ab_diff


def enclosed(mask: np.ndarray, least: float, most: float) -> list[np.ndarray]:
    """The outlines of ``mask``'s blobs of ``least`` to ``most`` pixels."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [cnt for cnt in contours if least <= cv2.contourArea(cnt) <= most]
