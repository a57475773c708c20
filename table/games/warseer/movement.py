"""Movement: how far a creature may go (its card, enchantments, a building's bonus, its
hero's relics), where it can go on the battlefield now (one point a hex, two into
difficult terrain; creatures and impassable terrain bar the way, flyers pass over at one
a hex) and the move itself. Answers are kept with the battlefield (see ``_reach``)."""

from __future__ import annotations

from collections.abc import Mapping

from .actions import Move, made_once
from .bitboard import Reach
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


def reachable(game: Game, s: State, u: Unit) -> Mapping[Hex, int]:
    """Each free hex ``u`` can move to now, with its cost: one per hex, two to enter
    difficult terrain; others' hexes are passed only by flyers, which pay one a hex.
    Kept: not to be changed."""
    return _reach(game, s, u).costs(game.battlefield.bits.bit)


def moves(game: Game, s: State, u: Unit) -> tuple[Move, ...]:
    """``u``'s moves, in reading order of their hexes."""
    return moves_and_region(game, s, u)[0]


def moves_and_region(game: Game, s: State, u: Unit) -> tuple[tuple[Move, ...], int]:
    """``u``'s moves and the hexes (the battlefield's bits) whose being taken or free
    could change them. Actions are values, so the same moves from the same place among
    the same creatures are made once and kept with the answer they come from."""
    answer = _reach(game, s, u)
    key = (u.player, u.ref)
    found = answer.moves.get(key)
    if found is None:
        found = answer.moves[key] = made_once(game.battlefield.answers, Move, key,
                                              answer.hexes)
    return found, answer.region


_REACH_KEPT = 5_000  # answers kept per battlefield: about a game's worth (some 5 MB)


def _reach(game: Game, s: State, u: Unit) -> Reach:
    """Where ``u`` can go (see ``Bitboard.reach``), kept."""
    # Where a creature can go depends only on its hex, its movement, whether it flies and
    # the creatures within its movement (one further away can be neither passed nor
    # stood on): a game asks the same again and again, so answers are kept with the
    # battlefield, whose terrain they also depend on.
    assert u.hex is not None
    budget = movement(game, s, u)
    flying = game.catalog.creature(u.name).has("flying")
    bf = game.battlefield
    bits = bf.bits
    taken = s.occupied_bits()
    key = ("reach", u.hex, budget, flying, taken & bits.disk(u.hex, budget))
    kept = bf.answers
    hit = kept.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    answer = bits.reach(u.hex, budget, flying, taken)
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
    if not _reach(game, s, u).ends & game.battlefield.bits.bit.get(a.hex, 0):
        raise RulesError("reach", f"{a}: {a.unit} cannot reach {a.hex} (movement "
                         f"{movement(game, s, u)}; difficult terrain costs 2, creatures bar "
                         "the way)")
    frm = u.hex
    s.put(a.unit, FIELD, a.hex).moved = True
    events.append(Event("moved", {"unit": a.unit, "from": str(frm), "to": str(a.hex)}))
