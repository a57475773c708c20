"""Blade abilities that pick a target (and for moves, a destination) when the blade is
assigned: ``AssignBlade(player, mini, ability, target, to)``.

Each ability is one small rule: which miniatures it may target, where a moved target
may go, and what happens. "May" abilities (the moves, Bomb) may be activated with no
target: the blade is spent, nothing happens -- a legal place to put an unwanted blade.
The others must take a target when one exists; with none, they do nothing (do as much
as you can).

Targets are chosen when the blade is assigned, before any damage is dealt, as the rules
want targets chosen before rolling for special attacks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import stats
from .auras import is_of_type
from .board import STACKING_LIMIT, player_index
from .errors import Code, IllegalActionError
from .events import Event
from .fates import destroy, sacrifice
from .state import State, Zone
from .triggers import entered

# (state, holder, candidate) -> may the ability target it?
Targets = Callable[[State, int, int], bool]
# (state, holder, target, destination cell) -> may it go there?
Moves = Callable[[State, int, int, int], bool]


@dataclass(frozen=True)
class Rule:
    targets: Targets
    moves: Moves | None = None  # abilities that move their target
    optional: bool = False  # a "may" ability: no target is a legal choice


def _creature(s: State, g: int) -> bool:
    return s.zone[g] is Zone.DREAMSCAPE and s.game.minis[g].d.is_creature


def _enemy(s: State, h: int, g: int) -> bool:
    return _creature(s, g) and s.game.minis[g].pidx != s.game.minis[h].pidx


def _ally(s: State, h: int, g: int) -> bool:
    return g != h and _creature(s, g) and s.game.minis[g].pidx == s.game.minis[h].pidx


def _local(s: State, h: int, g: int) -> bool:
    return s.cell[g] == s.cell[h]


def _room(s: State, g: int, dest: int) -> bool:
    """The stacking limit for ``g``'s player in ``dest`` (abilities never break it)."""
    return len(s.creatures_in(dest, s.game.minis[g].pidx)) < STACKING_LIMIT


def _step(s: State, g: int, dest: int) -> bool:
    return s.game.board.adjacent(s.cell[g], dest) and _room(s, g, dest)


def _closer(s: State, h: int, g: int, dest: int) -> bool:
    d = s.game.board.distance
    return _step(s, g, dest) and d(dest, s.cell[h]) == d(s.cell[g], s.cell[h]) - 1


def _farther(s: State, h: int, g: int, dest: int) -> bool:
    d = s.game.board.distance
    return _step(s, g, dest) and d(dest, s.cell[h]) == d(s.cell[g], s.cell[h]) + 1


def _anywhere_but_portals(s: State, h: int, g: int, dest: int) -> bool:
    board = s.game.board
    return dest not in (board.portal("p1"), board.portal("p2")) and dest != s.cell[g] \
        and _room(s, g, dest)


