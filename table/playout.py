"""Random playouts through the game-system seam, for any installed game: the dice or
cards by ``Referee.chance``, every decision uniformly among ``legal_actions``. Used by
``tablesight bench rules --game`` and by property tests; ``play_session`` plays a live
session the same way (``tablesight bench hub``, the hub's tests)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

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


class _Plays(Protocol):
    """A live session, as far as playing it at random goes (``table.session.Session``)."""

    referee: Referee
    state: Any

    def play(self, action: Any, source: str, out: list[Any]) -> Any: ...


def play_session(session: _Plays, rng: random.Random, *, pace: float = 0.0,
                 stop: threading.Event | None = None) -> bool:
    """Play a live session at random to its end, each action through the session (so
    its log holds the game as a table's would): the dice by ``chance``, decisions
    uniformly among the legal actions, ``pace`` seconds apart. True when the game ended,
    False when ``stop`` was set first."""
    ref = session.referee
    while not ref.is_over(session.state):
        if stop is not None and stop.is_set():
            return False
        action = ref.chance(session.state, rng) or rng.choice(
            list(ref.legal_actions(session.state)))
        try:
            session.play(action, "dashboard", [])
        except ActionRefused:
            continue  # dice the rules refuse (a first-turn tie) are rolled again
        if pace and stop is not None:
            stop.wait(pace)
    return True
