"""The battlefield's geometry, in map millimetres: disks and terrain pieces are circles
(``table.measure.Circle`` from the camera, ``Disc`` for the rules' own). Pure and exact
on the numbers it is given; what a camera's error makes uncertain is judged by the
referee with ``table.measure``'s verdicts.

* **Overlap**: two circles overlap when their insides share a point; touching edges do
  not overlap (a disk that only touches terrain is not on it).
* **Flips** (``flips_needed``): a flip turns a disk end over end about a point of its
  edge, so its centre lands one diameter away, in any direction. One flip reaches the
  ring one diameter out; two or more reach anywhere within that many diameters (two
  flips at an angle land at any distance up to two diameters). A hand does not flip to
  the millimetre: each flip may land ``FLIP_SLACK`` short or long.
* **Range** (``band``): measured from the surface of one disk to the surface of the
  other (edge to edge), with the ruler's bands from the catalog: the first band whose
  end the gap does not pass; siege beyond long.
* **Line of sight** (``sight``): a straight line from any point of one disk to any point
  of the other that enters no blocking terrain piece (it may graze its edge). If such a
  line exists, one exists that touches two of the circles involved (slide a clear line
  sideways until it touches one, then turn it about that point until it touches
  another), so the common tangents of every pair decide it exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol


class Round(Protocol):
    """A circle as this module reads it: ``table.measure.Circle`` (what the camera
    measured, with its error) or ``Disc`` (the rules' own)."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def diameter(self) -> float: ...
    @property
    def radius(self) -> float: ...


class Disc(NamedTuple):
    """A disk or terrain piece where the rules have it, exactly: a plain value, as the
    rules make thousands a second (``table.measure.Circle`` checks its numbers, which
    the rules' own have been already)."""

    x: float
    y: float
    diameter: float

    @property
    def radius(self) -> float:
        return self.diameter / 2

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x, self.y)


EPS = 1e-6  # mm: floating-point noise, never a measurement
FLIP_SLACK = 3.0  # mm a hand's flip may land from one diameter exactly


def centre_gap(a: Round, b: Round) -> float:
    return math.hypot(b.x - a.x, b.y - a.y)


def overlaps(a: Round, b: Round) -> bool:
    return centre_gap(a, b) < a.radius + b.radius - EPS


def edge_gap(a: Round, b: Round) -> float:
    """Surface to surface (0 when they touch or overlap)."""
    return max(0.0, centre_gap(a, b) - a.radius - b.radius)


def band(gap: float, ruler: Sequence[tuple[str, float]]) -> str:
    """The range band a gap (mm) falls in: short, medium, long or siege."""
    for name, end in ruler:
        if gap <= end + EPS:
            return name
    return "siege"


def flips_needed(start: tuple[float, float], end: tuple[float, float],
                 diameter: float) -> int:
    """The fewest flips that carry a disk's centre from ``start`` to ``end``."""
    d = math.hypot(end[0] - start[0], end[1] - start[1])
    if d <= EPS:
        return 0
    if abs(d - diameter) <= FLIP_SLACK:
        return 1
    return max(2, math.ceil((d - FLIP_SLACK) / diameter - EPS))


def flip_ring(start: tuple[float, float], diameter: float, flips: int,
              directions: int = 8) -> list[tuple[float, float]]:
    """Points ``flips`` straight flips away in ``directions`` evenly spread directions,
    rounded to a tenth of a millimetre (samples for random playouts)."""
    out = []
    for k in range(directions):
        a = 2 * math.pi * k / directions
        out.append((round(start[0] + flips * diameter * math.cos(a), 1),
                    round(start[1] + flips * diameter * math.sin(a), 1)))
    return out


def within_square(c: Round, corner: tuple[float, float], side: float) -> bool:
    """Wholly within the battlefield, a square of ``side`` from ``corner``."""
    r, (x0, y0) = c.radius, corner
    return x0 + r - EPS <= c.x <= x0 + side - r + EPS \
        and y0 + r - EPS <= c.y <= y0 + side - r + EPS


def common_point(a: Round, b: Round, c: Round) -> bool:
    """The insides of three circles share a point."""
    if not (overlaps(a, b) and overlaps(b, c) and overlaps(a, c)):
        return False
    circles = (a, b, c)
    # The intersection, if not empty, holds a centre of one of them or a point where
    # two outlines cross (nudged inward): test those.
    candidates = [x.centre for x in circles]
    for p, q in ((a, b), (b, c), (a, c)):
        candidates += _crossings(p, q)
    return any(all(math.hypot(x - k.x, y - k.y) < k.radius - EPS / 2 for k in circles)
               for x, y in candidates)


