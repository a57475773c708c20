"""The rules engine's front door: ``new_state``, ``legal_actions``, ``apply`` and
``chance``. Pure: the state is a value, ``apply`` returns a new one and never changes its
input, and the die comes in as an action (``RollDie``) so a game replays from its log."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from table.system import Event

from . import meadow
from .actions import Action, Advance, Graze, Pass, RollDie
from .dice import D6
from .errors import RulesError
from .state import HOME, MEADOW, PLAYERS, SPACES, State, other


def new_state(pawns: Mapping[str, int]) -> State:
    """A game with ``pawns[p]`` pawns for each player, every one off the track."""
    refs = tuple(f"{p}#{i}" for p in PLAYERS for i in range(pawns[p]))
    return State(refs, (None,) * len(refs), spots=(None,) * len(refs))


def legal_actions(s: State) -> list[Action]:
    """The actions the active player may take now, in a stable order: the six rolls
    before the die is cast, then each pawn's move, then a few grazing spots for each
    pawn home (any other spot the rules allow is as legal: ``meadow``), or a pass."""
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
        elif at in SPACES and at != HOME:
            out.append(Advance(p, ref, SPACES[min(5, SPACES.index(at) + s.roll)]))
    for ref, at in zip(s.pawns, s.where, strict=True):
        if ref.startswith(p) and at == HOME:
            out += [Graze(p, ref, x, y) for x, y in meadow.spots(s, ref)]
    return out or [Pass(p)]


def apply(s: State, a: Action) -> tuple[State, list[Event]]:
    """The state after ``a`` and what happened; ``RulesError`` and no change otherwise."""
    if isinstance(a, Graze):
        return _graze(s, a)
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
    return _maybe_won(new, a.player, [Event("advanced", {"pawn": a.pawn, "to": a.to})])


def _graze(s: State, a: Graze) -> tuple[State, list[Event]]:
    if s.winner:
        raise RulesError("over", f"{a}: the game is over")
    if a.player != s.active:
        raise RulesError("not_your_turn", f"{a}: it is {s.active}'s turn")
    why = meadow.refusal(s, a.pawn, a.x, a.y)
    if why:
        raise RulesError("not_legal", f"{a}: {why}")
    i = s.pawns.index(a.pawn)
    where, spots = list(s.where), list(s.spots or (None,) * len(s.pawns))
    where[i], spots[i] = MEADOW, (a.x, a.y)
    new = replace(s, where=tuple(where), spots=tuple(spots), roll=None, active=other(s.active))
    return _maybe_won(new, a.player, [Event("grazed", {"pawn": a.pawn, "x": a.x, "y": a.y})])


def _maybe_won(new: State, player: str, events: list[Event]) -> tuple[State, list[Event]]:
    mine = [w for r, w in zip(new.pawns, new.where, strict=True) if r.startswith(player)]
    if all(w in (HOME, MEADOW) for w in mine):
        new = replace(new, winner=player)
        events.append(Event("game_over", {"winner": player}))
    return new, events


def chance(s: State, rng: random.Random) -> RollDie | None:
    """The roll a fair die makes when the state waits for one; None otherwise."""
    if s.winner or s.roll is not None:
        return None
    return RollDie(s.active, int(D6.face(rng.randint(1, D6.sides)).code))
