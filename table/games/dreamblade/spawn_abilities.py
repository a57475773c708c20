"""Spawn-point abilities: "Spawn 1: Call Adjacent Ally", "Spawn 2: Advance".

In its player's spawn phase, a miniature in the dreamscape may activate such an ability
by spending that many spawn points, once per spawn phase ("Score" in the requirements:
only while it stands on one of its player's scoring cells). Targets and destinations
follow the same rules as the blade versions (``targeted``); abilities that only mean
something in a combat (damage, disruption) cannot be spawn-activated.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import actions as A
from . import targeted
from ._common import LISTED_X, cell, chosen_x, gid, require_own, require_phase
from .abilities import Ability
from .auras import condition_met
from .board import player_index
from .errors import Code, IllegalActionError
from .events import Event
from .state import Phase, State, Zone


def _spawn_ability(s: State, g: int, name: str) -> Ability | None:
    return next((ab for ab in s.game.minis[g].d.abilities
                 if ab.name == name and ab.activation.spawn_cost is not None), None)


def _usable(s: State, g: int, ab: Ability) -> bool:
    act = ab.activation
    plain = Ability(ab.name, type(act)(score=act.score), ab.number, ab.modifier)
    return condition_met(s, g, plain)


def pending_ability(s: State, g: int, name: str) -> Ability | None:
    """The triggered ability waiting as ``(g, name)``, if it is the next one."""
    if not s.pending or s.pending[0] != (g, name):
        return None
    return s.game.minis[g].d.ability(name)


def _check_pending(s: State, a: A.Activate) -> tuple[int, Ability, int | None, int | None]:
    g = gid(s, a.mini)
    require_own(s, g, a.player)
    ab = pending_ability(s, g, a.ability)
    if ab is None:
        h, name = s.pending[0]
        raise IllegalActionError(Code.TRIGGER_PENDING,
                                 f"first resolve {s.game.ref(h)}'s {name}")
    ab = chosen_x(ab, a.x, a.mini)
    target = None if a.target is None else gid(s, a.target)
    dest = None if a.to is None else cell(s, a.to)
    dest = targeted.check(s, g, ab.name, target, dest, ab.modifier)
    return g, ab, target, dest


def check_activate(s: State, a: A.Activate) -> tuple[int, Ability, int | None, int | None]:
    if s.pending and s.combat is None:
        return _check_pending(s, a)
    require_phase(s, Phase.SPAWN, a.player, "activate a spawn ability")
    g = gid(s, a.mini)
    require_own(s, g, a.player)
    ab = _spawn_ability(s, g, a.ability)
    if ab is None:
        raise IllegalActionError(Code.INVALID_ABILITY,
                                 f"{a.mini} has no spawn ability {a.ability!r}")
    if s.zone[g] is not Zone.DREAMSCAPE:
        raise IllegalActionError(Code.NOT_IN_DREAMSCAPE,
                                 f"{a.mini} is in the {s.zone[g].value}, not in the dreamscape")
    if not _usable(s, g, ab):
        raise IllegalActionError(Code.INVALID_ABILITY,
                                 f"{a.mini}'s {ab.name} works only on a scoring cell of "
                                 f"{a.player}")
    if (g, ab.name) in s.abilities_used:
        raise IllegalActionError(Code.INVALID_ABILITY,
                                 f"{a.mini}'s {ab.name} was already used this spawn phase")
    if ab.name in targeted.COMBAT_ONLY:
        raise IllegalActionError(Code.INVALID_ABILITY,
                                 f"{ab.name} only works in a combat")
    ab = chosen_x(ab, a.x, a.mini)
    cost = ab.activation.spawn_cost or 0
    have = s.spawn_points[player_index(a.player)]
    if cost > have:
        raise IllegalActionError(Code.INSUFFICIENT_SPAWN_POINTS,
                                 f"{a.mini}'s {ab.name} costs {cost}; {a.player} has {have} "
                                 "spawn points left")
    target = None if a.target is None else gid(s, a.target)
    dest = None if a.to is None else cell(s, a.to)
    if targeted.handles(ab.name):
        dest = targeted.check(s, g, ab.name, target, dest, ab.modifier)
    elif target is not None or dest is not None:
        raise IllegalActionError(Code.INVALID_TARGET, f"{ab} takes no target")
    return g, ab, target, dest


def apply_activate(s: State, a: A.Activate, ev: list[Event]) -> None:
    if s.pending and s.combat is None:
        g, ab, target, dest = _check_pending(s, a)
        s.pending = s.pending[1:]
        targeted.resolve(s, g, ab.name, ab.number, target, dest, ev)
        ev.append(Event("triggered_resolved", {"mini": a.mini, "ability": str(ab),
                                               "target": a.target, "to": a.to}))
        return
    g, ab, target, dest = check_activate(s, a)
    p = player_index(a.player)
    s.spawn_points[p] -= ab.activation.spawn_cost or 0
    s.abilities_used = s.abilities_used | {(g, ab.name)}
    resolved = targeted.handles(ab.name)
    if resolved:
        targeted.resolve(s, g, ab.name, ab.number, target, dest, ev)
    ev.append(Event("activated", {"mini": a.mini, "ability": str(ab), "target": a.target,
                                  "to": a.to, "points_left": s.spawn_points[p],
                                  "resolved": resolved}))


def legal_pending(s: State) -> Iterator[A.Activate]:
    """The ways to resolve the next waiting triggered ability."""
    g, name = s.pending[0]
    ab = pending_ability(s, g, name)
    xs = LISTED_X if ab is not None and ab.variable else (None,)
    for t, c in targeted.option_refs(s, g, name, ab.modifier if ab else None):
        for x in xs:
            yield A.Activate(s.game.minis[g].player, s.game.ref(g), name, t, c, x)


def comes_into_play(s: State, g: int, ev: list[Event]) -> None:
    """``g`` was just spawned: its "comes into play" abilities that have something to
    choose wait in ``pending``; the others have nothing to do."""
    for ab in s.game.minis[g].d.abilities:
        if not ab.activation.comes_into_play:
            continue
        known = ab.name in targeted.RULES and ab.name not in targeted.COMBAT_ONLY
        if known and any(t is not None
                         for t, _ in targeted.options(s, g, ab.name, ab.modifier)):
            s.pending = (*s.pending, (g, ab.name))
            ev.append(Event("triggered", {"mini": s.game.ref(g), "ability": str(ab)}))
        else:
            ev.append(Event("triggered", {"mini": s.game.ref(g), "ability": str(ab),
                                          "resolved": known}))


def legal_activations(s: State) -> Iterator[A.Activate]:
    if s.phase is not Phase.SPAWN or s.active is None:
        return
    player = s.active
    p = player_index(player)
    ref = s.game.ref
    for g in s.game.owned[p]:
        if s.zone[g] is not Zone.DREAMSCAPE:
            continue
        for ab in s.game.minis[g].d.abilities:
            if ab.activation.spawn_cost is None or (g, ab.name) in s.abilities_used \
                    or ab.name in targeted.COMBAT_ONLY or not _usable(s, g, ab) \
                    or ab.activation.spawn_cost > s.spawn_points[p]:
                continue
            xs = LISTED_X if ab.variable else (None,)
            if targeted.handles(ab.name):
                for t, c in targeted.option_refs(s, g, ab.name, ab.modifier):
                    for x in xs:
                        yield A.Activate(player, ref(g), ab.name, t, c, x)
            else:
                for x in xs:
                    yield A.Activate(player, ref(g), ab.name, x=x)
