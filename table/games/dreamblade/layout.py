"""The printed Dreamblade map as a layout document (``tablesight-layout/1``, all lengths
in map millimetres): the 5x5 cells, each player's off-map zones, and the ArUco markers
the camera finds the sheet by. The vision package reads this document; it knows the
format, not the game."""

from __future__ import annotations

from typing import Any

from table.maps import LAYOUT_FORMAT

from .board import Board

CELL_MM = 110.0  # eight 32 mm bases fit in a 110 mm square with room for fingers
MARKER_MM = 50.0
BAND_MM = 64.0  # marker band between the grid and the zones
ZONE_MM = 85.0  # off-map strip along each player's edge
EDGE_MM = 12.0  # white margin at the sheet's edge
PLAYER_COLORS = {"p1": "#F0780A", "p2": "#1A78E0"}  # orange and blue: far apart in hue
BASE_DIAMETERS_MM = (25.0, 32.0)


def _square(x0: float, y0: float, w: float, h: float) -> list[list[float]]:
    return [[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]]


def standard_layout() -> dict[str, Any]:
    """The standard sheet: 5x5 cells, zones along both players' edges, 20 ArUco markers
    around the grid and the zones."""
    board = Board.standard()
    cols, rows = len(board.columns), board.rows
    gx0 = EDGE_MM + BAND_MM
    gy0 = EDGE_MM + ZONE_MM + BAND_MM
    gw, gh = cols * CELL_MM, rows * CELL_MM
    width = gx0 * 2 + gw
    height = gy0 * 2 + gh
    regions: list[dict[str, Any]] = []
    for i, name in enumerate(board.cell_names):
        c, r = board.column(i), board.row(i)
        x0 = gx0 + c * CELL_MM
        y0 = gy0 + (rows - r) * CELL_MM  # row 1 at the bottom, p1's side
        region: dict[str, Any] = {"name": name, "role": "cell",
                                  "polygon": _square(x0, y0, CELL_MM, CELL_MM)}
        for p in ("p1", "p2"):
            if board.portal(p) == i:
                region["portal_of"] = p
            if i in board.spawn_row(p):
                region["spawn_row_of"] = p
            pts = board.scoring_cells(p).get(i)
            if pts:
                region.setdefault("scoring", {})[p] = pts
        regions.append(region)
    # Zones: reserves (wide), graveyard, destroyed this turn; p1 at the bottom, p2 at top.
    widths = {"reserves": 0.5, "graveyard": 0.3, "destroyed": 0.2}
    zx0 = EDGE_MM + MARKER_MM + 10  # room for a marker at each end of the strip
    usable = width - 2 * zx0
    for player, y0 in (("p1", height - EDGE_MM - ZONE_MM), ("p2", EDGE_MM)):
        x = zx0
        order = ["reserves", "graveyard", "destroyed"]
        if player == "p2":
            order.reverse()  # mirrored, so each player has reserves on their own left
        for zone in order:
            w = usable * widths[zone]
            regions.append({"name": f"{player}.{zone}", "role": "zone",
                            "polygon": _square(x, y0, w, ZONE_MM), "player": player,
                            "zone": zone})
            x += w
    # Markers: the grid's corners, three along each side of the grid, and both ends of
    # each zone strip. Spread out so the map is found with several covered by hands.
    centers: list[tuple[float, float]] = []
    left, right = gx0 - BAND_MM / 2, gx0 + gw + BAND_MM / 2
    top, bottom = gy0 - BAND_MM / 2, gy0 + gh + BAND_MM / 2
    for y in (top, bottom):
        for x in (left, gx0 + gw * 0.25, gx0 + gw * 0.5, gx0 + gw * 0.75, right):
            centers.append((x, y))
    for x in (left, right):
        for y in (gy0 + gh * 0.25, gy0 + gh * 0.5, gy0 + gh * 0.75):
            centers.append((x, y))
    for y in (EDGE_MM + ZONE_MM / 2, height - EDGE_MM - ZONE_MM / 2):
        for x in (EDGE_MM + MARKER_MM / 2 + 3, width - EDGE_MM - MARKER_MM / 2 - 3):
            centers.append((x, y))
    half = MARKER_MM / 2
    markers = [{"id": i, "corners": _square(x - half, y - half, MARKER_MM, MARKER_MM)}
               for i, (x, y) in enumerate(centers)]
    return {"format": LAYOUT_FORMAT, "name": "dreamblade-standard",
            "game": "dreamblade", "units": "mm", "sheet": {"width": width, "height": height},
            "markers": {"dictionary": "DICT_4X4_50", "items": markers},
            "regions": regions, "bases": {"diameters": list(BASE_DIAMETERS_MM)},
            "players": {p: {"color": c} for p, c in PLAYER_COLORS.items()}}
