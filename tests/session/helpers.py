"""Test support: the boards a perfect (or a half-blind) camera would report."""

from __future__ import annotations

import random

from table.games.dreamblade import Board, Catalog, Game
from table.games.dreamblade.state import State, Zone
from table.games.dreamblade.system import SYSTEM
from table.games.dreamblade.warband import sample_warband
from table.observation import Observation, ObservedBase
from table.session import Setup
from table.stickers import Stickers


def sample_setup() -> Setup:
    wb = sample_warband(Catalog.builtin())
    return Setup({"p1": wb.names, "p2": wb.names}, {"p1": "Ann", "p2": "Bob"})


def sample_game() -> Game:
    return SYSTEM.game(sample_setup())


def seen(state: State, stickers: Stickers | None = None, *, unread: float = 0.0,
         no_owner: float = 0.0, rng: random.Random | None = None, frame: int = 0,
         extra: dict[str, list[ObservedBase]] | None = None,
         hide: set[str] = frozenset(), linger: dict[str, str] | None = None) -> Observation:
    """The observation of ``state``'s dreamscape; ``unread``/``no_owner``: the share of
    bases whose sticker / colour the camera could not read; ``linger``: ref -> cell of
    miniatures still standing on the map though the rules took them off."""
    stickers = stickers or Stickers.default(state.game.warbands)
    id_of = {v: k for k, v in stickers.ref_of.items()}
    rng = rng or random.Random(0)
    names = state.game.board.cell_names
    regions: dict[str, list[ObservedBase]] = {}
    placed = [(m.ref, m.player, names[state.cell[m.gid]]) for m in state.game.minis
              if state.zone[m.gid] is Zone.DREAMSCAPE and m.ref not in hide]
    placed += [(ref, ref[:2], cell) for ref, cell in (linger or {}).items()]
    for i, (ref, player, cell) in enumerate(placed):
        read = rng.random() >= unread
        owner = player if rng.random() >= no_owner else None
        b = ObservedBase(owner, id_of[ref] if read else None, "read" if read else "unreadable",
                         0.9, float(i), 0.0)
        regions.setdefault(cell, []).append(b)
    for cell, bases in (extra or {}).items():
        regions.setdefault(cell, []).extend(bases)
    return Observation(float(frame), frame, {k: tuple(v) for k, v in regions.items()})


def base(owner: str | None, sticker: int | None = None) -> ObservedBase:
    return ObservedBase(owner, sticker, "read" if sticker is not None else "unreadable",
                        0.9, 0.0, 0.0)


__all__ = ["Board", "base", "sample_game", "sample_setup", "seen"]
