"""What the camera's steady board means for Track: pawns seen per space (by their
stickers) and in the meadow (at a point, with the fit's error); the board fits, or one
legal move explains the change, or nothing does and ``diagnose`` says which pawn to put
back where. A pawn put out to graze is judged by its measured place: too close to the
limit to call, the players are asked."""

from __future__ import annotations

from table.measure import Verdict
from table.observation import Observation, ObservedBase
from table.stickers import Stickers
from table.system import Explanation, Reconciliation

from ..actions import Advance, Graze
from ..engine import apply, legal_actions
from ..layout import PAWN_MM, WELL
from ..meadow import judge, pawn_at
from ..state import MEADOW, SPACES, State
from .wording import Words


class Camera:
    def __init__(self, stickers: Stickers, words: Words) -> None:
        self.stickers = stickers
        self.words = words

    def seen(self, state: State, obs: Observation
             ) -> tuple[dict[str, str | None], dict[str, ObservedBase]]:
        """Where each pawn is seen (a space, the meadow, or None), and the bases seen
        in the meadow by pawn."""
        where: dict[str, str | None] = dict.fromkeys(state.pawns)
        grazing: dict[str, ObservedBase] = {}
        for region in (*SPACES, MEADOW):
            for b in obs.regions.get(region, ()):
                ref = self.stickers.ref_of.get(b.sticker) if b.sticker is not None else None
                if ref in where:
                    where[ref] = region
                    if region == MEADOW:
                        grazing[ref] = b
        return where, grazing

    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        seen, grazing = self.seen(state, obs)
        if seen == state.placed():
            return Reconciliation(True)
        found = []
        for a in legal_actions(state):
            if isinstance(a, Advance):
                new, _ = apply(state, a)
                if new.placed() == seen:
                    found.append(Explanation((a,), new))
        newly = [r for r in grazing if state.at(r) != MEADOW]
        if found or len(newly) != 1:
            return Reconciliation(False, found)
        pawn, b = newly[0], grazing[newly[0]]
        if {r: w for r, w in seen.items() if r != pawn} != \
                {r: w for r, w in state.placed().items() if r != pawn}:
            return Reconciliation(False)
        verdict, near = judge(state, pawn, pawn_at(b.x_mm, b.y_mm, b.error_mm))
        if verdict is Verdict.NO:
            return Reconciliation(False)
        x, y = b.x_mm, b.y_mm
        if verdict is Verdict.ASK and near is not None and near.measured.mm > near.limit:
            # Measured just beyond the limit: a "yes" from the players puts the pawn
            # where the rules allow it, the nearest such point (as they see it there).
            k = (near.limit - PAWN_MM / 2 - 0.1) / (near.measured.mm - PAWN_MM / 2)
            x, y = WELL[0] + (x - WELL[0]) * k, WELL[1] + (y - WELL[1]) * k
        a = Graze(state.active, pawn, round(x, 1), round(y, 1))
        try:
            new, _ = apply(state, a)
        except ValueError:  # the rounded point fell on the wrong side of the limit
            return Reconciliation(False)
        if verdict is Verdict.YES:
            return Reconciliation(False, [Explanation((a,), new)])
        name = self.words.pawn(pawn)
        what = f"{name} wholly within 4\" of the well" if near is not None \
            else f"{name} in the meadow, clear of the other grazing pawns"
        return Reconciliation(False, [Explanation((a,), new)],
                              question=near.question(what) if near is not None
                              else f"is {what}? it is too close to call")

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        seen, _ = self.seen(state, obs)
        out = []
        for ref, at in state.placed().items():
            if seen[ref] == at:
                continue
            if seen[ref] == MEADOW:
                out.append(f"put {ref} back on {at or 'its start, off the track'}: it may "
                           "graze only from home, wholly within 4\" of the well")
            else:
                out.append(f"put {ref} {'on ' + at if at else 'off the track'}"
                           if at != MEADOW else f"put {ref} back in the meadow")
        return out
