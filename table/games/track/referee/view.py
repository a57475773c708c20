"""What a screen draws of Track, in the neutral board model (``table.drawing``): the
track as its printed hexes, the pawns on it or waiting, pawns home as the score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.drawing import Board, Key, Line, Piece, Region, Zone, frame_of

from ..layout import LAYOUT, PAWN_MM, WELL
from ..state import HOME, MEADOW, PLAYERS, State

_X = 10.0  # half the well's cross, mm


def view(state: State, names: Mapping[str, str]) -> dict[str, Any]:
    regions = tuple(Region(r["name"], tuple((x, y) for x, y in r["polygon"]), r["name"],
                           fill="#2e5e2e" if r["name"] == HOME else
                           "#1f3d24" if r["name"] == MEADOW else None,
                           holds_pieces=r["name"] != MEADOW)
                    for r in LAYOUT["regions"])
    pieces = tuple(Piece(r, r[:2], f"pawn {r[3:]}", region=w, zone=None if w else "waiting",
                         at=state.spot(r) if w == MEADOW else None,
                         diameter=PAWN_MM if w == MEADOW else None)
                   for r, w in zip(state.pawns, state.where, strict=True))
    wx, wy = WELL
    # A cross, and the well's name above it (a line of no length carries only its label).
    well = (Line((wx - _X, wy), (wx + _X, wy), "", "#9fb0c0"),
            Line((wx, wy - _X), (wx, wy + _X), "", "#9fb0c0"),
            Line((wx, wy - 2 * _X), (wx, wy - 2 * _X), "well", "#9fb0c0"))
    legend = (Key("", "#2e5e2e", "s5, home: a pawn that reaches it is home"),
              Key("", "#1f3d24", "the meadow: a pawn home grazes anywhere in it, within "
                                 "four inches of the well"))
    board = Board(frame_of(regions, 4), regions, pieces, (Zone("waiting", "waiting"),), well,
                  legend)
    lines = []
    if state.luck is not None:  # whether a player holds a card is public; which, theirs
        lines = [f"{names.get(p, p)} holds {'a' if state.hand(p) else 'no'} luck card"
                 for p in PLAYERS]
        lines.append(f"luck deck: {state.luck.left} left, {len(state.luck.discard)} played")
    return {"board": board.to_dict(), "state": state.public_dict(),
            "score": {"title": "Pawns home",
                      "players": {p: {"value": state.home(p), "label": "home",
                                      "of": sum(1 for r in state.pawns if r[:2] == p)}
                                  for p in PLAYERS},
                      "lines": lines, "winner": state.winner}}
