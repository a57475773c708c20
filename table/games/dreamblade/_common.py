"""Small helpers shared by the rule modules: resolving names, phase guards."""

from __future__ import annotations

from dataclasses import replace

from .abilities import Ability
from .errors import Code, IllegalActionError, InvalidActionError
from .state import Phase, State

_NO_PHASE_ACTIONS = {Phase.GAME_OVER: "the game is over"}


def gid(s: State, ref: object) -> int:
    """The gid of a miniature reference; ``unknown_mini`` if it is not in this game."""
    try:
        return s.game.by_ref[ref]  # type: ignore[index]
    except (KeyError, TypeError):
        raise InvalidActionError(Code.UNKNOWN_MINI, f"no miniature {ref!r} in this game") \
            from None


def cell(s: State, name: object) -> int:
    """The index of a cell name; ``unknown_cell`` if the map has no such cell."""
    try:
        return s.game.board.index(name)  # type: ignore[arg-type]
    except (KeyError, TypeError):
        raise InvalidActionError(Code.UNKNOWN_CELL, f"no cell {name!r} on this map") from None


def require_phase(s: State, phase: Phase, player: str | None, what: str) -> None:
    """Guard: the game is in ``phase`` and (if given) it is ``player``'s phase."""
    if s.phase is Phase.GAME_OVER:
        raise IllegalActionError(Code.GAME_OVER, f"cannot {what}: the game is over")
    if s.phase is not phase:
        raise IllegalActionError(Code.WRONG_PHASE,
                                 f"cannot {what} during the {s.phase.value} phase")
    if player is not None and s.active != player:
        raise IllegalActionError(Code.NOT_YOUR_PHASE,
                                 f"cannot {what}: it is {s.active}'s {s.phase.value} phase, "
                                 f"not {player}'s")


def require_own(s: State, g: int, player: str) -> None:
    m = s.game.minis[g]
    if m.player != player:
        raise IllegalActionError(Code.NOT_YOUR_MINI, f"{m.ref} belongs to {m.player}, not {player}")


def name_of(s: State, c: int) -> str:
    return s.game.board.cell_names[c]


# X is chosen on activation (rulebook glossary "X"); the legal actions list these values.
LISTED_X = range(0, 10)
MAX_X = 99


def chosen_x(ab: Ability, x: int | None, who: str) -> Ability:
    """The ability as activated: "Crit X" with X chosen becomes "Crit 3"; an X that is
    missing, or given to an ability without one, is refused."""
    if not ab.variable:
        if x is not None:
            raise IllegalActionError(Code.INVALID_ABILITY, f"{who}'s {ab} has no X to choose")
        return ab
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= MAX_X:
        raise IllegalActionError(Code.INVALID_ABILITY,
                                 f"{who}'s {ab}: choose X, a whole number from 0 to {MAX_X}")
    return replace(ab, number=x, variable=False)
