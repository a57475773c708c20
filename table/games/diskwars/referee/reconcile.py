"""What the camera's steady board means for Diskwars: disks seen on the battlefield at
points (by their stickers, with the fit's error). The board fits when every disk the
rules have on the battlefield is seen where they have it (within ``SAME_PLACE_MM`` and
the fit's error) and no other is seen there; one disk put down or flipped elsewhere is
explained by the deployment, reinforcement or move it makes, checked by the rules; any
other change is for ``diagnose`` to say how to put right."""

from __future__ import annotations

import math

from table.errors import ActionRefused
from table.observation import Observation, ObservedBase
from table.stickers import Stickers
from table.system import Explanation, Reconciliation

from ..actions import Action, Deploy, Move, Reinforce
from ..engine import apply
from ..geometry import overlaps
from ..layout import BATTLEFIELD
from ..stack import circle
from ..state import DEPLOY, FIELD, RESERVE, RESOLVE, State
from .wording import Words

# A disk seen this close to where the rules have it has not moved: a hand putting it
# back, a camera's fit, nothing a flip (a whole diameter) could be mistaken for.
SAME_PLACE_MM = 10.0
PILE_SLACK = 0.25  # of its diameter, for a disk partly under another


class Camera:
    def __init__(self, stickers: Stickers, words: Words) -> None:
        self.stickers = stickers
        self.words = words

    def seen(self, state: State, obs: Observation) -> dict[str, ObservedBase]:
        out: dict[str, ObservedBase] = {}
        for b in obs.regions.get(BATTLEFIELD, ()):
            ref = self.stickers.ref_of.get(b.sticker) if b.sticker is not None else None
            if ref in state.disks:
                out[ref] = b
        return out

    def _changes(self, state: State, seen: dict[str, ObservedBase]
                 ) -> tuple[list[str], list[str]]:
        """(disks seen elsewhere than the rules have them, disks on the battlefield
        that are not seen). A disk the rules have under another whose outline covers its
        centre may be hidden from the camera: unseen there is not missing. One partly
        under another is seen by the part of its outline that shows, so its centre is
        found less closely: it is in its place within ``PILE_SLACK`` of its diameter."""
        moved, missing = [], []
        for ref, d in state.disks.items():
            b = seen.get(ref)
            if d.place == FIELD and b is None:
                if not _covered(state, ref):
                    missing.append(ref)
            elif b is not None and (d.place != FIELD or math.hypot(
                    b.x_mm - d.x, b.y_mm - d.y) > SAME_PLACE_MM + b.error_mm
                    + (PILE_SLACK * circle(state, d).diameter if _under(state, ref) else 0)):
                moved.append(ref)
        return moved, missing

    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        seen = self.seen(state, obs)
        moved, missing = self._changes(state, seen)
        if not moved and not missing:
            return Reconciliation(True)
        # Each disk seen elsewhere may be the one that was put down or flipped; the
        # others then must stand where the rules have them after it (a disk it landed
        # on is seen less closely, one it covers is not seen at all).
        found = []
        for ref in moved:
            a = self._action(state, ref, seen[ref])
            if a is None:
                continue
            try:
                new, _ = apply(state, a)
            except ActionRefused:
                continue
            if self._changes(new, seen) == ([], []):
                found.append(Explanation((a,), new))
        return Reconciliation(False, found)

    @staticmethod
    def _action(state: State, ref: str, b: ObservedBase) -> Action | None:
        """What putting ``ref`` down where it is seen would be now."""
        d = state.disks[ref]
        x, y = round(b.x_mm, 1), round(b.y_mm, 1)
        if d.place == RESERVE and state.phase == DEPLOY:
            return Deploy(d.player, ref, x, y)
        if d.place == RESERVE and state.phase == RESOLVE:
            return Reinforce(d.player, ref, x, y)
        if d.place == FIELD and state.phase == RESOLVE:
            return Move(d.player, ref, x, y)
        return None

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        seen = self.seen(state, obs)
        moved, missing = self._changes(state, seen)
        out = []
        for ref in moved:
            d = state.disks[ref]
            name = self.words.disk(ref)
            if d.place == FIELD:
                out.append(f"put {name} back where it lay ({d.x:.0f}, {d.y:.0f} mm)")
            else:
                out.append(f"take {name} off the battlefield: the rules have it in the "
                           f"{'reserve' if d.place == RESERVE else 'casualty pile'}")
        for ref in missing:
            d = state.disks[ref]
            out.append(f"put {self.words.disk(ref)} back on the battlefield "
                       f"({d.x:.0f}, {d.y:.0f} mm)")
        return out


def _covered(state: State, ref: str) -> bool:
    """The rules have a disk above ``ref`` whose outline covers ``ref``'s centre."""
    d = state.disks[ref]
    return any(o.level > d.level and math.hypot(o.x - d.x, o.y - d.y) < circle(state, o).radius
               for o in state.on_field() if o is not d)


def _under(state: State, ref: str) -> bool:
    """The rules have a disk above ``ref`` overlapping it."""
    d = state.disks[ref]
    c = circle(state, d)
    return any(o.level > d.level and overlaps(c, circle(state, o))
               for o in state.on_field() if o is not d)
