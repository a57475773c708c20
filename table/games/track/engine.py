"""The rules engine's front door: ``new_state``, ``legal_actions``, ``apply`` and
``chance``. Pure: the state is a value, ``apply`` returns a new one and never changes its
input, and the die comes in as an action (``RollDie``) so a game replays from its log."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from table.system import Event

from .actions import Action, Advance, Pass, RollDie
from .dice import D6
from .errors import RulesError
from .state import HOME, PLAYERS, SPACES, State, other


def new_state(pawns: Mapping[str, int]) -> State:
    """A game with ``pawns[p]`` pawns for each player, every one off the track."""
    refs = tuple(f"{p}#{i}" for p in PLAYERS for i in range(pawns[p]))
    return State(refs, (None,) * len(refs))


def legal_actions(s: State) -> list[Action]:
    """Every action the active player may take now, in a stable order: the six rolls
    before the die is cast, then each pawn's move (or a pass)."""
    if s.winner:
        return []
    p = s.active
    if s.roll is None:
        return [RollDie(p, d) for d in range(1, 7)]
    out: list[Action] = []
    for ref, at in zip(s.pawns, s.where, strict=True):
        if not ref.startswith(p):
            continue
        if at is None and s.roll == 6:
            out.append(Advance(p, ref, SPACES[0]))
        elif at is not None and at != HOME:
            out.append(Advance(p, ref, SPACES[min(5, SPACES.index(at) + s.roll)]))
    return out or [Pass(p)]


def apply(s: State, a: Action) -> tuple[State, list[Event]]:
    """The state after ``a`` and what happened; ``RulesError`` and no change otherwise."""
    legal = legal_actions(s)
    if a not in legal:
        raise RulesError("not_legal", f"{a} is not allowed now (legal: "
                         + ", ".join(str(x) for x in legal[:6]) + ")")
    if isinstance(a, RollDie):
        return replace(s, roll=a.die), [Event("rolled", {"player": a.player, "die": a.die})]
    if isinstance(a, Pass):
        return (replace(s, roll=None, active=other(s.active)),
                [Event("passed", {"player": a.player})])
    where = list(s.where)
    where[s.pawns.index(a.pawn)] = a.to
    new = replace(s, where=tuple(where), roll=None, active=other(s.active))
    events = [Event("advanced", {"pawn": a.pawn, "to": a.to})]
    mine = [w for r, w in zip(new.pawns, new.where, strict=True) if r.startswith(a.player)]
    if all(w == HOME for w in mine):
        new = replace(new, winner=a.player)
        events.append(Event("game_over", {"winner": a.player}))
    return new, events


def chance(s: State, rng: random.Random) -> RollDie | None:
    """The roll a fair die makes when the state waits for one; None otherwise."""
    if s.winner or s.roll is not None:
        return None
    return RollDie(s.active, int(D6.face(rng.randint(1, D6.sides)).code))
