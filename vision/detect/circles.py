"""Circles from points: the circle through three points (many triples at once), and the
circle that many points fit by least squares. The base finder fits a disc's outline
with them (``bases.py``), and the pile stage the disks lying on one another
(``piles.py``)."""

from __future__ import annotations

import numpy as np


def through_three(a: np.ndarray, b: np.ndarray, c: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The circles through ``a[i]``, ``b[i]``, ``c[i]`` (points, each (n, 2)): their
    centres' x and y, their radii, and whether each is defined (three points in a line
    have none: its row holds no meaning)."""
    (x1, y1), (x2, y2), (x3, y3) = a.T, b.T, c.T
    # The centre is where the bisectors of two chords meet.
    d = 2 * (x1 * (y2 - y3) + x2 * (y3 - y1) + x3 * (y1 - y2))
    ok = np.abs(d) > 1e-6
    d = np.where(ok, d, 1.0)
    s1, s2, s3 = x1 * x1 + y1 * y1, x2 * x2 + y2 * y2, x3 * x3 + y3 * y3
    ux = (s1 * (y2 - y3) + s2 * (y3 - y1) + s3 * (y1 - y2)) / d
    uy = (s1 * (x3 - x2) + s2 * (x1 - x3) + s3 * (x2 - x1)) / d
    return ux, uy, np.hypot(x1 - ux, y1 - uy), ok


def fitted(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """The circle (x, y, radius) that points ``x``, ``y`` (three or more) fit by least
    squares."""
    # x^2 + y^2 + a x + b y + c = 0 is linear in (a, b, c).
    a, b, c = np.linalg.lstsq(np.stack([x, y, np.ones_like(x)], axis=1), -(x * x + y * y),
                              rcond=None)[0]
    cx, cy = -a / 2, -b / 2
    return float(cx), float(cy), float(np.sqrt(max(cx * cx + cy * cy - c, 0.0)))
