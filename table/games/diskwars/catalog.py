"""The disks, command cards and terrain a game is played with, and the numbers the rules
text leaves to the printed pieces: the disks' diameters by size, the range ruler's bands
and the battle die's faces. Read from ``data/catalog.json`` (format
``tablesight-diskwars-catalog/1``, ``docs/rules/diskwars-catalog.md``); a user's file adds
disks and cards and may replace any number. Every entry is checked when read:
``CatalogError`` names the entry and the field."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any

from table.errors import CatalogError
from table.quoting import did_you_mean, quote

FORMAT = "tablesight-diskwars-catalog/1"
SIZES = ("small", "medium", "large")
FACTIONS = ("order", "destruction")
DAMAGE = ("physical", "arcane", "true")
RANGES = ("short", "medium", "long", "siege")
STRATEGIES = ("bold", "steady", "devious", "slow")
DIE_FACES = ("hit", "critical", "miss", "scatter", "chaos")
# Keywords a disk's rules use, with the argument each takes: a number, a damage type or
# nothing. A keyword not listed here is refused (a typing error would otherwise be a
# disk that silently lacks its rule).
KEYWORDS: Mapping[str, str] = MappingProxyType({
    "flying": "", "strider": "", "relentless": "", "frenzy": "", "mobile": "",
    "scout": "", "flank": "", "impact": "n", "magic": "n", "swift": "type",
    "slow": "type", "resistant": "type", "immune": "type"})
TERRAIN_KEYWORDS: Mapping[str, str] = MappingProxyType({
    "blocks sight": "", "cover": "", "defensive": "", "fortified": "", "high ground": "",
    "rough": "", "dangerous": "type"})
MAX_NAME = 60


@dataclass(frozen=True)
class Ranged:
    dice: int
    strength: int | None  # None: a d6 rolled for each hit
    type: str
    range: str  # the longest band it reaches


@dataclass(frozen=True)
class DiskKind:
    name: str
    race: str
    faction: str
    size: str
    attack: int
    counter: int
    toughness: int
    movement: int
    hero: bool = False
    unique: bool = False
    elite: bool = False
    cost: int = 0  # a unit's recruitment cost
    recruitment: int = 0  # a hero's recruitment points
    command: int = 0  # a hero's command value
    stamina: int = 0
    ranged: Ranged | None = None
    keywords: Mapping[str, str | int] = field(default_factory=dict)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def number(self, keyword: str) -> int:
        v = self.keywords.get(keyword, 0)
        return v if isinstance(v, int) else 0


@dataclass(frozen=True)
class CommandCard:
    name: str
    strategy: str
    activations: int
    only: str | None = None  # a faction: only an army with a hero of it may take it
    empower: int = 0  # its battle ability: empower this many disks of its player

    @property
    def code(self) -> str:
        """The card in an action's text: its name in lower case, words joined by -."""
        return code_of(self.name)


def code_of(name: str) -> str:
    return "-".join("".join(ch for ch in w if ch.isalnum()) for w in name.lower().split()
                    if any(ch.isalnum() for ch in w))


@dataclass(frozen=True)
class TerrainKind:
    name: str
    diameter: float
    keywords: Mapping[str, str] = field(default_factory=dict)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass(frozen=True)
class Catalog:
    battlefield: float  # the square battlefield's side, mm
    sizes: Mapping[str, float]  # diameter by size, mm
    ruler: tuple[tuple[str, float], ...]  # (band, its far end from the ruler's start, mm)
    battle_die: tuple[str, ...]
    disks: Mapping[str, DiskKind]
    commands: Mapping[str, CommandCard]
    terrain: Mapping[str, TerrainKind]
    standard_terrain: tuple[tuple[str, float, float], ...]

    def disk(self, name: str) -> DiskKind:
        kind = self.disks.get(name)
        if kind is None:
            raise CatalogError(f"no disk named {quote(name)} in the catalog"
                               + did_you_mean(name, self.disks))
        return kind

    def command(self, code: str) -> CommandCard | None:
        return next((c for c in self.commands.values() if c.code == code), None)

    def diameter(self, name: str) -> float:
        return self.sizes[self.disk(name).size]

    def band_length(self, band: str) -> float:
        """The far end of a band (short, medium, long); siege has none."""
        return dict(self.ruler).get(band, math.inf)


# -- reading ------------------------------------------------------------------------------
def _text(v: object, where: str, most: int = MAX_NAME) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > most \
            or any(not ch.isprintable() for ch in v):
        raise CatalogError(f"{where}: printable text of 1 to {most} characters, "
                           f"not {quote(v)}")
    return v.strip()


def _int(v: object, where: str, low: int = 0, high: int = 99) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise CatalogError(f"{where}: a whole number {low} to {high}, not {quote(v)}")
    return v


def _mm(v: object, where: str, high: float = 5000.0) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) \
            or not 0 < v <= high:
        raise CatalogError(f"{where}: millimetres above 0 and at most {high:g}, "
                           f"not {quote(v)}")
    return float(v)


