"""Diskwars's actions: frozen value objects whose ``str()`` is their notation, and
``parse`` that reads it back (``parse(str(a)) == a``). Disks are ``p1#3`` (the player's
disks numbered in the force's order), points ``x,y`` in map millimetres, command cards
by code (``hold-fast``)::

    p1 roll 4                  p1's initiative d6
    p1 first p2                the initiative winner makes p2 the first player
    p1 deploy p1#3 120.0,80.5  a disk from the reserve into p1's deployment zone
    p1 deployed                p1 has deployed
    p1 command hold-fast       the command card p1 chose, face down (p1's secret until
                               both have chosen; others read "Ann chose a command card")
    p1 move p1#3 300.0,210.0   an activation: the disk flipped to where it lies now
    p1 shoot p1#3 p2#1         an activation: a ranged attack
    p1 cast p1#3 p2#1          an activation: its magic (a focus ability)
    p1 hold p1#3               an activation: the disk passes
    p1 reinforce p1#5 90.0,40.0
                               an activation: a disk from the reserve into a zone
    p1 empower p1#2            the command card's battle ability
    p1 done                    the card's remaining activations are not used
    p1 dice hit,miss,critical  battle dice as rolled (the box, or typed in)
    p1 d6 3,5                  six-sided dice as rolled (a d6 strength, dangerous
                               terrain)
    p1 strike p1#3 p2#1        in the melee, which enemy a disk deals its damage to
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from table.errors import NotationError
from table.notation import point, spelled
from table.quoting import quote

from .catalog import DIE_FACES
from .state import PLAYERS

REF = re.compile(r"p[12]#\d{1,3}")
CODE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@spelled("{player} roll {number}")
@dataclass(frozen=True)
class Initiative:
    player: str
    number: int


@spelled("{player} first {who}")
@dataclass(frozen=True)
class First:
    player: str
    who: str


@spelled("{player} deploy {disk} {x},{y}")
@dataclass(frozen=True)
class Deploy:
    player: str
    disk: str
    x: float
    y: float


@spelled("{player} deployed")
@dataclass(frozen=True)
class Deployed:
    player: str


@spelled("{player} command {card}")
@dataclass(frozen=True)
class Command:
    player: str
    card: str  # a command card's code


@spelled("{player} move {disk} {x},{y}")
@dataclass(frozen=True)
class Move:
    player: str
    disk: str
    x: float
    y: float


@spelled("{player} shoot {disk} {target}")
@dataclass(frozen=True)
class Shoot:
    player: str
    disk: str
    target: str


@spelled("{player} cast {disk} {target}")
@dataclass(frozen=True)
class Cast:
    player: str
    disk: str
    target: str


@spelled("{player} hold {disk}")
@dataclass(frozen=True)
class Hold:
    player: str
    disk: str


@spelled("{player} reinforce {disk} {x},{y}")
@dataclass(frozen=True)
class Reinforce:
    player: str
    disk: str
    x: float
    y: float


@spelled("{player} empower {disk}")
@dataclass(frozen=True)
class Empower:
    player: str
    disk: str


@spelled("{player} done")
@dataclass(frozen=True)
class Done:
    player: str


@spelled("{player} dice {faces:,}")
@dataclass(frozen=True)
class Dice:
    player: str
    faces: tuple[str, ...]


@spelled("{player} d6 {numbers:,}")
@dataclass(frozen=True)
class D6:
    player: str
    numbers: tuple[int, ...]


@spelled("{player} strike {disk} {target}")
@dataclass(frozen=True)
class Strike:
    player: str
    disk: str
    target: str


Action = (Initiative | First | Deploy | Deployed | Command | Move | Shoot | Cast | Hold
          | Reinforce | Empower | Done | Dice | D6 | Strike)
ACTIVATIONS = (Move, Shoot, Cast, Hold, Reinforce)
MAX_DICE = 40


def _ref(t: str, text: str) -> str:
    if not REF.fullmatch(t):
        raise NotationError(f"{quote(t)} is not a disk like p1#3 (in {quote(text)})")
    return t


def _six(t: str, text: str) -> int:
    if len(t) != 1 or t not in "123456":
        raise NotationError(f"{quote(t)} is not a d6 roll 1 to 6 (in {quote(text)})")
    return int(t)


_WITH_DISK = {"shoot": Shoot, "cast": Cast, "strike": Strike}
_AT_POINT = {"deploy": Deploy, "move": Move, "reinforce": Reinforce}


def parse(text: object) -> Action:
    """An action from its notation; ``NotationError`` naming the bad part."""
    if not isinstance(text, str) or len(text) > 400:
        raise NotationError(f"an action is a line of text, not {quote(text)}")
    t = text.split()
    if len(t) < 2 or t[0] not in PLAYERS:
        raise NotationError(f"an action starts with p1 or p2 and a verb: {quote(text)}")
    p, verb, rest = t[0], t[1], t[2:]
    if verb in ("deployed", "done") and not rest:
        return Deployed(p) if verb == "deployed" else Done(p)
    if verb == "roll" and len(rest) == 1:
        return Initiative(p, _six(rest[0], text))
    if verb == "first" and len(rest) == 1 and rest[0] in PLAYERS:
        return First(p, rest[0])
    if verb in _AT_POINT and len(rest) == 2:
        return _AT_POINT[verb](p, _ref(rest[0], text), *point(rest[1]))
    if verb == "command" and len(rest) == 1:
        if not CODE.fullmatch(rest[0]) or len(rest[0]) > 60:
            raise NotationError(f"{quote(rest[0])} is not a card code like hold-fast")
        return Command(p, rest[0])
    if verb in _WITH_DISK and len(rest) == 2:
        return _WITH_DISK[verb](p, _ref(rest[0], text), _ref(rest[1], text))
    if verb in ("hold", "empower") and len(rest) == 1:
        return (Hold if verb == "hold" else Empower)(p, _ref(rest[0], text))
    if verb == "dice" and len(rest) == 1:
        faces = tuple(rest[0].split(","))
        if not 0 < len(faces) <= MAX_DICE or any(f not in DIE_FACES for f in faces):
            raise NotationError(f"battle dice are faces joined by commas "
                                f"({', '.join(DIE_FACES)}): {quote(rest[0])}")
        return Dice(p, faces)
    if verb == "d6" and len(rest) == 1:
        parts = rest[0].split(",")
        if not 0 < len(parts) <= MAX_DICE:
            raise NotationError(f"d6 rolls joined by commas: {quote(rest[0])}")
        return D6(p, tuple(_six(x, text) for x in parts))
    raise NotationError(f"not a Diskwars action: {quote(text)}")