RULES: dict[str, Rule] = {
    # Damage and destruction.
    "Payback": Rule(lambda s, h, g: _enemy(s, h, g) and _local(s, h, g)),
    "Ferocity": Rule(lambda s, h, g: _enemy(s, h, g) and _local(s, h, g)),
    "Demolish": Rule(lambda s, h, g: s.zone[g] is Zone.DREAMSCAPE
                     and not s.game.minis[g].d.is_creature
                     and (s.cell[g] == s.cell[h] or s.game.board.adjacent(s.cell[g], s.cell[h]))),
    # Moving creatures about.
    "Lure": Rule(lambda s, h, g: _enemy(s, h, g) and not s.is_engaged(g)
                 and not _local(s, h, g), lambda s, h, g, c: _closer(s, h, g, c), True),
    "Scare": Rule(lambda s, h, g: _enemy(s, h, g) and not s.is_engaged(g),
                  lambda s, h, g, c: _farther(s, h, g, c), True),
    "Expel": Rule(lambda s, h, g: _enemy(s, h, g) and s.is_engaged(g),
                  lambda s, h, g, c: _step(s, g, c), True),
    "Advance": Rule(lambda s, h, g: _ally(s, h, g) and not s.is_engaged(g),
                    lambda s, h, g, c: _step(s, g, c), True),
    "Skirmish": Rule(lambda s, h, g: _ally(s, h, g) and s.is_engaged(g),
                     lambda s, h, g, c: _step(s, g, c), True),
    "Teleport": Rule(lambda s, h, g: _creature(s, g), _anywhere_but_portals, True),
    "Swap": Rule(lambda s, h, g: _ally(s, h, g) and not _local(s, h, g), optional=True),
    # Pearlthorn Castle's spawn ability: an ally next door comes into its cell.
    "Call Adjacent Ally": Rule(
        lambda s, h, g: _ally(s, h, g) and s.game.board.adjacent(s.cell[g], s.cell[h]),
        lambda s, h, g, c: c == s.cell[h] and _room(s, g, c)),
    # Special attacks: made once the current attack is settled (``triggers``).
    "Assault": Rule(lambda s, h, g: _enemy(s, h, g) and _local(s, h, g)),
    "Warpstrike": Rule(lambda s, h, g: _enemy(s, h, g) and not _local(s, h, g)),
    # Other zones.
    "Purge": Rule(lambda s, h, g: s.zone[g] is Zone.RESERVES
                  and s.game.minis[g].pidx != s.game.minis[h].pidx),
    "Raise": Rule(lambda s, h, g: s.zone[g] is Zone.GRAVEYARD and s.game.minis[g].d.is_creature
                  and s.game.minis[g].pidx == s.game.minis[h].pidx),
    "Reincarnate": Rule(lambda s, h, g: g != h and s.zone[g] is Zone.GRAVEYARD
                        and s.game.minis[g].d.is_creature
                        and s.game.minis[g].pidx == s.game.minis[h].pidx),
    "Appease": Rule(lambda s, h, g: _creature(s, g)
                    and s.game.minis[g].pidx == s.game.minis[h].pidx),
}
# Abilities with no target that still count as a choice (may: do it or not).
UNTARGETED_MAY = {"Bomb"}
# Abilities with no target and no choice: activating them is doing them.
UNTARGETED = {"Wail"}
# What only means something inside a combat (damage, disruption).
COMBAT_ONLY = frozenset({"Payback", "Ferocity", "Bomb", "Assault", "Warpstrike", "Wail"})


def handles(name: str) -> bool:
    """Is ``name`` one of the abilities this module resolves?"""
    return name in RULES or name in UNTARGETED_MAY or name in UNTARGETED


def _fits(s: State, h: int, g: int, modifier: str | None) -> bool:
    """A modified ability reaches only what its modifier names (the rulebook's "Modified
    Abilities": "Nullify Valor" only Valor creatures): "Self" the holder, "Enemies" and
    "Allies" by side, any other word a type (aspect, lineage or name)."""
    if not modifier:
        return True
    word = modifier.lower()
    if word == "self":
        return g == h
    if word in ("enemies", "enemy"):
        return s.game.minis[g].pidx != s.game.minis[h].pidx
    if word in ("allies", "ally"):
        return g != h and s.game.minis[g].pidx == s.game.minis[h].pidx
    return is_of_type(s, g, modifier)


def options(s: State, h: int, name: str,
            modifier: str | None = None) -> Iterator[tuple[int | None, int | None]]:
    """Every legal (target, destination) for ``h``'s ability ``name`` (narrowed by its
    ``modifier``), in gid and cell order; (None, None) when the ability may be, or must
    be, left without a target."""
    if name in UNTARGETED:
        yield None, None
        return
    if name in UNTARGETED_MAY:
        yield None, None
        yield h, None  # Bomb "on" itself: do it
        return
    rule = RULES[name]
    found = False
    for g in range(len(s.zone)):
        if not rule.targets(s, h, g) or not _fits(s, h, g, modifier):
            continue
        if rule.moves is None:
            found = True
            yield g, None
        else:
            for c in range(s.game.board.size):
                if rule.moves(s, h, g, c):
                    found = True
                    yield g, c
    if rule.optional or not found:
        yield None, None


