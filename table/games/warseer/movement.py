"""Movement: how far a creature may go (its card, enchantments, a building's bonus, its
hero's relics), where it can go on the battlefield now (one point a hex, two into
difficult terrain; creatures and impassable terrain bar the way, flyers pass over at one
a hex) and the move itself. Answers are kept with the battlefield (see ``_reach``)."""

from __future__ import annotations

from collections.abc import Mapping

from .actions import Move, made_once
from .damage import Event
from .errors import RulesError
from .game import Game
from .hexes import Hex
from .state import FIELD, State, Unit
from .turn import main_phase


def movement(game: Game, s: State, u: Unit) -> int:
    """Its card's movement, plus enchantments on it, a building's bonus this turn and,
    for a hero, the movement its relics give while equipped."""
    base = game.catalog.creature(u.name).movement + u.bonus_move
    cards = list(u.enchantments)
    if u.ref == f"{u.player}#0":
        cards += [r.code for r in s.sides[u.player].relics]
    if not cards:
        return base
    return base + sum(e.n for c in cards if (e := game.catalog.card(c).effect)
                      and e.verb == "movement")


def reachable(game: Game, s: State, u: Unit,
              taken: Mapping[Hex, str] | None = None) -> Mapping[Hex, int]:
    """Each free hex ``u`` can move to now, with its cost: one per hex, two to enter
    difficult terrain; others' hexes are passed only by flyers, which pay one a hex.
    ``taken``: ``s.occupied()``, when the caller has it already. Not to be changed."""
    return _reach(game, s, u, taken)[1]


def moves(game: Game, s: State, u: Unit, taken: Mapping[Hex, str]) -> tuple[Move, ...]:
    """``u``'s moves, in reading order of their hexes. Actions are values, so the same
    moves from the same place among the same creatures are made once and kept."""
    return made_once(game.battlefield.answers, Move, (u.player, u.ref),
                     _reach(game, s, u, taken)[0])


_REACH_KEPT = 50_000  # answers kept per battlefield (a game asks a few thousand)


def _reach(game: Game, s: State, u: Unit, taken: Mapping[Hex, str] | None
           ) -> tuple[tuple[Hex, ...], dict[Hex, int]]:
    """(the hexes in reading order, their costs)."""
    # Where a creature can go depends only on its hex, its movement, whether it flies and
    # the creatures within its movement (one further away can be neither passed nor
    # stood on): a game asks the same again and again, so answers are kept with the
    # battlefield, whose terrain they also depend on.
    assert u.hex is not None
    budget = movement(game, s, u)
    flying = game.catalog.creature(u.name).has("flying")
    taken = s.occupied() if taken is None else taken
    start = u.hex
    bf = game.battlefield
    near = bf.disk(start, budget).intersection(taken)
    key = (start, budget, flying, near)
    kept = bf.answers
    hit = kept.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    places, num = bf.places, bf.by_place
    blocked = {num[h] for h in near}
    first = num[start]
    over = budget + 1
    best = [over] * len(places)
    best[first] = 0
    # Steps cost one or two: hexes are taken cheapest first from one list per cost; a
    # hex reached with the whole budget spent leads nowhere, so lists stop short of it.
    by_cost: list[list[int]] = [[first]] + [[] for _ in range(budget)]
    if flying:  # over anything, one a hex
        steps = bf.fly_steps
        for cost in range(budget):
            c = cost + 1
            for i in by_cost[cost]:
                for j in steps[i]:
                    if c < best[j]:
                        best[j] = c
                        by_cost[c].append(j)
        blocked |= {i for i, h in enumerate(places) if h not in bf.standable_hexes}
    else:
        walk = bf.walk_steps
        for cost in range(budget):
            for i in by_cost[cost]:
                if best[i] != cost:
                    continue  # reached more cheaply since it was listed here
                for j, k in walk[i]:
                    c = cost + k
                    if c < best[j] and c <= budget and j not in blocked:
                        best[j] = c
                        by_cost[c].append(j)
    blocked.add(first)
    order = [i for i, c in enumerate(best) if c < over and i not in blocked]
    hexes = tuple(places[i] for i in order)
    answer = (hexes, {places[i]: best[i] for i in order})
    if len(kept) >= _REACH_KEPT:
        kept.clear()
    kept[key] = answer
    return answer


def move(game: Game, s: State, a: Move, events: list[Event]) -> None:
    main_phase(s, a)
    u = s.units.get(a.unit)
    if u is None or u.player != a.player or u.place != FIELD:
        raise RulesError("no_unit", f"{a}: {a.unit} is not {a.player}'s on the battlefield")
    if u.moved:
        raise RulesError("moved", f"{a}: {a.unit} has moved this turn already")
    if not game.battlefield.standable(a.hex):
        ground = game.battlefield.terrain.get(a.hex)
        raise RulesError("reach", f"{a}: no creature can stand in {a.hex} ("
                         + (ground.label if ground else "off the battlefield") + ")")
    if a.hex not in reachable(game, s, u):
        raise RulesError("reach", f"{a}: {a.unit} cannot reach {a.hex} (movement "
                         f"{movement(game, s, u)}; difficult terrain costs 2, creatures bar "
                         "the way)")
    frm = u.hex
    u = s.edit(a.unit)
    u.hex, u.moved = a.hex, True
    events.append(Event("moved", {"unit": a.unit, "from": str(frm), "to": str(a.hex)}))
