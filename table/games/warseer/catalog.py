"""Warseer's cards as data (``warseer-catalog/1``, documented in
``docs/rules/warseer-catalog.md``): creatures (heroes, characters, minions), support
cards (spells, relics, buildings, tactics) and feats, plus the attack dice as face
tables. The built-in sample is ``data/catalog.json`` and ``data/dice.json``; a user's
own cards come from a JSON file of the same shape or from a creature CSV.

Every effect a card or ability has is written in a small vocabulary the engine
understands (``Effect``): ``damage 2``, ``heal 1``, ``armour 2``, ``draw 1``,
``summon Wisp`` (or ``summon 2 Wisp``), ``add sword``, ``remove sword``, ``reroll``,
``die gold``, ``push``, ``advance``, ``movement 1``, ``attack sword``. A card whose
effect is outside it is refused when the catalog is read, naming the card, never
half-played at the table.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any

from table.errors import CatalogError
from table.quoting import did_you_mean, quote
from table.randomness import Die, FaceError

CATALOG_FORMAT = "warseer-catalog/1"
KINDS = ("hero", "character", "minion")
ATTACK_TYPES = ("melee", "ranged", "magic")
CARD_TYPES = ("spell", "relic", "building", "tactic")
# The dragon is both a damage and the critical trigger (the rules' attack sequence):
# there is no separate critical symbol.
SYMBOLS = ("sword", "dragon", "push")
DICE_COLOURS = ("bronze", "silver", "gold")
ABILITIES = ("counterblow", "warlord", "tough", "flying")
TRIGGERS = ("modify",)  # when a tactic may be played: in an attack's modification round
MAX_ITEMS = 500


# -- effects ----------------------------------------------------------------------------
# verb -> what its argument is: a count, a symbol, a die colour, a minion name, or nothing
_VERBS = {"damage": "n", "heal": "n", "armour": "n", "draw": "n", "movement": "n",
          "summon": "name", "add": "symbol", "remove": "symbol", "attack": "symbol",
          "die": "colour", "reroll": "", "push": "", "advance": ""}
# Where each verb may stand: a spell or a feat's discard (played in the main phase), a
# dice modification (tactics, relics with uses, buildings' and abilities' bonuses), a
# critical effect, an enchantment or a building's bonus to one creature.
PLAYED = {"damage", "heal", "armour", "draw", "summon"}
MODIFY = {"add", "remove", "reroll"}
CRITICAL = {"add", "die", "push", "advance"}
BONUS = {"movement", "attack", "heal", "armour"}


@dataclass(frozen=True)
class Effect:
    verb: str
    n: int = 1
    arg: str = ""

    def __str__(self) -> str:
        kind = _VERBS[self.verb]
        if kind == "n":
            return f"{self.verb} {self.n}"
        if kind == "name" and self.n > 1:
            return f"{self.verb} {self.n} {self.arg}"
        if kind:
            return f"{self.verb} {self.arg}"
        return self.verb

    @classmethod
    def parse(cls, text: object, where: str, allowed: set[str]) -> Effect:
        if not isinstance(text, str) or len(text) > 40:
            raise CatalogError(f"{where}: an effect like 'damage 2', not {quote(text)}")
        t = text.split()
        if not t or t[0] not in _VERBS:
            raise CatalogError(f"{where}: unknown effect {quote(text)} (known: "
                               + ", ".join(sorted(_VERBS)) + ")")
        verb, kind = t[0], _VERBS[t[0]]
        if verb not in allowed:
            raise CatalogError(f"{where}: {verb} cannot stand here (here: "
                               + ", ".join(sorted(allowed)) + ")")
        if kind == "" and len(t) == 1:
            return cls(verb)
        if len(t) < 2:
            raise CatalogError(f"{where}: {quote(text)} needs an argument")
        if kind == "name" and len(t) > 2 and t[1].isdigit():
            if not 1 <= int(t[1]) <= 9:
                raise CatalogError(f"{where}: {quote(text)}: a count from 1 to 9")
            return cls(verb, int(t[1]), " ".join(t[2:]))
        arg = " ".join(t[1:])
        if kind == "n":
            if len(t) != 2 or not t[1].isdigit() or not 1 <= int(t[1]) <= 9:
                raise CatalogError(f"{where}: {quote(text)}: a count from 1 to 9")
            return cls(verb, int(t[1]))
        if kind == "symbol" and arg not in SYMBOLS:
            raise CatalogError(f"{where}: {quote(text)}: a symbol: {', '.join(SYMBOLS)}")
        if kind == "colour" and arg not in DICE_COLOURS:
            raise CatalogError(f"{where}: {quote(text)}: a die: {', '.join(DICE_COLOURS)}")
        if kind == "" :
            raise CatalogError(f"{where}: {quote(text)} takes no argument")
        return cls(verb, 1, arg)


# -- cards --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Attack:
    type: str  # melee, ranged, magic
    dice: tuple[tuple[str, int], ...]  # (colour, how many), in DICE_COLOURS order
    critical: Effect | None = None

    @property
    def magic(self) -> bool:
        return self.type == "magic"

    def colours(self) -> tuple[str, ...]:
        """One entry per die, in the order a roll lists them."""
        return tuple(c for c, n in self.dice for _ in range(n))


@dataclass(frozen=True)
class Creature:
    name: str
    kind: str  # hero, character, minion
    rank: int
    attack: Attack
    range: int
    health: int
    movement: int
    abilities: tuple[str, ...] = ()
    leadership: Mapping[int, int] = field(default_factory=dict)  # heroes: rank -> how many

    def has(self, ability: str) -> bool:
        return ability in self.ability_names

    @cached_property
    def ability_names(self) -> frozenset[str]:  # asked at every move and attack
        return frozenset(a.split()[0] for a in self.abilities)

    def ability_n(self, ability: str) -> int:
        for a in self.abilities:
            t = a.split()
            if t[0] == ability:
                return int(t[1]) if len(t) > 1 else 1
        return 0


@dataclass(frozen=True)
class Card:
    """A support card of a battle deck."""

    code: str  # a slug of the name: how notation and logs name it
    name: str
    type: str  # spell, relic, building, tactic
    effect: Effect | None = None
    enchantment: bool = False  # a spell that stays on its creature
    armour: int = 0  # relics: tokens taken when equipped
    uses: int = 0  # relics: how many times its effect may be used
    trigger: str = ""  # tactics: when it may be played
    range: int = 0  # spells aimed at a creature: how far from your hero (0: anywhere)
    place: str = "hero"  # summons: beside the hero, or anywhere in the deployment "zone"


@dataclass(frozen=True)
class Feat:
    code: str
    name: str
    points: int
    condition: tuple[str, int]  # (what, how many): see CONDITIONS
    discard: Effect | None = None  # what discarding it instead does


# What a feat asks, checked by the engine at the moment it is played face up.
CONDITIONS = {
    "destroyed": "you destroyed this many enemy characters this turn",
    "relics": "your hero has this many relics equipped",
    "buildings": "you have this many buildings in your City Zone",
    "zone": "this many of your creatures stand in the enemy deployment zone",
    "unhurt": "your hero is on the battlefield without a wound",
    "hall": "your Hall of Fame holds this many feats",
    "minions": "this many of your minions are on the battlefield",
}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# -- the catalog ----------------------------------------------------------------------------
@dataclass
class Catalog:
    creatures: dict[str, Creature]
    cards: dict[str, Card]  # by code
    feats: dict[str, Feat]  # by code, one per card in the shared Feats deck (copies: count)
    feat_copies: dict[str, int]
    dice: dict[str, Die]

    def creature(self, name: object) -> Creature:
        if not isinstance(name, str) or name not in self.creatures:
            raise CatalogError(f"no creature {quote(name)} in the catalog"
                               + did_you_mean(name, self.creatures))
        return self.creatures[name]

    def card(self, code: object) -> Card:
        if not isinstance(code, str) or code not in self.cards:
            raise CatalogError(f"no support card {quote(code)} in the catalog"
                               + did_you_mean(code, self.cards))
        return self.cards[code]

    def feat(self, code: object) -> Feat:
        if not isinstance(code, str) or code not in self.feats:
            raise CatalogError(f"no feat {quote(code)} in the catalog")
        return self.feats[code]

    def card_by_name(self, name: object) -> Card:
        if isinstance(name, str):
            for c in self.cards.values():
                if name in (c.name, c.code):
                    return c
        raise CatalogError(f"no support card {quote(name)} in the catalog" + did_you_mean(
            name, [c.name for c in self.cards.values()]))

    @cached_property
    def feats_in_order(self) -> tuple[str, ...]:
        """The feats' codes, sorted: the order legal actions list them in."""
        return tuple(sorted(self.feats))

    def feats_deck(self) -> tuple[str, ...]:
        """The shared Feats deck, each copy by its feat's code."""
        return tuple(c for c, n in sorted(self.feat_copies.items()) for _ in range(n))

    def merged(self, other: Mapping[str, Any]) -> Catalog:
        """This catalog with a user's entries added (same names replace)."""
        extra = read_catalog(other, self.dice)
        return Catalog({**self.creatures, **extra.creatures}, {**self.cards, **extra.cards},
                       {**self.feats, **extra.feats},
                       {**self.feat_copies, **extra.feat_copies}, self.dice)

    @classmethod
    def builtin(cls) -> Catalog:
        return _builtin()


