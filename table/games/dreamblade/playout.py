"""Random playouts: random legal decisions and random dice until the game ends.

Used by the property tests and by ``tablesight bench rules``. Dice follow the real dice:
the initiative d6, and attack dice with faces 1, 2, 3, miss, miss, blade.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from . import actions as A
from . import stats
from .engine import apply, legal_actions
from .errors import RulesError
from .events import Event
from .state import Phase, State, Step

ATTACK_DIE: tuple[A.Face, ...] = (1, 2, 3, "miss", "miss", "blade")


def roll_attack_dice(rng: random.Random, n: int) -> tuple[A.Face, ...]:
    return tuple(rng.choice(ATTACK_DIE) for _ in range(n))


def chance_action(state: State, rng: random.Random) -> A.Action | None:
    """The dice the table would roll now, or None if a player decides."""
    if state.phase is Phase.INITIATIVE:
        return A.Initiative(rng.randint(1, 6), rng.randint(1, 6))
    c = state.combat
    if c is not None and c.step is Step.ROLL:
        return A.Roll(c.attack.player, roll_attack_dice(rng, c.attack.dice - len(c.attack.roll)))
    return None


@dataclass
class Playout:
    final: State
    actions: list[A.Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    rerolls: int = 0
    capped: bool = False


Policy = Callable[[State, Sequence[A.Action], random.Random], A.Action]


def uniform_policy(state: State, legal: Sequence[A.Action], rng: random.Random) -> A.Action:
    return rng.choice(legal)


def play_random_game(state: State, rng: random.Random, max_turns: int = 60,
                     policy: Policy = uniform_policy,
                     on_step: Callable[[State, A.Action, State], None] | None = None,
                     keep_events: bool = False) -> Playout:
    """Play from ``state`` to the end (or ``max_turns``); returns the record."""
    out = Playout(state)
    while state.phase is not Phase.GAME_OVER and state.turn <= max_turns:
        action = chance_action(state, rng)
        if action is None:
            action = policy(state, legal_actions(state), rng)
        try:
            new, events = apply(state, action)
        except RulesError:
            if not isinstance(action, A.Initiative):
                raise  # a legal action or a die roll was refused: an engine bug
            out.rerolls += 1  # first-turn 1s and ties are rolled again
            continue
        out.actions.append(action)
        if keep_events:
            out.events.extend(events)
        if on_step:
            on_step(state, action, new)
        state = new
    out.final = state
    out.capped = state.phase is not Phase.GAME_OVER
    return out


def table_policy(state: State, legal: Sequence[A.Action], rng: random.Random) -> A.Action:
    """A plausible player, for demos: spawns its biggest affordable miniature, strikes
    wherever it is engaged, otherwise walks toward the scoring cells and the enemy, puts
    damage where it kills."""
    game = state.game
    board = game.board
    spawns = [a for a in legal if isinstance(a, A.Spawn)]
    if spawns:
        best = max(game.minis[game.by_ref[a.mini]].d.cost for a in spawns)
        return rng.choice([a for a in spawns if game.minis[game.by_ref[a.mini]].d.cost == best])
    # Spawn abilities once nothing more can be spawned (a triggered choice: any of them).
    activations = [a for a in legal if isinstance(a, A.Activate)]
    if activations:
        return rng.choice([a for a in activations if a.target is not None] or activations)
    attacks = [a for a in legal if isinstance(a, A.Attack)]
    moves = [a for a in legal if isinstance(a, A.Move)]
    good: list[A.Move] = []
    if moves:
        player = moves[0].player
        p = 0 if player == "p1" else 1
        enemies = {state.cell[g] for g in game.owned[1 - p]
                   if state.cell[g] >= 0 and game.creature[g]}
        goals = enemies or set(board.scoring[p])

        def gain(a: A.Move) -> int:
            here = state.cell[game.by_ref[a.mini]]
            dest = board.index(a.cell)
            return (min(board.distance(here, x) for x in goals)
                    - min(board.distance(dest, x) for x in goals))

        good = [a for a in moves if gain(a) > 0]
    if attacks:
        most = max(len(a.attackers) for a in attacks)
        engaged_power = sum(stats.power(state, game.by_ref[m])
                            for a in attacks if len(a.attackers) == most for m in a.attackers)
        # Strike with everything engaged, unless the fight is small and help can walk in.
        if state.mode is not None or engaged_power >= 4 or not good:
            return rng.choice([a for a in attacks if len(a.attackers) == most])
    if good:
        return rng.choice(good)
    damage = [a for a in legal if isinstance(a, A.AssignDamage)]
    if damage:
        # Everything left on the target closest to being destroyed.
        def left(a: A.AssignDamage) -> tuple[int, int]:
            g = game.by_ref[a.target]
            return (stats.life(state, g) - state.damage[g], -a.amount)

        return min(damage, key=left)
    outcomes = [a for a in legal if isinstance(a, A.ChooseOutcome)]
    if outcomes:
        return next(a for a in outcomes if a.outcome == "destroy")
    if any(isinstance(a, A.Roll) for a in legal):
        return next(a for a in legal if isinstance(a, A.Roll))
    ends = [a for a in legal if isinstance(a, A.EndPhase)]
    if ends:
        return ends[0]
    return rng.choice(list(legal))
