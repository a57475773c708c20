"""What to tell a person when the camera's view is not good enough to work with: a
board whose markers were not found (or found but not fitting the layout), an empty-board
photo taken in light the detector cannot learn from, and a learned board every cell of
which now looks changed (the light, not hands). Words only; the stages decide."""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout
from .locate import MapFix

# An empty-board photo is refused below this median brightness (0-255): the learned
# picture would be mostly sensor noise, and play in better light would differ everywhere.
DARK = 45
# ... and warned about when its bright parts lean this far to one colour (the largest
# channel over the smallest, among the brightest tenth): a coloured lamp or a white
# balance that play's light will not share.
TINTED = 1.35
# ... or when its light is this uneven (the brightest tenth's median over the darkest
# tenth's, on a blurred picture): a sun patch or a lamp's glare, learned as the board's
# own look, comes back as a hand when it moves.
UNEVEN = 2.6
# ... or when this share of it is white-out (a channel at WHITE_OUT or more): a sun patch
# or a lamp's glare so bright the camera clipped it. What stands there later and is
# bright too cannot be told from the board (a rendered sun patch over a fifth of the
# board hid a white-topped piece under later glare).
CLIPPED, WHITE_OUT = 0.08, 250
# A learned board against which this share of the cells looks covered: the light changed.
ALL_CHANGED = 0.9


def map_not_found(fix: MapFix, layout: Layout, cfg: VisionConfig,
                  size: tuple[int, int]) -> str:
    """Why a frame's map was not found, and what to check, in one sentence."""
    seen, total = len(fix.markers_seen), len(layout.markers)
    if seen < cfg.min_markers:
        return (f"the board's markers were not found: {seen} of {total} seen (at least "
                f"{cfg.min_markers} are needed): is the whole board in the picture, lit, "
                "and in focus?")
    if fix.reprojection_px is None:
        return (f"the board's markers were seen ({seen} of {total}) but too close together "
                "to place the board: bring the whole board into the picture")
    limit = max(cfg.max_reprojection_px,
                cfg.max_reprojection_share * math.hypot(size[0], size[1]))
    heights = {m.height for m in layout.markers}
    height = ("the markers' height (--marker-height) differs from where they really are"
              if heights != {0.0} else
              "a marker stands off the board (give its height with --marker-height)")
    return (f"the board's markers were seen ({seen} of {total}) but do not fit the layout: "
            f"{fix.reprojection_px:.1f} px from where the layout puts them (at most "
            f"{limit:.1f}). Likely a marker stuck elsewhere than the layout says, {height}, "
            "or a layout made for another board")


def empty_board_problems(board: np.ndarray) -> tuple[str | None, list[str]]:
    """A learned empty board (BGR, from above): why it cannot be used (None: it can),
    and what may make it compare badly with play."""
    grey = np.asarray(board.mean(axis=2), dtype=np.float32)
    median = float(np.median(grey))
    if median < DARK:
        return (f"the empty board is too dark to learn (median brightness {median:.0f} of "
                f"255): photograph it in the light of play"), []
    warnings = []
    bright = grey >= np.percentile(grey, 90)
    means = board[bright].reshape(-1, 3).mean(axis=0) + 1.0
    tint = float(means.max() / means.min())
    if tint >= TINTED:
        lean = ("blue", "green", "red")[int(np.argmax(means))]
        warnings.append(f"the light on the empty board is coloured (its whites lean "
                        f"{lean}, {tint:.2f} to 1): learn it again if play's light differs")
    small = grey[::4, ::4]
    k = max(3, (min(small.shape) // 8) | 1)
    soft = cv2.GaussianBlur(small, (k, k), 0)
    lo, hi = np.percentile(soft, 10), np.percentile(soft, 90)
    spread = float(hi / max(lo, 1.0))
    if spread >= UNEVEN:
        warnings.append(f"the light on the empty board is uneven (its bright parts {spread:.1f} "
                        "times its dark parts: a sun patch, glare or a lamp): what is learned "
                        "there comes back as a hand when the light moves")
    clipped = float((board.max(axis=2) >= WHITE_OUT).mean())
    if clipped >= CLIPPED:
        warnings.append(f"{clipped:.0%} of the empty board is white-out (a sun patch or a "
                        "lamp's glare the camera clipped): a pale piece standing there later "
                        "cannot be told from it. Shade it, or learn the board again once "
                        "the light has moved")
    return None, warnings


def relearn_advice(occluded: int, cells: int, learned: bool) -> str | None:
    """Advice when (nearly) every cell looks covered against a learned board."""
    if not learned or cells == 0 or occluded < ALL_CHANGED * cells:
        return None
    return (f"{occluded} of {cells} cells look changed against the learned board: the "
            "light has likely changed since it was learned. Learn the board again, empty, "
            "in the light of play (tablesight vision learn-board)")
