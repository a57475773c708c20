"""The rules engine's front door: ``apply``, ``legal_actions``, ``is_legal``.

    new_state, events = apply(state, action)   # raises RulesError; ``state`` untouched

``apply`` never changes the state it is given: it works on a copy, so an action that
fails half-way (a compound ``Combat`` whose placement is wrong, a ``Shift`` whose third
move is illegal) leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable

from . import actions as A
from .combat import (
    apply_aim,
    apply_assign_blade,
    apply_assign_damage,
    apply_attack,
    apply_choose_outcome,
    apply_combat,
    apply_decline_deathblow,
    apply_place,
    apply_reroll,
    apply_roll,
    apply_wail,
    legal_attacks,
    legal_combat_steps,
)
from .errors import Code, IllegalActionError, InvalidActionError, RulesError
from .events import Event
from .game import Game
from .shifting import apply_move, apply_shift, legal_moves
from .spawn_abilities import apply_activate, legal_activations, legal_pending
from .spawning import apply_spawn, legal_spawns
from .state import Phase, State
from .turns import apply_end_phase, apply_initiative, legal_initiatives


def new_state(game: Game) -> State:
    """The state a game of ``game`` starts in: every miniature in reserves, turn 1's
    initiative."""
    return State.initial(game)


_HANDLERS: dict[type, Callable[[State, object, list[Event]], None]] = {
    A.Initiative: apply_initiative,  # type: ignore[dict-item]
    A.Spawn: apply_spawn,  # type: ignore[dict-item]
    A.Activate: apply_activate,  # type: ignore[dict-item]
    A.Move: apply_move,  # type: ignore[dict-item]
    A.Shift: apply_shift,  # type: ignore[dict-item]
    A.Attack: apply_attack,  # type: ignore[dict-item]
    A.Roll: apply_roll,  # type: ignore[dict-item]
    A.Reroll: apply_reroll,  # type: ignore[dict-item]
    A.Aim: apply_aim,  # type: ignore[dict-item]
    A.WailRoll: apply_wail,  # type: ignore[dict-item]
    A.AssignBlade: apply_assign_blade,  # type: ignore[dict-item]
    A.AssignDamage: apply_assign_damage,  # type: ignore[dict-item]
    A.ChooseOutcome: apply_choose_outcome,  # type: ignore[dict-item]
    A.DeclineDeathblow: apply_decline_deathblow,  # type: ignore[dict-item]
    A.Place: apply_place,  # type: ignore[dict-item]
    A.EndPhase: apply_end_phase,  # type: ignore[dict-item]
    A.Combat: apply_combat,  # type: ignore[dict-item]
}


def apply(state: State, action: A.Action) -> tuple[State, list[Event]]:
    """Play ``action``: the new state and what happened, or a ``RulesError``."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise InvalidActionError(Code.WRONG_STEP, f"not a Dreamblade action: {action!r}")
    player = getattr(action, "player", None)
    if player is not None and player not in ("p1", "p2"):
        raise InvalidActionError(Code.NOT_YOUR_PHASE, f"unknown player {player!r}")
    if state.pending and state.combat is None and not isinstance(action, A.Activate):
        g, name = state.pending[0]
        raise IllegalActionError(Code.TRIGGER_PENDING,
                                 f"first resolve {state.game.ref(g)}'s {name} "
                                 f"({state.game.minis[g].player} chooses)")
    new = state.copy()
    events: list[Event] = []
    handler(new, action, events)
    return new, events


def is_legal(state: State, action: A.Action) -> bool:
    try:
        apply(state, action)
    except RulesError:
        return False
    return True


def legal_actions(state: State) -> list[A.Action]:
    """Every legal step action, in a stable order.

    Compound actions (``Shift``, ``Combat``) are not listed: they are sequences of the
    listed steps. Damage is listed as (target, amount) for every amount, so the list is
    complete.
    """
    s = state
    if s.phase is Phase.GAME_OVER:
        return []
    if s.phase is Phase.INITIATIVE:
        return list(legal_initiatives(s))
    if s.combat is not None:
        return list(legal_combat_steps(s))
    if s.pending:
        return list(legal_pending(s))
    assert s.active is not None
    if s.phase is Phase.SPAWN:
        return [*legal_spawns(s), *legal_activations(s), A.EndPhase(s.active)]
    return [*legal_moves(s), *legal_attacks(s), A.EndPhase(s.active)]


def whose_decision(state: State) -> str | None:
    """The player who must act now (None at initiative and game over)."""
    if state.combat is not None:
        return state.combat.attack.player
    if state.pending:
        return state.game.minis[state.pending[0][0]].player
    return state.active


__all__ = ["IllegalActionError", "apply", "is_legal", "legal_actions", "whose_decision"]
