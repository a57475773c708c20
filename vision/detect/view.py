"""Where the camera is, seen from each base: its sticker on the base's top, and the
side of its ring a figure standing on it hides.

Both follow from the camera's position over the board (``pose.camera_over_board``),
and were measured on Blender renders with an id pass (each pixel's sticker, with and
without the figures; ``docs/vision/detector.md``).
"""

from __future__ import annotations

import numpy as np

# How much of the top's parallax lies beyond the centre of the base's outline (above).
TOP_BEYOND_OUTLINE = 0.75


def on_top(discs: np.ndarray, camera: np.ndarray | None, height: float) -> np.ndarray:
    """``discs`` (rows of x mm, y mm, radius mm, ...: bases' outlines found on the
    board's plane) moved to where their stickers show through the board's homography.
    A sticker lies on its base's top, ``height`` mm over the board; seen from the
    camera, a point that high lies over the board point further from the camera's foot
    by height / (camera height - height) of its distance (under a tilted camera 1-3 mm
    at the far side of the map, a tenth of a sticker's radius or more). The outline
    found holds the base's foot, its side and its top, so its centre lies between the
    foot and the top: measured a quarter of the way on the Blender renders (where the
    top's bevel and the side's shading blur into the paper) and half on synthetic
    frames. The sticker is taken to lie three quarters of the way further out, which
    read the most on both. No move without a camera."""
    if camera is None or height <= 0 or camera[2] <= height:
        return discs
    k = 1.0 + TOP_BEYOND_OUTLINE * height / (camera[2] - height)
    out = discs.copy()
    out[:, :2] = camera[None, :2] + (discs[:, :2] - camera[None, :2]) * k
    return out


def view_weights(discs: np.ndarray, camera: np.ndarray | None, figure_mm: float,
                 spread_deg: float, angles: int = 60) -> np.ndarray:
    """How much each angle of each ring (``discs``: rows of x mm, y mm, radius mm, ...)
    is to be believed, given where the camera is (``pose.camera_over_board``): (rings,
    angles), 1 where nothing is expected in the way. A figure standing on a base is
    seen from the camera's side, so its upper part lies over the ring on the side away
    from the camera's foot (parallax), the more the further the base is from the foot
    and the taller the figure. Measured on renders with the id pass (each pixel's
    sticker, with and without the figures): under a tilted camera, the ring within 40
    degrees of that direction was hidden 0.6-1.0 of the time and the rest under 0.1.
    ``figure_mm``: the height assumed (the shift it makes, as a share of the radius,
    sets how sure the arc is hidden); ``spread_deg``: the hidden arc's spread."""
    out = np.ones((len(discs), angles), np.float32)
    if camera is None or not len(discs):
        return out
    away = discs[:, :2] - camera[None, :2]
    reach = np.hypot(away[:, 0], away[:, 1])
    above = max(float(camera[2]) - figure_mm, 1.0)
    shift = reach * figure_mm / above / np.maximum(discs[:, 2], 1e-6)
    hidden = np.clip(0.9 * shift, 0.0, 0.95)
    toward = np.degrees(np.arctan2(away[:, 1], away[:, 0]))
    a = np.arange(angles) * (360.0 / angles)
    off = (a[None, :] - toward[:, None] + 180.0) % 360.0 - 180.0
    out -= (hidden[:, None] * np.exp(-0.5 * (off / spread_deg) ** 2)).astype(np.float32)
    return out
