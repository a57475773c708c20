"""The dreamscape map as data: cells, adjacency, portals, spawn rows, scoring cells.

A map variant is a JSON file (see ``data/maps/standard.json``); nothing about the
standard map is hard-coded here, only the idea of a rectangular grid of cells named
like chess squares from p1's seat.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

PLAYERS: tuple[str, str] = ("p1", "p2")
# A player's creatures in one cell, at most (a portal excepted while spawning); shared by
# spawning, shifting, targeted moves and the validity check.
STACKING_LIMIT = 4
MAP_FORMAT = "tablesight-dreamblade-map/1"


def other(player: str) -> str:
    """The opponent of ``player``."""
    return "p2" if player == "p1" else "p1"


def player_index(player: str) -> int:
    return 0 if player == "p1" else 1


class MapError(ValueError):
    """A map file that cannot describe a dreamscape."""


@dataclass(frozen=True)
class Board:
    """Static map data. Cells are addressed by index (0..n-1) inside the engine and by
    name (``"c3"``) at every boundary."""

    name: str
    columns: tuple[str, ...]
    rows: int
    cell_names: tuple[str, ...]
    portals: tuple[int, int]  # by player index
    spawn_rows: tuple[frozenset[int], frozenset[int]]  # cell indices, by player index
    scoring: tuple[dict[int, int], dict[int, int]]  # cell index -> points, by player index
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal neighbours per cell, sorted

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Board:
        if data.get("format") != MAP_FORMAT:
            raise MapError(f"map format must be {MAP_FORMAT!r}, got {data.get('format')!r}")
        try:
            columns = tuple(str(c) for c in data["columns"])
            rows = int(data["rows"])
            name = str(data.get("name", "unnamed"))
        except (KeyError, TypeError, ValueError) as exc:
            raise MapError(f"map is missing columns/rows: {exc}") from exc
        if not columns or rows < 1:
            raise MapError("a map needs at least one column and one row")
        names = tuple(f"{c}{r}" for r in range(1, rows + 1) for c in columns)
        index = {n: i for i, n in enumerate(names)}

        def cell(n: object, what: str) -> int:
            if n not in index:
                raise MapError(f"{what}: unknown cell {n!r}")
            return index[str(n)]

        try:
            portals = (cell(data["portals"]["p1"], "p1 portal"),
                       cell(data["portals"]["p2"], "p2 portal"))
            spawn = tuple(
                frozenset(index[f"{c}{int(data['spawn_rows'][p])}"] for c in columns)
                for p in PLAYERS
            )
            scoring = tuple(
                {cell(k, f"{p} scoring"): int(v) for k, v in data["scoring"][p].items()}
                for p in PLAYERS
            )
        except (KeyError, TypeError) as exc:
            raise MapError(f"map is missing portals/spawn_rows/scoring: {exc}") from exc
        width = len(columns)
        neighbours = []
        for i in range(len(names)):
            col, row = i % width, i // width
            near = []
            for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                c, r = col + dc, row + dr
                if 0 <= c < width and 0 <= r < rows:
                    near.append(r * width + c)
            neighbours.append(tuple(sorted(near)))
        return cls(name, columns, rows, names, portals,  # type: ignore[arg-type]
                   spawn, scoring, tuple(neighbours))  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> Board:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise MapError(f"cannot read map file {path}: {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def standard(cls) -> Board:
        return _standard()

    # -- queries --------------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.cell_names)

    def index(self, name: str) -> int:
        """Cell index of ``name``; raises ``KeyError`` naming the cell if unknown."""
        try:
            return self._index[name]
        except KeyError:
            raise KeyError(f"unknown cell {name!r}") from None

    def has_cell(self, name: object) -> bool:
        return isinstance(name, str) and name in self._index

    @property
    def _index(self) -> dict[str, int]:
        cached = self.__dict__.get("_index_cache")
        if cached is None:
            cached = {n: i for i, n in enumerate(self.cell_names)}
            object.__setattr__(self, "_index_cache", cached)
        return cached

    def column(self, cell: int) -> int:
        return cell % len(self.columns)

    def row(self, cell: int) -> int:
        """Row number, 1-based from p1's edge."""
        return cell // len(self.columns) + 1

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def distance(self, a: int, b: int) -> int:
        """Orthogonal steps between two cells."""
        w = len(self.columns)
        return abs(a % w - b % w) + abs(a // w - b // w)

    def portal(self, player: str) -> int:
        return self.portals[player_index(player)]

    def spawn_row(self, player: str) -> frozenset[int]:
        return self.spawn_rows[player_index(player)]

    def scoring_cells(self, player: str) -> dict[int, int]:
        return self.scoring[player_index(player)]

    def max_conquest_points(self, player: str) -> int:
        """What claiming every scoring cell of ``player`` would be worth."""
        return sum(self.scoring_cells(player).values())


def _standard() -> Board:
    global _STANDARD
    if _STANDARD is None:
        text = resources.files("table.games.dreamblade").joinpath("data/maps/standard.json")
        _STANDARD = Board.from_dict(json.loads(text.read_text(encoding="utf-8")))
    return _STANDARD


_STANDARD: Board | None = None
