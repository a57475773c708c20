"""The static game: the catalog, both armies, the terrain on the battlefield and the
deployment zones, checked when made. A state holds it (``state.game``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .army import Army
from .catalog import Catalog, TerrainKind
from .errors import SetupError
from .geometry import Disc, edge_gap, within_square


@dataclass(frozen=True)
class Terrain:
    kind: TerrainKind
    x: float
    y: float

    @property
    def circle(self) -> Disc:
        return Disc(self.x, self.y, self.kind.diameter)

    @property
    def name(self) -> str:
        return self.kind.name


@dataclass(frozen=True)
class Zone:
    """A deployment zone: a strip along a player's edge, as deep as medium range."""

    player: str
    y0: float
    y1: float

    def holds(self, c: Disc, corner: tuple[float, float], side: float) -> bool:
        """``c`` lies completely within the zone (and the battlefield)."""
        return within_square(c, corner, side) and self.y0 - 1e-6 <= c.y - c.radius \
            and c.y + c.radius <= self.y1 + 1e-6


@dataclass(frozen=True)
class Game:
    catalog: Catalog
    armies: Mapping[str, Army]
    terrain: tuple[Terrain, ...]
    zones: Mapping[str, Zone]
    corner: tuple[float, float] = (0.0, 0.0)  # the battlefield's first corner, map mm

    @property
    def side(self) -> float:
        return self.catalog.battlefield

    def holds(self, c: Disc) -> bool:
        """``c`` lies completely within the battlefield."""
        return within_square(c, self.corner, self.side)


def make(catalog: Catalog, armies: Mapping[str, Army],
         placed: Sequence[tuple[str, float, float]] | None = None,
         corner: tuple[float, float] = (0.0, 0.0)) -> Game:
    """The game with terrain ``placed`` (name, centre from the battlefield's corner;
    default the catalog's standard battlefield) on a battlefield whose first corner is
    at ``corner`` on the map; ``SetupError`` for terrain the rules do not allow where it
    stands: each piece completely within the battlefield and not within short range of
    another piece or of an edge."""
    side = catalog.battlefield
    x0, y0 = corner
    short = catalog.band_length("short")
    pieces: list[Terrain] = []
    for i, (name, x, y) in enumerate(catalog.standard_terrain if placed is None else placed):
        kind = catalog.terrain.get(name)
        if kind is None:
            raise SetupError(f"terrain[{i}]: no terrain named {name!r} in the catalog")
        t = Terrain(kind, x0 + x, y0 + y)
        c = t.circle
        edge = min(x - c.radius, y - c.radius, side - x - c.radius, side - y - c.radius)
        if edge <= short:
            raise SetupError(f"terrain[{i}] ({name}): within short range of an edge of "
                             "the battlefield")
        for other in pieces:
            if edge_gap(c, other.circle) <= short:
                raise SetupError(f"terrain[{i}] ({name}): within short range of the "
                                 f"{other.name}")
        pieces.append(t)
    deep = catalog.band_length("medium")
    zones = {"p1": Zone("p1", y0, y0 + deep), "p2": Zone("p2", y0 + side - deep, y0 + side)}
    return Game(catalog, dict(armies), tuple(pieces), zones, corner)