def _data(name: str) -> Any:
    return json.loads(resources.files("table.games.warseer").joinpath("data", name)
                      .read_text(encoding="utf-8"))


_BUILTIN: Catalog | None = None


def _builtin() -> Catalog:
    global _BUILTIN
    if _BUILTIN is None:
        _BUILTIN = read_catalog(_data("catalog.json"), read_dice(_data("dice.json")))
    return _BUILTIN


def read_dice(data: object) -> dict[str, Die]:
    """The attack dice from their face tables (``{"dice": [Die JSON, ...]}``); each face's
    symbols are counted from SYMBOLS. ``CatalogError`` naming the die."""
    if not isinstance(data, dict) or not isinstance(data.get("dice"), list):
        raise CatalogError("dice: an object with a list 'dice'")
    out: dict[str, Die] = {}
    for d in data["dice"][:10]:
        try:
            die = Die.from_dict(d)
        except FaceError as e:
            raise CatalogError(str(e)) from None
        if die.name not in DICE_COLOURS:
            raise CatalogError(f"die {quote(die.name)}: one of {', '.join(DICE_COLOURS)}")
        for f in die.faces:
            if "crit" in f.symbols:
                raise CatalogError(f"die {die.name}: face {f.code} shows 'crit': the dragon "
                                   "is the critical symbol (it also deals one damage), "
                                   "so write the face as a dragon")
            if set(f.symbols) - set(SYMBOLS):
                raise CatalogError(f"die {die.name}: face {f.code} shows an unknown symbol "
                                   f"(known: {', '.join(SYMBOLS)})")
        out[die.name] = die
    missing = set(DICE_COLOURS) - set(out)
    if missing:
        raise CatalogError(f"dice: no face table for {', '.join(sorted(missing))}")
    return out


