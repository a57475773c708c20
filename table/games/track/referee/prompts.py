"""What the table is asked next: roll the die, or move a pawn by it."""

from __future__ import annotations

from table.system import DiceNeed, Prompt, choice

from ..actions import Advance
from ..dice import D6
from ..engine import legal_actions
from ..state import State
from .wording import Words


def dice_needed(state: State) -> tuple[DiceNeed, ...]:
    """One six-sided die before each move, typed in with the game's ``die`` command."""
    if state.winner or state.roll is not None:
        return ()
    return (DiceNeed(state.active, "d6", 1, D6, "die"),)


def prompt_for(words: Words, state: State) -> Prompt:
    who = words.player(state.active)
    if state.winner:
        return Prompt("over", None, f"{words.player(state.winner)} wins")
    if state.roll is None:
        return Prompt("roll", state.active, f"{who}: roll the die", dice=dice_needed(state))
    opts = legal_actions(state)
    return Prompt("move", state.active, f"{who}: move a pawn {state.roll}",
                  options=tuple(str(a) for a in opts),
                  choices=tuple(choice(a, words.action(a),
                                       [a.to] if isinstance(a, Advance) else [],
                                       [a.pawn] if isinstance(a, Advance) else [])
                                for a in opts))
