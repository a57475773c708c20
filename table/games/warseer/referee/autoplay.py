"""Scripted Warseer players (demos, end-to-end tests): what they do next, as the seam's
physical ``Intent``. Creatures are put on their hexes by hand (deploy, summon, move,
push, advance: the camera must see it), dice are rolled on the table box, everything
else is typed on the dashboard.

They play plainly but purposefully, so a demo shows every part of the game: summon a
character each turn, attack whatever is in reach, close in on the nearest enemy, play
a card now and then, put feats face up when met, use a modification in an attack
sometimes, strike back when they can; and end the turn when nothing useful is left.
"""

from __future__ import annotations

import random

from table.system import Intent

from .. import actions as A
from ..hexes import distance
from ..state import ADVANCE, COUNTER, MODIFY, OVER, PUSH, State, other
from .context import Context


def _physical(a: object) -> Intent:
    if isinstance(a, A.Deploy | A.Summon | A.Move | A.Push):  # a miniature put on its hex by hand
        return Intent("board", a.player, a, moves=((a.unit, str(a.hex)),))
    return Intent("type", getattr(a, "player", None), a)


def next_intent(ref: Context, state: State, rng: random.Random) -> Intent | None:
    if state.phase == OVER:
        return None
    dice = ref.dice_needed(state)
    if dice:
        return Intent("roll", dice[0].player, dice=dice[0])
    legal = ref.legal_actions(state)
    if not legal:
        return None
    at = state.attack
    if at is not None:
        if at.step == MODIFY:
            mods = [a for a in legal if isinstance(a, A.Modify)]
            if mods and rng.random() < 0.35:
                return _physical(rng.choice(mods))
            return _physical(A.Pass(at.to_act))
        if at.step == PUSH:
            return _physical(rng.choice(legal))
        if at.step == ADVANCE:
            a = A.Advance(at.to_act, rng.random() < 0.5)
            if a.take:
                return Intent("board", a.player, a,
                              moves=((at.attacker, str(at.origin)),))
            return _physical(a)
        if at.step == COUNTER:
            return _physical(A.Counterblow(at.to_act))
        return _physical(rng.choice(legal))
    if isinstance(legal[0], A.Draw | A.Return):  # the opening, one step each
        return _physical(legal[0])
    if isinstance(legal[0], A.Deploy):
        return _physical(rng.choice(legal))
    return _physical(_main_choice(ref, state, legal, rng))


def _main_choice(ref: Context, state: State, legal: list, rng: random.Random):
    p = state.active
    by = {}
    for a in legal:
        by.setdefault(type(a), []).append(a)
    if A.PlayFeat in by:
        return by[A.PlayFeat][0]
    if A.Summon in by:
        return rng.choice(by[A.Summon])
    if A.Declare in by:
        return rng.choice(by[A.Declare])
    plays = [a for a in by.get(A.Play, []) if rng.random() < 0.15]
    if plays:
        return rng.choice(plays)
    if A.SpendFeat in by and rng.random() < 0.1:
        return rng.choice(by[A.SpendFeat])
    enemies = [u.hex for u in state.on_field(other(p)) if u.hex is not None]
    moves = by.get(A.Move, [])
    if moves and enemies:
        def closer(a: A.Move) -> int:
            here = state.units[a.unit].hex
            assert here is not None
            return min(distance(a.hex, e) for e in enemies) - min(distance(here, e)
                                                                   for e in enemies)
        best = min(closer(a) for a in moves)
        if best < 0:
            return rng.choice([a for a in moves if closer(a) == best])
    if A.Discard in by and state.sides[p].hand > 6:
        return rng.choice(by[A.Discard])
    return A.EndTurn(p)
