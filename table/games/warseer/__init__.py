"""Warseer (the hex-grid hero battle game): the rules engine (pure, no I/O) and the game
at a live table (``referee/``).

    from table.games.warseer import Game, engine
    state = engine.new_state(game)
    state, events = engine.apply(state, parse("p1 deploy p1#0 c1"))
"""

from .actions import Action, parse
from .engine import apply, legal_actions, new_state
from .errors import RulesError, SetupError
from .game import Game
from .state import State

__all__ = ["Action", "Game", "RulesError", "SetupError", "State", "apply", "legal_actions",
           "new_state", "parse"]
