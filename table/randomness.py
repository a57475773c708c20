"""Randomness at the table, for any game: dice described by face tables, and decks of
cards drawn without replacement.

The table box supplies the randomness as plain numbers (a die of ``n`` sides rolled, a
number from 1 to ``n``); what a number means is the game's: a face table turns it into
a face (an attack die with two miss faces, a symbol die counting swords and
pushes), and a deck turns it into the card drawn from those still in it. A deck is a
value: which cards are in the draw pile, the discard pile and out of play. The draw
pile's order is never kept, because each draw picks uniformly among the cards left,
which is what a shuffled pile gives; so there is no hidden order to lose when the box
reconnects, reboots or the host crashes: the game's log holds every draw, and replaying
it gives the same deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from table.quoting import quote

MAX_SIDES = 250  # what the box's protocol carries for one die (a 54-card deck fits)
_CODE_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-_")


class FaceError(ValueError):
    """A face that is not on the die, or a roll out of its range; names the input."""


class DeckError(ValueError):
    """A card that is not where a draw or discard needs it; names the card."""


# -- dice ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Face:
    """One side of a die: ``code`` is how it is written in a log, a box message and a
    typed roll (short, no spaces); ``label`` what a person reads; ``symbols`` what it
    shows, counted (``{"sword": 2}``), for games that count symbols."""

    code: str
    label: str
    symbols: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not self.code or len(self.code) > 8 or not set(self.code) <= _CODE_CHARS:
            raise FaceError(f"face code {quote(self.code)}: 1-8 letters, digits, + - _")
        if not self.label or len(self.label) > 24:
            raise FaceError(f"face {self.code}: its label must be 1-24 characters")
        for k, v in self.symbols.items():
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 9:
                raise FaceError(f"face {self.code}: symbol {quote(k)} counts 0-9")
        object.__setattr__(self, "symbols", MappingProxyType(dict(self.symbols)))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "label": self.label}
        if self.symbols:
            out["symbols"] = dict(self.symbols)
        return out


@dataclass(frozen=True)
class Die:
    """A die as its face table: rolling it is a uniform number from 1 to ``sides``,
    which is the face at that place in ``faces`` (a face may appear more than once)."""

    name: str
    label: str  # "attack die", "six-sided die"
    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        if not 2 <= len(self.faces) <= MAX_SIDES:
            raise FaceError(f"die {quote(self.name)}: 2 to {MAX_SIDES} faces, "
                            f"not {len(self.faces)}")
        codes: dict[str, Face] = {}
        for f in self.faces:
            if codes.setdefault(f.code, f) != f:
                raise FaceError(f"die {quote(self.name)}: face {f.code} is listed twice "
                                "with different labels or symbols")
        labels = Counter(f.label.lower() for f in self.distinct())
        if any(n > 1 for n in labels.values()):
            raise FaceError(f"die {quote(self.name)}: two different faces share a label")

    @property
    def sides(self) -> int:
        return len(self.faces)

    def face(self, number: int) -> Face:
        """The face a roll of ``number`` (1..sides) shows."""
        if not isinstance(number, int) or isinstance(number, bool) \
                or not 1 <= number <= self.sides:
            raise FaceError(f"a {self.label} shows 1 to {self.sides}, not {quote(number)}")
        return self.faces[number - 1]

    def distinct(self) -> tuple[Face, ...]:
        """Each face once, in table order: what a person picks from to type a roll."""
        seen: dict[str, Face] = {}
        for f in self.faces:
            seen.setdefault(f.code, f)
        return tuple(seen.values())

    def parse(self, text: object) -> Face:
        """A face from its code or its label, any case (``"B"``, ``"blade"``)."""
        t = str(text).strip().lower() if isinstance(text, str | int) \
            and not isinstance(text, bool) else None
        for f in self.distinct():
            if t is not None and t in (f.code.lower(), f.label.lower()):
                return f
        names = ", ".join(f.label for f in self.distinct())
        raise FaceError(f"{quote(text)} is not a face of the {self.label} ({names})")

    def label_for(self, n: int) -> str:
        """The label for ``n`` of these dice ("3 attack dice")."""
        if n != 1 and self.label.endswith(" die"):
            return self.label[:-3] + "dice"
        return self.label

    def odds(self, face: Face) -> float:
        return sum(1 for f in self.faces if f.code == face.code) / self.sides

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "sides": self.sides,
                "faces": [f.to_dict() for f in self.faces]}

    @classmethod
    def from_dict(cls, data: object) -> Die:
        """A die from its documented JSON form (``docs/contracts/dice.md``); a
        ``FaceError`` naming the bad field."""
        if not isinstance(data, dict):
            raise FaceError("a die is an object with name, label and faces")
        name, label, faces = data.get("name"), data.get("label"), data.get("faces")
        if not isinstance(name, str) or not 1 <= len(name) <= 24:
            raise FaceError(f"die name: 1-24 characters, not {quote(name)}")
        if not isinstance(label, str) or not 1 <= len(label) <= 40:
            raise FaceError(f"die {name}: label: 1-40 characters")
        if not isinstance(faces, list) or not faces:
            raise FaceError(f"die {name}: faces: a list of faces")
        out = []
        for i, f in enumerate(faces[:MAX_SIDES + 1]):
            if isinstance(f, str):
                f = {"code": f, "label": f}
            if not isinstance(f, dict) or not isinstance(f.get("code"), str) \
                    or not isinstance(f.get("label", f.get("code")), str):
                raise FaceError(f"die {name}: faces[{i}]: an object with code and label")
            sym = f.get("symbols", {})
            if not isinstance(sym, dict) or not all(isinstance(k, str) and len(k) <= 16
                                                    for k in sym):
                raise FaceError(f"die {name}: faces[{i}].symbols: names to counts")
            out.append(Face(f["code"], f.get("label", f["code"]), sym))
        return cls(name, label, tuple(out))


_NUMBER_WORDS = {4: "four", 6: "six", 8: "eight", 10: "ten", 12: "twelve", 20: "twenty"}


def numbered(sides: int, name: str | None = None, label: str | None = None) -> Die:
    """An ordinary die: faces 1..sides."""
    said = _NUMBER_WORDS.get(sides, str(sides))
    return Die(name or f"d{sides}", label or f"{said}-sided die",
               tuple(Face(str(i), str(i)) for i in range(1, sides + 1)))


def read_faces(die: Die, entered: object, most: int = 40) -> tuple[Face, ...]:
    """Faces a person typed (a list of codes or labels); ``FaceError`` naming the one
    that is not on the die."""
    if not isinstance(entered, list) or not entered or len(entered) > most:
        raise FaceError(f"faces: a list of 1 to {most} faces of the {die.label}")
    return tuple(die.parse(f) for f in entered)


# -- decks --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Card:
    code: str  # unique in its deck, as logs and commands name it
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "label": self.label}


@dataclass(frozen=True)
class Deck:
    """A deck's state as a value. ``draw_pile`` is sorted (its order is not kept: see the
    module's note); ``discard`` in the order cards went there; ``out`` the cards in
    hands or in play. Every card of ``cards`` is in exactly one of the three."""

    name: str
    cards: tuple[Card, ...]
    draw_pile: tuple[str, ...]
    discard: tuple[str, ...] = ()
    out: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        codes = [c.code for c in self.cards]
        if len(set(codes)) != len(codes):
            raise DeckError(f"deck {quote(self.name)}: two cards share a code")
        held = Counter(self.draw_pile) + Counter(self.discard) + Counter(self.out)
        if held != Counter(codes):
            raise DeckError(f"deck {quote(self.name)}: its piles do not hold each card once")
        object.__setattr__(self, "draw_pile", tuple(sorted(self.draw_pile)))

    @classmethod
    def new(cls, name: str, cards: Sequence[Card]) -> Deck:
        """A full deck, every card in the draw pile."""
        return cls(name, tuple(cards), tuple(c.code for c in cards))

    @property
    def left(self) -> int:
        return len(self.draw_pile)

    def card(self, code: str) -> Card:
        for c in self.cards:
            if c.code == code:
                return c
        raise DeckError(f"no card {quote(code)} in the {self.name} deck")

    def draw(self, number: int) -> tuple[Deck, Card]:
        """Draw the card a roll of ``number`` (1..left, a die of ``left`` sides) picks
        among the cards left; ``DeckError`` when the pile is empty or the number is out
        of range."""
        if not self.draw_pile:
            raise DeckError(f"the {self.name} deck is empty: reshuffle its discards first")
        if not isinstance(number, int) or isinstance(number, bool) \
                or not 1 <= number <= self.left:
            raise DeckError(f"a draw from {self.left} cards picks 1 to {self.left}, "
                            f"not {quote(number)}")
        code = self.draw_pile[number - 1]
        pile = list(self.draw_pile)
        pile.remove(code)
        return Deck(self.name, self.cards, tuple(pile), self.discard,
                    (*self.out, code)), self.card(code)

    def take(self, code: str) -> Deck:
        """A named card out of the draw pile (a search through the deck, a card dealt
        by hand and typed in)."""
        if code not in self.draw_pile:
            raise DeckError(f"{self.card(code).label} is not in the {self.name} deck's "
                            "draw pile")
        pile = list(self.draw_pile)
        pile.remove(code)
        return Deck(self.name, self.cards, tuple(pile), self.discard, (*self.out, code))

    def to_discard(self, code: str) -> Deck:
        """A card in play or in a hand goes to the discard pile."""
        if code not in self.out:
            raise DeckError(f"{self.card(code).label} is not in play, so it cannot be "
                            "discarded")
        out = list(self.out)
        out.remove(code)
        return Deck(self.name, self.cards, self.draw_pile, (*self.discard, code),
                    tuple(out))

    def to_bottom(self, code: str) -> Deck:
        """A card in play back into the draw pile (returned and shuffled in)."""
        if code not in self.out:
            raise DeckError(f"{self.card(code).label} is not in play")
        out = list(self.out)
        out.remove(code)
        return Deck(self.name, self.cards, (*self.draw_pile, code), self.discard,
                    tuple(out))

    def as_die(self, label: str = "") -> Die:
        """The next draw as a die: a face per card left, in the draw pile's order, so the
        box's roll of ``n`` (a die of ``left`` sides) is the card ``draw(n)`` takes, and a
        card typed in by hand is a face. A screen shows cards, never "a d54"."""
        if self.left < 2:
            raise DeckError(f"the {self.name} deck has {self.left} card(s) left: a draw "
                            "from fewer than two is no chance (reshuffle the discards)")
        # Cards of one label are alike for the game: one face for them all, each place in
        # the pile still one side (the first such card in the pile is the one taken).
        first: dict[str, str] = {}
        faces = []
        for c in map(self.card, self.draw_pile):
            faces.append(Face(first.setdefault(c.label.lower(), c.code), c.label))
        return Die(self.name, label or f"a card from the {self.name} deck", tuple(faces))

    def reshuffle(self) -> Deck:
        """The discard pile shuffled back into the draw pile."""
        return Deck(self.name, self.cards, self.draw_pile + self.discard, (), self.out)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "left": self.left, "draw_pile": list(self.draw_pile),
                "discard": list(self.discard), "out": list(self.out)}
