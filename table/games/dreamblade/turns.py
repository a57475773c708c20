"""The turn sequence: initiative, spawn phases, action phases, conquest.

    initiative -> first player's spawn -> second player's spawn      (skipped on a 1)
               -> first player's action phases 1, 2
               -> second player's action phases 1, 2 -> conquest -> next turn
"""

from __future__ import annotations

from collections.abc import Iterator

from . import actions as A
from ._common import require_phase
from .board import PLAYERS, other, player_index
from .errors import Code, IllegalActionError, InvalidActionError
from .events import Event
from .fates import active_ability
from .game import WINNING_TURNS
from .state import ConquestResult, Phase, State


def check_initiative(s: State, a: A.Initiative) -> tuple[str, bool]:
    """Returns (first player, spawn phases skipped) or raises."""
    require_phase(s, Phase.INITIATIVE, None, "roll initiative")
    for player, roll in (("p1", a.p1), ("p2", a.p2)):
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
            raise InvalidActionError(Code.BAD_DIE_FACE,
                                     f"{player}'s initiative die shows {roll!r}; a d6 shows 1-6")
    if s.turn == 1 and 1 in (a.p1, a.p2):
        who = " and ".join(p for p, r in (("p1", a.p1), ("p2", a.p2)) if r == 1)
        raise IllegalActionError(Code.REROLL_REQUIRED,
                                 f"first turn: {who} rolled a 1, which is rerolled")
    if a.p1 == a.p2:
        won = s.turns_won
        if s.turn == 1 or won[0] == won[1]:
            raise IllegalActionError(Code.REROLL_REQUIRED,
                                     f"both rolled {a.p1} and neither has won more turns: reroll")
        first = "p1" if won[0] > won[1] else "p2"
    else:
        first = "p1" if a.p1 > a.p2 else "p2"
    return first, (1 in (a.p1, a.p2))


def apply_initiative(s: State, a: A.Initiative, ev: list[Event]) -> None:
    first, skip = check_initiative(s, a)
    s.first_player = first
    s.rolls = (a.p1, a.p2)
    ev.append(Event("initiative", {"turn": s.turn, "rolls": {"p1": a.p1, "p2": a.p2},
                                   "first": first,
                                   "spawn_skipped": skip}))
    if skip:
        begin_action(s, first, 1, ev)
    else:
        begin_spawn(s, first, ev)


def legal_initiatives(s: State) -> Iterator[A.Initiative]:
    for r1 in range(1, 7):
        for r2 in range(1, 7):
            a = A.Initiative(r1, r2)
            try:
                check_initiative(s, a)
            except IllegalActionError:
                continue
            yield a


def begin_spawn(s: State, player: str, ev: list[Event]) -> None:
    """Start ``player``'s spawn phase: dice total plus waiting bonus points."""
    p = player_index(player)
    assert s.rolls is not None
    s.phase, s.active, s.action_index = Phase.SPAWN, player, None
    s.spawn_points = [0, 0]
    # Energize X: X more points for each such miniature its player controls.
    energy = sum(ab.number or 0 for g in s.game.owned[p]
                 if (ab := active_ability(s, g, "Energize")) is not None)
    s.spawn_points[p] = s.rolls[0] + s.rolls[1] + s.bonus_points[p] + energy
    s.bonus_points[p] = 0
    # Spawn-row cells holding an ally creature now stay closed for the whole phase.
    s.spawn_start_cells = frozenset(s.cell[g] for g in s.game.owned[p]
                                    if s.cell[g] >= 0 and s.game.minis[g].d.is_creature)
    s.spawned_into = {}
    s.abilities_used = frozenset()
    ev.append(Event("phase", {"phase": "spawn", "player": player,
                              "spawn_points": s.spawn_points[p]}))


def begin_action(s: State, player: str, index: int, ev: list[Event]) -> None:
    s.phase, s.active, s.action_index = Phase.ACTION, player, index
    s.spawn_points = [0, 0]
    s.mode, s.moved, s.fought, s.combat = None, frozenset(), frozenset(), None
    ev.append(Event("phase", {"phase": "action", "player": player, "index": index}))


def end_of_phase(s: State) -> None:
    """Damage that did not disrupt or destroy clears at the end of every phase."""
    s.damage = [0] * len(s.damage)


def apply_end_phase(s: State, a: A.EndPhase, ev: list[Event]) -> None:
    if s.phase is Phase.INITIATIVE:
        raise IllegalActionError(Code.WRONG_PHASE, "roll initiative first; nothing to end")
    require_phase(s, s.phase, a.player, "end the phase")
    if s.combat is not None:
        raise IllegalActionError(Code.COMBAT_IN_PROGRESS,
                                 f"finish the combat in {s.game.board.cell_names[s.combat.cell]}"
                                 " before ending the phase")
    end_of_phase(s)
    first = s.first_player
    assert first is not None
    second = other(first)
    if s.phase is Phase.SPAWN:
        spent_left = s.spawn_points[player_index(a.player)]
        ev.append(Event("phase_end", {"phase": "spawn", "player": a.player,
                                      "wasted_points": spent_left}))
        s.spawn_points = [0, 0]
        if a.player == first:
            begin_spawn(s, second, ev)
        else:
            begin_action(s, first, 1, ev)
        return
    ev.append(Event("phase_end", {"phase": "action", "player": a.player,
                                  "index": s.action_index,
                                  "mode": s.mode.value if s.mode else "pass"}))
    if s.action_index == 1:
        begin_action(s, a.player, 2, ev)
    elif a.player == first:
        begin_action(s, second, 1, ev)
    else:
        conquest(s, ev)


def conquest_points(s: State) -> tuple[int, int]:
    """Scoring cells claimed plus one point per enemy miniature destroyed this turn."""
    board = s.game.board
    points = list(s.kills)
    for p in (0, 1):
        for c, value in board.scoring[p].items():
            mine = s.creatures_in(c, p)
            # Dominate claims a scoring cell even while enemies contest it.
            if mine and (not s.creatures_in(c, 1 - p)
                         or any(active_ability(s, g, "Dominate") for g in mine)):
                points[p] += value
    return points[0], points[1]


def conquest(s: State, ev: list[Event]) -> None:
    pts = conquest_points(s)
    winner = None if pts[0] == pts[1] else ("p1" if pts[0] > pts[1] else "p2")
    result = ConquestResult(s.turn, pts, winner)
    s.conquest = (*s.conquest, result)
    if winner:
        s.turns_won[player_index(winner)] += 1
    ev.append(Event("conquest", result.to_dict()))
    s.kills = [0, 0]
    s.mode, s.moved, s.fought, s.combat = None, frozenset(), frozenset(), None
    s.active, s.action_index, s.first_player, s.rolls = None, None, None, None
    s.spawn_points = [0, 0]
    if winner and s.turns_won[player_index(winner)] >= WINNING_TURNS:
        s.phase, s.winner = Phase.GAME_OVER, winner
        ev.append(Event("game_over", {"winner": winner, "turn": s.turn}))
        return
    s.turn += 1
    s.phase = Phase.INITIATIVE
    ev.append(Event("turn", {"turn": s.turn}))


__all__ = ["PLAYERS", "apply_end_phase", "apply_initiative", "conquest_points",
           "legal_initiatives"]