def option_refs(s: State, h: int, name: str,
                modifier: str | None = None) -> Iterator[tuple[str | None, str | None]]:
    """``options`` as action fields: (target ref, cell name)."""
    names = s.game.board.cell_names
    for t, c in options(s, h, name, modifier):
        yield (None if t is None else s.game.ref(t)), (None if c is None else names[c])


def check(s: State, h: int, name: str, target: int | None, dest: int | None,
          modifier: str | None = None) -> int | None:
    """Raise ``invalid_target`` unless (target, dest) is a legal choice; returns the
    destination, which may be left out where the target can go to one cell only (Call
    Adjacent Ally: the castle's own cell)."""
    legal = set(options(s, h, name, modifier))
    if dest is None and target is not None and RULES.get(name, Rule(_creature)).moves:
        forced = {c for t, c in legal if t == target}
        if len(forced) == 1:
            dest = forced.pop()
    if (target, dest) in legal:
        return dest
    ref = s.game.ref
    if target is None:
        raise IllegalActionError(Code.INVALID_TARGET,
                                 f"{ref(h)}'s {name} needs a target (one is available)")
    where = "" if dest is None else f" to {s.game.board.cell_names[dest]}"
    raise IllegalActionError(Code.INVALID_TARGET,
                             f"{ref(h)}'s {name} cannot take {ref(target)}{where}")


def resolve(s: State, h: int, name: str, number: int | None, target: int | None,
            dest: int | None, ev: list[Event]) -> int:
    """Do it; returns the damage it adds to the combat (0 for most). Outside a combat
    (spawn abilities) only the abilities that need none are activated."""
    c = s.combat
    if name == "Wail":  # two dice to roll once the current attack is settled
        assert c is not None
        c.specials = (*c.specials, (s.game.minis[h].player, h, 0, -1, "Wail"))
        return 0
    if target is None:
        return 0
    ref = s.game.ref
    data: dict[str, object] = {"mini": ref(h), "ability": name, "target": ref(target)}
    bonus = 0
    if name in COMBAT_ONLY:
        assert c is not None, name
    if name == "Payback":
        bonus = stats.power(s, target)
    elif name == "Ferocity":
        assert c is not None
        c.ferocity = (*c.ferocity, target)
    elif name == "Demolish":
        destroy(s, target, s.game.minis[h].player, ev)
    elif name == "Bomb":
        # Sacrificed; each enemy creature in its cell takes the damage with this attack's.
        assert c is not None
        for e in s.creatures_in(s.cell[h], 1 - player_index(s.game.minis[h].player)):
            s.damage[e] += number or 0
            if e not in c.attack.damaged:
                c.attack.damaged = (*c.attack.damaged, e)
        sacrifice(s, h, ev)
    elif name in ("Assault", "Warpstrike"):
        assert c is not None
        c.specials = (*c.specials, (s.game.minis[h].player, h, number or 0, target, name))
    elif name == "Swap":
        s.cell[h], s.cell[target] = s.cell[target], s.cell[h]
        entered(s, h, ev)
        entered(s, target, ev)
    elif name == "Purge":
        s.zone[target] = Zone.GRAVEYARD
    elif name in ("Raise", "Reincarnate"):
        s.zone[target] = Zone.RESERVES
    elif name == "Appease":
        sacrifice(s, target, ev)
    elif dest is not None:  # the moves
        s.cell[target] = dest
        data["to"] = s.game.board.cell_names[dest]
    ev.append(Event("ability", data))
    if dest is not None:
        entered(s, target, ev)  # Charge, Ambush
    return bonus
