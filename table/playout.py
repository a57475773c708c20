"""Random playouts through the game-system seam, for any installed game: the dice or
cards by ``Referee.chance``, every decision uniformly among ``legal_actions``. Used by
``tablesight bench rules --game`` and by property tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from table.errors import ActionRefused
from table.system import Referee

Step = Callable[[Any, Any, Any], None]  # state before, action, state after


@dataclass
class Playout:
    final: Any
    actions: list[Any] = field(default_factory=list)
    rerolls: int = 0  # chance actions the rules refused (a tie rolled again)
    capped: bool = False  # stopped at ``max_actions`` before the game ended


def random_game(referee: Referee, rng: random.Random, state: Any = None,
                max_actions: int = 20_000, on_step: Step | None = None) -> Playout:
    """Play from ``state`` (default a new game) to the end or ``max_actions``."""
    state = referee.new_state() if state is None else state
    out = Playout(state)
    refused_in_a_row = 0
    while not referee.is_over(state) and len(out.actions) < max_actions:
        action = referee.chance(state, rng)
        from_dice = action is not None
        if action is None:
            legal = referee.legal_actions(state)
            if not legal:
                raise RuntimeError(f"no legal action and no chance in a game not over: "
                                   f"{referee.state_dict(state)}")
            action = rng.choice(list(legal))
        try:
            new, _ = referee.apply(state, action)
        except ActionRefused:
            # Dice the rules refuse (a first-turn tie) are rolled again; a refused legal
            # action is an engine bug and is raised.
            refused_in_a_row += 1
            if not from_dice or refused_in_a_row > 100:
                raise
            out.rerolls += 1
            continue
        refused_in_a_row = 0
        out.actions.append(action)
        if on_step is not None:
            on_step(state, action, new)
        state = new
    out.final = state
    out.capped = not referee.is_over(state)
    return out
