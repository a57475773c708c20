"""Stage 5: hands and arms over the map.

A hand is foreground that bases do not explain: a connected blob much larger than a
base whose area is mostly outside the detected base discs. Every region it touches
(plus a margin, for fingers the mask missed) is occluded: the detector reports what it
sees there, but nothing downstream may trust or commit it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout
from .bases import BaseCandidate
from .workarea import WorkArea

# Unexplained pixels wider than a base, as a share of a base's area, that make a blob of
# touching pieces (``clusters.py``) a hand: fewer are the gaps between them (a 3 x 3
# block of 25 mm pieces leaves about a twentieth of a base).
GAPS = 0.2
# ... and that make any other blob a hand: a few pixels are a disc's ragged edge (one
# pixel past a base's width made a 2 x 2 block of pieces a hand); a hand's palm on the
# map shows 40 and more.
SPECKS = 0.05


class OcclusionFinder:
    def __init__(self, layout: Layout, config: VisionConfig, area: WorkArea,
                 region_labels: np.ndarray) -> None:
        """``region_labels``: the layout's regions drawn in ``area``
        (``WorkArea.region_labels``)."""
        self.cfg = config
        s = area.scale
        self.s = s
        self.base_area = np.pi * (layout.base_diameters[1] / 2 * s) ** 2
        self.r_max = layout.base_diameters[1] / 2 * s
        # One image of region numbers (0: none) answers "which regions does this hand
        # cover" with one lookup, however many regions the map has.
        self.names = [r.name for r in layout.regions]
        self.region_labels_half = region_labels[::2, ::2]  # as cv2's nearest halving

    def find(self, bases: list[BaseCandidate],
             loose: np.ndarray) -> tuple[set[str], np.ndarray]:
        """``loose``: every clear difference to the map, at half resolution
        (``Foreground.loose``: hands are big, and half resolution finds them as well at
        a quarter of the cost). Returns the occluded regions and the hands' pixels, at
        the same half resolution."""
        dt = cv2.distanceTransform(loose, cv2.DIST_L2, 3) * 2.0
        explained = np.zeros_like(loose)
        for b in bases:
            if b.peak < self.cfg.disc_fill * b.radius:
                # Not a filled disc: a band (an arm's shadow) about as wide as a base,
                # read as a row of overlapping discs, must not explain itself away.
                continue
            cv2.circle(explained, (int(round(b.x / 2)), int(round(b.y / 2))),
                       int(b.radius * 1.15 / 2) + 1, 255, -1)
        rest = cv2.bitwise_and(loose, cv2.bitwise_not(explained))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(loose, 8)
        rows, cols = labels.shape
        grouped = {int(labels[min(rows - 1, int(b.y) // 2), min(cols - 1, int(b.x) // 2)])
                   for b in bases if b.grouped}
        hand = np.zeros_like(loose)
        wide = self.cfg.max_radius_fraction * self.r_max
        quarter = self.base_area / 4  # areas at half resolution
        for i in range(1, n):
            area = stats[i, cv2.CC_STAT_AREA]
            if area < 1.5 * quarter:
                continue
            x, y, w, h = (int(v) for v in stats[i, :4])
            box = np.s_[y:y + h, x:x + w]  # the component's bounding box is enough
            comp = labels[box] == i
            # Wider than any base somewhere (a palm, an arm), or large and not made of
            # base-sized discs: either way, not bases.
            too_wide = float(dt[box][comp].max()) > wide
            outside = comp & (rest[box] > 0)
            unexplained = int(np.count_nonzero(outside))
            # Wider than any base where no base is: only a hand or an arm is. A hand's tip
            # can itself look like a base (skin's hue is near orange's), and then the
            # bases "explain" most of a hand whose palm is off the map: seen with darker
            # skin reaching to the near edge, the hand was missed and its fingertips
            # reported as bases (phantom bases in the demo).
            # A block of touching pieces taken apart into its discs leaves the gaps
            # between them unexplained, deep inside a blob wider than any base: there a
            # few such pixels do not count.
            wide_px = int(np.count_nonzero(dt[box][outside] > wide))
            wide_unexplained = wide_px > (GAPS if i in grouped else SPECKS) * quarter
            # Wide but almost all base: a base with a halo of shadow, not a hand (a hand
            # is wide *and* mostly outside the bases).
            if wide_unexplained or (too_wide and unexplained > 1.5 * quarter) or (
                    area >= self.cfg.hand_area_bases * quarter
                    and unexplained > 1.5 * quarter):
                hand[box][comp] = 255
        occluded: set[str] = set()
        if hand.any():
            # The margin, at half resolution too (rounded up: never smaller).
            m = math.ceil(self.cfg.occlusion_margin_mm * self.s / 2)
            grown = cv2.dilate(hand, np.ones((2 * m + 1, 2 * m + 1), np.uint8)) > 0
            for k in np.unique(self.region_labels_half[:grown.shape[0], :grown.shape[1]][grown]):
                if k:
                    occluded.add(self.names[k - 1])
        return occluded, hand
