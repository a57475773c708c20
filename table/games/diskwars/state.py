"""One game of Diskwars as a value: each disk (in its player's reserve, on the
battlefield with its centre, the face that is up and its place in the pile, or in the
casualty pile) with its tokens; each player's command cards (in hand, chosen in secret,
discarded); the round and the step of it; a ranged attack or a die roll awaited.

The engine clones a state before changing it (``clone``), so a state handed out is never
changed afterwards."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .game import Game

PLAYERS = ("p1", "p2")
RESERVE, FIELD, CASUALTY = "reserve", "field", "casualty"
# The steps of a game: the initiative roll and the first player's choice, deployment,
# then each round's command cards (chosen, then resolved one player at a time), the
# melee and the end; OVER once it is decided.
INITIATIVE, FIRST, DEPLOY, CHOOSE, RESOLVE, MELEE, OVER = (
    "initiative", "first", "deploy", "choose", "resolve", "melee", "over")
ROUNDS = 5


def other(p: str) -> str:
    return "p2" if p == "p1" else "p1"


_bare = object.__new__


@dataclass
class Disk:
    ref: str  # "p1#0": the player's disks numbered in the force's order
    player: str
    name: str
    place: str = RESERVE
    x: float = 0.0
    y: float = 0.0
    level: int = 0  # higher lies on top where disks overlap
    face: str = "front"  # the face that is up: a flip shows the other
    damage: int = 0
    wounds: int = 0
    activated: bool = False
    empowered: bool = False

    def clone(self) -> Disk:
        new = _bare(Disk)
        new.__dict__.update(self.__dict__)
        return new

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ref": self.ref, "name": self.name, "place": self.place}
        if self.place == FIELD:
            out.update(x=self.x, y=self.y, level=self.level, face=self.face)
        out.update(damage=self.damage, wounds=self.wounds, activated=self.activated,
                   empowered=self.empowered)
        return out


@dataclass
class Side:
    hand: list[str]  # command cards in hand
    discard: list[str] = field(default_factory=list)
    chosen: str | None = None  # chosen face down this step (secret until both chose)
    unspent: int = 0  # recruitment points not spent (the initiative roll's bonus)
    initiative: int | None = None  # the initiative roll, while the other's is awaited
    deployed: bool = False  # finished deploying

    def clone(self) -> Side:
        new = _bare(Side)
        new.__dict__.update(self.__dict__)
        new.hand, new.discard = list(self.hand), list(self.discard)
        return new

    def public_dict(self) -> dict[str, Any]:
        """What every screen may show: how many cards, never which are chosen."""
        return {"hand": len(self.hand), "discard": list(self.discard),
                "chosen": self.chosen is not None, "unspent": self.unspent}


@dataclass
class Shot:
    """A ranged attack or a focus ability waiting for dice."""

    player: str
    attacker: str
    target: str
    band: str  # the range band the target stands in
    dice: int  # battle dice to roll now
    step: str = "dice"  # dice, scatter (a reroll against the nearest disk), strength
    scatter_target: str | None = None
    hits: tuple[tuple[str, str], ...] = ()  # (disk, "hit" | "critical") to deal
    strength_d6: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "attacker": self.attacker, "target": self.target,
                "band": self.band, "dice": self.dice, "step": self.step,
                "scatter_target": self.scatter_target,
                "hits": [list(h) for h in self.hits]}


@dataclass
class State:
    game: Game = field(repr=False, compare=False)
    disks: dict[str, Disk]
    sides: dict[str, Side]
    phase: str = INITIATIVE
    round: int = 0  # 1 to 5 once play starts
    first: str = "p1"  # the first player (initiative token)
    active: str = "p1"  # who acts now (deploys, resolves a card)
    order: tuple[str, ...] = ()  # who resolves this step's cards, in turn
    revealed: dict[str, str] = field(default_factory=dict)  # cards revealed this step
    activations: int = 0  # left on the card being resolved
    empower: int = 0  # the card's battle ability: disks it may still empower
    shot: Shot | None = None
    danger: str | None = None  # a disk that must roll for dangerous terrain
    strikes: dict[str, str] = field(default_factory=dict)  # melee: disk -> enemy it hits
    winner: str | None = None  # p1, p2 or "draw" (no one)
    scores: dict[str, int] = field(default_factory=dict)
    level_top: int = 0  # the highest level given so far (a disk landing goes above)

    def clone(self) -> State:
        new = _bare(State)
        new.__dict__.update(self.__dict__)
        new.disks = {r: d.clone() for r, d in self.disks.items()}
        new.sides = {p: s.clone() for p, s in self.sides.items()}
        new.revealed = dict(self.revealed)
        new.strikes = dict(self.strikes)
        new.scores = dict(self.scores)
        if self.shot is not None:
            new.shot = Shot(**self.shot.__dict__)
        return new

    def on_field(self, player: str | None = None) -> list[Disk]:
        return [d for d in self.disks.values()
                if d.place == FIELD and (player is None or d.player == player)]

    def in_reserve(self, player: str) -> list[Disk]:
        return [d for d in self.disks.values() if d.place == RESERVE and d.player == player]

    def to_dict(self) -> dict[str, Any]:
        """The whole state (the log, the referee); chosen cards included: screens use
        ``public_dict``."""
        out = self.public_dict()
        out["sides"] = {p: {**s.public_dict(), "hand_cards": list(s.hand),
                            "chosen_card": s.chosen} for p, s in self.sides.items()}
        return out

    def public_dict(self) -> dict[str, Any]:
        return {"phase": self.phase, "round": self.round, "first": self.first,
                "active": self.active, "order": list(self.order),
                "revealed": dict(self.revealed), "activations": self.activations,
                "empower": self.empower, "winner": self.winner,
                "scores": dict(self.scores),
                "shot": self.shot.to_dict() if self.shot else None,
                "danger": self.danger, "strikes": dict(self.strikes),
                "disks": {r: d.to_dict() for r, d in self.disks.items()},
                "sides": {p: s.public_dict() for p, s in self.sides.items()}}
