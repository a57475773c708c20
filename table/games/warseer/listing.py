"""The main phase's legal actions: summons, moves, attacks declared, then the cards'
actions and the end of the turn, in that stable order.

A game lists them after every action, and most actions leave most of the list as it
was: a card played moves no creature, and a creature's moves and targets depend only on
the creature and on a few hexes around it being taken or free. So a listing is kept
with its state (``State._listed``) and handed down to the states that come from it
(``State._base``), and the next listing of the same player takes from it:

* a creature's moves, while the creature is the same object (``State.edit`` copies one
  before any change), a hero's relics are the same, and no hex its search passed or
  touched (``Reach.region``) has changed occupant;
* a creature's targets, while it stands where it stood and no hex within its range or
  near a line to one (``Bitboard.sight_region``) has changed occupant;
* the free hexes of the deployment zone, while no hex of it has changed occupant.

Which hexes changed occupant comes from the two occupied maps; states share one map
until a creature's place changes (``State.put`` makes a new one), so most often there
is nothing to compare.
Everything else is listed again. ``tests/warseer/test_listing.py`` plays random games
comparing each listing with one made from nothing."""

from __future__ import annotations

from dataclasses import dataclass

from . import attack as atk
from . import cards
from .actions import Action, Declare, EndTurn, Move, Summon, made_once
from .battlefield import Battlefield
from .game import Game
from .hexes import Hex
from .movement import moves_and_region
from .state import CAMP, FIELD, State, Unit


@dataclass(slots=True)
class Listing:
    """What one listing found, for the listings of the states after it."""

    player: str
    taken: dict[Hex, str]  # the occupied map listed against
    units: dict[str, Unit]  # the creatures as they were then (compared as objects)
    relics: tuple[str, ...]  # the player's hero's relics then (they give movement)
    # By creature: its moves (those not moved then) and attacks (those not attacked),
    # each with the hexes (bits) whose being taken or free could change them.
    moves: dict[str, tuple[tuple[Move, ...], int]]
    declares: dict[str, tuple[tuple[Declare, ...], int]]
    zone: tuple[Hex, ...] | None  # the zone's free hexes, when a summon was open


def changed_hexes(bf: Battlefield, before: dict[Hex, str], now: dict[Hex, str]) -> int:
    """The hexes (bits) whose occupant differs between two occupied maps."""
    if before is now:
        return 0
    bit = bf.bits.bit
    out = 0
    for h, _ in before.items() ^ now.items():
        out |= bit[h]
    return out


def main_actions(game: Game, s: State, fresh: bool = False) -> list[Action]:
    """Every action ``s.active`` may take in the main phase with no attack under way,
    taking what it can from the listing ``s`` was handed down (``fresh``: none)."""
    p = s.active
    base: Listing | None = None if fresh else s._base
    side = s.sides[p]
    bf = game.battlefield
    bits = bf.bits
    taken = s.occupied()
    if base is not None and base.player != p:
        base = None  # the other player's
    delta = changed_hexes(bf, base.taken, taken) if base is not None else -1
    everyone = s.in_order()
    mine = [u for u in everyone if u.place == FIELD and u.player == p]
    enemies = [u for u in everyone if u.place == FIELD and u.player != p]
    kept = bf.answers
    out: list[Action] = []
    zone: tuple[Hex, ...] | None = None
    if not side.summoned:
        hero_ref = f"{p}#0"
        if base is not None and base.zone is not None \
                and not delta & _zone_bits(bf, p):
            zone = base.zone
        else:
            standable = bf.standable_hexes
            zone = tuple(h for h in bf.zones_in_order[p]
                         if h in standable and h not in taken)
        for u in everyone:
            if u.player == p and u.place == CAMP and u.ref != hero_ref:
                out += made_once(kept, Summon, (p, u.ref), zone)
    relics = tuple(r.code for r in side.relics)
    same_relics = base is not None and base.relics == relics
    listed_moves: dict[str, tuple[tuple[Move, ...], int]] = {}
    for u in mine:
        if not u.moved:
            ref = u.ref
            found = None
            if base is not None and base.units.get(ref) is u and (
                    same_relics or not ref.endswith("#0")):
                found = base.moves.get(ref)
                if found is not None and delta & found[1]:
                    found = None
            if found is None:
                found = moves_and_region(game, s, u)
            listed_moves[ref] = found
            out += found[0]
    listed_declares: dict[str, tuple[tuple[Declare, ...], int]] = {}
    blocked: int | None = None
    for u in mine:
        if not u.attacked:
            ref = u.ref
            found_d = None
            if base is not None:
                found_d = base.declares.get(ref)
                if found_d is not None and (delta & found_d[1]
                                            or base.units[ref].hex != u.hex):
                    found_d = None
            if found_d is None:
                if blocked is None:
                    blocked = bits.sight | s.occupied_bits()
                assert u.hex is not None
                found_d = (made_once(kept, Declare, (p, ref), tuple(
                    e.ref for e in atk.targets(game, u, enemies, blocked))),
                    bits.sight_region(u.hex, game.catalog.creature(u.name).range))
            listed_declares[ref] = found_d
            out += found_d[0]
    out += cards.card_actions(game, s, p, mine, enemies)
    out.append(EndTurn(p))
    s._listed = Listing(p, taken, dict(s.units), relics, listed_moves, listed_declares,
                        zone)
    return out


def _zone_bits(bf: Battlefield, p: str) -> int:
    key = ("zone bits", p)
    found = bf.answers.get(key)
    if found is None:
        found = bf.answers[key] = bf.bits.mask(bf.deployment[p])
    return found  # type: ignore[no-any-return]
