"""Track: the smallest complete game on the seam, laid out as every game is
(``docs/games.md``): the example to copy when adding a game.

The rules, in brief. Each player has pawns that start off the track, which is six spaces
``s0`` to ``s5``. On a turn the active player rolls one six-sided die, then either enters
a pawn on ``s0`` (only on a 6) or moves one of their pawns on the track that many spaces
(a pawn that would pass ``s5`` stops there). A pawn on ``s5`` is home. In place of a
move, a player may put a pawn home out to graze: anywhere in the meadow below the track,
wholly within four inches of the well, on no other grazing pawn (the example of free
placement: a point, measured, not a listed space; ``meadow.py``). A grazing pawn is still
home. The first player with every pawn home wins. A roll that allows nothing passes the
turn.

Track ships with tablesight but is not registered by default: the tests install it
through a ``tablesight.games`` entry point of their own, as a third-party game would be.

    from table.games.track import engine
    state = engine.new_state({"p1": 2, "p2": 2})
    state, events = engine.apply(state, RollDie("p1", 6))
"""

from .actions import Action, Advance, Graze, Pass, RollDie, parse
from .engine import apply, legal_actions, new_state
from .errors import RulesError
from .state import HOME, SPACES, State

__all__ = ["HOME", "SPACES", "Action", "Advance", "Graze", "Pass", "RollDie", "RulesError",
           "State", "apply", "legal_actions", "new_state", "parse"]
