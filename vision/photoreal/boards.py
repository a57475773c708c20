"""Boards the project did not print, for the empty-board calibration's tests (#17): a
wooden board with burnt-in lines where the layout's regions run, its markers printed on
white labels stuck to it."""

from __future__ import annotations

import cv2
import numpy as np

from ..layout import Layout


def wooden_board(layout: Layout, px_per_mm: float, seed: int = 0) -> np.ndarray:
    """The board's top as a BGR picture of the sheet's size at ``px_per_mm``."""
    rng = np.random.default_rng(seed)
    w, h = (int(round(v * px_per_mm)) for v in layout.sheet)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    wobble = np.sin(yy / (37 * px_per_mm) + rng.uniform(0, 6)) * 6 * px_per_mm
    grain = np.sin((xx + wobble) / (1.7 * px_per_mm)) * 0.5 + 0.5
    rings = np.sin((xx + wobble * 3) / (11 * px_per_mm)) * 0.5 + 0.5
    tone = 0.55 + 0.25 * grain * rings + rng.normal(0, 0.03, (h, w)).astype(np.float32)
    base = np.array([60, 120, 180], np.float32)  # BGR: a mid oak
    img = (tone[..., None] * base[None, None, :] * 1.15).clip(0, 255).astype(np.uint8)
    for r in layout.regions:
        pts = (np.array(r.polygon, np.float32) * px_per_mm).astype(np.int32)
        cv2.polylines(img, [pts], True, (25, 45, 70), max(1, int(round(1.5 * px_per_mm))),
                      cv2.LINE_AA)
    aruco = cv2.aruco
    dictionary = aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary))
    for m in layout.markers:
        xs = [c[0] * px_per_mm for c in m.corners]
        ys = [c[1] * px_per_mm for c in m.corners]
        x0, y0 = int(round(min(xs))), int(round(min(ys)))
        size = int(round(max(xs))) - x0
        pad = int(round(4 * px_per_mm))  # the label's white margin round the marker
        cv2.rectangle(img, (x0 - pad, y0 - pad), (x0 + size + pad, y0 + size + pad),
                      (235, 235, 235), -1)
        tile = aruco.generateImageMarker(dictionary, m.id, size)
        img[y0:y0 + size, x0:x0 + size] = cv2.cvtColor(tile, cv2.COLOR_GRAY2BGR)
    return img
