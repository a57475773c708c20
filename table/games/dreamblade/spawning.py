"""Spawn phases: what a miniature costs and where it may enter the dreamscape."""

from __future__ import annotations

from collections.abc import Iterator

from . import actions as A
from ._common import cell, gid, name_of, require_own, require_phase
from .auras import is_of_type
from .board import STACKING_LIMIT, other, player_index
from .errors import Code, IllegalActionError
from .events import Event
from .fates import active_ability
from .spawn_abilities import comes_into_play
from .state import Phase, State, Zone

MAX_SPAWNS_PER_CELL = 4


class Pricing:
    """What spawning costs one player now: printed cost plus the aspect shortfall, less
    every active Channel that player controls (Channel [type] X: only for miniatures of
    that type); never below 0.

    Aspect shortfall: each aspect symbol asks for one miniature of that aspect among the
    player's own miniatures in the dreamscape or graveyard; each one missing costs one
    extra point. (The rulebook's example with four symbols disagrees with this stated
    rule; we follow the rule: see docs/rules/dreamblade.md.)

    Made once per question (a spawn, or the list of legal spawns): what the player has
    and which Channels work do not change between the miniatures priced.
    """

    def __init__(self, s: State, pidx: int) -> None:
        self.s = s
        game = s.game
        zone, sets = s.zone, game.aspect_sets
        self.have: dict = {}
        self.channels = []
        for o in game.owned[pidx]:
            if zone[o] is Zone.DREAMSCAPE:
                if (ab := active_ability(s, o, "Channel")) is not None:
                    self.channels.append(ab)
            elif zone[o] is not Zone.GRAVEYARD:
                continue
            for aspect in sets[o]:
                self.have[aspect] = self.have.get(aspect, 0) + 1

    def shortfall(self, g: int) -> int:
        have = self.have
        return sum(max(0, n - have.get(a, 0)) for a, n in self.s.game.aspect_needs[g])

    def cost(self, g: int) -> int:
        s = self.s
        discount = sum(ab.number or 0 for ab in self.channels
                       if not ab.modifier or is_of_type(s, g, ab.modifier))
        return max(0, s.game.minis[g].d.cost + self.shortfall(g) - discount)


def aspect_shortfall(s: State, g: int) -> int:
    """Extra points ``g`` costs for unmet aspect symbols (see ``Pricing``)."""
    return Pricing(s, s.game.minis[g].pidx).shortfall(g)


def spawn_cost(s: State, g: int) -> int:
    """What spawning ``g`` costs now (see ``Pricing``)."""
    return Pricing(s, s.game.minis[g].pidx).cost(g)


def _check_unique_and_vengeance(s: State, g: int) -> None:
    m = s.game.minis[g]
    for ab in m.d.abilities:
        if ab.name == "Unique":
            for o in s.game.owned[m.pidx]:
                if s.zone[o] is Zone.DREAMSCAPE:
                    u = s.game.minis[o].d.ability("Unique")
                    if u is not None and u.modifier == ab.modifier:
                        raise IllegalActionError(
                            Code.UNIQUE_CONTROLLED,
                            f"{m.player} already controls {s.game.ref(o)} with "
                            f"Unique [{ab.modifier}]")
        elif ab.name == "Vengeance" and ab.number is not None:
            won = s.turns_won[player_index(other(m.player))]
            if won < ab.number:
                raise IllegalActionError(
                    Code.VENGEANCE,
                    f"{m.ref} ({m.d.name}) needs the opponent to have won {ab.number} turns; "
                    f"they have won {won}")


def _reinforces(s: State, g: int, c: int) -> bool:
    """Reinforce [type]: spawnable into any cell holding an ally (of that type)."""
    ab = s.game.minis[g].d.ability("Reinforce")
    if ab is None:
        return False
    p = s.game.minis[g].pidx
    return any(not ab.modifier or is_of_type(s, o, ab.modifier)
               for o in s.creatures_in(c, p))


def _respawn(s: State, g: int) -> int | None:
    """Respawn X: the cost of spawning ``g`` from its graveyard (None: it cannot)."""
    ab = s.game.minis[g].d.ability("Respawn")
    return None if ab is None else ab.number or 0


