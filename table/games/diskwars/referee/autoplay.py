"""Scripted players for a demo: dice on the box, a disk put down or flipped by hand
where a random legal choice says, anything else chosen on the dashboard (a command card
on the player's own page)."""

from __future__ import annotations

import random

from table.system import Intent

from ..actions import Deploy, Move, Reinforce
from ..engine import legal_actions
from ..layout import BATTLEFIELD
from ..state import OVER, State
from .prompts import dice_needed


def next_intent(state: State, rng: random.Random) -> Intent | None:
    if state.phase == OVER:
        return None
    needs = dice_needed(state)
    if needs:
        return Intent("roll", needs[0].player, dice=needs[0])
    a = rng.choice(legal_actions(state))
    if isinstance(a, Deploy | Move | Reinforce):
        return Intent("board", a.player, a, moves=((a.disk, BATTLEFIELD),),
                      points=((a.disk, a.x, a.y),))
    return Intent("type", a.player, a)
