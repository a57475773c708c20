"""Dreamblade: the rules engine (pure, no I/O).

    from table.games.dreamblade import Game, Board, Catalog, apply, legal_actions
    game = Game(Board.standard(), Catalog.builtin(), {"p1": [...], "p2": [...]})
    state = new_state(game)
    state, events = apply(state, Initiative(5, 3))
"""

from . import actions
from .actions import (
    Activate,
    Aim,
    AssignBlade,
    AssignDamage,
    Attack,
    ChooseOutcome,
    Combat,
    Deathblow,
    DeclineDeathblow,
    EndPhase,
    Initiative,
    Move,
    Place,
    Reroll,
    Roll,
    Shift,
    Spawn,
    WailRoll,
)
from .board import PLAYERS, Board, MapError, other
from .catalog import Aspect, Catalog, CatalogError, Kind, MiniatureDef
from .engine import apply, is_legal, legal_actions, new_state, whose_decision
from .errors import Code, IllegalActionError, InvalidActionError, RulesError, SetupError
from .events import Event
from .game import Game, check_warband
from .state import Phase, State, Step, Zone
from .validity import Status, is_valid, status

__all__ = [
    "PLAYERS",
    "Activate",
    "Aim",
    "Aspect",
    "AssignBlade",
    "AssignDamage",
    "Attack",
    "Board",
    "Catalog",
    "CatalogError",
    "ChooseOutcome",
    "Code",
    "Combat",
    "Deathblow",
    "DeclineDeathblow",
    "EndPhase",
    "Event",
    "Game",
    "IllegalActionError",
    "Initiative",
    "InvalidActionError",
    "Kind",
    "MapError",
    "MiniatureDef",
    "Move",
    "Phase",
    "Place",
    "Reroll",
    "Roll",
    "RulesError",
    "SetupError",
    "Shift",
    "Spawn",
    "State",
    "Status",
    "Step",
    "WailRoll",
    "Zone",
    "actions",
    "apply",
    "check_warband",
    "is_legal",
    "is_valid",
    "legal_actions",
    "new_state",
    "other",
    "status",
    "whose_decision",
]
