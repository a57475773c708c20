"""The printed track: six hexes 100 mm across in a zig-zag row (odd ones half a hex
lower), room for five pawns on one space, markers all round."""

from __future__ import annotations

from table.maps import hex_grid, layout_document

from .state import SPACES

LAYOUT = layout_document("track", "track",
                         hex_grid(6, 1, 100.0, name=lambda c, r: SPACES[c]),
                         (25.0, 25.0), {"p1": "#F0780A", "p2": "#1A78E0"})
