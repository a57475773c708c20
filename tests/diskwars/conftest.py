"""Diskwars tests build positions directly: a game of two small armies, disks put down
where a test says, a command card being resolved."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from table.games.diskwars import army, catalog, engine
from table.games.diskwars.game import Game, make
from table.games.diskwars.stack import land
from table.games.diskwars.state import RESOLVE, State

ORDER = ["Tyrion", "High Elf Spearmen", "High Elf Spearmen", "High Elf Archers",
         "Silver Helms"]
CHAOS = ["Kairos Fateweaver", "Plaguebearers", "Plaguebearers", "Hellcannon"]


def game(p1: Sequence[str] = ORDER, p2: Sequence[str] = CHAOS,
         terrain: Sequence[tuple[str, float, float]] = ()) -> Game:
    cat = catalog.builtin()
    return make(cat, {"p1": army.check(cat, p1), "p2": army.check(cat, p2)}, terrain)


def position(g: Game, where: dict[str, tuple[float, float]], player: str = "p1",
             card: str = "Forward", round_: int = 1) -> State:
    """``where``: disk ref -> centre, put down in that order (later ones on top); the
    state resolves ``card`` for ``player``."""
    s = engine.new_state(g)
    for ref, (x, y) in where.items():
        land(s, s.disks[ref], x, y)
    s.phase, s.round, s.active, s.first = RESOLVE, round_, player, "p1"
    s.order = (player,)
    s.revealed = {player: card}
    if card in s.sides[player].hand:
        s.sides[player].hand.remove(card)
    c = g.catalog.commands[card]
    s.activations, s.empower = c.activations, c.empower
    return s


@pytest.fixture
def plain() -> Game:
    return game()