def _crossings(p: Round, q: Round) -> list[tuple[float, float]]:
    d = centre_gap(p, q)
    if d <= EPS or d >= p.radius + q.radius or d <= abs(p.radius - q.radius):
        return []
    a = (p.radius ** 2 - q.radius ** 2 + d * d) / (2 * d)
    h = math.sqrt(max(0.0, p.radius ** 2 - a * a))
    ux, uy = (q.x - p.x) / d, (q.y - p.y) / d
    mx, my = p.x + a * ux, p.y + a * uy
    # Nudged toward the lens's middle, so a crossing counts as inside both.
    inward = 1e-4
    return [(mx - uy * (h - inward), my + ux * (h - inward)),
            (mx + uy * (h - inward), my - ux * (h - inward))]


# -- line of sight --------------------------------------------------------------------
_HAIR = 1e-4  # mm: the ends shrink and the blockers grow by this, so grazing is clear


def sight(a: Round, b: Round, blockers: Iterable[Round]) -> bool:
    """A straight line joins some point of ``a`` to some point of ``b`` entering no
    blocker's inside. The caller leaves out the blockers ``a`` or ``b`` overlaps."""
    return overlaps(a, b) or clear_line(a, b, blockers) is not None


def clear_line(a: Round, b: Round, blockers: Iterable[Round]) -> Line | None:
    """A line (a point and a direction) that joins ``a`` and ``b`` clear of every
    blocker, or None: ``sight``'s witness, which a test checks on its own."""
    walls = [Disc(w.x, w.y, w.diameter + 2 * _HAIR) for w in blockers]
    centres: Line = ((a.x, a.y), (b.x - a.x, b.y - a.y))
    if not walls:
        return centres
    ends = (Disc(a.x, a.y, max(a.diameter - 2 * _HAIR, _HAIR)),
            Disc(b.x, b.y, max(b.diameter - 2 * _HAIR, _HAIR)))
    if _clear_between(centres, ends, walls):
        return centres
    circles = [*ends, *walls]
    for i, p in enumerate(circles):
        for q in circles[i + 1:]:
            for line in _tangents(p, q):
                if _clear_between(line, ends, walls):
                    return line
    return None


Line = tuple[tuple[float, float], tuple[float, float]]  # a point and a direction


def _tangents(p: Round, q: Round) -> list[Line]:
    """The lines touching both circles (up to four)."""
    dx, dy = q.x - p.x, q.y - p.y
    L2 = dx * dx + dy * dy
    if L2 <= EPS:
        return []
    out: list[Line] = []
    for s1 in (1.0, -1.0):
        for s2 in (1.0, -1.0):
            # A line n.x = c touching p on side s1 and q on side s2:
            # n.p - c = s1 r1 and n.q - c = s2 r2, so n.(p - q) = s1 r1 - s2 r2.
            k = s1 * p.radius - s2 * q.radius
            if k * k > L2:
                continue
            h = math.sqrt(max(0.0, L2 - k * k))
            for sign in (1.0, -1.0):
                # n with n.(-d) = k: along -d by k/L2, plus a perpendicular part.
                nx = (-dx * k + sign * -dy * h) / L2
                ny = (-dy * k + sign * dx * h) / L2
                c = nx * p.x + ny * p.y - s1 * p.radius
                # A point on the line and its direction (perpendicular to n).
                out.append(((nx * c, ny * c), (-ny, nx)))
    return out


def _chord(c: Round, line: Line) -> tuple[float, float] | None:
    """Where ``point + t direction`` (the direction made of unit length) lies within
    the circle, as (t in, t out); None when it misses it."""
    (px, py), (ux, uy) = line
    n = math.hypot(ux, uy)
    if n <= EPS:
        return None
    ux, uy = ux / n, uy / n
    fx, fy = px - c.x, py - c.y
    b = fx * ux + fy * uy
    disc = b * b - (fx * fx + fy * fy - c.radius ** 2)
    # A tangent line (the candidates ``sight`` tries) meets its circle at one point:
    # rounding must not decide whether it meets it at all.
    if disc < -1e-9 * max(1.0, fx * fx + fy * fy):
        return None
    r = math.sqrt(max(0.0, disc))
    return (-b - r, -b + r)


def _clear_between(line: Line, ends: tuple[Round, Round], walls: Sequence[Round]) -> bool:
    """The stretch of ``line`` between the two end circles enters no wall's inside."""
    ca, cb = _chord(ends[0], line), _chord(ends[1], line)
    if ca is None or cb is None:
        return False
    if ca[1] <= cb[0]:
        t0, t1 = ca[1], cb[0]
    elif cb[1] <= ca[0]:
        t0, t1 = cb[1], ca[0]
    else:
        return True
    (px, py), (ux, uy) = line
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    for w in walls:
        # The nearest point of the stretch to the wall's centre.
        t = (w.x - px) * ux + (w.y - py) * uy
        t = min(max(t, t0), t1)
        if math.hypot(px + t * ux - w.x, py + t * uy - w.y) < w.radius - EPS:
            return False
    return True
