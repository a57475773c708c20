"""Track's actions: frozen value objects whose ``str()`` is their notation, and
``parse`` that reads it back (``parse(str(a)) == a``)::

    p1 roll 4              the die, as rolled (by the box, or typed in)
    p1 advance p1#0 s4     a pawn moved (or entered on s0) by the roll
    p1 pass                a roll that allows no move
"""

from __future__ import annotations

from dataclasses import dataclass

from table.errors import NotationError
from table.notation import spelled
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


Action = RollDie | Advance | Pass


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
    raise NotationError(f"not a track action: {quote(text)}")