def _one_of(v: object, options: tuple[str, ...], where: str) -> str:
    if v not in options:
        raise CatalogError(f"{where}: one of {', '.join(options)}, not {quote(v)}")
    return str(v)


def _object(v: object, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise CatalogError(f"{where}: an object, not {quote(v)}")
    unknown = sorted(set(v) - set(keys))
    if unknown:
        raise CatalogError(f"{where}: unknown key {quote(unknown[0])} "
                           f"(known: {', '.join(keys)})")
    return v


def _keywords(v: object, table: Mapping[str, str], where: str) -> dict[str, Any]:
    if not isinstance(v, list) or len(v) > 20:
        raise CatalogError(f"{where}: a list of at most 20 keywords, not {quote(v)}")
    out: dict[str, Any] = {}
    for i, k in enumerate(v):
        text = _text(k, f"{where}[{i}]", 40).lower()
        name = next((n for n in sorted(table, key=len, reverse=True)
                     if text == n or text.startswith(n + " ")), None)
        if name is None:
            raise CatalogError(f"{where}[{i}]: unknown keyword {quote(k)} "
                               f"(known: {', '.join(sorted(table))})")
        arg = text[len(name):].strip()
        kind = table[name]
        if kind == "" and arg:
            raise CatalogError(f"{where}[{i}]: {name} takes nothing after it, not {quote(k)}")
        if kind == "n":
            if not arg.isdigit() or not 1 <= int(arg) <= 20:
                raise CatalogError(f"{where}[{i}]: {name} takes a number 1 to 20: {quote(k)}")
            out[name] = int(arg)
        elif kind == "type":
            out[name] = _one_of(arg, DAMAGE, f"{where}[{i}] ({name}'s damage type)")
        else:
            out[name] = ""
    return out


_DISK_KEYS = ("name", "race", "faction", "size", "hero", "unique", "elite", "cost",
              "recruitment", "command", "attack", "counter", "toughness", "movement",
              "stamina", "ranged", "keywords")


def disk_kind(v: object, where: str) -> DiskKind:
    d = _object(v, where, _DISK_KEYS)
    name = _text(d.get("name"), f"{where}.name")
    where = f"disk {quote(name)}"
    hero = d.get("hero", False)
    if not isinstance(hero, bool):
        raise CatalogError(f"{where}.hero: true or false")
    ranged = None
    if d.get("ranged") is not None:
        r = _object(d["ranged"], f"{where}.ranged", ("dice", "strength", "type", "range"))
        strength = r.get("strength")
        ranged = Ranged(_int(r.get("dice"), f"{where}.ranged.dice", 1, 10),
                        None if strength == "d6" else
                        _int(strength, f"{where}.ranged.strength (or \"d6\")", 1, 20),
                        _one_of(r.get("type", "physical"), DAMAGE, f"{where}.ranged.type"),
                        _one_of(r.get("range"), RANGES, f"{where}.ranged.range"))
    flags = {}
    for key in ("unique", "elite"):
        flags[key] = d.get(key, False)
        if not isinstance(flags[key], bool):
            raise CatalogError(f"{where}.{key}: true or false")
    kind = DiskKind(
        name=name, race=_text(d.get("race"), f"{where}.race").lower(),
        faction=_one_of(d.get("faction"), FACTIONS, f"{where}.faction"),
        size=_one_of(d.get("size"), SIZES, f"{where}.size"),
        attack=_int(d.get("attack"), f"{where}.attack", 0, 20),
        counter=_int(d.get("counter"), f"{where}.counter", 0, 20),
        toughness=_int(d.get("toughness"), f"{where}.toughness", 1, 30),
        movement=_int(d.get("movement"), f"{where}.movement", 0, 10),
        hero=hero, unique=flags["unique"], elite=flags["elite"],
        cost=_int(d.get("cost", 0), f"{where}.cost", 0, 50),
        recruitment=_int(d.get("recruitment", 0), f"{where}.recruitment", 0, 99),
        command=_int(d.get("command", 0), f"{where}.command", 0, 10),
        stamina=_int(d.get("stamina", 0), f"{where}.stamina", 0, 10),
        ranged=ranged,
        keywords=MappingProxyType(_keywords(d.get("keywords", []), KEYWORDS,
                                            f"{where}.keywords")))
    if hero and (kind.command < 1 or kind.recruitment < 1):
        raise CatalogError(f"{where}: a hero has a command value and recruitment points")
    return kind


def command_card(v: object, where: str) -> CommandCard:
    d = _object(v, where, ("name", "strategy", "activations", "only", "battle"))
    name = _text(d.get("name"), f"{where}.name")
    where = f"command card {quote(name)}"
    battle = _object(d.get("battle", {}), f"{where}.battle", ("empower",))
    return CommandCard(
        name, _one_of(d.get("strategy"), STRATEGIES, f"{where}.strategy"),
        _int(d.get("activations"), f"{where}.activations", 0, 10),
        None if d.get("only") is None else _one_of(d["only"], FACTIONS, f"{where}.only"),
        _int(battle.get("empower", 0), f"{where}.battle.empower", 0, 10))


def terrain_kind(v: object, where: str) -> TerrainKind:
    d = _object(v, where, ("name", "diameter_mm", "keywords"))
    name = _text(d.get("name"), f"{where}.name")
    return TerrainKind(name, _mm(d.get("diameter_mm"), f"terrain {quote(name)}.diameter_mm",
                                 600.0),
                       MappingProxyType(_keywords(d.get("keywords", []), TERRAIN_KEYWORDS,
                                                  f"terrain {quote(name)}.keywords")))


_TOP = ("format", "about", "battlefield_mm", "sizes_mm", "ruler_mm", "battle_die", "disks",
        "commands", "terrain", "standard_terrain")


def with_document(base: Catalog | None, document: object) -> Catalog:
    """``base`` with a catalog document folded in: its entries added (an entry of a name
    already known replaces it) and its numbers replacing ``base``'s."""
    d = _object(document, "the catalog", _TOP)
    if d.get("format") != FORMAT:
        raise CatalogError(f"format: {quote(FORMAT)}, not {quote(d.get('format'))}")
    if base is None and any(k not in d for k in ("battlefield_mm", "sizes_mm", "ruler_mm",
                                                  "battle_die")):
        raise CatalogError("the first catalog gives battlefield_mm, sizes_mm, ruler_mm "
                           "and battle_die")
    out = base
    battlefield = _mm(d["battlefield_mm"], "battlefield_mm") if "battlefield_mm" in d \
        else base.battlefield if base else 0.0
    sizes = dict(base.sizes) if base else {}
    if "sizes_mm" in d:
        s = _object(d["sizes_mm"], "sizes_mm", SIZES)
        sizes.update({k: _mm(s[k], f"sizes_mm.{k}", 300.0) for k in s})
        if set(sizes) != set(SIZES) or not sizes["small"] <= sizes["medium"] <= sizes["large"]:
            raise CatalogError("sizes_mm: small, medium and large, each no larger than the "
                               "next")
    ruler = base.ruler if base else ()
    if "ruler_mm" in d:
        r = _object(d["ruler_mm"], "ruler_mm", RANGES[:3])
        if set(r) != set(RANGES[:3]):
            raise CatalogError("ruler_mm: short, medium and long")
        ruler = tuple((k, _mm(r[k], f"ruler_mm.{k}", 2000.0)) for k in RANGES[:3])
        if not ruler[0][1] < ruler[1][1] < ruler[2][1]:
            raise CatalogError("ruler_mm: short, medium and long each reach further")
    die = base.battle_die if base else ()
    if "battle_die" in d:
        faces = d["battle_die"]
        if not isinstance(faces, list) or not 2 <= len(faces) <= 20:
            raise CatalogError("battle_die: a list of 2 to 20 faces")
        die = tuple(_one_of(f, DIE_FACES, f"battle_die[{i}]") for i, f in enumerate(faces))
    disks = dict(base.disks) if base else {}
    commands = dict(base.commands) if base else {}
    terrain = dict(base.terrain) if base else {}
    for key, read, into in (("disks", disk_kind, disks), ("commands", command_card, commands),
                            ("terrain", terrain_kind, terrain)):
        entries = d.get(key, [])
        if not isinstance(entries, list) or len(entries) > 2000:
            raise CatalogError(f"{key}: a list of at most 2000 entries")
        for i, e in enumerate(entries):
            item = read(e, f"{key}[{i}]")
            into[item.name] = item  # type: ignore[attr-defined]
    standard = base.standard_terrain if base else ()
    if "standard_terrain" in d:
        entries = d["standard_terrain"]
        if not isinstance(entries, list) or len(entries) > 12:
            raise CatalogError("standard_terrain: a list of at most 12 pieces")
        standard = tuple(_placed(e, i, terrain, battlefield) for i, e in enumerate(entries))
    out = Catalog(battlefield, MappingProxyType(sizes), ruler, die,
                  MappingProxyType(disks), MappingProxyType(commands),
                  MappingProxyType(terrain), standard)
    return out


def _placed(v: object, i: int, terrain: Mapping[str, TerrainKind],
            side: float) -> tuple[str, float, float]:
    e = _object(v, f"standard_terrain[{i}]", ("name", "x", "y"))
    name = e.get("name")
    if name not in terrain:
        raise CatalogError(f"standard_terrain[{i}].name: no terrain named {quote(name)}")
    return (str(name), _mm(e.get("x"), f"standard_terrain[{i}].x", side),
            _mm(e.get("y"), f"standard_terrain[{i}].y", side))


def builtin() -> Catalog:
    text = resources.files(__package__).joinpath("data/catalog.json").read_text("utf-8")
    return with_document(None, json.loads(text))
