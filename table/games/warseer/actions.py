"""Warseer's actions: frozen value objects whose ``str()`` is their notation, and
``parse`` that reads it back (``parse(str(a)) == a``). Every action starts with the
player who takes it::

    p1 draw                    the opening: seven cards from the deck into the hand
    p1 return                  the opening: three of them back into the deck, shuffled
    p1 return parry,fury,shove   (either may name its cards, where the rules may know them)
    p1 deploy p1#0 c1          the hero into the deployment zone, before turn 1
    p1 summon p1#3 b2          a character from the War Camp (one a turn)
    p1 move p1#2 d4            a creature's move (once a turn, up to its movement)
    p1 attack p1#0 p2#1        declare an attack (once a turn per creature)
    p1 roll S,SP,0             dice the state waits for, by face code, in die order
    p1 modify warlord          a modification in the attack's modification round:
    p1 modify tactic:parry       warlord, cover, tactic:CARD or relic:CARD, and a die
    p1 modify relic:lucky-charm 2  (from 1) for a reroll
    p1 pass                    no (more) modification; or decline a counterblow
    p1 push p2#1 d5            where the pushed defender goes
    p1 advance / p1 stay       the critical effect Advance, taken or not
    p2 counterblow             the defender strikes back
    p1 play fire-bolt p2#1     a support card from the hand (target: a creature, a hex,
    p1 play call-the-wisp a3,b3  or the hexes a summon of several puts its minions on)
    p1 use barracks p1#2       a building's bonus for one creature this turn
    p1 discard parry           a support card to the History unplayed (one a turn)
    p1 feat first-blood        a feat from the hand played face up
    p1 spend first-blood p1#0  a feat discarded for its effect (one a turn)
    p1 end                     the end of the turn
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from table.errors import NotationError
from table.notation import spelled
from table.quoting import quote

from .hexes import Hex, parse_hex

PLAYERS = ("p1", "p2")
REF = re.compile(r"p[12]#\d{1,3}")
CODE = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
FACE = re.compile(r"[A-Za-z0-9+_-]{1,8}")
SOURCE = re.compile(r"(warlord|cover|(tactic|relic):[a-z0-9][a-z0-9-]{0,39})")


@spelled("{player} draw[ {cards:,}]")
@dataclass(frozen=True)
class Draw:
    """The opening: seven cards from the shuffled battle deck into the hand (named when
    the rules may know them, as in a rules scenario; at the table they stay secret)."""

    player: str
    cards: tuple[str, ...] | None = None


@spelled("{player} return[ {cards:,}]")
@dataclass(frozen=True)
class Return:
    """The opening: three cards of the hand back into the deck, which is shuffled."""

    player: str
    cards: tuple[str, ...] | None = None


@spelled("{player} deploy {unit} {hex}")
@dataclass(frozen=True)
class Deploy:
    player: str
    unit: str
    hex: Hex


@spelled("{player} summon {unit} {hex}")
@dataclass(frozen=True)
class Summon:
    player: str
    unit: str
    hex: Hex


@spelled("{player} move {unit} {hex}")
@dataclass(frozen=True)
class Move:
    player: str
    unit: str
    hex: Hex


@spelled("{player} attack {attacker} {defender}")
@dataclass(frozen=True)
class Declare:
    player: str
    attacker: str
    defender: str


@spelled("{player} roll {faces:,}")
@dataclass(frozen=True)
class Roll:
    player: str
    faces: tuple[str, ...]


@spelled("{player} modify {source}[ {die}]")
@dataclass(frozen=True)
class Modify:
    player: str
    source: str  # warlord, cover, tactic:CODE, relic:CODE
    die: int | None = None  # from 1, for a reroll


@spelled("{player} pass")
@dataclass(frozen=True)
class Pass:
    player: str


@spelled("{player} push {unit} {hex}")
@dataclass(frozen=True)
class Push:
    player: str
    unit: str
    hex: Hex


@dataclass(frozen=True)
class Advance:
    player: str
    take: bool

    def __str__(self) -> str:  # two verbs for one choice: "advance" or "stay"
        return f"{self.player} {'advance' if self.take else 'stay'}"


@spelled("{player} counterblow")
@dataclass(frozen=True)
class Counterblow:
    player: str


@spelled("{player} play {card}[ {target}]")
@dataclass(frozen=True)
class Play:
    player: str
    card: str
    target: str | None = None  # a creature ref or a hex name


@spelled("{player} use {building} {unit}")
@dataclass(frozen=True)
class Use:
    player: str
    building: str
    unit: str


@spelled("{player} discard {card}")
@dataclass(frozen=True)
class Discard:
    player: str
    card: str


@spelled("{player} feat {feat}")
@dataclass(frozen=True)
class PlayFeat:
    player: str
    feat: str


@spelled("{player} spend {feat}[ {target}]")
@dataclass(frozen=True)
class SpendFeat:
    player: str
    feat: str
    target: str | None = None


@spelled("{player} end")
@dataclass(frozen=True)
class EndTurn:
    player: str


Action = (Draw | Return | Deploy | Summon | Move | Declare | Roll | Modify | Pass | Push
          | Advance | Counterblow | Play | Use | Discard | PlayFeat | SpendFeat | EndTurn)


ANSWERS_KEPT = 20_000  # lists and actions kept per battlefield: some 50 games' worth


def made_once(kept: dict[Any, Any], cls: Callable[..., Action], head: tuple[Any, ...],
              lasts: tuple[Any, ...]) -> tuple[Action, ...]:
    """``cls(*head, x)`` for each ``x`` of ``lasts``. Actions are values, so lists the
    rules make again and again (a creature's moves, a card's targets) are made once and
    kept in ``kept`` (the battlefield's ``answers``), and so is each action in them: a
    list not met before is mostly actions met before (the same creature's moves from the
    same hex among other neighbours)."""
    key = (cls, head, lasts)
    found = kept.get(key)
    if found is None:
        if len(kept) >= ANSWERS_KEPT:
            # A table plays game after game on one battlefield: lists keep coming that
            # were never met before (some 400 a game), and kept they all would grow
            # without end. Past this many, they are made afresh.
            kept.clear()
        one = kept.get((cls, head))
        if one is None:
            one = kept[(cls, head)] = {}
        made = []
        for x in lasts:
            a = one.get(x)
            if a is None:
                a = one[x] = cls(*head, x)
            made.append(a)
        found = kept[key] = tuple(made)
    return found  # type: ignore[no-any-return]


def _ref(t: str, text: str) -> str:
    if not REF.fullmatch(t):
        raise NotationError(f"{quote(t)} is not a creature like p1#0 (in {quote(text)})")
    return t


def _hex(t: str, text: str) -> Hex:
    try:
        return parse_hex(t)
    except ValueError:
        raise NotationError(f"{quote(t)} is not a hex like c4 (in {quote(text)})") from None


def _code(t: str, text: str) -> str:
    if not CODE.fullmatch(t):
        raise NotationError(f"{quote(t)} is not a card code like fire-bolt (in {quote(text)})")
    return t


def _target(t: str, text: str) -> str:
    """A creature, a hex, or hexes joined by commas (a card summoning several)."""
    if REF.fullmatch(t):
        return t
    parts = t.split(",")
    if len(parts) > 9:
        raise NotationError(f"at most 9 hexes in a target (in {quote(text)})")
    return ",".join(str(_hex(h, text)) for h in parts)


def parse(text: object) -> Action:
    """An action from its notation; ``NotationError`` naming the bad part."""
    if not isinstance(text, str) or len(text) > 200:
        raise NotationError(f"an action is a line of text, not {quote(text)}")
    t = text.split()
    if len(t) < 2 or t[0] not in PLAYERS:
        raise NotationError(f"an action starts with p1 or p2 and a verb: {quote(text)}")
    p, verb, rest = t[0], t[1], t[2:]
    shapes = {"deploy": 2, "summon": 2, "move": 2, "attack": 2, "roll": 1, "push": 2,
              "pass": 0, "advance": 0, "stay": 0, "counterblow": 0, "end": 0,
              "use": 2, "discard": 1, "feat": 1}
    if verb in shapes and len(rest) != shapes[verb]:
        raise NotationError(f"{verb} takes {shapes[verb]} word(s) after it: {quote(text)}")
    match verb:
        case "draw" | "return":
            if len(rest) > 1:
                raise NotationError(f"{verb} may name its cards, joined by commas: "
                                    f"{quote(text)}")
            cards = None
            if rest:
                cards = tuple(_code(c, text) for c in rest[0].split(","))
                if len(cards) > 12:
                    raise NotationError(f"at most 12 cards in {quote(text)}")
            return (Draw if verb == "draw" else Return)(p, cards)
        case "deploy" | "summon" | "move" | "push":
            cls = {"deploy": Deploy, "summon": Summon, "move": Move, "push": Push}[verb]
            return cls(p, _ref(rest[0], text), _hex(rest[1], text))
        case "attack":
            return Declare(p, _ref(rest[0], text), _ref(rest[1], text))
        case "roll":
            faces = tuple(rest[0].split(","))
            if not 1 <= len(faces) <= 12 or not all(FACE.fullmatch(f) for f in faces):
                raise NotationError(f"a roll lists faces by code, like S,SP,0: {quote(text)}")
            return Roll(p, faces)
        case "modify":
            if not 1 <= len(rest) <= 2 or not SOURCE.fullmatch(rest[0]):
                raise NotationError("modify names warlord, cover, tactic:CARD or relic:CARD"
                                    f" and maybe a die: {quote(text)}")
            die = None
            if len(rest) == 2:
                if not rest[1].isdigit() or not 1 <= int(rest[1]) <= 12:
                    raise NotationError(f"a die is numbered 1-12: {quote(text)}")
                die = int(rest[1])
            return Modify(p, rest[0], die)
        case "pass":
            return Pass(p)
        case "advance" | "stay":
            return Advance(p, verb == "advance")
        case "counterblow":
            return Counterblow(p)
        case "play" | "spend":
            if not 1 <= len(rest) <= 2:
                raise NotationError(f"{verb} names a card and maybe a target: {quote(text)}")
            target = _target(rest[1], text) if len(rest) == 2 else None
            if verb == "play":
                return Play(p, _code(rest[0], text), target)
            return SpendFeat(p, _code(rest[0], text), target)
        case "use":
            return Use(p, _code(rest[0], text), _ref(rest[1], text))
        case "discard":
            return Discard(p, _code(rest[0], text))
        case "feat":
            return PlayFeat(p, _code(rest[0], text))
        case "end":
            return EndTurn(p)
    raise NotationError(f"unknown verb {quote(verb)} in {quote(text)}")
