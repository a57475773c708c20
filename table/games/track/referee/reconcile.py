"""What the camera's steady board means for Track: pawns seen per space (by their
stickers); the board fits, or one legal move explains the change, or nothing does and
``diagnose`` says which pawn to put back where."""

from __future__ import annotations

from table.observation import Observation
from table.stickers import Stickers
from table.system import Explanation, Reconciliation

from ..actions import Advance
from ..engine import apply, legal_actions
from ..state import SPACES, State


class Camera:
    def __init__(self, stickers: Stickers) -> None:
        self.stickers = stickers

    def seen(self, state: State, obs: Observation) -> dict[str, str | None]:
        where: dict[str, str | None] = dict.fromkeys(state.pawns)
        for space in SPACES:
            for b in obs.regions.get(space, ()):
                ref = self.stickers.ref_of.get(b.sticker) if b.sticker is not None else None
                if ref in where:
                    where[ref] = space
        return where

    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        seen = self.seen(state, obs)
        if seen == state.placed():
            return Reconciliation(True)
        found = []
        for a in legal_actions(state):
            if isinstance(a, Advance):
                new, _ = apply(state, a)
                if new.placed() == seen:
                    found.append(Explanation((a,), new))
        return Reconciliation(False, found)

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        seen = self.seen(state, obs)
        return [f"put {ref} {'on ' + at if at else 'off the track'}"
                for ref, at in state.placed().items() if seen[ref] != at]
