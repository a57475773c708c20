"""Measuring on the table, for games whose pieces stand anywhere: distances edge to edge
in inches, "within" and "completely within", range bands, areas and the angle a piece
faces, each with the error the camera's fit carries.

Everything is in map millimetres (the layout's units; ``MM_PER_INCH`` turns them into
the inches rules speak in). A round base or disk is a ``Circle``; its ``error`` bounds how
far its true edge may lie from the measured one (the fit's error: the centre's and the
diameter's together). Errors add up linearly, the worst case, so a rule is only ever
decided when the answer holds wherever the pieces truly are; when the limit lies within
the error the answer is ``Verdict.ASK``, and the game puts the question to the players
(``Judgement.question``) instead of deciding it silently.

Pure geometry: no game's rule is here (which distance a rule measures, from which piece,
is the game's); games share these so that two rules measured the same way agree.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

MM_PER_INCH = 25.4
Point = tuple[float, float]


class Verdict(Enum):
    YES = "yes"  # holds wherever within the error the pieces truly are
    NO = "no"  # fails wherever they truly are
    ASK = "ask"  # the limit lies within the error: the players decide

    def __bool__(self) -> bool:  # an undecided answer must not pass for either
        raise TypeError("a Verdict is YES, NO or ASK: compare it, do not test its truth")

    def negated(self) -> Verdict:
        """The verdict on the opposite question: YES and NO swap, ASK stays ASK (what
        could not be told one way cannot be told the other)."""
        return {Verdict.YES: Verdict.NO, Verdict.NO: Verdict.YES}.get(self, Verdict.ASK)


def inches(value: float) -> float:
    """Inches as a map length (millimetres)."""
    return value * MM_PER_INCH


@dataclass(frozen=True)
class Circle:
    """A round base or disk seen on the map: centre and diameter in map millimetres,
    ``error`` the bound on how far its true edge lies from the measured one."""

    x: float
    y: float
    diameter: float
    error: float = 0.0

    def __post_init__(self) -> None:
        for name in ("x", "y", "diameter", "error"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise ValueError(f"{name}: a finite number of millimetres, not {v!r}")
        if self.diameter <= 0 or self.error < 0:
            raise ValueError(f"a circle has a positive diameter and an error of 0 or more "
                             f"(diameter {self.diameter}, error {self.error})")

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    @property
    def radius(self) -> float:
        return self.diameter / 2


@dataclass(frozen=True)
class Measured:
    """A length measured on the table: ``mm`` as measured, ``error`` its bound (mm)."""

    mm: float
    error: float = 0.0

    @property
    def inches(self) -> float:
        return self.mm / MM_PER_INCH

    @property
    def low(self) -> float:
        return self.mm - self.error

    @property
    def high(self) -> float:
        return self.mm + self.error

    def __str__(self) -> str:
        text = f'{self.inches:.2f}"'
        return f'{text} ± {self.error / MM_PER_INCH:.2f}"' if self.error else text


# Floating-point noise is no measurement: a point typed to a tenth of a millimetre whose
# far edge lies exactly on the limit is on it, not 1e-14 mm beyond.
_NOISE = 1e-6  # mm


def compare(measured: Measured, limit: float, *, strict: bool = False) -> Verdict:
    """Is ``measured`` at most ``limit`` (mm; below it with ``strict``)? YES or NO only
    when the whole error band falls on one side of the limit."""
    def holds(v: float) -> bool:
        return v < limit - _NOISE if strict else v <= limit + _NOISE

    if holds(measured.high):
        return Verdict.YES
    if not holds(measured.low):
        return Verdict.NO
    return Verdict.ASK


@dataclass(frozen=True)
class Judgement:
    """A measured rule's answer: the verdict, what was measured and the limit (mm)."""

    verdict: Verdict
    measured: Measured
    limit: float

    def question(self, what: str) -> str:
        """The question a game puts to the players when the verdict is ASK: ``what`` is
        the rule as a question's middle ("Ann's Rat Ogre within 6\" of Bob's Lady
        Justice")."""
        return f"is {what}? the camera measures {self.measured}"


def distance(p: Point, q: Point) -> float:
    return math.hypot(q[0] - p[0], q[1] - p[1])


def gap(a: Circle, b: Circle) -> Measured:
    """Edge to edge, as rules measure between bases: 0 when they touch or overlap."""
    return Measured(max(0.0, distance(a.centre, b.centre) - a.radius - b.radius),
                    a.error + b.error)


def gap_to_point(a: Circle, p: Point, error: float = 0.0) -> Measured:
    """From a base's edge to a point (a marker's centre, a table corner)."""
    return Measured(max(0.0, distance(a.centre, p) - a.radius), a.error + error)


