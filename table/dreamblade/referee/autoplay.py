"""Scripted players for the demo and the end-to-end tests.

``plan`` looks at the table as a person would (the rules state and the prompt) and says
what the players do next, in physical terms: move a base on the map (the camera must
see it), roll the table box's dice, press a button, or type on the dashboard. The demo
turns these intents into rendered frames and box presses; the tests do the same and
then check that the session understood exactly what was intended.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from table.dreamblade import actions as A
from table.dreamblade.combat import legal_attacks
from table.dreamblade.engine import legal_actions
from table.dreamblade.playout import Policy, table_policy
from table.dreamblade.state import State

from . import prompts


@dataclass(frozen=True)
class Intent:
    """``kind``: "board" (``action`` is a spawn, move or placement done by hand),
    "roll" (``player`` rolls ``n`` dice of ``dice_kind`` on the box), "button"
    (``player`` presses ``button``; ``action`` is what it should do) or "type" (the
    action is entered on the dashboard)."""

    kind: str
    player: str | None
    action: A.Action | None = None
    button: str | None = None
    dice_kind: str | None = None
    n: int = 0
    sides: int = 6

    def __str__(self) -> str:
        if self.kind == "roll":
            return f"{self.player} rolls {self.n} {self.dice_kind} on the box"
        if self.kind == "button":
            return f"{self.player} presses {self.button} ({self.action})"
        return f"{self.kind}: {self.action}"


def plan(state: State, init_dice: Mapping[str, int], rng: random.Random,
         policy: Policy = table_policy) -> Intent | None:
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
        return Intent("roll", d.player, dice_kind=d.kind, n=d.n,
                      sides=d.die.sides if d.die else 6)
    action = policy(state, legal, rng)
    player = getattr(action, "player", None)
    if isinstance(action, A.Spawn | A.Move | A.Place):
        return Intent("board", player, action)
    if isinstance(action, A.Attack):
        attacks = [a for a in legal_attacks(state) if a.player == player]
        most = max(len(a.attackers) for a in attacks)
        by_button = [a for a in attacks if len(a.attackers) == most]
        if len({a.cell for a in attacks}) == 1 and by_button and by_button[0] == action:
            return Intent("button", player, action, "strike")
        return Intent("type", player, action)
    if action == prompts.proposal(state):
        return Intent("button", player, action, "ready")
    return Intent("type", player, action)
