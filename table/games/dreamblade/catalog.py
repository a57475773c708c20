"""Miniature definitions and the catalog that holds them.

The data format is the scenario contract's ``miniatures`` schema (documented in
``docs/rules/catalog.md``)::

    {"name": "Iron Thug", "type": "creature", "cost": 9, "aspects": ["madness"],
     "power": 6, "defense": 6, "life": 14, "abilities": ["Blade: Fumble 2"],
     "lineage": null}

``aspects`` holds one entry per aspect symbol of the cost. Locations have no power,
defense or life.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from table.errors import CatalogError

from .abilities import Ability, AbilityError, parse_ability


class Aspect(StrEnum):
    VALOR = "valor"
    MADNESS = "madness"
    FEAR = "fear"
    PASSION = "passion"


class Kind(StrEnum):
    CREATURE = "creature"
    LOCATION = "location"


_KEYS = {"name", "type", "cost", "aspects", "power", "defense", "life", "abilities",
         "lineage", "set", "number", "rarity", "note"}


@dataclass(frozen=True)
class MiniatureDef:
    """One miniature as printed on its base (static data, shared by every copy)."""

    name: str
    kind: Kind
    cost: int
    aspects: tuple[Aspect, ...]  # one entry per aspect symbol
    power: int = 0
    defense: int = 0
    life: int = 0
    abilities: tuple[Ability, ...] = ()
    lineage: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_creature(self) -> bool:
        return self.kind is Kind.CREATURE

    @property
    def aspect_set(self) -> frozenset[Aspect]:
        """The aspects the miniature belongs to (each counted once)."""
        return frozenset(self.aspects)

    @cached_property
    def _by_name(self) -> dict[str, Ability]:
        # The rules ask "has it X?" hundreds of thousands of times a game: one lookup.
        out: dict[str, Ability] = {}
        for a in self.abilities:
            out.setdefault(a.name, a)
        return out

    def ability(self, name: str) -> Ability | None:
        return self._by_name.get(name)

    def has(self, name: str) -> bool:
        return name in self._by_name

    @classmethod
    def from_dict(cls, data: object) -> MiniatureDef:
        if not isinstance(data, dict):
            raise CatalogError(f"a miniature must be a JSON object, got {data!r}")
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CatalogError(f"miniature without a name: {data!r}")
        who = f"miniature {name!r}"
        unknown = set(data) - _KEYS
        if unknown:
            raise CatalogError(f"{who}: unknown key(s) {sorted(unknown)}")
        try:
            kind = Kind(data.get("type", "creature"))
        except ValueError:
            raise CatalogError(
                f"{who}: type must be 'creature' or 'location', got {data.get('type')!r}"
            ) from None
        cost = _int(data.get("cost"), who, "cost", minimum=0)
        raw_aspects = data.get("aspects", [])
        if not isinstance(raw_aspects, list) or not raw_aspects:
            raise CatalogError(f"{who}: aspects must be a non-empty list of aspect symbols")
        try:
            aspects = tuple(Aspect(str(a).lower()) for a in raw_aspects)
        except ValueError:
            raise CatalogError(
                f"{who}: unknown aspect in {raw_aspects!r} (valor, madness, fear, passion)"
            ) from None
        if kind is Kind.CREATURE:
            power = _int(data.get("power"), who, "power", minimum=0)
            defense = _int(data.get("defense"), who, "defense", minimum=1)
            life = _int(data.get("life"), who, "life", minimum=1)
        else:
            for stat in ("power", "defense", "life"):
                if data.get(stat) not in (None, 0):
                    raise CatalogError(f"{who}: a location has no {stat}")
            power = defense = life = 0
        raw_abilities = data.get("abilities", [])
        if not isinstance(raw_abilities, list):
            raise CatalogError(f"{who}: abilities must be a list of strings")
        abilities = []
        for text in raw_abilities:
            try:
                abilities.append(parse_ability(text))
            except AbilityError as exc:
                raise CatalogError(f"{who}: {exc}") from None
        lineage = data.get("lineage")
        if lineage is not None and not isinstance(lineage, str):
            raise CatalogError(f"{who}: lineage must be a string or null")
        extra = {k: data[k] for k in ("set", "number", "rarity", "note") if k in data}
        return cls(name.strip(), kind, cost, aspects, power, defense, life,
                   tuple(abilities), lineage or None, extra)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.kind.value, "cost": self.cost,
                               "aspects": [a.value for a in self.aspects]}
        if self.is_creature:
            out.update(power=self.power, defense=self.defense, life=self.life)
        out["abilities"] = [str(a) for a in self.abilities]
        if self.lineage:
            out["lineage"] = self.lineage
        out.update(self.extra)
        return out


def _int(value: object, who: str, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise CatalogError(f"{who}: {what} must be a whole number >= {minimum}, got {value!r}")
    return value


class Catalog:
    """Miniature definitions by name (names compare case-sensitively, as printed)."""

    def __init__(self, minis: Iterable[MiniatureDef] = ()) -> None:
        self._by_name: dict[str, MiniatureDef] = {}
        for m in minis:
            self.add(m)

    def add(self, mini: MiniatureDef) -> None:
        """Add or replace a definition (later data corrects earlier data)."""
        self._by_name[mini.name] = mini

    def __getitem__(self, name: str) -> MiniatureDef:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"unknown miniature {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[MiniatureDef]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def copy(self) -> Catalog:
        return Catalog(self)

    def extend_from_dicts(self, items: object) -> None:
        if not isinstance(items, list):
            raise CatalogError("miniatures must be a list of miniature objects")
        for item in items:
            self.add(MiniatureDef.from_dict(item))

    @classmethod
    def from_file(cls, path: str | Path) -> Catalog:
        """A catalog JSON file: ``{"miniatures": [...]}`` or a bare list."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CatalogError(f"cannot read catalog {path}: {exc}") from exc
        cat = cls()
        cat.extend_from_dicts(data.get("miniatures") if isinstance(data, dict) else data)
        return cat

    @classmethod
    def builtin(cls) -> Catalog:
        """Every miniature whose stats the rulebook shows (see data/catalog/)."""
        cat = cls()
        folder = resources.files("table.games.dreamblade").joinpath("data/catalog")
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".json"):
                data = json.loads(entry.read_text(encoding="utf-8"))
                cat.extend_from_dicts(data["miniatures"])
        return cat
