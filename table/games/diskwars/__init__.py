"""Warhammer Diskwars: armies of cardboard disks that move by flipping end over end on a
three-foot battlefield, pin enemies by landing on them, fight where they pin, and shoot
across measured range bands; each round both players choose a command card in secret
(``docs/rules/diskwars.md``).

Nothing is on a grid: a disk stands at a point (map millimetres), distances are measured
edge to edge against the range ruler's bands, and which disk lies on which is kept as a
level. The engine checks an action rather than looking it up in a list: ``legal_actions``
lists every choice but only a sample of the points a disk may go to.

    from table.games.diskwars import engine
    state = engine.new_state(game)
    state, events = engine.apply(state, parse("p1 roll 4"))
"""

from .actions import Action, parse
from .engine import apply, legal_actions, new_state
from .errors import RulesError, SetupError
from .state import State

__all__ = ["Action", "RulesError", "SetupError", "State", "apply", "legal_actions",
           "new_state", "parse"]
