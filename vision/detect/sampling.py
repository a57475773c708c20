"""What the frame shows at points given in board millimetres: round each base (its
ring of samples, read by ``identify.py`` and ``tone.py``) and on the markers' printed
white and black (the light's white balance and the print's black and white).

Points are projected through the board's homography (or a marker plane's, for markers
off the board) and read in the original frame, so every camera pixel is used.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..layout import Layout


def marker_points(layout: Layout, white: bool = True) -> dict[float, np.ndarray]:
    """Points (mm) printed white (``white``) or black on any board, by the height of the
    marker they belong to. White: each marker's white cells, and the margin half a cell
    round it (the marker's quiet zone); black: its black cells and border."""
    aruco = cv2.aruco
    try:
        dictionary = aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary))
    except (AttributeError, cv2.error):
        return {}
    by_height: dict[float, list[tuple[float, float]]] = {}
    for m in layout.markers:
        out = by_height.setdefault(m.height, [])
        cells = dictionary.markerSize + 2
        bits = aruco.generateImageMarker(dictionary, m.id, cells, borderBits=1)
        (x0, y0), (x1, y1) = np.min(m.corners, axis=0), np.max(m.corners, axis=0)
        step_x, step_y = (x1 - x0) / cells, (y1 - y0) / cells
        for i in range(cells):
            for j in range(cells):
                if (bits[i, j] > 127) == white:
                    out.append((x0 + (j + 0.5) * step_x, y0 + (i + 0.5) * step_y))
        if not white:
            continue
        for k in range(cells):  # the quiet zone, half a cell outside the black border
            t = (k + 0.5) / cells
            out += [(x0 + t * (x1 - x0), y0 - step_y / 2), (x0 + t * (x1 - x0), y1 + step_y / 2),
                    (x0 - step_x / 2, y0 + t * (y1 - y0)), (x1 + step_x / 2, y0 + t * (y1 - y0))]
    return {z: np.array(pts, np.float32) for z, pts in by_height.items()}


def seen_at(frame: np.ndarray, homography: np.ndarray, points: dict[float, np.ndarray],
            marker_maps: dict[float, np.ndarray]) -> np.ndarray:
    """The frame's BGR (k, 3 float32) at the points (mm, by marker height) that lie
    inside it."""
    xy = np.concatenate([
        cv2.perspectiveTransform(pts.reshape(-1, 1, 2),
                                 marker_maps.get(z, homography)).reshape(-1, 2)
        for z, pts in points.items()])
    h, w = frame.shape[:2]
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w - 1) & (xy[:, 1] >= 0) & (xy[:, 1] < h - 1)
    xy = np.ascontiguousarray(xy[inside], np.float32)
    if not len(xy):
        return np.zeros((0, 3), np.float32)
    seen = cv2.remap(frame, xy[:, None, 0], xy[:, None, 1], cv2.INTER_LINEAR)
    return seen.reshape(-1, 3).astype(np.float32)


def ring_grid(radii: tuple[float, ...], angles: int) -> np.ndarray:
    """Offsets (radii, angles, 2) of a ring's samples round a unit circle's centre."""
    a = np.linspace(0, 2 * math.pi, angles, endpoint=False)
    rr = np.array(radii)
    return np.stack([np.cos(a)[None, :] * rr[:, None],
                     np.sin(a)[None, :] * rr[:, None]], axis=-1)


def pixel_radii(homography: np.ndarray, discs: np.ndarray) -> np.ndarray:
    """Each disc's radius in the frame's pixels (``discs``: rows of x mm, y mm, radius
    mm, ...): the mean distance from its centre to four points of its rim."""
    if not len(discs):
        return np.zeros(0)
    grid = ring_grid((0.0, 1.0), 4)
    pts = grid[None] * discs[:, 2, None, None, None] + discs[:, None, None, :2]
    img = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), homography).reshape(
        len(discs), 2, 4, 2)
    return np.linalg.norm(img[:, 1] - img[:, 0], axis=-1).mean(axis=1)


def ring_samples(frame: np.ndarray, homography: np.ndarray, discs: np.ndarray,
                 grid: np.ndarray) -> np.ndarray:
    """The frame's BGR at ``grid`` (``ring_grid``) round every disc at once (``discs``:
    rows of x mm, y mm, radius mm, ...): (discs * radii, angles, 3). One projection
    and one remap for all of them keeps this cheap."""
    radii, angles = grid.shape[:2]
    pts = grid[None] * discs[:, 2, None, None, None] + discs[:, None, None, :2]
    img = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), homography)
    img = img.reshape(len(discs) * radii, angles, 2).astype(np.float32)
    return cv2.remap(frame, img[..., 0], img[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
