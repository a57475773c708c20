"""Positions for Warseer's rules tests: a game with the sample catalog and standard
battlefield, and a state set up by hand (creatures where a test wants them)."""

from __future__ import annotations

from collections.abc import Mapping

from table.games.warseer import engine
from table.games.warseer.actions import parse
from table.games.warseer.battlefield import Battlefield
from table.games.warseer.catalog import Catalog
from table.games.warseer.game import Game
from table.games.warseer.hexes import parse_hex
from table.games.warseer.state import FIELD, MAIN, State

WARBANDS = {"p1": ["Diodor", "Gil-Talas", "Order Squire", "Forest Archer"],
            "p2": ["Kaitlynn", "Dayodor Order Mentor", "Stone Guardian", "Forest Archer"]}


def game(warbands: Mapping[str, list[str]] | None = None) -> Game:
    return Game.make(Catalog.builtin(), Battlefield.standard(), warbands or WARBANDS)


def position(g: Game, where: Mapping[str, str], active: str = "p1") -> State:
    """The main phase of turn 1 with the named creatures on the named hexes."""
    s = engine.new_state(g, opening=False)
    s.phase, s.turn, s.active = MAIN, 1, active
    for ref, h in where.items():
        s.put(ref, FIELD, parse_hex(h))
    return s


def play(g: Game, s: State, *texts: str) -> tuple[State, list]:
    events: list = []
    for t in texts:
        s, ev = engine.apply(s, parse(t))
        events += ev
    return s, events


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]
