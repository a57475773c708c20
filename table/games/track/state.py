"""One game of Track as a value: where each pawn is (a space, the meadow with the point
it grazes at, or off the track), whose turn it is, the die rolled and not yet used, and
the winner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from table.randomness import Deck

PLAYERS = ("p1", "p2")
SPACES = tuple(f"s{i}" for i in range(6))
HOME = SPACES[-1]
MEADOW = "meadow"  # where a pawn home may graze: a free area, placed anywhere


def other(p: str) -> str:
    return "p2" if p == "p1" else "p1"


@dataclass(frozen=True)
class State:
    pawns: tuple[str, ...]  # refs ("p1#0"), p1's first
    where: tuple[str | None, ...]  # per pawn: a space, MEADOW, or None (off the track)
    active: str = "p1"
    roll: int | None = None  # rolled, not yet used
    winner: str | None = None
    # Where each grazing pawn stands in the meadow (map mm); None for the others.
    spots: tuple[tuple[float, float] | None, ...] = ()
    luck: Deck | None = None  # the luck deck (``luck.py``); None in states made without
    hands: tuple[str | None, str | None] = (None, None)  # each player's hidden luck card
    drawing: bool = False  # the active player draws a luck card: the deck's turn

    def hand(self, player: str) -> str | None:
        return self.hands[PLAYERS.index(player)]

    def at(self, ref: str) -> str | None:
        return self.where[self.pawns.index(ref)]

    def placed(self) -> dict[str, str | None]:
        """Where each pawn is, by ref."""
        return dict(zip(self.pawns, self.where, strict=True))

    def spot(self, ref: str) -> tuple[float, float] | None:
        return self.spots[self.pawns.index(ref)] if self.spots else None

    def home(self, player: str) -> int:
        """Pawns home: on the last space, or grazing in the meadow beyond it."""
        return sum(1 for r, w in zip(self.pawns, self.where, strict=True)
                   if w in (HOME, MEADOW) and r[:2] == player)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"active": self.active, "roll": self.roll,
                               "winner": self.winner, "where": self.placed()}
        grazing = {r: [x, y] for r, pt in zip(self.pawns, self.spots, strict=False)
                   if pt is not None for x, y in (pt,)}
        if grazing:
            out["grazing"] = grazing
        if self.luck is not None:
            out.update(luck=self.luck.to_dict(), hands=dict(zip(PLAYERS, self.hands,
                                                                 strict=True)),
                       drawing=self.drawing)
        return out

    def public_dict(self) -> dict[str, Any]:
        """The state as every screen may show it: which luck card a player holds is
        theirs alone (whether they hold one is not)."""
        out = self.to_dict()
        if "hands" in out:
            out["hands"] = {p: c is not None for p, c in out["hands"].items()}
            out["luck"] = {"left": out["luck"]["left"],
                           "discard": out["luck"]["discard"]}
        return out
