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
# ... or when this share of where pieces stand is white-out (a channel at WHITE_OUT or
# more, and bright, WHITE_GREY or more: a vivid blue clips its blue and is no white-out):
# a sun patch or a lamp's glare so bright the camera clipped it. What stands there later
# and is bright too cannot be told from the board (a rendered sun patch over a fifth of
# the board hid a white-topped piece under later glare).
CLIPPED, WHITE_OUT, WHITE_GREY = 0.08, 250, 225
# The board's own lines (``lines_off``) are looked for this far (mm) from where the
# layout puts them (less than half a cell: further, the next row of lines fits as
# well); they judge only where their edges stand out LINES_CLEAR times the median
# shift's, and a quarter of the board is off when its lines lie LINES_OFF_MM or more
# away and fit there LINES_BETTER times better. Measured on a rendered hex board with
# its markers 20 mm below (tilt 25 degrees): the right height 0-2 mm, fitting 1.0-1.1
# times better; the wrong one 7-13 mm, 2.2-3.3 times; the lines' peak 2.9-3.6 times the
# median.
LINES_SEARCH_MM, LINES_CLEAR, LINES_OFF_MM, LINES_BETTER = 20.0, 2.0, 4.0, 1.3
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


def empty_board_problems(board: np.ndarray, regions: np.ndarray | None = None
                         ) -> tuple[str | None, list[str]]:
    """A learned empty board (BGR, from above): why it cannot be used (None: it can),
    and what may make it compare badly with play. ``regions``: where pieces stand
    (0/255 of the board's size; None: everywhere), which is where white-out matters."""
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
    white = (board.max(axis=2) >= WHITE_OUT) & \
        (cv2.cvtColor(board, cv2.COLOR_BGR2GRAY) >= WHITE_GREY)
    clipped = float(white[regions > 0].mean() if regions is not None else white.mean())
    if clipped >= CLIPPED:
        warnings.append(f"{clipped:.0%} of the empty board is white-out (a sun patch or a "
                        "lamp's glare the camera clipped): a pale piece standing there later "
                        "cannot be told from it. Shade it, or learn the board again once "
                        "the light has moved")
    return None, warnings


def lines_off(board: np.ndarray, region_labels: np.ndarray, px_per_mm: float,
              heights: set[float]) -> str | None:
    """Whether the board's own lines (an empty learned board, from above) lie where the
    layout puts its regions' borders (``region_labels``: the work area's region
    numbers), per quarter of the board: a warning naming the offset when they lie
    clearly elsewhere, None when they fit or the board shows no lines to judge by.

    A marker height that is wrong for every marker alike fits the markers as well as
    the right one (under a tilted camera, -20 mm taken for 0 put a board 11-34 mm off
    at the same reprojection error): only the board itself can tell."""
    border = np.zeros(region_labels.shape, bool)
    border[:, 1:] |= region_labels[:, 1:] != region_labels[:, :-1]
    border[1:, :] |= region_labels[1:, :] != region_labels[:-1, :]
    grey = cv2.GaussianBlur(cv2.cvtColor(board, cv2.COLOR_BGR2GRAY).astype(np.float32),
                            (0, 0), 1.0)
    edges = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    h, w = border.shape
    reach = int(round(LINES_SEARCH_MM * px_per_mm))
    shifts = []
    for qy in (0, 1):
        for qx in (0, 1):
            part = np.s_[qy * h // 2:(qy + 1) * h // 2, qx * w // 2:(qx + 1) * w // 2]
            ys, xs = np.nonzero(border[part])
            if len(ys) < 50:
                continue
            ys, xs = ys + qy * h // 2, xs + qx * w // 2
            score = np.zeros((2 * reach + 1, 2 * reach + 1), np.float32)
            for dy in range(-reach, reach + 1):
                yy = ys + dy
                for dx in range(-reach, reach + 1):
                    xx = xs + dx
                    ok = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
                    score[dy + reach, dx + reach] = edges[yy[ok], xx[ok]].mean()
            best = np.unravel_index(int(score.argmax()), score.shape)
            peak, here = float(score[best]), float(score[reach, reach])
            if peak < LINES_CLEAR * float(np.median(score)) or \
                    max(abs(best[0] - reach), abs(best[1] - reach)) >= reach:
                continue  # no lines stand out, or none within reach: nothing to judge by
            off = math.hypot(best[1] - reach, best[0] - reach) / px_per_mm
            shifts.append((off, peak / max(here, 1e-6)))
    off = [o for o, gain in shifts if o >= LINES_OFF_MM and gain >= LINES_BETTER]
    # A wrong height moves the whole board: most quarters are off, not one (a printed
    # map's own art has edges a few mm from its cells' borders here and there).
    if len(off) < max(2, (len(shifts) + 1) // 2):
        return None
    height = ", ".join(f"{v:g}" for v in sorted(heights))
    return (f"the board's own lines lie {min(off):.0f}-{max(off):.0f} mm from where the "
            f"layout puts them: is the markers' height right (now {height} mm, "
            "--marker-height)? A height wrong for every marker alike fits the markers "
            "as well as the right one")


def relearn_advice(occluded: int, cells: int, learned: bool) -> str | None:
    """Advice when (nearly) every cell looks covered against a learned board."""
    if not learned or cells == 0 or occluded < ALL_CHANGED * cells:
        return None
    return (f"{occluded} of {cells} cells look changed against the learned board: the "
            "light has likely changed since it was learned. Learn the board again, empty, "
            "in the light of play (tablesight vision learn-board)")
