"""A Dreamblade game definition: the static part of one match (OpenSpiel's "game").

The map, the catalog and both warbands, with every miniature of the match numbered
once: a global id (``gid``) used inside the engine, and the reference ``p1#0`` used at
every boundary (index in that player's warband).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from table.quoting import did_you_mean, quote

from .board import PLAYERS, Board
from .catalog import Catalog, CatalogError, MiniatureDef
from .errors import Code, SetupError

MAX_WARBAND = 16
MAX_COPIES = 3
WINNING_TURNS = 6
REF_RE = re.compile(r"^(p[12])#(\d+)$")


@dataclass(frozen=True)
class Mini:
    """One physical miniature in this match."""

    gid: int
    player: str
    pidx: int  # 0 for p1, 1 for p2
    index: int  # position in the player's warband
    d: MiniatureDef

    @property
    def ref(self) -> str:
        return f"{self.player}#{self.index}"


def check_warband(names: Sequence[str], catalog: Catalog, who: str = "warband") -> None:
    """Warband building rules: known miniatures, at most 16, at most 3 copies of each."""
    for name in names:
        if name not in catalog:
            raise CatalogError(f"{who}: unknown miniature {quote(name)}"
                               + did_you_mean(name, (m.name for m in catalog)))
    if len(names) > MAX_WARBAND:
        raise SetupError(Code.WARBAND_TOO_LARGE,
                         f"{who} has {len(names)} miniatures; at most {MAX_WARBAND} allowed")
    for name, n in Counter(names).items():
        if n > MAX_COPIES:
            raise SetupError(Code.TOO_MANY_COPIES,
                             f"{who} has {n} copies of {name!r}; at most {MAX_COPIES} allowed")


class Game:
    """Static data of one match. Immutable after construction; shared by all its states."""

    def __init__(self, board: Board, catalog: Catalog,
                 warbands: Mapping[str, Sequence[str]]) -> None:
        self.board = board
        self.catalog = catalog
        minis: list[Mini] = []
        for pidx, player in enumerate(PLAYERS):
            names = list(warbands.get(player, ()))
            check_warband(names, catalog, f"{player}'s warband")
            for i, name in enumerate(names):
                minis.append(Mini(len(minis), player, pidx, i, catalog[name]))
        self.minis: tuple[Mini, ...] = tuple(minis)
        self.warbands = {p: tuple(warbands.get(p, ())) for p in PLAYERS}
        self.by_ref: dict[str, int] = {m.ref: m.gid for m in minis}
        # Flat per-gid lookups for the engine's hot paths.
        self.creature: tuple[bool, ...] = tuple(m.d.is_creature for m in minis)
        self.aspect_needs: tuple[tuple[tuple[str, int], ...], ...] = tuple(
            tuple(sorted(Counter(a.value for a in m.d.aspects).items())) for m in minis)
        self.aspect_sets: tuple[frozenset[str], ...] = tuple(
            frozenset(a.value for a in m.d.aspect_set) for m in minis)
        self.owned: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(m.gid for m in minis if m.pidx == 0),
            tuple(m.gid for m in minis if m.pidx == 1),
        )
        # Actions are values: the moves and spawns listed at every decision are made
        # once per game and handed out again (a fifth of a random game's time was
        # spent building the same Move objects).
        self.interned: dict[tuple, Any] = {}

    def gid(self, ref: str) -> int:
        """The miniature's gid; ``KeyError`` naming the reference if it is not in play."""
        try:
            return self.by_ref[ref]
        except (KeyError, TypeError):
            raise KeyError(f"no miniature {ref!r} in this game") from None

    def ref(self, gid: int) -> str:
        return self.minis[gid].ref
