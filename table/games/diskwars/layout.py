"""The printed battlefield: a square as wide as the catalog says (three feet by
default), one free area the camera reads disks anywhere in, markers all round. The
rules measure in the same map millimetres the camera reports and a screen draws, so
the battlefield's corner on the sheet (``origin``) is where the rules' squares start."""

from __future__ import annotations

from typing import Any

from table.maps import layout_document

from .catalog import Catalog

BATTLEFIELD = "battlefield"
COLOURS = {"p1": "#F0780A", "p2": "#1A78E0"}


def layout(catalog: Catalog) -> dict[str, Any]:
    side = catalog.battlefield
    return layout_document(
        "diskwars", "diskwars",
        [{"name": BATTLEFIELD, "role": "area",
          "polygon": [[0.0, 0.0], [side, 0.0], [side, side], [0.0, side]]}],
        (min(catalog.sizes.values()), max(catalog.sizes.values())), dict(COLOURS),
        piles=True)


def origin(document: dict[str, Any]) -> tuple[float, float]:
    """The battlefield's first corner on the sheet (map mm)."""
    poly = next(r["polygon"] for r in document["regions"] if r["name"] == BATTLEFIELD)
    return (min(x for x, _ in poly), min(y for _, y in poly))
