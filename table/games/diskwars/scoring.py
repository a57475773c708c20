"""The end of the fifth round: disks left in a reserve go to their casualty pile, and
each player scores victory points by his objective. The built-in catalog has no
objective cards yet, so every player plays the standard objective: one point for each
enemy disk in the enemy's casualty pile and one for each terrain piece the player
controls (a disk of his overlaps it and no enemy disk does). The most points win; a tie
goes to the first player, the rules' initiative order."""

from __future__ import annotations

from table.system import Event

from .geometry import overlaps
from .stack import circle
from .state import CASUALTY, OVER, PLAYERS, RESERVE, State, other


def controller(s: State, index: int) -> str | None:
    """Who controls terrain piece ``index`` now, if anyone."""
    t = s.game.terrain[index].circle
    on = {d.player for d in s.on_field() if overlaps(circle(s, d), t)}
    return on.pop() if len(on) == 1 else None


def points(s: State) -> dict[str, int]:
    out = {}
    for p in PLAYERS:
        fallen = sum(1 for d in s.disks.values() if d.player == other(p)
                     and d.place == CASUALTY)
        held = sum(1 for i in range(len(s.game.terrain)) if controller(s, i) == p)
        out[p] = fallen + held
    return out


def finish(s: State, ev: list[Event]) -> None:
    for d in s.disks.values():
        if d.place == RESERVE:
            d.place = CASUALTY
    s.scores = points(s)
    s.phase = OVER
    a, b = s.first, other(s.first)
    s.winner = a if s.scores[a] >= s.scores[b] else b
    ev.append(Event("game_over", {"winner": s.winner, "scores": dict(s.scores),
                                  "reason": "five rounds"}))
