"""Shift: each unengaged creature of the active player may move one cell, orthogonally."""

from __future__ import annotations

from . import actions as A
from ._common import cell, gid, name_of, require_own, require_phase
from .board import STACKING_LIMIT
from .errors import Code, IllegalActionError
from .events import Event
from .state import Mode, Phase, State, Zone
from .triggers import entered
from .turns import apply_end_phase


def check_move(s: State, a: A.Move) -> tuple[int, int]:
    require_phase(s, Phase.ACTION, a.player, "shift")
    if s.combat is not None:
        raise IllegalActionError(Code.COMBAT_IN_PROGRESS,
                                 f"finish the attacks in {name_of(s, s.combat.cell)} first")
    if s.mode is Mode.STRIKE:
        raise IllegalActionError(Code.ALREADY_STRUCK,
                                 f"{a.player} struck this action phase and cannot also shift")
    g = gid(s, a.mini)
    require_own(s, g, a.player)
    m = s.game.minis[g]
    if s.zone[g] is not Zone.DREAMSCAPE:
        raise IllegalActionError(Code.NOT_IN_DREAMSCAPE,
                                 f"{a.mini} is in the {s.zone[g].value}, not in the dreamscape")
    if not m.d.is_creature:
        raise IllegalActionError(Code.CANNOT_MOVE, f"{a.mini} is a location; locations never move")
    if g in s.moved:
        raise IllegalActionError(Code.MOVED_TWICE, f"{a.mini} already moved in this shift")
    dest = cell(s, a.cell)
    here = s.cell[g]
    if not s.game.board.adjacent(here, dest):
        raise IllegalActionError(Code.NOT_ADJACENT,
                                 f"{a.mini} is in {name_of(s, here)}; {a.cell} is not "
                                 "orthogonally adjacent")
    if s.is_engaged(g):
        raise IllegalActionError(Code.ENGAGED_CANNOT_MOVE,
                                 f"{a.mini} is engaged in {name_of(s, here)} and cannot move")
    if m.d.has("Defender") and s.creatures_in(dest, 1 - m.pidx):
        raise IllegalActionError(Code.DEFENDER_CANNOT_ENTER,
                                 f"{a.mini} has Defender and cannot shift into {a.cell}, "
                                 "which holds enemy creatures")
    if len(s.creatures_in(dest, m.pidx)) >= STACKING_LIMIT:
        raise IllegalActionError(Code.STACKING_LIMIT,
                                 f"{a.player} already has {STACKING_LIMIT} creatures in {a.cell}")
    return g, dest


def apply_move(s: State, a: A.Move, ev: list[Event]) -> None:
    g, dest = check_move(s, a)
    src = s.cell[g]
    s.cell[g] = dest
    s.moved = s.moved | {g}
    s.mode = Mode.SHIFT
    ev.append(Event("moved", {"mini": a.mini, "from": name_of(s, src), "to": a.cell}))
    entered(s, g, ev)


def apply_shift(s: State, a: A.Shift, ev: list[Event]) -> None:
    """The whole shift of this action phase; the phase then ends."""
    require_phase(s, Phase.ACTION, a.player, "shift")
    if s.mode is Mode.STRIKE:
        raise IllegalActionError(Code.ALREADY_STRUCK,
                                 f"{a.player} struck this action phase and cannot also shift")
    s.mode = Mode.SHIFT
    for mini, dest in a.moves:
        apply_move(s, A.Move(a.player, mini, dest), ev)
        if s.combat is not None:
            # Charge and Ambush roll dice: the compound form has none to give.
            raise IllegalActionError(Code.COMBAT_IN_PROGRESS,
                                     f"{mini} entering {dest} triggers attacks: shift move by "
                                     "move so their dice can be rolled")
    apply_end_phase(s, A.EndPhase(a.player), ev)


def legal_moves(s: State) -> list[A.Move]:
    if s.phase is not Phase.ACTION or s.mode is Mode.STRIKE or s.combat is not None:
        return []
    player = s.active
    assert player is not None
    p = 0 if player == "p1" else 1
    creature, where = s.game.creature, s.cell
    counts: dict[int, int] = {}
    for g in s.game.owned[p]:
        if where[g] >= 0 and creature[g]:
            counts[where[g]] = counts.get(where[g], 0) + 1
    enemy_cells = {where[g] for g in s.game.owned[1 - p] if where[g] >= 0 and creature[g]}
    out: list[A.Move] = []
    for g in s.game.owned[p]:
        here = where[g]
        if here < 0 or g in s.moved or not creature[g] or here in enemy_cells:
            continue
        defender, steps = _steps(s, player, g, here)
        for dest, move in steps:
            if counts.get(dest, 0) >= STACKING_LIMIT or (defender and dest in enemy_cells):
                continue
            out.append(move)
    return out


def _steps(s: State, player: str, g: int, here: int
           ) -> tuple[bool, tuple[tuple[int, A.Move], ...]]:
    """Whether miniature ``g`` is a Defender, and its move into each cell beside
    ``here``: listing moves asks the same again and again, so it is kept with the game."""
    interned = s.game.interned
    key = ("steps", g, here)
    found = interned.get(key)
    if found is None:
        board, mini = s.game.board, s.game.minis[g]
        found = interned[key] = (mini.d.has("Defender"), tuple(
            (dest, A.Move(player, mini.ref, board.cell_names[dest]))
            for dest in board.neighbours[here]))
    return found  # type: ignore[no-any-return]
