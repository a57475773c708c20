"""The neutral board model: what a screen draws of any game, in map millimetres.

A referee's ``view()`` describes its board with these value objects (regions as
outlines, pieces standing in a region or at a point, measured lines) and the dashboard
draws them without knowing the game: a square grid, a hex map and a free battlefield
are all outlines and points. Colours are ``#rrggbb`` or a player (``p1``/``p2``: that
player's colour, chosen at setup). Everything here becomes JSON with ``to_dict()``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Point = tuple[float, float]


def _pt(p: Point) -> list[float]:
    return [round(p[0], 2), round(p[1], 2)]


@dataclass(frozen=True)
class Mark:
    """A short text in a region's corner (points a region scores, a terrain symbol)."""

    text: str
    color: str  # #rrggbb or a player
    title: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "color": self.color, "title": self.title}


@dataclass(frozen=True)
class Key:
    """One line of a board's legend: a sample of a marking as the board draws it (its
    ``text`` in ``color``; with no text, a swatch of a region's fill) and what it means,
    for a newcomer at the table."""

    text: str
    color: str  # #rrggbb or a player
    means: str
    fill: str | None = None  # the swatch the text stands on (a terrain's tint)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "color": self.color, "means": self.means,
                "fill": self.fill}


@dataclass(frozen=True)
class Alert:
    """A region to stress (a fight in it, a danger): drawn in red with ``symbol`` by its
    name; ``text`` says why in words."""

    symbol: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "text": self.text}


@dataclass(frozen=True)
class Region:
    """A place on the map: a cell, a hex, a zone, a terrain patch. ``id`` is what prompt
    choices name and what a click selects; ``outline`` a polygon in map mm."""

    id: str
    outline: tuple[Point, ...]
    label: str = ""
    fill: str | None = None  # #rrggbb or a player (their colour, tinted); None: plain
    marks: tuple[Mark, ...] = ()
    alert: Alert | None = None
    holds_pieces: bool = True  # pieces are drawn inside it (cells, hexes), not terrain

    def __post_init__(self) -> None:
        if len(self.outline) < 3:
            raise ValueError(f"region {self.id!r}: an outline needs three points or more")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "outline": [_pt(p) for p in self.outline],
                "label": self.label, "fill": self.fill,
                "marks": [m.to_dict() for m in self.marks],
                "alert": self.alert.to_dict() if self.alert else None,
                "holds_pieces": self.holds_pieces}


@dataclass(frozen=True)
class Piece:
    """A miniature, a base, a disk, a token. On the board it stands in a ``region``
    (grid and hex games) or ``at`` a point with a ``diameter`` (free placement; a higher
    ``layer`` lies on top); off the board it is in one of the view's ``zones``."""

    ref: str
    player: str
    label: str
    region: str | None = None
    at: Point | None = None
    diameter: float | None = None  # mm, for pieces drawn at a point
    layer: int = 0  # pieces lying on others (disks): higher is on top
    zone: str | None = None  # off the board: which of the view's zones
    badge: int | None = None  # a count shown at a glance (damage, wounds)
    outline: str | None = None  # "solid" or "dashed": the piece awaits something
    details: str = ""  # one sentence a person reads when they pick it
    states: tuple[str, ...] = ()  # words: "engaged", "to be placed"
    note: str = ""  # a short figure beside its name in lists (a cost)
    # Pieces of one kind are interchangeable on the table (copies of one miniature): a
    # player may pick up any of them. Empty: this piece is one of a kind.
    kind: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"ref": self.ref, "player": self.player, "label": self.label,
                "region": self.region, "at": _pt(self.at) if self.at else None,
                "diameter": self.diameter, "layer": self.layer, "zone": self.zone,
                "badge": self.badge, "outline": self.outline, "details": self.details,
                "states": list(self.states), "note": self.note, "kind": self.kind or self.ref}


@dataclass(frozen=True)
class Line:
    """A measured or indicated line (a range, a line of sight), map mm."""

    a: Point
    b: Point
    label: str = ""
    color: str = "#ffffff"
    dashed: bool = False
    arrow: bool = False  # an arrowhead at ``b``: from one piece to another

    def to_dict(self) -> dict[str, Any]:
        return {"a": _pt(self.a), "b": _pt(self.b), "label": self.label,
                "color": self.color, "dashed": self.dashed, "arrow": self.arrow}


@dataclass(frozen=True)
class Zone:
    """A place off the board each player has (reserves, a discard pile, a graveyard).
    ``on_map``: its pieces lie on the printed map's strip for it (the layout's region
    ``<player>.<id>``), where the camera sees them; otherwise they are off the table."""

    id: str
    label: str
    on_map: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "on_map": self.on_map}


@dataclass(frozen=True)
class Board:
    """A whole drawing. ``frame`` is the part of the map a screen shows (x, y, width,
    height in mm): the play area, without the printed margins and markers."""

    frame: tuple[float, float, float, float]
    regions: tuple[Region, ...]
    pieces: tuple[Piece, ...]
    zones: tuple[Zone, ...] = ()
    lines: tuple[Line, ...] = ()
    legend: tuple[Key, ...] = ()  # what the marks, fills and alerts drawn mean

    def __post_init__(self) -> None:
        ids = [r.id for r in self.regions]
        if len(set(ids)) != len(ids):
            raise ValueError("region ids must be unique")
        known, zones = set(ids), {z.id for z in self.zones}
        for p in self.pieces:
            if p.region is not None and p.region not in known:
                raise ValueError(f"piece {p.ref!r} stands in unknown region {p.region!r}")
            if p.zone is not None and p.zone not in zones:
                raise ValueError(f"piece {p.ref!r} is in unknown zone {p.zone!r}")
            if p.at is not None and not p.diameter:
                raise ValueError(f"piece {p.ref!r} at a point needs a diameter")

    def to_dict(self) -> dict[str, Any]:
        return {"frame": [round(v, 2) for v in self.frame],
                "regions": [r.to_dict() for r in self.regions],
                "pieces": [p.to_dict() for p in self.pieces],
                "zones": [z.to_dict() for z in self.zones],
                "lines": [ln.to_dict() for ln in self.lines],
                "legend": [k.to_dict() for k in self.legend]}


# -- outlines -------------------------------------------------------------------------
def rectangle(x: float, y: float, w: float, h: float) -> tuple[Point, ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def hexagon(cx: float, cy: float, size: float, flat_top: bool = True) -> tuple[Point, ...]:
    """A regular hexagon of circumradius ``size`` around (cx, cy)."""
    start = 0.0 if flat_top else 30.0
    return tuple((cx + size * math.cos(math.radians(start + 60 * k)),
                  cy + size * math.sin(math.radians(start + 60 * k))) for k in range(6))


def frame_of(regions: tuple[Region, ...] | list[Region],
             margin: float = 0.0) -> tuple[float, float, float, float]:
    """The rectangle holding every region's outline, with ``margin`` mm around."""
    xs = [p[0] for r in regions for p in r.outline]
    ys = [p[1] for r in regions for p in r.outline]
    x0, y0 = min(xs) - margin, min(ys) - margin
    return (x0, y0, max(xs) + margin - x0, max(ys) + margin - y0)