def within(a: Circle, b: Circle, limit: float) -> Judgement:
    """Is any part of ``b`` within ``limit`` (mm) of ``a``'s edge?"""
    g = gap(a, b)
    return Judgement(compare(g, limit), g, limit)


def completely_within(a: Circle, b: Circle, limit: float) -> Judgement:
    """Is all of ``b`` within ``limit`` (mm) of ``a``'s edge? Its far side decides."""
    far = Measured(max(0.0, distance(a.centre, b.centre) - a.radius + b.radius),
                   a.error + b.error)
    return Judgement(compare(far, limit), far, limit)


def near_point(c: Circle, p: Point, limit: float, *, completely: bool = False,
               error: float = 0.0) -> Judgement:
    """Is the base within ``limit`` (mm) of a point (a marker, an objective's centre):
    any part of it, or with ``completely`` all of it? ``error``: the point's own."""
    d = distance(c.centre, p)
    m = Measured(d + c.radius if completely else max(0.0, d - c.radius), c.error + error)
    return Judgement(compare(m, limit), m, limit)


def touching(a: Circle, b: Circle) -> Verdict:
    """Are the two in base contact (or overlapping)?"""
    return compare(gap(a, b), 0.0)


def overlap(a: Circle, b: Circle) -> Verdict:
    """Does one lie over part of the other (a disk pinning another)? Edges that only
    touch do not overlap."""
    d = Measured(distance(a.centre, b.centre), a.error + b.error)
    return compare(d, a.radius + b.radius, strict=True)


def band(measured: Measured, bands: Sequence[tuple[str, float]], beyond: str) -> list[str]:
    """The range bands ``measured`` may fall in, nearest first: ``bands`` are (name,
    upper limit in mm), nearest first, and ``beyond`` names what lies past the last. One
    name when the measurement is clear of every boundary; two or more when a boundary
    lies within its error (the players decide)."""
    out: list[str] = []
    lower = -math.inf
    for name, upper in [*bands, (beyond, math.inf)]:
        if measured.high > lower and measured.low <= upper:
            out.append(name)
        lower = upper
    return out


# -- areas ---------------------------------------------------------------------------------------
def _inside(p: Point, polygon: Sequence[Point]) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _to_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                             / length2))
    return distance(p, (ax + t * dx, ay + t * dy))


def _to_outline(p: Point, polygon: Sequence[Point]) -> float:
    return min(_to_segment(p, a, b)
               for a, b in zip(polygon, [*polygon[1:], polygon[0]], strict=True))


def _polygon(points: Iterable[Point]) -> list[Point]:
    poly = [(float(x), float(y)) for x, y in points]
    if len(poly) < 3:
        raise ValueError(f"an area needs 3 corners or more, not {len(poly)}")
    return poly


def _inside_by(c: Circle, area: Iterable[Point]) -> float:
    """How far the base's centre lies inside the area's outline (negative: outside)."""
    poly = _polygon(area)
    edge = _to_outline(c.centre, poly)
    return edge if _inside(c.centre, poly) else -edge


def _at_least(value: float, error: float, limit: float, *, strict: bool) -> Verdict:
    """Is ``value`` (within ``error``) at least ``limit`` (above it with ``strict``)?
    ``compare`` asked of the negated values: v >= limit is -v <= -limit."""
    return compare(Measured(-value, error), -limit, strict=strict)


def in_area(c: Circle, area: Iterable[Point]) -> Verdict:
    """Is any part of the base inside the area (a polygon of map points)? A base that
    only touches the outline from outside is not."""
    return _at_least(_inside_by(c, area) + c.radius, c.error, 0.0, strict=True)


def completely_in_area(c: Circle, area: Iterable[Point]) -> Verdict:
    """Is all of the base inside the area (touching the outline from inside counts)?"""
    return _at_least(_inside_by(c, area) - c.radius, c.error, 0.0, strict=False)


# -- facing --------------------------------------------------------------------------------------
def bearing(p: Point, q: Point) -> float:
    """The direction from ``p`` to ``q`` in degrees, 0 along the map's x axis, counted
    toward its y axis, in [0, 360)."""
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 360.0


def turn(a: float, b: float) -> float:
    """The smaller angle between two directions (degrees, 0 to 180)."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def in_arc(a: Circle, facing: float, arc: float, b: Circle,
           facing_error: float = 0.0) -> Verdict:
    """Does ``b``'s centre lie within ``a``'s arc of ``arc`` degrees centred on the way
    it faces (a front arc of 180, a field of fire of 90)? The angle's error grows with
    the positions' errors as the pieces come close."""
    d = distance(a.centre, b.centre)
    if d == 0:
        return Verdict.ASK
    error = facing_error + math.degrees(math.atan2(a.error + b.error, d))
    off = Measured(turn(facing, bearing(a.centre, b.centre)), error)
    return compare(off, arc / 2)
