"""The printed track: six hexes 100 mm across in a zig-zag row (odd ones half a hex
lower), room for five pawns on one space; below them the meadow, a free area where a
pawn home grazes anywhere within four inches of the well printed at its centre; markers
all round."""

from __future__ import annotations

from table.maps import hex_grid, layout_document

from .state import MEADOW, SPACES

PAWN_MM = 25.0  # a pawn's base
_MEADOW = (548.0, 250.0)  # width, height: as wide as the track, 20 mm below it

LAYOUT = layout_document(
    "track", "track",
    [*hex_grid(6, 1, 100.0, name=lambda c, r: SPACES[c]),
     {"name": MEADOW, "role": "area",
      "polygon": [[0.0, 170.0], [_MEADOW[0], 170.0], [_MEADOW[0], 170.0 + _MEADOW[1]],
                  [0.0, 170.0 + _MEADOW[1]]]}],
    (PAWN_MM, PAWN_MM), {"p1": "#F0780A", "p2": "#1A78E0"})

# Where the sheet put the meadow (its regions are placed inside the markers' margin):
# the rules measure in the same map millimetres the camera reports.
MEADOW_OUTLINE = tuple((float(x), float(y)) for x, y in
                       next(r["polygon"] for r in LAYOUT["regions"] if r["name"] == MEADOW))
WELL = (sum(x for x, _ in MEADOW_OUTLINE) / 4, sum(y for _, y in MEADOW_OUTLINE) / 4)
