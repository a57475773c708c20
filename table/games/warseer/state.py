"""One game of Warseer as a value: where each creature stands and what it has taken,
each player's cards (hand and draw pile as counts: the table's cards stay in the
players' hands, so the referee knows only which cards are still unseen), the Hall of
Fame, the shared Feats deck and, during an attack, where the attack sequence stands.

The engine clones a state before changing it (``clone``) and changes a creature only
through ``State.edit``, which copies it first, so a state handed out is never changed
afterwards."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .hexes import Hex

PLAYERS = ("p1", "p2")

# Where a creature is: in its player's War Camp, on the battlefield, its card in the
# History (an eliminated hero or character), or gone (an eliminated minion).
CAMP, FIELD, HISTORY, GONE = "camp", "field", "history", "gone"


def other(p: str) -> str:
    return "p2" if p == "p1" else "p1"


# A copy starts as a bare instance whose fields are copied in, then its mutable parts
# replaced: what ``copy.copy`` does, without its generic protocol, which costs more than
# the copying (and the engine clones at every action).
_bare = object.__new__


@dataclass
class Unit:
    ref: str
    player: str
    name: str
    place: str = CAMP  # these two change only through ``State.put``
    hex: Hex | None = None
    wounds: int = 0
    armour: int = 0  # armour tokens on the creature itself
    moved: bool = False
    attacked: bool = False
    building: str | None = None  # the building whose bonus it took this turn
    bonus_attack: int = 0  # swords added to its attacks this turn (a building)
    bonus_move: int = 0  # extra movement this turn (a building)
    enchantments: tuple[str, ...] = ()  # spell codes on it

    def clone(self) -> Unit:
        new = _bare(Unit)
        new.__dict__.update(self.__dict__)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"ref": self.ref, "name": self.name, "place": self.place,
                "hex": str(self.hex) if self.hex else None, "wounds": self.wounds,
                "armour": self.armour, "moved": self.moved, "attacked": self.attacked,
                "enchantments": list(self.enchantments)}


@dataclass
class Relic:
    code: str
    armour: int = 0
    uses: int = 0

    def clone(self) -> Relic:
        new = _bare(Relic)
        new.__dict__.update(self.__dict__)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.code, "armour": self.armour, "uses": self.uses}


@dataclass
class Side:
    hand: int  # support cards in hand
    draw_pile: int  # cards left in the battle deck
    unseen: list[str]  # codes of the deck's cards not yet revealed (hand or draw pile)
    # Cards known to be in the hand (a scenario that names them); the rest of the hand,
    # ``hand - len(known)`` cards, may be any unseen card that is not one of these.
    known: list[str] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # cards discarded or spent
    relics: list[Relic] = field(default_factory=list)
    buildings: list[str] = field(default_factory=list)  # the City Zone
    hall: int = 0  # feats face down in the Hall of Fame
    feats_up: list[str] = field(default_factory=list)  # feats played face up
    feat_hand: int = 0  # feat cards in hand
    # this turn
    summoned: bool = False
    discarded: bool = False
    feat_spent: bool = False
    destroyed: int = 0  # enemy characters destroyed this turn
    buildings_used: list[str] = field(default_factory=list)

    def holdable(self) -> list[str]:
        """The codes this player may be holding now, sorted, each once."""
        if self.hand <= 0:
            return []
        if self.hand > len(self.known):
            return sorted(set(self.unseen))  # an unnamed card may be any unseen one...
        return sorted(set(self.known))  # ...but a hand named in full holds only those

    def can_hold(self, code: str) -> bool:
        if code in self.known:
            return True
        return self.hand > len(self.known) and \
            self.unseen.count(code) > self.known.count(code)

    def take(self, code: str) -> None:
        """``code`` leaves the hand (played, discarded); the caller checked ``can_hold``."""
        if code in self.known:
            self.known.remove(code)
        self.unseen.remove(code)
        self.hand -= 1

    def clone(self) -> Side:
        new = _bare(Side)
        new.__dict__.update(self.__dict__)
        new.unseen, new.history = list(self.unseen), list(self.history)
        new.known = list(self.known)
        new.relics = [r.clone() for r in self.relics] if self.relics else []
        new.buildings, new.feats_up = list(self.buildings), list(self.feats_up)
        new.buildings_used = list(self.buildings_used)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "draw_pile": self.draw_pile, "feat_hand": self.feat_hand,
                **({"known_hand": sorted(self.known)} if self.known else {}),
                "history": list(self.history), "relics": [r.to_dict() for r in self.relics],
                "buildings": list(self.buildings), "hall": self.hall,
                "feats_up": list(self.feats_up), "summoned": self.summoned,
                "discarded": self.discarded, "feat_spent": self.feat_spent,
                "destroyed": self.destroyed}


# The steps of an attack (the rules' attack sequence). ROLL, REROLL and EXTRA wait for
# dice; the others for a player's choice.
ROLL, MODIFY, REROLL, EXTRA, PUSH, ADVANCE, COUNTER = (
    "roll", "modify", "reroll", "extra", "push", "advance", "counter")
DICE_STEPS = (ROLL, REROLL, EXTRA)


@dataclass
class Attack:
    attacker: str
    defender: str
    magic: bool
    colours: tuple[str, ...]  # the attack box's dice, one per die
    origin: Hex  # where the defender stood when the attack was declared
    counter: bool = False  # a counterblow (it cannot be answered by another)
    step: str = ROLL
    faces: list[str] = field(default_factory=list)  # the main dice, by face code
    extra: list[str] = field(default_factory=list)  # additional dice (not modifiable)
    extra_colour: str = ""
    added: dict[str, int] = field(default_factory=dict)  # symbols added (+) or removed (-)
    to_act: str = "p1"
    passes: int = 0
    used: list[str] = field(default_factory=list)  # sources used in this attack
    reroll: int | None = None  # the die (from 0) a reroll waits for
    damage: int = 0
    pushed: bool = False
    advance: bool = False  # the critical effect Advance was triggered

    def clone(self) -> Attack:
        new = _bare(Attack)
        new.__dict__.update(self.__dict__)
        new.faces, new.extra = list(self.faces), list(self.extra)
        new.added, new.used = dict(self.added), list(self.used)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "defender": self.defender, "magic": self.magic,
                "colours": list(self.colours), "origin": str(self.origin),
                "counter": self.counter, "step": self.step, "faces": list(self.faces),
                "extra": list(self.extra), "added": dict(self.added), "to_act": self.to_act,
                "passes": self.passes, "used": list(self.used), "damage": self.damage}


OPENING, DEPLOY, MAIN, OVER = "opening", "deploy", "main", "over"


@dataclass
class State:
    game: Game = field(repr=False, compare=False)  # the static game this one is of
    units: dict[str, Unit]
    sides: dict[str, Side]
    feats_left: int
    turn: int = 0  # 0 while the heroes deploy; each player's turn counts one
    active: str = "p1"
    phase: str = DEPLOY
    feats_revealed: list[str] = field(default_factory=list)  # face up or spent, any player
    last_turn: bool = False  # the last feat was drawn: the game ends with this turn
    attack: Attack | None = None
    winner: str | None = None  # p1, p2 or "draw"
    minions: dict[str, int] = field(default_factory=lambda: {"p1": 0, "p2": 0})

    # Copy on write for the creatures: a clone shares them with the state it came from,
    # and ``edit`` copies one before it is changed. An action changes one or two of a
    # dozen creatures, and the engine clones at every action.
    _own: set[str] | None = field(default=None, init=False, repr=False, compare=False)
    """The creatures only this state holds (None: all of them)."""
    # Where the creatures stand (``occupied``), kept once worked out and shared by
    # clones: it changes only through ``put``, which makes a new one. So two states whose
    # maps are the same object have every creature where it was (``legal_actions`` uses
    # that to keep the parts of a listing that depend only on where creatures stand).
    _taken: dict[Hex, str] | None = field(default=None, init=False, repr=False,
                                          compare=False)
    _taken_bits: int | None = field(default=None, init=False, repr=False, compare=False)
    _order: tuple[str, ...] | None = field(default=None, init=False, repr=False,
                                           compare=False)  # the creatures' refs, sorted
    # What the last listing of legal actions found, for a later state's listing to keep
    # what did not change (see ``listing.py``): this state's own (``_listed``, once
    # listed) and the nearest listed ancestor's, handed down by ``clone``.
    _listed: Any = field(default=None, init=False, repr=False, compare=False)
    _base: Any = field(default=None, init=False, repr=False, compare=False)

    def clone(self) -> State:
        """A copy the engine may change: every mutable part copied or, for creatures,
        shared until ``edit`` (a deep copy is ten times slower, and the engine clones
        once per action)."""
        new = _bare(State)
        new.__dict__.update(self.__dict__)
        new.units = dict(self.units)
        self._own, new._own = set(), set()  # shared now: either copies before a change
        new.sides = {p: sd.clone() for p, sd in self.sides.items()}
        new.feats_revealed = list(self.feats_revealed)
        new.minions = dict(self.minions)
        new.attack = self.attack.clone() if self.attack else None
        new._listed = None
        if self._listed is not None:
            new._base = self._listed
        return new

    def edit(self, ref: str) -> Unit:
        """Creature ``ref``, to be changed: every change to a creature goes through
        here, so that a state handed out is never changed by its clones. Where it
        stands changes through ``put``."""
        u = self.units[ref]
        own = self._own
        if own is not None and ref not in own:
            u = self.units[ref] = u.clone()
            own.add(ref)
        self._listed = None
        return u

    def put(self, ref: str, place: str, hx: Hex | None) -> Unit:
        """Creature ``ref`` moved to ``place`` (and ``hx`` on the battlefield): the
        only way a creature's place or hex changes."""
        u = self.edit(ref)
        u.place, u.hex = place, hx
        self._taken = self._taken_bits = None
        return u

    def add_unit(self, u: Unit) -> None:
        """A creature new to the game (a summoned minion)."""
        self.units[u.ref] = u
        if self._own is not None:
            self._own.add(u.ref)
        self._taken = self._taken_bits = self._order = self._listed = None

    def occupied(self) -> dict[Hex, str]:
        """Each hex a creature stands on, with its ref. Kept and shared with clones:
        not to be changed."""
        taken = self._taken
        if taken is None:
            taken = self._taken = {u.hex: r for r, u in self.units.items()
                                   if u.place == FIELD and u.hex}
        return taken

    def occupied_bits(self) -> int:
        """``occupied`` as the battlefield's bits (``bitboard.py``)."""
        m = self._taken_bits
        if m is None:
            m = self._taken_bits = self.game.battlefield.bits.mask(self.occupied())
        return m

    def in_order(self) -> list[Unit]:
        """Every creature, by ref: the rules' stable order."""
        order = self._order
        if order is None:
            order = self._order = tuple(sorted(self.units))
        units = self.units
        return [units[r] for r in order]

    def on_field(self, player: str | None = None) -> list[Unit]:
        return [u for u in self.units.values()
                if u.place == FIELD and (player is None or u.player == player)]

    def hero(self, player: str) -> Unit:
        return self.units[f"{player}#0"]

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "active": self.active, "phase": self.phase,
                "feats_left": self.feats_left, "last_turn": self.last_turn,
                "winner": self.winner, "feats_revealed": list(self.feats_revealed),
                "units": {r: u.to_dict() for r, u in self.units.items()},
                "sides": {p: s.to_dict() for p, s in self.sides.items()},
                "attack": self.attack.to_dict() if self.attack else None}
