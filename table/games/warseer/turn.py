"""The guard every main-phase action passes: the main phase of its player's turn, no
attack under way. Shared by the engine, movement and cards modules."""

from __future__ import annotations

from .actions import Action
from .errors import RulesError
from .state import MAIN, OPENING, OVER, State


def main_phase(s: State, a: Action) -> None:
    if s.phase != MAIN:
        why = {OVER: "the game is over", OPENING: "the opening comes first"}.get(
            s.phase, "the heroes deploy first")
        raise RulesError("not_now", f"{a}: {why}")
    if a.player != s.active:
        raise RulesError("not_your_turn", f"{a}: it is {s.active}'s turn")
    if s.attack is not None:
        raise RulesError("attack_under_way", f"{a}: finish the attack first "
                         f"({s.attack.step}, {s.attack.to_act} to act)")