def check_spawn_cell(s: State, g: int, c: int) -> None:
    """Where a miniature may be spawned (raises with the reason)."""
    m = s.game.minis[g]
    board = s.game.board
    p = m.pidx
    portal = board.portal(m.player)
    where = name_of(s, c)
    if not m.d.is_creature:
        if s.turn == 1 and c != portal:
            raise IllegalActionError(Code.ILLEGAL_SPAWN_CELL,
                                     f"first turn: {m.ref} can only spawn in the portal "
                                     f"{name_of(s, portal)}")
        if not s.creatures_in(c, p):
            raise IllegalActionError(Code.ILLEGAL_SPAWN_CELL,
                                     f"location {m.ref} needs a creature of {m.player} in {where}")
        loc = s.location_in(c)
        if loc is not None:
            raise IllegalActionError(Code.LOCATION_LIMIT,
                                     f"{where} already holds the location {s.game.ref(loc)}")
        return
    if c == portal:
        return  # the portal is always open to creatures, whatever stands there
    if _reinforces(s, g, c):
        if len(s.creatures_in(c, p)) >= STACKING_LIMIT:
            raise IllegalActionError(Code.STACKING_LIMIT,
                                     f"{m.player} already has {STACKING_LIMIT} creatures in "
                                     f"{where}")
        return
    if s.turn == 1:
        raise IllegalActionError(Code.ILLEGAL_SPAWN_CELL,
                                 f"first turn: creatures spawn only in the portal "
                                 f"{name_of(s, portal)}, not {where}")
    if c not in board.spawn_row(m.player):
        raise IllegalActionError(Code.ILLEGAL_SPAWN_CELL,
                                 f"{where} is not in {m.player}'s spawn row")
    if c in s.spawn_start_cells:
        raise IllegalActionError(Code.ILLEGAL_SPAWN_CELL,
                                 f"{where} held a creature of {m.player} when the spawn phase "
                                 "started")
    if not s.controls_in_column(p, board.column(c)):
        raise IllegalActionError(Code.ILLEGAL_SPAWN_CELL,
                                 f"{m.player} controls no miniature in column "
                                 f"{board.columns[board.column(c)]}")
    if s.spawned_into.get(c, 0) >= MAX_SPAWNS_PER_CELL:
        raise IllegalActionError(Code.SPAWN_CELL_LIMIT,
                                 f"{MAX_SPAWNS_PER_CELL} creatures already spawned into {where} "
                                 "this phase")
    if len(s.creatures_in(c, p)) >= STACKING_LIMIT:
        raise IllegalActionError(Code.STACKING_LIMIT,
                                 f"{m.player} already has {STACKING_LIMIT} creatures in {where}")


def check_spawn(s: State, a: A.Spawn) -> tuple[int, int, int]:
    """Returns (gid, cell, cost) or raises."""
    require_phase(s, Phase.SPAWN, a.player, "spawn")
    g = gid(s, a.mini)
    require_own(s, g, a.player)
    respawn = _respawn(s, g) if s.zone[g] is Zone.GRAVEYARD else None
    if s.zone[g] is not Zone.RESERVES and respawn is None:
        raise IllegalActionError(Code.NOT_IN_RESERVES,
                                 f"{a.mini} is in the {s.zone[g].value}, not in reserves")
    c = cell(s, a.cell)
    _check_unique_and_vengeance(s, g)
    cost = spawn_cost(s, g) if respawn is None else respawn
    have = s.spawn_points[player_index(a.player)]
    if cost > have:
        raise IllegalActionError(Code.INSUFFICIENT_SPAWN_POINTS,
                                 f"{a.mini} ({s.game.minis[g].d.name}) costs {cost}; "
                                 f"{a.player} has {have} spawn points left")
    check_spawn_cell(s, g, c)
    return g, c, cost


def apply_spawn(s: State, a: A.Spawn, ev: list[Event]) -> None:
    g, c, cost = check_spawn(s, a)
    s.zone[g], s.cell[g], s.damage[g] = Zone.DREAMSCAPE, c, 0
    s.spawn_points[player_index(a.player)] -= cost
    if s.game.minis[g].d.is_creature:
        s.spawned_into[c] = s.spawned_into.get(c, 0) + 1
    ev.append(Event("spawned", {"mini": a.mini, "cell": a.cell, "cost": cost,
                                "points_left": s.spawn_points[player_index(a.player)]}))
    comes_into_play(s, g, ev)


def legal_spawns(s: State) -> Iterator[A.Spawn]:
    if s.phase is not Phase.SPAWN or s.active is None:
        return
    player = s.active
    p = player_index(player)
    board = s.game.board
    points = s.spawn_points[p]
    own_cells = {s.cell[g] for g in s.game.owned[p] if s.cell[g] >= 0}
    creature_cells = sorted({board.portal(player), *board.spawn_row(player)})
    location_cells = sorted(own_cells)
    pricing = Pricing(s, p)
    interned = s.game.interned
    # Where a miniature may enter depends only on whether it is a creature and on its
    # Reinforce (see check_spawn_cell): worked out once for each such kind.
    open_cells: dict[tuple[bool, object], list[int]] = {}
    for g in s.game.owned[p]:
        if s.zone[g] is Zone.RESERVES:
            cost = pricing.cost(g)
        elif s.zone[g] is Zone.GRAVEYARD and (respawn := _respawn(s, g)) is not None:
            cost = respawn
        else:
            continue
        if cost > points:
            continue
        m = s.game.minis[g]
        reinforce = m.d.ability("Reinforce") if m.d.is_creature else None
        try:
            _check_unique_and_vengeance(s, g)
        except IllegalActionError:
            continue
        key = (m.d.is_creature, None if reinforce is None else reinforce.modifier or "")
        if key not in open_cells:
            cells = creature_cells if m.d.is_creature else location_cells
            if reinforce is not None:
                cells = sorted({*cells, *own_cells})
            open_cells[key] = [c for c in cells if _spawnable(s, g, c)]
        for c in open_cells[key]:
            spawn = interned.get(("spawn", g, c))
            if spawn is None:
                spawn = interned[("spawn", g, c)] = A.Spawn(player, m.ref, board.cell_names[c])
            yield spawn


def _spawnable(s: State, g: int, c: int) -> bool:
    try:
        check_spawn_cell(s, g, c)
    except IllegalActionError:
        return False
    return True
