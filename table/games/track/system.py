"""Track as a game system the table can referee (``track`` through a
``tablesight.games`` entry point: the tests register it)."""

from __future__ import annotations

from typing import Any, ClassVar

from table.system import GameSystem

from .errors import SetupError
from .layout import LAYOUT
from .referee import TrackReferee
from .state import PLAYERS

MAX_PAWNS = 4


class Track(GameSystem):
    name: ClassVar[str] = "track"
    title: ClassVar[str] = "Track (a test game)"
    rules_version: ClassVar[str] = "track/2"  # 2: the meadow

    def referee(self, setup: Any, catalog: Any | None = None) -> TrackReferee:
        for p in PLAYERS:
            if any(n != "Pawn" for n in setup.forces[p]) \
                    or len(setup.forces[p]) > MAX_PAWNS:
                raise SetupError(f"forces.{p}: one to four 'Pawn'")
        return TrackReferee({p: len(setup.forces[p]) for p in PLAYERS}, setup.names,
                            setup.sticker_map())

    def sample_forces(self) -> dict[str, list[str]]:
        return {"p1": ["Pawn", "Pawn"], "p2": ["Pawn", "Pawn"]}

    def catalog(self) -> list[dict[str, Any]]:
        return [{"name": "Pawn", "cost": 0, "kind": "pawn"}]

    def layout(self) -> dict[str, Any]:
        return LAYOUT


SYSTEM = Track()