def _str(v: object, where: str, most: int = 40) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > most:
        raise CatalogError(f"{where}: text of 1-{most} characters, not {quote(v)}")
    return v.strip()


def _int(v: object, where: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise CatalogError(f"{where}: a whole number {lo}-{hi}, not {quote(v)}")
    return v


def _keys(d: object, where: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise CatalogError(f"{where}: an object")
    extra = set(d) - allowed
    if extra:
        raise CatalogError(f"{where}: unknown field(s) {', '.join(sorted(map(str, extra)))[:80]}")
    return d


_CREATURE_KEYS = {"name", "kind", "rank", "attack", "range", "health", "movement",
                  "abilities", "leadership"}


def read_creature(d: object, i: int) -> Creature:
    d = _keys(d, f"creatures[{i}]", _CREATURE_KEYS)
    name = _str(d.get("name"), f"creatures[{i}].name")
    w = f"creature {name}"
    kind = d.get("kind")
    if kind not in KINDS:
        raise CatalogError(f"{w}: kind: one of {', '.join(KINDS)}, not {quote(kind)}")
    atk = _keys(d.get("attack"), f"{w}: attack", {"type", "dice", "critical"})
    if atk.get("type") not in ATTACK_TYPES:
        raise CatalogError(f"{w}: attack.type: one of {', '.join(ATTACK_TYPES)}")
    dice = atk.get("dice")
    if not isinstance(dice, dict) or not dice or set(dice) - set(DICE_COLOURS):
        raise CatalogError(f"{w}: attack.dice: colours ({', '.join(DICE_COLOURS)}) to counts")
    counts = tuple((c, _int(dice[c], f"{w}: attack.dice.{c}", 1, 8))
                   for c in DICE_COLOURS if c in dice)
    if sum(n for _, n in counts) > 10:
        raise CatalogError(f"{w}: attack.dice: at most 10 dice")
    crit = atk.get("critical")
    critical = None if crit in (None, "") else Effect.parse(crit, f"{w}: attack.critical",
                                                           CRITICAL)
    abilities = d.get("abilities", [])
    if not isinstance(abilities, list) or len(abilities) > 8:
        raise CatalogError(f"{w}: abilities: a list of ability names")
    for a in abilities:
        t = a.split() if isinstance(a, str) else []
        if not t or t[0] not in ABILITIES or len(t) > 2 or (len(t) == 2 and not t[1].isdigit()):
            raise CatalogError(f"{w}: unknown ability {quote(a)} (known: "
                               f"{', '.join(ABILITIES)})")
    leadership: dict[int, int] = {}
    if kind == "hero":
        lead = d.get("leadership")
        if not isinstance(lead, dict) or not lead:
            raise CatalogError(f"{w}: a hero needs leadership (rank -> characters)")
        for k, v in lead.items():
            if not isinstance(k, str) or k not in ("1", "2", "3", "4"):
                raise CatalogError(f"{w}: leadership ranks are 1-4, not {quote(k)}")
            leadership[int(k)] = _int(v, f"{w}: leadership.{k}", 0, 9)
    elif d.get("leadership"):
        raise CatalogError(f"{w}: only a hero has leadership")
    return Creature(name, kind, _int(d.get("rank", 1), f"{w}: rank", 1, 4),
                    Attack(atk["type"], counts, critical),
                    _int(d.get("range", 1), f"{w}: range", 1, 12),
                    _int(d.get("health"), f"{w}: health", 1, 30),
                    _int(d.get("movement"), f"{w}: movement", 0, 12),
                    tuple(abilities), leadership)


_CARD_KEYS = {"name", "type", "effect", "enchantment", "armour", "uses", "trigger", "range",
              "place"}
PLACES = ("hero", "zone")  # where a summoned minion comes


def read_card(d: object, i: int) -> Card:
    d = _keys(d, f"cards[{i}]", _CARD_KEYS)
    name = _str(d.get("name"), f"cards[{i}].name")
    w = f"card {name}"
    typ = d.get("type")
    if typ not in CARD_TYPES:
        raise CatalogError(f"{w}: type: one of {', '.join(CARD_TYPES)}, not {quote(typ)}")
    allowed = {"spell": PLAYED | BONUS, "relic": MODIFY | {"movement"}, "building": BONUS,
               "tactic": MODIFY}[typ]
    eff = d.get("effect")
    effect = None if eff in (None, "") else Effect.parse(eff, f"{w}: effect", allowed)
    ench = d.get("enchantment", False)
    if not isinstance(ench, bool) or (ench and typ != "spell"):
        raise CatalogError(f"{w}: enchantment: true or false, and only on a spell")
    if typ == "spell" and effect is None:
        raise CatalogError(f"{w}: a spell needs an effect")
    if ench and effect is not None and effect.verb not in BONUS - {"heal"}:
        raise CatalogError(f"{w}: an enchantment gives movement, attack or armour")
    if typ == "spell" and not ench and effect is not None and effect.verb == "movement":
        raise CatalogError(f"{w}: movement lasts: make the spell an enchantment")
    trigger = d.get("trigger", "")
    if typ == "tactic" and trigger not in TRIGGERS:
        raise CatalogError(f"{w}: trigger: one of {', '.join(TRIGGERS)}")
    if typ != "tactic" and trigger:
        raise CatalogError(f"{w}: only a tactic has a trigger")
    armour = _int(d.get("armour", 0), f"{w}: armour", 0, 9)
    uses = _int(d.get("uses", 0), f"{w}: uses", 0, 9)
    if typ != "relic" and (armour or uses):
        raise CatalogError(f"{w}: only a relic has armour or uses")
    # A relic's dice effect is spent a use at a time; its movement lasts while equipped.
    lasting = effect is not None and effect.verb == "movement"
    if typ == "relic" and not lasting and (effect is None) != (uses == 0):
        raise CatalogError(f"{w}: a relic with an effect says how many uses it has")
    if lasting and uses:
        raise CatalogError(f"{w}: movement lasts while the relic is equipped: no uses")
    place = d.get("place", "hero")
    if place not in PLACES or (place != "hero" and (effect is None
                                                    or effect.verb != "summon")):
        raise CatalogError(f"{w}: place: where a summon puts its minions, "
                           f"{' or '.join(PLACES)}")
    if typ in ("building", "tactic") and effect is None:
        raise CatalogError(f"{w}: a {typ} needs an effect")
    return Card(slug(name), name, typ, effect, ench, armour, uses, trigger or "",
                _int(d.get("range", 0), f"{w}: range", 0, 20), place)


def read_feat(d: object, i: int) -> tuple[Feat, int]:
    d = _keys(d, f"feats[{i}]", {"name", "points", "condition", "discard", "copies"})
    name = _str(d.get("name"), f"feats[{i}].name")
    w = f"feat {name}"
    cond = d.get("condition")
    t = cond.split() if isinstance(cond, str) else []
    if not t or t[0] not in CONDITIONS or len(t) > 2 or (len(t) == 2 and not t[1].isdigit()):
        raise CatalogError(f"{w}: condition: one of {', '.join(CONDITIONS)} and a count")
    disc = d.get("discard")
    effect = None if disc in (None, "") else Effect.parse(disc, f"{w}: discard",
                                                         {"draw", "heal", "armour"})
    feat = Feat(slug(name), name, _int(d.get("points"), f"{w}: points", 1, 9),
                (t[0], int(t[1]) if len(t) == 2 else 1), effect)
    return feat, _int(d.get("copies", 1), f"{w}: copies", 1, 9)


def read_catalog(data: object, dice: dict[str, Die]) -> Catalog:
    """A ``warseer-catalog/1`` document; ``CatalogError`` naming the first bad entry."""
    d = _keys(data, "catalog", {"format", "creatures", "cards", "feats"})
    if d.get("format") != CATALOG_FORMAT:
        raise CatalogError(f"catalog: format must be {CATALOG_FORMAT!r}")
    lists = {k: d.get(k, []) for k in ("creatures", "cards", "feats")}
    for k, v in lists.items():
        if not isinstance(v, list) or len(v) > MAX_ITEMS:
            raise CatalogError(f"catalog: {k}: a list of at most {MAX_ITEMS}")
    creatures = _unique((read_creature(c, i) for i, c in enumerate(lists["creatures"])),
                        lambda c: c.name, "creature")
    cards = _unique((read_card(c, i) for i, c in enumerate(lists["cards"])),
                    lambda c: c.code, "card")
    feats_ = [read_feat(f, i) for i, f in enumerate(lists["feats"])]
    feats = _unique((f for f, _ in feats_), lambda f: f.code, "feat")
    for c in cards.values():
        if c.effect and c.effect.verb == "summon":
            m = creatures.get(c.effect.arg) or _builtin_creature(c.effect.arg)
            if m is None or m.kind != "minion":
                raise CatalogError(f"card {c.name}: summon names a minion of the catalog, "
                                   f"not {quote(c.effect.arg)}")
    return Catalog(creatures, cards, feats, {f.code: n for f, n in feats_}, dice)


def _builtin_creature(name: str) -> Creature | None:
    return _BUILTIN.creatures.get(name) if _BUILTIN is not None else None


def _unique(items: Iterable[Any], key: Any, what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for it in items:
        k = key(it)
        if k in out:
            raise CatalogError(f"two {what}s named {quote(k)}")
        out[k] = it
    return out


# -- creatures from a spreadsheet ----------------------------------------------------------
CSV_COLUMNS = ("name", "kind", "rank", "attack", "bronze", "silver", "gold", "critical",
               "range", "health", "movement", "abilities", "leadership")


def creatures_from_csv(text: str) -> list[dict[str, Any]]:
    """Creature rows (header ``CSV_COLUMNS``; ``abilities`` separated by ``;``,
    ``leadership`` as ``1:3;2:2;3:1``) as catalog entries; ``CatalogError`` naming the
    row and column."""
    try:
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except csv.Error as e:
        raise CatalogError(f"creature CSV: not a spreadsheet the project reads ({e})") from None
    if not rows:
        raise CatalogError("creature CSV: no rows under a header")
    missing = set(CSV_COLUMNS) - set(rows[0])
    if missing:
        raise CatalogError(f"creature CSV: missing column(s) {', '.join(sorted(missing))}")
    out = []
    for n, row in enumerate(rows[:MAX_ITEMS], start=2):
        def num(col: str, row: dict[str, str] = row, n: int = n) -> int:
            v = (row.get(col) or "").strip() or "0"
            if not v.isdigit():
                raise CatalogError(f"creature CSV line {n}: {col}: a number, not {quote(v)}")
            return int(v)

        entry: dict[str, Any] = {
            "name": (row.get("name") or "").strip(), "kind": (row.get("kind") or "").strip(),
            "rank": num("rank"), "range": num("range"), "health": num("health"),
            "movement": num("movement"),
            "attack": {"type": (row.get("attack") or "").strip(),
                       "dice": {c: num(c) for c in DICE_COLOURS if num(c)},
                       "critical": (row.get("critical") or "").strip()},
            "abilities": [a.strip() for a in (row.get("abilities") or "").split(";")
                          if a.strip()]}
        lead = (row.get("leadership") or "").strip()
        if lead:
            pairs = [p.split(":") for p in lead.split(";")]
            if not all(len(p) == 2 for p in pairs):
                raise CatalogError(f"creature CSV line {n}: leadership like 1:3;2:2")
            entry["leadership"] = {k.strip(): int(v) if v.strip().isdigit() else v
                                   for k, v in pairs}
        try:
            read_creature(entry, n)
        except CatalogError as e:
            raise CatalogError(f"creature CSV line {n}: {e}") from None
        out.append(entry)
    return out
