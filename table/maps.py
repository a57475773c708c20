"""Printed maps for any game, as ``tablesight-layout/1`` documents (map millimetres, x
to the right, y down, p1's edge at the bottom): square grids, hex grids and free play
areas, with the markers the camera finds the sheet by laid out around the play area.

A game describes its play area (its regions) and calls ``layout_document``; the same
document then drives the printing (tiled on A4 or Letter), the camera and the
dashboard's drawing. Nothing here knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

LAYOUT_FORMAT = "tablesight-layout/1"
LAYOUT_FORMAT_2 = "tablesight-layout/2"  # what a layout of piled disks needs
MARKER_MM = 50.0  # a marker's side: found from 2 m by a 1080p webcam
EDGE_MM = 12.0  # the white margin at the sheet's edge
MARKER_SPACING_MM = 260.0  # at most this far apart along each side: hands cover some
Point = tuple[float, float]


def column_name(i: int) -> str:
    """a, b, ..., z, aa, ab, ... (spreadsheet style, lower case)."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def square_grid(columns: int, rows: int, cell_mm: float) -> list[dict[str, Any]]:
    """Cells ``a1`` (bottom left, p1's side) to the top right, as regions at (0, 0)."""
    regions = []
    for r in range(rows):
        for c in range(columns):
            x0, y0 = c * cell_mm, (rows - 1 - r) * cell_mm
            regions.append({"name": f"{column_name(c)}{r + 1}", "role": "cell",
                            "polygon": [[x0, y0], [x0 + cell_mm, y0],
                                        [x0 + cell_mm, y0 + cell_mm], [x0, y0 + cell_mm]]})
    return regions


def hex_center(col: int, row: int, across_flats_mm: float) -> Point:
    """The centre of hex (col, row) of a flat-topped grid whose odd columns sit half a
    hex lower ("odd-q"), with row 0 at the bottom; hex (0, 0)'s box touches (0, 0)."""
    size = across_flats_mm / math.sqrt(3)  # circumradius
    x = size + col * 1.5 * size
    return x, across_flats_mm / 2 + col % 2 * across_flats_mm / 2 + row * across_flats_mm


def hex_grid(columns: int, rows: int, across_flats_mm: float,
             name: Callable[[int, int], str] | None = None) -> list[dict[str, Any]]:
    """Flat-topped hexes, ``across_flats_mm`` from edge to edge (a base of that diameter
    just fits), ``a1`` at the bottom left. Rows count upward: the grid is flipped so p1's
    edge is at the bottom, like the printed sheet."""
    name = name or (lambda c, r: f"{column_name(c)}{r + 1}")
    size = across_flats_mm / math.sqrt(3)
    height = rows * across_flats_mm + across_flats_mm / 2
    regions = []
    for c in range(columns):
        for r in range(rows):
            cx, cy = hex_center(c, r, across_flats_mm)
            cy = height - cy  # row 0 at the bottom
            pts = [[round(cx + size * math.cos(math.radians(60 * k)), 3),
                    round(cy + size * math.sin(math.radians(60 * k)), 3)] for k in range(6)]
            regions.append({"name": name(c, r), "role": "cell", "polygon": pts,
                            "hex": [c, r]})
    return regions


def free_area(width_mm: float, height_mm: float, name: str = "battlefield") -> dict[str, Any]:
    """One region where bases stand anywhere (positions, not cells, are what count)."""
    return {"name": name, "role": "area",
            "polygon": [[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]]}


def bounds(regions: Sequence[dict[str, Any]]) -> tuple[float, float, float, float]:
    xs = [p[0] for r in regions for p in r["polygon"]]
    ys = [p[1] for r in regions for p in r["polygon"]]
    return min(xs), min(ys), max(xs), max(ys)


def layout_document(name: str, game: str, regions: list[dict[str, Any]],
                    base_diameters: Sequence[float], players: dict[str, str],
                    extra: dict[str, Any] | None = None,
                    margin_mm: float = 0.0, piles: bool = False) -> dict[str, Any]:
    """The whole sheet: the play area (``regions``, anywhere) moved inside a band of
    markers, one at each corner and more along each side at most
    ``MARKER_SPACING_MM`` apart, so the camera finds the map with several covered.
    ``margin_mm``: more room between the play area and the markers (markers on the
    table round a thick board stand clear of its edge). ``piles``: the pieces are flat
    disks that may lie on one another."""
    band = MARKER_MM + 14.0 + 2 * margin_mm  # a marker and room around it
    x0, y0, x1, y1 = bounds(regions)
    dx, dy = EDGE_MM + band - x0, EDGE_MM + band - y0
    moved = [{**r, "polygon": [[round(x + dx, 3), round(y + dy, 3)] for x, y in r["polygon"]]}
             for r in regions]
    w, h = x1 - x0, y1 - y0
    sheet_w, sheet_h = w + 2 * (EDGE_MM + band), h + 2 * (EDGE_MM + band)
    left, top = EDGE_MM + band / 2, EDGE_MM + band / 2
    right, bottom = sheet_w - left, sheet_h - top

    def along(a: float, b: float) -> list[float]:
        n = max(1, math.ceil((b - a) / MARKER_SPACING_MM))
        return [a + (b - a) * k / n for k in range(n + 1)]

    centers: list[Point] = []
    for x in along(left, right):
        centers += [(x, top), (x, bottom)]
    for y in along(top, bottom)[1:-1]:
        centers += [(left, y), (right, y)]
    half = MARKER_MM / 2
    if len(centers) > 50:
        raise ValueError(f"a {sheet_w:.0f} x {sheet_h:.0f} mm sheet needs {len(centers)} "
                         "markers; the dictionary has 50")
    markers = [{"id": i, "corners": [[x - half, y - half], [x + half, y - half],
                                     [x + half, y + half], [x - half, y + half]]}
               for i, (x, y) in enumerate(centers)]
    return {"format": LAYOUT_FORMAT_2 if piles else LAYOUT_FORMAT, "name": name,
            "game": game, "units": "mm",
            "sheet": {"width": round(sheet_w, 3), "height": round(sheet_h, 3)},
            "markers": {"dictionary": "DICT_4X4_50", "items": markers},
            "regions": moved,
            "bases": {"diameters": [min(base_diameters), max(base_diameters)],
                      **({"piles": True} if piles else {})},
            "players": {p: {"color": c} for p, c in players.items()},
            **(extra or {})}
