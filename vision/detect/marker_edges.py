"""Marker corners moved to the true edges of the printed square, at any resolution.

ArUco's corners come from a thresholded contour (and, in the half-size search, from a
quarter of the pixels). On a sharp 720p frame they are within a pixel; on a 12-megapixel
photo, where the lens and the sensor spread an edge over several pixels and printed black
is a dark grey, the threshold cuts inside the square and the corners land 4-8 px inside
the true ones, enough to fail the reprojection test. An edge's position does not move
with a symmetric blur: it is where the brightness changes fastest. So each of the four
sides is found again as a line through the steepest dark-to-light step across it
(sub-pixel, from the image itself), and the corners are where those lines meet.
"""

from __future__ import annotations

import cv2
import numpy as np

SAMPLES = 16  # points along each side (its middle 70 %: corners are rounded by blur)
STEP = 0.5  # px between samples across the side


def refine(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """``corners``: 4x2 (TL, TR, BR, BL, as ArUco gives them). Returns them moved to
    the square's edges, or unchanged when a side cannot be measured (too small, off
    the image, no clear step)."""
    c = corners.astype(np.float64)
    side = float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)))
    if side < 16:
        return corners  # a few pixels: the contour is as good as it gets
    # Search no further than about a module (a sixth of the marker, 4x4 bits plus the
    # border) from the first guess: the border is one module wide, so the step from an
    # inner white bit to the border (the other way round) stays out of reach.
    reach = max(2.0, side / 7)
    centre = c.mean(axis=0)
    lines = []
    for i in range(4):
        a, b = c[i], c[(i + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        normal = np.array([along[1], -along[0]]) / length
        if np.dot((a + b) / 2 - centre, normal) < 0:
            normal = -normal  # outward: from the black square to the white paper
        t = np.linspace(0.15, 0.85, SAMPLES)
        offsets = np.arange(-reach, reach + STEP, STEP)
        pts = a + t[:, None] * along  # SAMPLES x 2
        grid = pts[:, None, :] + offsets[None, :, None] * normal  # SAMPLES x K x 2
        map_x = grid[..., 0].astype(np.float32)
        map_y = grid[..., 1].astype(np.float32)
        if map_x.min() < 0 or map_y.min() < 0 or map_x.max() > gray.shape[1] - 1 or \
                map_y.max() > gray.shape[0] - 1:
            return corners
        profile = cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR).astype(np.float64)
        slope = np.diff(profile, axis=1)  # dark inside -> light outside: positive
        k = np.argmax(slope, axis=1)
        strong = slope[np.arange(SAMPLES), k]
        found = []
        mids = offsets[:-1] + STEP / 2  # where each slope value is measured
        for s_i in range(SAMPLES):
            j = int(k[s_i])
            if strong[s_i] < 4:
                continue  # no clear step here (a glare spot, a finger on the marker)
            # The step's centre: the slope's centroid over the run around its peak that
            # stays above half the peak. Not the argmax, which picks the first sample of
            # a plateau (8-bit brightness makes flat-topped slopes) and so leans inward.
            lo, hi = j, j
            while lo > 0 and slope[s_i, lo - 1] >= strong[s_i] / 2:
                lo -= 1
            while hi < slope.shape[1] - 1 and slope[s_i, hi + 1] >= strong[s_i] / 2:
                hi += 1
            if lo == 0 or hi == slope.shape[1] - 1:
                continue  # the step runs off the searched span: not measured whole
            w = slope[s_i, lo:hi + 1]
            d = float(np.dot(w, mids[lo:hi + 1]) / w.sum())
            found.append(pts[s_i] + d * normal)
        if len(found) < SAMPLES // 2:
            return corners
        vx, vy, x0, y0 = cv2.fitLine(np.array(found, np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = np.empty((4, 2), np.float64)
    for i in range(4):
        # Corner i is where side i-1 (ending at it) meets side i (starting at it).
        (p, u), (q, v) = lines[i - 1], lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return corners
        s, _ = np.linalg.solve(m, q - p)
        out[i] = p + s * u
    if np.max(np.linalg.norm(out - c, axis=1)) > 2 * reach:
        return corners  # the lines met far away: something else was measured
    return out.astype(corners.dtype)
