"""What the camera's steady board means for Diskwars: disks seen on the battlefield at
points (by their stickers, with the fit's error). The board fits when every disk the
rules have on the battlefield is seen where they have it (within ``SAME_PLACE_MM`` and
the fit's error) and no other is seen there; one disk put down or flipped elsewhere is
explained by the deployment, reinforcement or move it makes, checked by the rules; any
other change is for ``diagnose`` to say how to put right.

A disk the rules took off the battlefield (a casualty) still lies there until a hand
takes it off: it is "lingering", and seen where it lay it is no misfit (it still hides
what lies under it). Seen gone, it is forgotten (``gone``); seen anywhere else, the
board is wrong like any other."""

from __future__ import annotations

import math

from table.errors import ActionRefused
from table.observation import Observation, ObservedBase
from table.stickers import Stickers
from table.system import Explanation, Reconciliation

from ..actions import Action, Deploy, Move, Reinforce
from ..engine import apply
from ..geometry import Disc, overlaps
from ..layout import BATTLEFIELD
from ..stack import circle
from ..state import DEPLOY, FIELD, RESERVE, RESOLVE, Disk, State
from .wording import Words

# A disk seen this close to where the rules have it has not moved: a hand putting it
# back, a camera's fit, nothing a flip (a whole diameter) could be mistaken for.
SAME_PLACE_MM = 10.0
PILE_SLACK = 0.25  # of its diameter, for a disk partly under another
# How far beyond an edge the camera may read a disk put down against it: about the
# centre error's p99 on rendered piles (3.3 to 4.7 mm by condition, ``bench vision
# --game``); more would let a disk flipped off the battlefield pass for one on it.
EDGE_SLACK_MM = 3.5


Lingering = dict[str, Disc]  # disk -> where it lay when the rules took it off


class Camera:
    def __init__(self, stickers: Stickers, words: Words) -> None:
        self.stickers = stickers
        self.words = words
        self.lingering: Lingering = {}

    def seen(self, state: State, obs: Observation) -> dict[str, ObservedBase]:
        out: dict[str, ObservedBase] = {}
        for b in obs.regions.get(BATTLEFIELD, ()):
            ref = self.stickers.ref_of.get(b.sticker) if b.sticker is not None else None
            if ref in state.disks:
                out[ref] = b
        return out

    def _changes(self, state: State, seen: dict[str, ObservedBase],
                 lingering: Lingering | None = None) -> tuple[list[str], list[str]]:
        """(disks seen elsewhere than the rules have them, disks on the battlefield
        that are not seen). A disk the rules have under another whose outline covers its
        centre may be hidden from the camera: unseen there is not missing. One partly
        under another is seen by the part of its outline that shows, so its centre is
        found less closely: it is in its place within ``PILE_SLACK`` of its diameter.
        ``lingering`` (the camera's own when not given): casualties that may still lie
        where they were, on top of what they lay on."""
        lingering = self.lingering if lingering is None else lingering
        moved, missing = [], []
        for ref, d in state.disks.items():
            b = seen.get(ref)
            if d.place == FIELD:
                at: Disc | None = circle(state, d)
            else:
                at = lingering.get(ref)
            if b is None:
                if d.place == FIELD and not _covered(state, ref, lingering):
                    missing.append(ref)
            elif at is None or math.hypot(b.x_mm - at.x, b.y_mm - at.y) > (
                    SAME_PLACE_MM + b.error_mm
                    + (PILE_SLACK * at.diameter if _under(state, at, d, lingering) else 0)):
                moved.append(ref)
        return moved, missing

    def _gone(self, seen: dict[str, ObservedBase]) -> tuple[str, ...]:
        """Lingering casualties the camera no longer sees where they lay."""
        return tuple(ref for ref, at in self.lingering.items()
                     if ref not in seen or math.hypot(seen[ref].x_mm - at.x,
                                                      seen[ref].y_mm - at.y) > SAME_PLACE_MM
                     + seen[ref].error_mm + PILE_SLACK * at.diameter)

    def played(self, before: State, after: State) -> None:
        """Disks ``before`` -> ``after`` took off the battlefield linger where they lay
        until the camera sees them gone; a disk back on it lingers no more."""
        for ref, d in after.disks.items():
            b = before.disks.get(ref)
            if d.place == FIELD:
                self.lingering.pop(ref, None)
            elif b is not None and b.place == FIELD:
                self.lingering[ref] = circle(before, b)

    def settle(self, verdict: Reconciliation) -> None:
        for ref in verdict.gone:
            self.lingering.pop(ref, None)

    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        seen = self.seen(state, obs)
        gone = self._gone(seen)
        moved, missing = self._changes(state, seen)
        if not moved and not missing:
            return Reconciliation(True, gone=gone)
        # Each disk seen elsewhere may be the one that was put down or flipped; the
        # others then must stand where the rules have them after it (a disk it landed
        # on is seen less closely, one it covers is not seen at all; one it made a
        # casualty still lies where it was).
        found = []
        for ref in moved:
            for x, y in _read_points(state, ref, seen[ref]):
                a = self._action(state, ref, x, y)
                if a is None:
                    break
                try:
                    new, _ = apply(state, a)
                except ActionRefused:
                    continue
                if self._changes(new, seen, {**self.lingering, **_left(state, new)}) \
                        == ([], []):
                    found.append(Explanation((a,), new))
                break
        return Reconciliation(False, found, gone=gone)

    @staticmethod
    def _action(state: State, ref: str, x: float, y: float) -> Action | None:
        """What putting ``ref`` down at ``x``, ``y`` would be now."""
        d = state.disks[ref]
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


