"""Warseer's printed battlefield as a ``tablesight-layout/1`` document: the hexes
(``table.maps.hex_grid``), each deployment zone tinted in its player's colour
(``tint_of``) and each terrain hex printed with its word and a pale tint of its colour
(``terrain``, ``terrain_tint``), so a table needs no terrain tiles; the markers all
round. The same document drives the printing, the camera and the dashboard."""

from __future__ import annotations

from typing import Any

from table.maps import layout_document

from .battlefield import Battlefield

PLAYER_COLORS = {"p1": "#F0780A", "p2": "#1A78E0"}
BASE_DIAMETERS_MM = (25.0, 35.0)  # the game's round bases fit a 40 mm hex


def battlefield_layout(bf: Battlefield | None = None) -> dict[str, Any]:
    bf = bf or Battlefield.standard()
    zone_of = {str(h): p for p, hs in bf.deployment.items() for h in hs}
    regions = []
    for r in bf.regions():
        h = bf.hex_named(r["name"])
        t = bf.terrain.get(h)
        if t is not None:
            r = {**r, "terrain": t.label, "terrain_tint": t.fill}
        elif r["name"] in zone_of:
            r = {**r, "tint_of": zone_of[r["name"]]}
        regions.append(r)
    return layout_document("warseer-standard", "warseer", regions, BASE_DIAMETERS_MM,
                           PLAYER_COLORS)
