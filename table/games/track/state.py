"""One game of Track as a value: where each pawn is, whose turn it is, the die rolled and
not yet used, and the winner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PLAYERS = ("p1", "p2")
SPACES = tuple(f"s{i}" for i in range(6))
HOME = SPACES[-1]


def other(p: str) -> str:
    return "p2" if p == "p1" else "p1"


@dataclass(frozen=True)
class State:
    pawns: tuple[str, ...]  # refs ("p1#0"), p1's first
    where: tuple[str | None, ...]  # per pawn: a space, or None (off the track)
    active: str = "p1"
    roll: int | None = None  # rolled, not yet used
    winner: str | None = None

    def at(self, ref: str) -> str | None:
        return self.where[self.pawns.index(ref)]

    def placed(self) -> dict[str, str | None]:
        """Where each pawn is, by ref."""
        return dict(zip(self.pawns, self.where, strict=True))

    def home(self, player: str) -> int:
        return sum(1 for r, w in zip(self.pawns, self.where, strict=True)
                   if w == HOME and r[:2] == player)

    def to_dict(self) -> dict[str, Any]:
        return {"active": self.active, "roll": self.roll, "winner": self.winner,
                "where": self.placed()}
