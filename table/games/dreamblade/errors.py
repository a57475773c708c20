"""Errors raised by the Dreamblade rules engine.

Every error is a ``ValueError`` carrying a stable machine ``code`` (the strings of the
scenario contract) and a human ``message`` that names the offending input.
"""

from __future__ import annotations

from enum import StrEnum

from table import errors
from table.errors import SetupRefused


class Code(StrEnum):
    """Stable error codes. The first block is the scenario contract's list."""

    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_PHASE = "not_your_phase"
    UNKNOWN_MINI = "unknown_mini"
    NOT_IN_RESERVES = "not_in_reserves"
    NOT_YOUR_MINI = "not_your_mini"
    INSUFFICIENT_SPAWN_POINTS = "insufficient_spawn_points"
    ILLEGAL_SPAWN_CELL = "illegal_spawn_cell"
    SPAWN_CELL_LIMIT = "spawn_cell_limit"
    LOCATION_LIMIT = "location_limit"
    STACKING_LIMIT = "stacking_limit"
    NOT_ADJACENT = "not_adjacent"
    ENGAGED_CANNOT_MOVE = "engaged_cannot_move"
    MOVED_TWICE = "moved_twice"
    NOT_IN_DREAMSCAPE = "not_in_dreamscape"
    NOT_ENGAGED = "not_engaged"
    CELL_ALREADY_FOUGHT = "cell_already_fought"
    ALREADY_STRUCK = "already_struck"
    WRONG_DICE_COUNT = "wrong_dice_count"
    BAD_DIE_FACE = "bad_die_face"
    INVALID_TARGET = "invalid_target"
    DAMAGE_MISMATCH = "damage_mismatch"
    PLACEMENT_REQUIRED = "placement_required"
    INVALID_PLACEMENT = "invalid_placement"
    NO_DEATHBLOW = "no_deathblow"
    WARBAND_TOO_LARGE = "warband_too_large"
    TOO_MANY_COPIES = "too_many_copies"
    DEFENDER_CANNOT_ENTER = "defender_cannot_enter"
    UNIQUE_CONTROLLED = "unique_controlled"
    REROLL_REQUIRED = "reroll_required"
    GAME_OVER = "game_over"
    # Codes this project adds for cases the contract's list does not name.
    UNKNOWN_CELL = "unknown_cell"
    ALREADY_SHIFTED = "already_shifted"
    CANNOT_MOVE = "cannot_move"
    NOT_IN_CELL = "not_in_cell"
    COMBAT_IN_PROGRESS = "combat_in_progress"
    NO_COMBAT = "no_combat"
    WRONG_STEP = "wrong_step"
    INVALID_BLADE = "invalid_blade"
    BLADES_UNASSIGNED = "blades_unassigned"
    INVALID_OUTCOME = "invalid_outcome"
    OUTCOME_REQUIRED = "outcome_required"
    INVALID_SETUP = "invalid_setup"
    VENGEANCE = "vengeance"
    NO_ATTACKERS = "no_attackers"
    NOT_A_CREATURE = "not_a_creature"
    DUPLICATE_MINI = "duplicate_mini"
    LONER = "loner"
    INVALID_ABILITY = "invalid_ability"
    TRIGGER_PENDING = "trigger_pending"


class RulesError(errors.RulesError):
    """An action or setup the Dreamblade rules do not allow; ``code`` is one of
    ``Code``. State is never changed."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(Code(code), message)


class IllegalActionError(RulesError):
    """The action is well formed but the rules forbid it in this state."""


class InvalidActionError(RulesError):
    """The action is malformed: unknown miniature or cell, impossible die face..."""


class SetupError(RulesError, SetupRefused):
    """A warband or starting position that breaks the warband or board rules."""
