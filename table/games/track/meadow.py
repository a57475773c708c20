"""The meadow: where a pawn home may graze. Its one rule is a measured one, the example
of free placement: a pawn of the active player on the last space may, in place of a move
by the roll, be put anywhere in the meadow *wholly within four inches of the well*, on
no other grazing pawn. The point is the action's argument, so a placement cannot be
listed, only checked; ``spots`` gives a few for random playouts.

Measured with ``table.measure``: a point the camera saw too close to the limit to call is
put to the players, never decided here."""

from __future__ import annotations

import math

from table.measure import Circle, Judgement, Verdict, completely_in_area, inches, near_point
from table.measure import overlap as overlapping

from .layout import MEADOW_OUTLINE, PAWN_MM, WELL
from .state import HOME, State

REACH = inches(4)  # a grazing pawn stands wholly within this of the well
# Where the sample grazing spots lie: the well, then rings of points around it.
_RINGS = ((0.0, 1), (45.0, 6), (80.0, 8))


def pawn_at(x: float, y: float, error: float = 0.0) -> Circle:
    return Circle(x, y, PAWN_MM, error)


def judge(state: State, pawn: str, where: Circle) -> tuple[Verdict, Judgement | None]:
    """May ``pawn`` graze where ``where`` stands? YES, NO (with the measurement that
    failed, if one did) or ASK (a measurement within its error of the limit)."""
    if state.roll is None or state.winner or pawn not in state.pawns \
            or pawn[:2] != state.active or state.at(pawn) != HOME:
        return Verdict.NO, None
    near = near_point(where, WELL, REACH, completely=True)
    verdicts = [near.verdict, completely_in_area(where, MEADOW_OUTLINE)]
    for other, spot in zip(state.pawns, state.spots, strict=False):
        if spot is not None and other != pawn:
            verdicts.append(overlapping(where, pawn_at(*spot)).negated())
    if Verdict.NO in verdicts:
        return Verdict.NO, near if near.verdict is Verdict.NO else None
    if Verdict.ASK in verdicts:
        return Verdict.ASK, near if near.verdict is Verdict.ASK else None
    return Verdict.YES, near


def refusal(state: State, pawn: str, x: float, y: float) -> str | None:
    """Why ``pawn`` may not graze at (x, y), or None. A typed point is taken as exact."""
    if state.roll is None:
        return "roll the die first"
    if pawn not in state.pawns or pawn[:2] != state.active:
        return f"{pawn} is not one of {state.active}'s pawns"
    if state.at(pawn) != HOME:
        return f"{pawn} is not home on {HOME}: only a pawn home grazes"
    verdict, near = judge(state, pawn, pawn_at(x, y))
    if verdict is Verdict.YES:
        return None
    if near is not None:
        return (f"{x},{y} is not wholly within 4\" of the well "
                f"(its far edge is {near.measured} away)")
    return f"{x},{y} is outside the meadow or on another grazing pawn"


def spots(state: State, pawn: str) -> list[tuple[float, float]]:
    """A few points where ``pawn`` may graze now, in a stable order: what random
    playouts and benches choose among (a person may pick any other)."""
    out = []
    for radius, n in _RINGS:
        for k in range(n):
            a = 2 * math.pi * k / n
            x = round(WELL[0] + radius * math.cos(a), 1)
            y = round(WELL[1] + radius * math.sin(a), 1)
            if refusal(state, pawn, x, y) is None:
                out.append((x, y))
    return out
