"""A creature's current power, defense and life: printed value, then every modifier,
then the minimums (power >= 0, defense >= 1, life >= 1).

Minimums apply to the sum of all modifiers, never step by step, so adding a modifier
always means recomputing from the printed value; that is why stats are computed on
demand and never stored.
"""

from __future__ import annotations

from . import auras
from .state import State


def _modifiers(s: State, g: int) -> tuple[int, int, int]:
    """Sum of (power, defense, life) modifiers acting on ``g`` now (see ``auras``)."""
    return auras.modifiers(s, g)


def power(s: State, g: int) -> int:
    return max(0, s.game.minis[g].d.power + _modifiers(s, g)[0])


def defense(s: State, g: int) -> int:
    return max(1, s.game.minis[g].d.defense + _modifiers(s, g)[1])


def life(s: State, g: int) -> int:
    return max(1, s.game.minis[g].d.life + _modifiers(s, g)[2])
