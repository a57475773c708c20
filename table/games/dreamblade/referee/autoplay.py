"""Scripted players for the demo and the end-to-end tests.

``plan`` looks at the table as a person would (the rules state and the prompt) and says
what the players do next, in physical terms: move a base on the map (the camera must
see it), roll the table box's dice, press a button, or type on the dashboard. The demo
turns these intents into rendered frames and box presses; the tests do the same and
then check that the session understood exactly what was intended.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from table.games.dreamblade import actions as A
from table.games.dreamblade.combat import legal_attacks
from table.games.dreamblade.engine import legal_actions
from table.games.dreamblade.playout import Policy, table_policy
from table.games.dreamblade.state import State
from table.system import Intent

from . import prompts

MAX_PER_CELL = 8  # what fits in a 110 mm cell with room between bases for the camera


def roomy_policy(state: State, legal: Sequence[A.Action], rng: random.Random) -> A.Action:
    """The table policy, but never a ninth base in one cell: real players keep bases
    apart (a portal has no stacking limit, the paper has)."""
    names = state.game.board.cell_names
    count: dict[str, int] = {}
    for c in state.cell:
        if c >= 0:
            count[names[c]] = count.get(names[c], 0) + 1
    roomy = [a for a in legal if not (isinstance(a, A.Spawn | A.Move | A.Place)
                                      and count.get(a.cell, 0) >= MAX_PER_CELL)]
    return table_policy(state, roomy or legal, rng)


def plan(state: State, init_dice: Mapping[str, int], rng: random.Random,
         policy: Policy = roomy_policy) -> Intent | None:
    """What happens next at the table, or None when the game is over."""
    if state.is_over():
        return None
    need = prompts.dice_needed(state, init_dice)
    legal = legal_actions(state)
    if need:
        d = need[0]
        decline = next((a for a in legal if isinstance(a, A.DeclineDeathblow)), None)
        if decline is not None and rng.random() < 0.15:
            return Intent("type", d.player, decline)  # some players let a deathblow go
        return Intent("roll", d.player, dice=d)
    action = policy(state, legal, rng)
    player = getattr(action, "player", None)
    if isinstance(action, A.Spawn | A.Move | A.Place):
        piece = action.target if isinstance(action, A.Place) else action.mini
        return Intent("board", player, action, moves=((piece, action.cell),))
    if isinstance(action, A.Attack):
        attacks = [a for a in legal_attacks(state) if a.player == player]
        most = max(len(a.attackers) for a in attacks)
        by_button = [a for a in attacks if len(a.attackers) == most]
        if len({a.cell for a in attacks}) == 1 and by_button and by_button[0] == action:
            return Intent("button", player, action, button="strike")
        return Intent("type", player, action)
    if action == prompts.proposal(state):
        return Intent("button", player, action, button="ready")
    return Intent("type", player, action)
