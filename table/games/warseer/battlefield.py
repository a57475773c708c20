"""The battlefield as data: its hexes, terrain and deployment zones, read from
``data/battlefield.json`` (the rules text gives no map; the default is documented in
``docs/rules/warseer.md``). Terrain kinds say what they do: ``difficult`` (entering
costs two points of movement, and a push into it one damage), ``blocks_sight``,
``cover`` (a defender standing there may remove one sword in the modification round)
and ``impassable``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any

from table.maps import hex_grid
from table.quoting import quote

from .bitboard import Bitboard
from .hexes import Hex, distance, neighbours, offset, parse_hex

PLAYERS = ("p1", "p2")


class BattlefieldError(ValueError):
    """A battlefield file that cannot be used; names the field."""


@dataclass(frozen=True)
class Terrain:
    name: str
    label: str
    difficult: bool = False
    blocks_sight: bool = False
    cover: bool = False
    impassable: bool = False
    fill: str = "#777777"


@dataclass(frozen=True)
class Battlefield:
    columns: int
    rows: int
    hex_mm: float
    terrain: Mapping[Hex, Terrain]
    deployment: Mapping[str, frozenset[Hex]]
    deck: Mapping[str, int] = field(default_factory=dict)  # the sample battle deck by name

    @property
    def hexes(self) -> tuple[Hex, ...]:
        return tuple(offset(c, r) for c in range(self.columns) for r in range(self.rows))

    def on_board(self, h: Hex) -> bool:
        return 0 <= h.col < self.columns and 0 <= h.row < self.rows

    # Computed once: movement and pushes ask these thousands of times a game.
    @cached_property
    def adjacent(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each hex's neighbours on the battlefield."""
        return {h: tuple(n for n in neighbours(h) if self.on_board(n)) for h in self.hexes}

    @cached_property
    def standable_hexes(self) -> frozenset[Hex]:
        return frozenset(h for h in self.hexes
                         if not ((t := self.terrain.get(h)) and t.impassable))

    @cached_property
    def difficult_hexes(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.terrain.items() if t.difficult)

    @cached_property
    def answers(self) -> dict[Any, Any]:
        """Answers the rules keep about this battlefield (where a creature can move,
        by what stands around it): they depend on its terrain, so they live with it."""
        return {}

    def disk(self, centre: Hex, radius: int) -> frozenset[Hex]:
        """The battlefield's hexes within ``radius`` of ``centre`` (kept: asked often)."""
        key = ("disk", centre, radius)
        found = self.answers.get(key)
        if found is None:
            found = self.answers[key] = frozenset(
                h for h in self.hexes if distance(h, centre) <= radius)
        return found  # type: ignore[no-any-return]

    @cached_property
    def by_place(self) -> dict[Hex, int]:
        """Each hex's rank in reading order (column, then row): how lists of hexes are
        sorted for people and for the rules' stable order."""
        return {h: i for i, h in enumerate(sorted(self.hexes, key=lambda h: (h.col, h.row)))}

    @cached_property
    def zones_in_order(self) -> dict[str, tuple[Hex, ...]]:
        """Each player's deployment zone, in reading order."""
        return {p: tuple(sorted(z, key=self.by_place.__getitem__))
                for p, z in self.deployment.items()}

    def standable(self, h: Hex) -> bool:
        return h in self.standable_hexes

    def difficult(self, h: Hex) -> bool:
        return h in self.difficult_hexes

    def blocks_sight(self, h: Hex) -> bool:
        t = self.terrain.get(h)
        return bool(t and t.blocks_sight)

    def cover(self, h: Hex) -> bool:
        t = self.terrain.get(h)
        return bool(t and t.cover)

    @cached_property
    def bits(self) -> Bitboard:
        """Its hexes as bits, for the searches made after every action."""
        return Bitboard(self.columns, self.rows, self.standable_hexes,
                        self.difficult_hexes, self._sight_blockers)

    def sight_blockers(self) -> frozenset[Hex]:
        return self._sight_blockers

    @cached_property
    def _sight_blockers(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.terrain.items() if t.blocks_sight)

    # Movement is searched over the hexes by number (their reading order, ``by_place``):
    # a list indexed by number is cheaper to search than a dict keyed by hex.
    @cached_property
    def places(self) -> tuple[Hex, ...]:
        """The hexes in reading order: ``places[by_place[h]] == h``."""
        return tuple(sorted(self.by_place, key=self.by_place.__getitem__))

    @cached_property
    def walk_steps(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """By hex number: the neighbours a walker can step into, with what the step
        costs (two into difficult terrain, else one)."""
        num = self.by_place
        return tuple(tuple((num[n], 2 if n in self.difficult_hexes else 1)
                           for n in self.adjacent[h] if n in self.standable_hexes)
                     for h in self.places)

    @cached_property
    def fly_steps(self) -> tuple[tuple[int, ...], ...]:
        """By hex number: its neighbours, each a step of one for a flyer."""
        num = self.by_place
        return tuple(tuple(num[n] for n in self.adjacent[h]) for h in self.places)

    def regions(self) -> list[dict[str, Any]]:
        """The hexes as printed regions (map mm, before the sheet's margins)."""
        return hex_grid(self.columns, self.rows, self.hex_mm)

    def hex_named(self, name: object) -> Hex:
        """A hex on this battlefield from its name; ``BattlefieldError`` otherwise."""
        try:
            h = parse_hex(name) if isinstance(name, str) else None
        except ValueError:
            h = None
        if h is None or not self.on_board(h):
            raise BattlefieldError(f"{quote(name)} is not a hex of the battlefield "
                                   f"(a1 to {self.last_hex()})")
        return h

    def last_hex(self) -> str:
        return str(offset(self.columns - 1, self.rows - 1))

    @classmethod
    def from_dict(cls, d: object) -> Battlefield:
        if not isinstance(d, dict):
            raise BattlefieldError("a battlefield is a JSON object")
        cols, rows, mm = d.get("columns"), d.get("rows"), d.get("hex_mm")
        if not isinstance(cols, int) or not isinstance(rows, int) \
                or not (3 <= cols <= 26 and 3 <= rows <= 26):
            raise BattlefieldError("columns and rows: 3 to 26")
        if not isinstance(mm, int | float) or not 25 <= mm <= 120:
            raise BattlefieldError("hex_mm: 25 to 120 mm across the flats")
        kinds: dict[str, Terrain] = {}
        raw = d.get("terrain_kinds", {})
        if not isinstance(raw, dict):
            raise BattlefieldError("terrain_kinds: an object of kinds")
        for name, k in raw.items():
            if not isinstance(k, dict):
                raise BattlefieldError(f"terrain_kinds.{name}: an object")
            kinds[name] = Terrain(name, str(k.get("label", name))[:20],
                                  bool(k.get("difficult")), bool(k.get("blocks_sight")),
                                  bool(k.get("cover")), bool(k.get("impassable")),
                                  str(k.get("fill", "#777777")))
        bf = cls(cols, rows, float(mm), {}, {})
        terrain: dict[Hex, Terrain] = {}
        for hname, kind in (d.get("terrain") or {}).items():
            if not isinstance(kind, str) or kind not in kinds:
                raise BattlefieldError(f"terrain.{hname}: unknown kind {quote(kind)}")
            terrain[bf.hex_named(hname)] = kinds[kind]
        dep = d.get("deployment")
        if not isinstance(dep, dict) or set(dep) != set(PLAYERS):
            raise BattlefieldError("deployment: rows per player, p1 and p2")
        zones: dict[str, frozenset[Hex]] = {}
        for p in PLAYERS:
            rws = dep[p]
            if not isinstance(rws, list) or not all(isinstance(r, int) and 1 <= r <= rows
                                                    for r in rws):
                raise BattlefieldError(f"deployment.{p}: row numbers 1 to {rows}")
            zones[p] = frozenset(offset(c, r - 1) for c in range(cols) for r in rws)
        deck = d.get("deck", {})
        if not isinstance(deck, dict):
            raise BattlefieldError("deck: card names to copies")
        return cls(cols, rows, float(mm), terrain, zones, dict(deck))

    @classmethod
    def standard(cls) -> Battlefield:
        return _standard()


_STANDARD: list[Battlefield] = []


def standard_document() -> dict[str, Any]:
    """The standard battlefield's file, as a fresh dict (a scenario changes its terrain)."""
    text = resources.files("table.games.warseer").joinpath("data", "battlefield.json") \
        .read_text(encoding="utf-8")
    return dict(json.loads(text))


def _standard() -> Battlefield:
    if not _STANDARD:
        _STANDARD.append(Battlefield.from_dict(standard_document()))
    return _STANDARD[0]
