"""Measuring on the map: the distance between two bases, edge to edge, in millimetres
and inches, with the error it carries.

Games measured in inches (a move of 6", a range of 12") need the gap between two bases'
edges. The camera gives each base's centre in map millimetres; the edges come from the
bases' sizes, which a game knows for each piece (the measured outline only says which
size a base is: it includes the base's bevel and shadow). The error of a measurement is
what the map fit and the centre fit leave: the homography's residual at the markers,
turned into millimetres at the bases' place, and the scatter of a base's centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MM_PER_INCH = 25.4
# A base's centre scatters by this much (1 sigma, mm) between frames and fits: measured
# on rendered frames at 1280x720 to 1600x1200 (tests/vision/test_measure.py prints it).
CENTRE_SIGMA_MM = 0.5


@dataclass(frozen=True)
class Measurement:
    mm: float  # edge to edge (negative: the bases overlap)
    error_mm: float  # about two standard deviations: the true gap lies within ± this

    @property
    def inches(self) -> float:
        return self.mm / MM_PER_INCH

    @property
    def error_inches(self) -> float:
        return self.error_mm / MM_PER_INCH

    def to_dict(self) -> dict[str, float]:
        return {"mm": round(self.mm, 1), "error_mm": round(self.error_mm, 1),
                "inches": round(self.inches, 2), "error_inches": round(self.error_inches, 2)}

    def __str__(self) -> str:
        return f'{self.inches:.2f}" ± {self.error_inches:.2f}" ({self.mm:.0f} mm)'


def mm_per_px(homography: np.ndarray, x_mm: float, y_mm: float) -> float:
    """How many map millimetres one image pixel spans near (x, y): the inverse of the
    map-to-image scale there (the mean of its two axes, from the homography's
    derivative)."""
    h = homography
    p = h @ np.array([x_mm, y_mm, 1.0])
    w = p[2]
    # d(image)/d(map) of a projective map: (H[:2,:2] * w - p[:2] outer H[2,:2]) / w^2
    jac = (h[:2, :2] * w - np.outer(p[:2], h[2, :2])) / (w * w)
    sx, sy = np.linalg.norm(jac[:, 0]), np.linalg.norm(jac[:, 1])
    return 2.0 / (sx + sy)


def edge_to_edge(a: tuple[float, float], a_diameter_mm: float,
                 b: tuple[float, float], b_diameter_mm: float,
                 homography: np.ndarray | None = None,
                 reprojection_px: float = 0.0) -> Measurement:
    """The gap between two round bases of known sizes whose centres the camera saw at
    ``a`` and ``b`` (map mm). With the map's fit (``homography``, sheet mm to image px,
    and its ``reprojection_px`` residual) the error includes how far the map itself may
    be off at those places."""
    centres = math.dist(a, b)
    gap = centres - (a_diameter_mm + b_diameter_mm) / 2
    fit_mm = 0.0
    if homography is not None and reprojection_px:
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        fit_mm = reprojection_px * mm_per_px(homography, *mid)
    # Each centre scatters on its own; the map's residual moves both alike, so it adds
    # to a gap's error only as much as it stretches the map between them (at most its
    # full size): a cautious bound, counted once.
    sigma = math.sqrt(2 * CENTRE_SIGMA_MM ** 2) + fit_mm
    return Measurement(gap, 2 * sigma)
