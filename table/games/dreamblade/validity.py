"""Validity of a whole position, as flags (python-chess's ``Board.status``).

The camera side reconstructs boards from images; before such a board is compared with
the rules state it is checked here, so "five allies in a cell" is reported as exactly
that instead of failing somewhere deep in the engine.
"""

from __future__ import annotations

from enum import IntFlag

from . import stats
from .board import STACKING_LIMIT
from .game import WINNING_TURNS
from .state import Phase, State, Zone


class Status(IntFlag):
    VALID = 0
    STACKING = 1 << 0  # more than four creatures of one player in a non-portal cell
    TWO_LOCATIONS = 1 << 1  # more than one location in a cell
    ZONE_MISMATCH = 1 << 2  # in the dreamscape without a cell, or a cell outside it
    BAD_CELL = 1 << 3  # a cell index that is not on the map
    DAMAGE_OFF_MAP = 1 << 4  # damage on a miniature that is not in the dreamscape
    NEGATIVE = 1 << 5  # negative damage, points or turn counts
    LOCATION_DAMAGED = 1 << 6  # locations cannot be attacked
    TURNS_WON = 1 << 7  # more than six turns won, or a winner without six
    PHASE = 1 << 8  # phase fields that do not fit together
    SPAWN_POINTS = 1 << 9  # unspent spawn points outside that player's spawn phase
    LETHAL_DAMAGE = 1 << 10  # damage at or past life outside a combat


_WORDS = {
    Status.STACKING: "more than four creatures of one player in a cell",
    Status.TWO_LOCATIONS: "two locations in one cell",
    Status.ZONE_MISMATCH: "a miniature in the dreamscape without a cell, or the reverse",
    Status.BAD_CELL: "a cell that is not on the map",
    Status.DAMAGE_OFF_MAP: "damage on a miniature off the map",
    Status.NEGATIVE: "negative damage, points or turns",
    Status.LOCATION_DAMAGED: "damage on a location",
    Status.TURNS_WON: "more than six turns won, or a winner without six",
    Status.PHASE: "phase fields that do not fit together",
    Status.SPAWN_POINTS: "spawn points outside their player's spawn phase",
    Status.LETHAL_DAMAGE: "damage at or past a creature's life",
}


def describe(st: Status) -> str:
    """What is wrong with a position, in words ("" when it is valid)."""
    return "; ".join(text for flag, text in _WORDS.items() if st & flag)


def status(s: State) -> Status:
    """Every problem of the position, or ``Status.VALID``."""
    st = Status.VALID
    g = s.game
    size = g.board.size
    creatures: dict[tuple[int, int], int] = {}
    locations: dict[int, int] = {}
    for m in g.minis:
        z, c, d = s.zone[m.gid], s.cell[m.gid], s.damage[m.gid]
        if (z is Zone.DREAMSCAPE) != (c >= 0):
            st |= Status.ZONE_MISMATCH
        if c >= size:
            st |= Status.BAD_CELL
            continue
        if d < 0:
            st |= Status.NEGATIVE
        if d and z is not Zone.DREAMSCAPE:
            st |= Status.DAMAGE_OFF_MAP
        if c < 0:
            continue
        if m.d.is_creature:
            creatures[(c, m.pidx)] = creatures.get((c, m.pidx), 0) + 1
            if s.combat is None and d and d >= stats.life(s, m.gid):
                st |= Status.LETHAL_DAMAGE
        else:
            locations[c] = locations.get(c, 0) + 1
            if d:
                st |= Status.LOCATION_DAMAGED
    for (c, p), n in creatures.items():
        # Spawning may break the limit in one's own portal, nowhere else.
        if n > STACKING_LIMIT and c != g.board.portals[p]:
            st |= Status.STACKING
    if any(n > 1 for n in locations.values()):
        st |= Status.TWO_LOCATIONS
    if min(*s.turns_won, *s.spawn_points, *s.bonus_points, *s.kills, s.turn) < 0:
        st |= Status.NEGATIVE
    if max(s.turns_won) > WINNING_TURNS or (
            (s.winner is not None) != (s.phase is Phase.GAME_OVER)) or (
            s.winner is not None and s.turns_won[0 if s.winner == "p1" else 1] < WINNING_TURNS):
        st |= Status.TURNS_WON
    if s.phase in (Phase.INITIATIVE, Phase.GAME_OVER):
        if s.active is not None or s.action_index is not None:
            st |= Status.PHASE
    elif s.active is None or s.first_player is None or (
            (s.phase is Phase.ACTION) != (s.action_index in (1, 2))):
        st |= Status.PHASE
    for p, pts in enumerate(s.spawn_points):
        if pts and not (s.phase is Phase.SPAWN and s.active == ("p1", "p2")[p]):
            st |= Status.SPAWN_POINTS
    return st


def is_valid(s: State) -> bool:
    return status(s) == Status.VALID
