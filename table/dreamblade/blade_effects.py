"""What a blade ability does when a blade is assigned to it, for those whose whole
effect is a number: extra (or less) damage for this combat, or a stat change that lasts
to the end of the combat (see ``auras``). Abilities that move, attack or destroy need
choices and live in their own modules."""

from __future__ import annotations

from .abilities import Ability
from .state import State


def damage_bonus(s: State, g: int, ab: Ability, cell: int) -> int | None:
    """The damage ``g``'s blade ability ``ab`` adds to the combat in ``cell`` (None: it
    is not a damage ability)."""
    x = ab.number or 0
    mine = s.game.minis[g].pidx
    own = len(s.creatures_in(cell, mine))
    theirs = len(s.creatures_in(cell, 1 - mine))
    if ab.name == "Crit":
        return x
    if ab.name == "Fumble":
        return -x
    if ab.name == "Flanking":  # only while outnumbering the opponent here
        return x if own > theirs else 0
    if ab.name == "Heroics":  # only while outnumbered here
        return x if own < theirs else 0
    if ab.name == "Pack":  # one per ally in this cell or an adjacent one
        board = s.game.board
        return sum(1 for o in s.game.owned[mine] if o != g and s.cell[o] >= 0
                   and s.game.minis[o].d.is_creature
                   and (s.cell[o] == s.cell[g] or board.adjacent(s.cell[o], s.cell[g])))
    if ab.name == "Stalwart":  # one per enemy creature in this cell
        return theirs
    return None
