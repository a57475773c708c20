"""What a screen draws of Track, in the neutral board model (``table.drawing``): the
track as its printed hexes, the pawns on it or waiting, pawns home as the score."""

from __future__ import annotations

from typing import Any

from table.drawing import Board, Piece, Region, Zone, frame_of

from ..layout import LAYOUT
from ..state import HOME, PLAYERS, State


def view(state: State) -> dict[str, Any]:
    regions = tuple(Region(r["name"], tuple((x, y) for x, y in r["polygon"]), r["name"],
                           fill="#2e5e2e" if r["name"] == HOME else None)
                    for r in LAYOUT["regions"])
    pieces = tuple(Piece(r, r[:2], f"pawn {r[3:]}", region=w, zone=None if w else "waiting")
                   for r, w in zip(state.pawns, state.where, strict=True))
    board = Board(frame_of(regions, 4), regions, pieces, (Zone("waiting", "waiting"),))
    return {"board": board.to_dict(), "state": state.to_dict(),
            "score": {"title": "Pawns home",
                      "players": {p: {"value": state.home(p), "label": "home",
                                      "of": sum(1 for r in state.pawns if r[:2] == p)}
                                  for p in PLAYERS},
                      "lines": [], "winner": state.winner}}
