"""Scripted players for a demo: roll on the box, then a random legal move made by hand
(a pawn put on its new space, or out to graze at a point of the meadow), or a pass
typed on the dashboard."""

from __future__ import annotations

import random

from table.system import Intent

from ..actions import Advance, Graze
from ..engine import legal_actions
from ..state import MEADOW, State
from .prompts import dice_needed


def next_intent(state: State, rng: random.Random) -> Intent | None:
    if state.winner:
        return None
    if state.roll is None:
        return Intent("roll", state.active, dice=dice_needed(state)[0])
    a = rng.choice(legal_actions(state))
    if isinstance(a, Advance):
        return Intent("board", a.player, a, moves=((a.pawn, a.to),))
    if isinstance(a, Graze):
        return Intent("board", a.player, a, moves=((a.pawn, MEADOW),),
                      points=((a.pawn, a.x, a.y),))
    return Intent("type", a.player, a)
