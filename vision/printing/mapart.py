"""Drawing a layout as a printable sheet (and as the detector's idea of the empty map).

The art is deliberately light and unsaturated inside cells and zones: bases are found
as dark or strongly coloured discs on it, so nothing printed there may look like one.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..layout import Layout, Region

PAPER = (236, 240, 242)  # BGR, slightly warm white
CELL = (222, 228, 232)
LINE = (150, 155, 160)
SOFT_TEXT = (165, 170, 175)
ZONE = (228, 232, 236)


def _tint(bgr: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """A pale version of a player colour (kept unsaturated so it is never a base)."""
    return tuple(int(round(c * amount + p * (1 - amount))) for c, p in zip(bgr, CELL, strict=True))


def _bgr(color: str) -> tuple[int, int, int] | None:
    """``#rrggbb`` as BGR; None for anything else (the layout is data from a file)."""
    h = color.lstrip("#") if isinstance(color, str) else ""
    if len(h) != 6 or any(c not in "0123456789abcdefABCDEF" for c in h):
        return None
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return b, g, r


def _poly(region: Region, s: float) -> np.ndarray:
    return (np.array(region.polygon, dtype=np.float64) * s * 16).round().astype(np.int32)


def _text(img: np.ndarray, text: str, org_mm: tuple[float, float], s: float, size_mm: float,
          color: tuple[int, int, int], center: bool = False, thick_mm: float = 0.6) -> None:
    scale = size_mm * s / 22.0
    thick = max(1, int(round(thick_mm * s)))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    x, y = org_mm[0] * s, org_mm[1] * s
    if center:
        x, y = x - w / 2, y + h / 2
    cv2.putText(img, text, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, scale, color, thick,
                cv2.LINE_AA)


def render_sheet(layout: Layout, px_per_mm: float, labels: bool = True,
                 markers: bool = True) -> np.ndarray:
    """The whole sheet as a BGR image at ``px_per_mm`` (without ``markers``: white where
    they go, for a PDF that draws them as vectors)."""
    s = px_per_mm
    w, h = int(round(layout.sheet[0] * s)), int(round(layout.sheet[1] * s))
    img = np.full((h, w, 3), PAPER, np.uint8)
    for r in layout.regions:
        fill = CELL if r.role == "cell" else ZONE
        for p in ("p1", "p2"):
            # a player's home ground (a spawn row, a deployment zone), palely
            if r.extra.get("spawn_row_of") == p or r.extra.get("tint_of") == p:
                fill = _tint(layout.player_bgr(p), 0.10)
            if r.extra.get("portal_of") == p:
                fill = _tint(layout.player_bgr(p), 0.22)
        terrain = _bgr(r.extra.get("terrain_tint", ""))
        if terrain is not None:  # printed terrain (a forest, a hill), pale: never a base
            fill = _tint(terrain, 0.22)
        cv2.fillPoly(img, [_poly(r, s)], fill, cv2.LINE_AA, 4)
        cv2.polylines(img, [_poly(r, s)], True, LINE, max(1, int(round(0.8 * s))), cv2.LINE_AA, 4)
    if labels:
        for r in layout.regions:
            x0, y0, x1, y1 = r.bbox
            if r.role == "cell" and "hex" in r.extra:
                # a hex's corners are outside it: its name goes inside, near its top
                cx, _ = r.center
                _text(img, r.name, (cx, y0 + (y1 - y0) * 0.2), s, 5, SOFT_TEXT, center=True)
                terrain = _bgr(r.extra.get("terrain_tint", ""))
                if terrain is not None and r.extra.get("terrain"):
                    _text(img, str(r.extra["terrain"])[:12], (cx, y0 + (y1 - y0) * 0.78), s,
                          4.5, _tint(terrain, 0.6), center=True)
            elif r.role == "cell":
                _text(img, r.name, (x0 + 4, y0 + 10), s, 6, SOFT_TEXT)
                scoring = r.extra.get("scoring", {})
                if scoring:
                    # p1's value reads from p1's side (bottom), p2's from the top.
                    if "p1" in scoring:
                        _text(img, f"{scoring['p1']}", (x1 - 12, y1 - 5), s, 9,
                              _tint(layout.player_bgr("p1"), 0.35))
                    if "p2" in scoring:
                        _text(img, f"{scoring['p2']}", (x0 + 5, y1 - 5), s, 9,
                              _tint(layout.player_bgr("p2"), 0.35))
                if r.extra.get("portal_of"):
                    cx, cy = r.center
                    for rad in (18, 30, 42):
                        cv2.circle(img, (int(cx * s), int(cy * s)), int(rad * s),
                                   _tint(layout.player_bgr(r.extra["portal_of"]), 0.3),
                                   max(1, int(0.6 * s)), cv2.LINE_AA)
                    _text(img, f"{r.extra['portal_of']} portal", (cx, cy + 50), s, 5,
                          SOFT_TEXT, center=True)
            else:
                _text(img, f"{r.player} {r.zone}", (x0 + 4, y0 + 9), s, 5.5, SOFT_TEXT)
    aruco = cv2.aruco
    dictionary = aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary))
    for m in layout.markers:
        xs = [c[0] for c in m.corners]
        ys = [c[1] for c in m.corners]
        x0, y0 = int(round(min(xs) * s)), int(round(min(ys) * s))
        x1, y1 = int(round(max(xs) * s)), int(round(max(ys) * s))
        size = min(x1 - x0, y1 - y0)
        tile = aruco.generateImageMarker(dictionary, m.id, size) if markers else \
            np.full((size, size), 255, np.uint8)
        img[y0:y0 + size, x0:x0 + size] = cv2.cvtColor(tile, cv2.COLOR_GRAY2BGR)
    return img


def render_reference(layout: Layout, px_per_mm: float) -> np.ndarray:
    """The empty map as the detector expects it (no labels needed at low resolution)."""
    return render_sheet(layout, px_per_mm, labels=True)
