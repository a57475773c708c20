"""What a screen draws of Diskwars (``table.drawing``): the battlefield, each player's
deployment zone tinted in their colour, the terrain pieces by name, the disks at their
points in their piles (damage as a badge; activated, pinned, empowered as words), the
reserves and casualty piles beside the map, and the score so far."""

from __future__ import annotations

import math
from typing import Any

from table.drawing import Board, Key, Piece, Region, Zone, frame_of, rectangle

from .. import scoring
from ..stack import diameter, pinned_refs
from ..state import CASUALTY, FIELD, PLAYERS, RESERVE, ROUNDS, State
from .wording import Words

_TERRAIN_FILL = "#55603a"
_FIELD_FILL = "#2b3a2b"


def _circle(x: float, y: float, d: float, n: int = 36) -> tuple[tuple[float, float], ...]:
    return tuple((round(x + d / 2 * math.cos(2 * math.pi * k / n), 2),
                  round(y + d / 2 * math.sin(2 * math.pi * k / n), 2)) for k in range(n))


def view(state: State, words: Words) -> dict[str, Any]:
    g = state.game
    x0, y0 = g.corner
    regions = [Region("battlefield", rectangle(x0, y0, g.side, g.side), "", fill=_FIELD_FILL,
                      holds_pieces=False)]
    for p, z in g.zones.items():
        regions.append(Region(f"zone-{p}", rectangle(x0, z.y0, g.side, z.y1 - z.y0),
                              f"{words.player(p)}'s deployment zone", fill=p,
                              holds_pieces=False))
    for i, t in enumerate(g.terrain):
        kw = ", ".join(t.kind.keywords)
        regions.append(Region(f"terrain-{i}", _circle(t.x, t.y, t.kind.diameter),
                              f"{t.name} ({kw})" if kw else t.name, fill=_TERRAIN_FILL,
                              holds_pieces=False))
    pieces = []
    pinned = pinned_refs(state)
    for d in sorted(state.disks.values(), key=lambda d: (d.level, d.ref)):
        k = g.catalog.disk(d.name)
        states = tuple(w for w, on in (("activated", d.activated),
                                       ("pinned", d.ref in pinned),
                                       ("empowered", d.empowered)) if on)
        detail = (f"{k.size} disk: attack {k.attack}, counter {k.counter}, toughness "
                  f"{k.toughness}, movement {k.movement}"
                  + (f", {d.wounds} wound{'s' if d.wounds != 1 else ''}" if d.wounds else ""))
        if d.place == FIELD:
            pieces.append(Piece(d.ref, d.player, words.short(d.ref), region="battlefield",
                                at=(d.x, d.y), diameter=diameter(state, d), layer=d.level,
                                badge=d.damage or None, states=states, details=detail))
        else:
            zone = "reserve" if d.place == RESERVE else "casualties"
            # Its size too: the disk is the same off the battlefield (a table putting it
            # down knows how much room it takes).
            pieces.append(Piece(d.ref, d.player, words.short(d.ref), zone=zone,
                                diameter=diameter(state, d), details=detail, states=states))
    zones = (Zone("reserve", "reserve"), Zone("casualties", "casualty pile"))
    legend = (Key("", _FIELD_FILL, "the battlefield (3 ft square)"),
              Key("", "p1", f"{words.player('p1')}'s deployment zone"),
              Key("", "p2", f"{words.player('p2')}'s deployment zone"),
              Key("", _TERRAIN_FILL, "terrain, named on the battlefield with what it does"),
              Key("2", "#ff4d4d", "a number on a disk: the damage it has taken"))
    board = Board(frame_of(regions, 4), tuple(regions), tuple(pieces), zones,
                  legend=legend)
    pts = state.scores if state.winner else scoring.points(state)
    lines = [f"round {max(state.round, 1)} of {ROUNDS}" if state.round else "before the game",
             *(f"{words.player(p)}: {len(state.sides[p].hand)} command cards in hand"
               for p in PLAYERS)]
    if state.revealed:
        lines.append("revealed: " + "; ".join(f"{words.player(p)} {c}"
                                               for p, c in state.revealed.items()))
    return {"board": board.to_dict(), "state": state.public_dict(),
            "score": {"title": "Victory points",
                      "players": {p: {"value": pts[p], "label": "points"} for p in PLAYERS},
                      "lines": lines, "winner": state.winner}}


__all__ = ["CASUALTY", "view"]