def _read_points(state: State, ref: str, b: ObservedBase) -> list[tuple[float, float]]:
    """Where ``ref`` may have been put down, seen at ``b``: there, and, when that is
    within the camera's error (``EDGE_SLACK_MM``) of an edge it must lie inside, the
    same point moved inside the battlefield and inside its player's zone. A disk put
    down against the edge is read up to that far beyond it; the rules would refuse
    the reading, not the disk."""
    x, y = round(b.x_mm, 1), round(b.y_mm, 1)
    d = state.disks[ref]
    r = circle(state, d).radius
    (cx, cy), side = state.game.corner, state.game.side
    lo_x, hi_x = cx + r, cx + side - r
    lo_y, hi_y = cy + r, cy + side - r
    out = [(x, y)]
    inside = (min(max(x, lo_x), hi_x), min(max(y, lo_y), hi_y))
    zone = state.game.zones.get(d.player)
    if zone is not None and d.place == RESERVE:
        out.append((inside[0], min(max(inside[1], zone.y0 + r), zone.y1 - r)))
    out.append(inside)
    return [p for i, p in enumerate(out) if p not in out[:i]
            and math.hypot(p[0] - x, p[1] - y) <= EDGE_SLACK_MM + b.error_mm]


def _left(before: State, after: State) -> Lingering:
    """The disks ``before`` -> ``after`` took off the battlefield, where they lay."""
    return {ref: circle(before, b) for ref, b in before.disks.items()
            if b.place == FIELD and after.disks[ref].place != FIELD}


def _above(state: State, d: Disk, lingering: Lingering) -> list[Disc]:
    """What may lie on ``d``: the disks the rules have above it, and the casualties
    still lying where they were (which lay on top of it or beside it: taken as above)."""
    out = [circle(state, o) for o in state.on_field() if o is not d and o.level > d.level]
    # (one an undo put back on the battlefield is among the disks already)
    return out + [c for ref, c in lingering.items()
                  if ref != d.ref and state.disks[ref].place != FIELD]


def _covered(state: State, ref: str, lingering: Lingering) -> bool:
    """Something above ``ref`` has an outline covering ``ref``'s centre."""
    d = state.disks[ref]
    return any(math.hypot(o.x - d.x, o.y - d.y) < o.radius
               for o in _above(state, d, lingering))


def _under(state: State, at: Disc, d: Disk, lingering: Lingering) -> bool:
    """Something above ``d`` (lying at ``at``) overlaps it."""
    return any(overlaps(at, o) for o in _above(state, d, lingering))
