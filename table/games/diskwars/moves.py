"""Putting disks down: deployment, reinforcement and the flip move.

* **Deploy** and **reinforce**: a disk from the reserve completely within its player's
  deployment zone, on top of the player's own disks if it lands on them, never pinning
  or overlapping an enemy disk. Reinforcing is an activation; a disk reinforced onto
  dangerous terrain rolls for it (one deployed does not).
* **Move**: up to the disk's movement in flips (``geometry.flips_needed``), ending
  completely within the battlefield, on top of whatever it lands on; a move that ends
  pinning an enemy ends there, as the rules require. The table shows where a disk
  started and where it stopped, not the path between: the referee checks the number of
  flips and the landing. What the path would decide (a disk that must stop on the first
  enemy it pins, or on rough terrain; dangerous terrain crossed on the way) is the
  players' to keep, as with any move a referee did not watch.
* After the move, a disk with impact deals its number as physical damage to each disk
  it pins (a disk on fortified terrain is immune to it); a disk that ends on dangerous
  terrain rolls a d6 and takes that much damage of the terrain's type (strider and
  flying disks ignore terrain on the way, but a flyer still ends where it ends).
"""

from __future__ import annotations

from .geometry import Disc, flip_ring, flips_needed, overlaps
from .stack import circle, diameter, is_pinned
from .state import FIELD, RESERVE, Disk, State


def _enemy_overlap(s: State, d: Disk, c: Disc) -> Disk | None:
    return next((o for o in s.on_field() if o.player != d.player and o is not d
                 and overlaps(c, circle(s, o))), None)


def placing_refusal(s: State, d: Disk, x: float, y: float) -> str | None:
    """Why ``d`` may not be put from its reserve at (x, y), or None."""
    if d.place != RESERVE:
        return f"{d.ref} ({d.name}) is not in the reserve"
    c = Disc(x, y, diameter(s, d))
    if not s.game.zones[d.player].holds(c, s.game.corner, s.game.side):
        return (f"{d.ref} at {x},{y} is not completely within {d.player}'s deployment zone "
                f"(its edge of the battlefield to medium range)")
    enemy = _enemy_overlap(s, d, c)
    if enemy is not None:
        return f"{d.ref} at {x},{y} would overlap the enemy {enemy.ref} ({enemy.name})"
    return None


def move_refusal(s: State, d: Disk, x: float, y: float) -> str | None:
    """Why ``d`` may not flip to (x, y) now, or None (its activation is checked by the
    caller)."""
    if d.place != FIELD:
        return f"{d.ref} ({d.name}) is not on the battlefield"
    if is_pinned(s, d):
        return f"{d.ref} ({d.name}) is pinned and cannot move"
    return _landing_refusal(s, d, x, y)


def _landing_refusal(s: State, d: Disk, x: float, y: float) -> str | None:
    """``move_refusal`` for a disk on the battlefield and not pinned."""
    k = s.game.catalog.disk(d.name)
    size = diameter(s, d)
    flips = flips_needed((d.x, d.y), (x, y), size)
    if flips == 0:
        return f"{d.ref} is already at {x},{y}: hold it instead of moving"
    if flips > k.movement:
        return (f"{d.ref} ({d.name}) would need {flips} flips to reach {x},{y}; its "
                f"movement is {k.movement}")
    if not s.game.holds(Disc(x, y, size)):
        return f"{d.ref} at {x},{y} would not lie completely within the battlefield"
    return None


def spots(s: State, d: Disk) -> list[tuple[float, float]]:
    """A few points where ``d`` may flip to now, in a stable order (random playouts;
    a person flips anywhere): straight flips in eight directions, and onto each enemy
    within reach. ``d`` is on the battlefield and not pinned (the caller
    knows which are, for all its disks at once)."""
    k = s.game.catalog.disk(d.name)
    size = diameter(s, d)
    out: list[tuple[float, float]] = []
    for n in range(1, k.movement + 1):
        out += flip_ring((d.x, d.y), size, n)
    for e in sorted(s.on_field(), key=lambda e: e.ref):
        if e.player != d.player:
            out.append((round(e.x, 1), round(e.y, 1)))
    return [p for p in dict.fromkeys(out) if _landing_refusal(s, d, *p) is None]


def zone_spots(s: State, d: Disk) -> list[tuple[float, float]]:
    """A few points of ``d``'s zone where it may be put down, in a stable order."""
    zone = s.game.zones[d.player]
    size = diameter(s, d)
    r = size / 2
    y = round((zone.y0 + zone.y1) / 2, 1)
    x0 = s.game.corner[0]
    xs = [round(x0 + r + 1 + i * (s.game.side - size - 2) / 7, 1) for i in range(8)]
    return [(x, y) for x in xs if placing_refusal(s, d, x, y) is None]


def flipped(d: Disk, before: tuple[float, float], size: float) -> None:
    """The face up after a move: each flip shows the other."""
    if flips_needed(before, (d.x, d.y), size) % 2:
        d.face = "back" if d.face == "front" else "front"


def dangerous(s: State, d: Disk) -> list[str]:
    """The damage types of the dangerous terrain ``d`` now overlaps."""
    c = circle(s, d)
    return [str(t.kind.keywords["dangerous"]) for t in s.game.terrain
            if "dangerous" in t.kind.keywords and overlaps(c, t.circle)]
