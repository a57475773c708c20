"""What a blade ability does when a blade is assigned to it, for those whose whole
effect is a number: extra (or less) damage for this combat, or a stat change that lasts
to the end of the combat (see ``auras``). Abilities that move, attack or destroy need
choices and live in their own modules."""

from __future__ import annotations

from .abilities import Ability, Activation, BladeCost
from .auras import condition_met, is_of_type
from .state import State, Zone

HELLS_FURY_GRANT = Ability("Crit", Activation(blade=BladeCost.BLADE), 2)


def blade_abilities(s: State, g: int) -> list[tuple[str, Ability]]:
    """(key, ability) for every blade ability ``g`` has now. The key names it in an
    ``AssignBlade``: its own abilities by name ("Crit"), granted and copied ones by name
    and source ("Crit from p1#3"), so two Crits on one creature stay apart.

    * Hell's Fury grants "Blade: Crit 2" to the Hellbred allies in its holder's cell or
      an adjacent one.
    * Copy gives its holder the printed blade abilities of every other creature in its
      cell (either side's); copied abilities are not copied again, and the creature
      copied from keeps its own.
    """
    game = s.game
    m = game.minis[g]
    out = [(ab.name, ab) for ab in m.d.abilities if ab.activation.blade is not None]
    if s.zone[g] is not Zone.DREAMSCAPE:
        return out
    board = game.board
    for h in range(len(s.zone)):
        if h == g or s.zone[h] is not Zone.DREAMSCAPE:
            continue
        mh = game.minis[h]
        fury = mh.d.ability("Hell's Fury")
        if fury is not None and fury.activation.blade is None and condition_met(s, h, fury) \
                and mh.pidx == m.pidx and m.d.is_creature and is_of_type(s, g, "hellbred") \
                and (s.cell[h] == s.cell[g] or board.adjacent(s.cell[h], s.cell[g])):
            out.append((f"Crit from {game.ref(h)}", HELLS_FURY_GRANT))
    copy = m.d.ability("Copy")
    if copy is not None and copy.activation.blade is None and condition_met(s, g, copy):
        for o in s.in_cell(s.cell[g]):
            if o != g and game.minis[o].d.is_creature:
                out += [(f"{ab.name} from {game.ref(o)}", ab)
                        for ab in game.minis[o].d.abilities if ab.activation.blade is not None]
    return out


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
