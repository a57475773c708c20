"""Track's actions: frozen value objects whose ``str()`` is their notation, and
``parse`` that reads it back (``parse(str(a)) == a``)::

    p1 roll 4              the die, as rolled (by the box, or typed in)
    p1 advance p1#0 s4     a pawn moved (or entered on s0) by the roll
    p1 pass                a roll that allows no move
    p1 graze p1#0 274.0,300.5
                           a pawn home put out to graze in the meadow at a point (map
                           mm, to a tenth): by the roll, in place of a move
    p1 draw                on a 1, a luck card drawn in place of a move
    p1 drew L2a            the card the deck gave (the box, or typed on p1's own page):
                           p1's secret
    p1 luck                the luck card in p1's hand played: the roll goes up by it
"""

from __future__ import annotations

from dataclasses import dataclass

from table.errors import NotationError
from table.notation import point, spelled
from table.quoting import quote

from .state import PLAYERS


@spelled("{player} roll {die}")
@dataclass(frozen=True)
class RollDie:
    player: str
    die: int


@spelled("{player} advance {pawn} {to}")
@dataclass(frozen=True)
class Advance:
    player: str
    pawn: str  # "p1#0"
    to: str  # a space


@spelled("{player} pass")
@dataclass(frozen=True)
class Pass:
    player: str


@spelled("{player} graze {pawn} {x},{y}")
@dataclass(frozen=True)
class Graze:
    player: str
    pawn: str
    x: float  # map mm, a tenth at most (``table.notation.point``)
    y: float


@spelled("{player} draw")
@dataclass(frozen=True)
class Draw:
    player: str


@spelled("{player} drew {card}")
@dataclass(frozen=True)
class Drew:
    player: str
    card: str  # a luck card's code


@spelled("{player} luck")
@dataclass(frozen=True)
class Luck:
    player: str


Action = RollDie | Advance | Pass | Graze | Draw | Drew | Luck


def parse(text: object) -> Action:
    """An action from its notation; ``NotationError`` naming the text otherwise."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {quote(text)}")
    t = text.split()
    if len(t) == 3 and t[1] == "roll" and t[0] in PLAYERS and t[2] in "123456" \
            and len(t[2]) == 1:
        return RollDie(t[0], int(t[2]))
    if len(t) == 4 and t[1] == "advance" and t[0] in PLAYERS:
        return Advance(t[0], t[2], t[3])
    if len(t) == 2 and t[1] == "pass" and t[0] in PLAYERS:
        return Pass(t[0])
    if len(t) == 4 and t[1] == "graze" and t[0] in PLAYERS:
        return Graze(t[0], t[2], *point(t[3]))
    if len(t) == 2 and t[1] in ("draw", "luck") and t[0] in PLAYERS:
        return Draw(t[0]) if t[1] == "draw" else Luck(t[0])
    if len(t) == 3 and t[1] == "drew" and t[0] in PLAYERS and len(t[2]) <= 8:
        return Drew(t[0], t[2])
    raise NotationError(f"not a track action: {quote(text)}")
