"""Dreamblade as a game system the table can referee (registered as ``dreamblade``
through the ``tablesight.games`` entry point)."""

from __future__ import annotations

from typing import Any, ClassVar

from table.system import GameSystem

from .board import Board
from .catalog import Catalog
from .game import Game
from .layout import standard_layout
from .referee import DreambladeReferee
from .scenario import run
from .warband import load_warband, sample_warband


class Dreamblade(GameSystem):
    name: ClassVar[str] = "dreamblade"
    title: ClassVar[str] = "Dreamblade"
    # The 2006 rulebook and quick rules as ``docs/rules/dreamblade.md`` reads them, and
    # this engine's revision of that reading.
    rules_version: ClassVar[str] = "dreamblade-2006/engine-2"
    piece_word: ClassVar[str] = "miniature"
    force_word: ClassVar[str] = "warband"

    def game(self, setup: Any, catalog: Catalog | None = None) -> Game:
        """The static game for a setup; ``SetupError``/``CatalogError`` naming the
        problem (a miniature not in the catalog, a warband over the limits)."""
        return Game(Board.standard(), catalog or Catalog.builtin(),
                    {p: list(w) for p, w in setup.warbands.items()})

    def referee(self, setup: Any, catalog: Any | None = None) -> DreambladeReferee:
        return DreambladeReferee(self.game(setup, catalog), setup.names, setup.sticker_map())

    def layout(self) -> dict[str, Any]:
        return standard_layout()

    def catalog(self) -> list[dict[str, Any]]:
        return [{"name": m.name, "cost": m.cost, "kind": m.kind.value}
                for m in sorted(Catalog.builtin(), key=lambda m: (m.cost, m.name))]

    def run_scenario(self, data: dict[str, Any], catalog: Any | None = None) -> dict[str, Any]:
        return run(data, catalog if isinstance(catalog, Catalog) else None)

    def force_from_file(self, data: object) -> list[str]:
        return list(load_warband(data, Catalog.builtin()).names)

    def sample_forces(self) -> dict[str, list[str]]:
        names = list(sample_warband().names)  # the rulebook's sample warband, each side
        return {"p1": names, "p2": list(names)}


SYSTEM = Dreamblade()
