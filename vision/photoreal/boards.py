"""Boards the project did not print, for the empty-board calibration's tests: a
wooden board with burnt-in lines where the layout's regions run, a hex map whose hexes
are coloured by terrain, and a dark battle mat. Their markers are printed on white
labels stuck to them (``markers=False``: none drawn, as for a thick board whose markers
lie on the table beside it, ``spec.RenderScene.thickness_mm``)."""

from __future__ import annotations

import cv2
import numpy as np

from ..layout import Layout

# Terrain a hex map colours its hexes with (BGR, as printed): meadow, forest, water,
# sand, rock, marsh. Strong colours on purpose: the players' stickers are too.
TERRAIN_BGR = ((70, 150, 95), (40, 90, 35), (170, 120, 40), (120, 190, 215),
               (120, 125, 130), (90, 120, 100))


def wooden_board(layout: Layout, px_per_mm: float, seed: int = 0,
                 markers: bool = True) -> np.ndarray:
    """The board's top as a BGR picture of the sheet's size at ``px_per_mm``."""
    rng = np.random.default_rng(seed)
    w, h = _size(layout, px_per_mm)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    wobble = np.sin(yy / (37 * px_per_mm) + rng.uniform(0, 6)) * 6 * px_per_mm
    grain = np.sin((xx + wobble) / (1.7 * px_per_mm)) * 0.5 + 0.5
    rings = np.sin((xx + wobble * 3) / (11 * px_per_mm)) * 0.5 + 0.5
    tone = 0.55 + 0.25 * grain * rings + rng.normal(0, 0.03, (h, w)).astype(np.float32)
    base = np.array([60, 120, 180], np.float32)  # BGR: a mid oak
    img = (tone[..., None] * base[None, None, :] * 1.15).clip(0, 255).astype(np.uint8)
    _outlines(img, layout, px_per_mm, (25, 45, 70), 1.5)
    return _labels(img, layout, px_per_mm) if markers else img


def hex_terrain(layout: Layout, px_per_mm: float, seed: int = 0,
                markers: bool = True) -> np.ndarray:
    """Each region filled with a terrain colour (mottled), dark outlines between them,
    on a grey-brown surround."""
    rng = np.random.default_rng(seed)
    w, h = _size(layout, px_per_mm)
    img = np.full((h, w, 3), (95, 105, 115), np.uint8)
    for r in layout.regions:
        pts = (np.array(r.polygon, np.float32) * px_per_mm).astype(np.int32)
        colour = TERRAIN_BGR[int(rng.integers(len(TERRAIN_BGR)))]
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    img = _mottled(img, rng, px_per_mm, 0.12)
    _outlines(img, layout, px_per_mm, (30, 35, 35), 1.2)
    return _labels(img, layout, px_per_mm) if markers else img


def battle_mat(layout: Layout, px_per_mm: float, seed: int = 0,
               markers: bool = True) -> np.ndarray:
    """A dark grass-and-earth mat (neoprene, printed dark: about a fifth of white), no
    lines: where the regions run is the layout's business."""
    rng = np.random.default_rng(seed)
    w, h = _size(layout, px_per_mm)
    img = np.full((h, w, 3), (30, 48, 40), np.uint8)
    img = _mottled(img, rng, px_per_mm, 0.25)
    return _labels(img, layout, px_per_mm) if markers else img


def _size(layout: Layout, px_per_mm: float) -> tuple[int, int]:
    w, h = (int(round(v * px_per_mm)) for v in layout.sheet)
    return w, h


def _mottled(img: np.ndarray, rng: np.random.Generator, px_per_mm: float,
             amount: float) -> np.ndarray:
    """Patches of lighter and darker (15-60 mm across) and a fine grain."""
    h, w = img.shape[:2]
    coarse = rng.normal(0, 1, (max(2, h // int(20 * px_per_mm)),
                               max(2, w // int(20 * px_per_mm)))).astype(np.float32)
    patches = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    fine = rng.normal(0, 0.4, (h, w)).astype(np.float32)
    tone = 1 + amount * np.clip(patches + fine, -2.5, 2.5)
    return (img.astype(np.float32) * tone[..., None]).clip(0, 255).astype(np.uint8)


def _outlines(img: np.ndarray, layout: Layout, px_per_mm: float,
              colour: tuple[int, int, int], width_mm: float) -> None:
    for r in layout.regions:
        pts = (np.array(r.polygon, np.float32) * px_per_mm).astype(np.int32)
        cv2.polylines(img, [pts], True, colour, max(1, int(round(width_mm * px_per_mm))),
                      cv2.LINE_AA)


def _labels(img: np.ndarray, layout: Layout, px_per_mm: float) -> np.ndarray:
    """Each marker on a white label (4 mm of margin round it) stuck to the board."""
    aruco = cv2.aruco
    dictionary = aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary))
    for m in layout.markers:
        xs = [c[0] * px_per_mm for c in m.corners]
        ys = [c[1] * px_per_mm for c in m.corners]
        x0, y0 = int(round(min(xs))), int(round(min(ys)))
        size = int(round(max(xs))) - x0
        pad = int(round(4 * px_per_mm))
        cv2.rectangle(img, (x0 - pad, y0 - pad), (x0 + size + pad, y0 + size + pad),
                      (235, 235, 235), -1)
        tile = aruco.generateImageMarker(dictionary, m.id, size)
        img[y0:y0 + size, x0:x0 + size] = cv2.cvtColor(tile, cv2.COLOR_GRAY2BGR)
    return img
