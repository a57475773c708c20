"""Which disk lies on which. Disks on the battlefield have a level: a disk put down
goes above every disk it overlaps. A disk on top of another pins it, unless a third
disk lies between them: one whose level is between theirs and whose inside shares a
point with both of theirs where they overlap (``geometry.common_point``)."""

from __future__ import annotations

from .geometry import Disc, common_point, overlaps
from .state import FIELD, Disk, State


def circle(s: State, d: Disk) -> Disc:
    return Disc(d.x, d.y, s.game.catalog.sizes[s.game.catalog.disk(d.name).size])


def diameter(s: State, d: Disk) -> float:
    return s.game.catalog.sizes[s.game.catalog.disk(d.name).size]


def _pinning(s: State, top: Disk, bottom: Disk, field: list[Disk]) -> bool:
    if top.level <= bottom.level:
        return False
    a, b = circle(s, top), circle(s, bottom)
    if not overlaps(a, b):
        return False
    return not any(bottom.level < c.level < top.level and common_point(a, b, circle(s, c))
                   for c in field if c is not top and c is not bottom)


def pinners(s: State, d: Disk) -> list[Disk]:
    """The disks pinning ``d`` (on top of it, nothing between), by ref."""
    if d.place != FIELD:
        return []
    field = s.on_field()
    return sorted((t for t in field if t is not d and _pinning(s, t, d, field)),
                  key=lambda t: t.ref)


def pinned_by(s: State, d: Disk) -> list[Disk]:
    """The disks ``d`` pins, by ref."""
    if d.place != FIELD:
        return []
    field = s.on_field()
    return sorted((b for b in field if b is not d and _pinning(s, d, b, field)),
                  key=lambda b: b.ref)


def is_pinned(s: State, d: Disk) -> bool:
    return bool(pinners(s, d))


def piles(s: State) -> dict[str, list[str]]:
    """For every disk on the battlefield, the disks it pins (refs, in order): what
    ``pinned_by`` says of each, worked out once for a whole step that asks of many."""
    field = s.on_field()
    circles = {d.ref: circle(s, d) for d in field}
    out: dict[str, list[str]] = {d.ref: [] for d in field}
    for top in field:
        a = circles[top.ref]
        for bottom in field:
            if top.level <= bottom.level or not overlaps(a, b := circles[bottom.ref]):
                continue
            if not any(bottom.level < c.level < top.level
                       and common_point(a, b, circles[c.ref]) for c in field):
                out[top.ref].append(bottom.ref)
    for refs in out.values():
        refs.sort()
    return out


def pinned_refs(s: State) -> set[str]:
    """The disks pinned now."""
    return {r for refs in piles(s).values() for r in refs}


def land(s: State, d: Disk, x: float, y: float) -> None:
    """Put ``d`` down at (x, y) above every disk it overlaps there."""
    d.x, d.y, d.place = x, y, FIELD
    c = circle(s, d)
    under = [o.level for o in s.on_field() if o is not d and overlaps(c, circle(s, o))]
    if under:
        s.level_top += 1
        d.level = s.level_top
    else:
        d.level = 0
