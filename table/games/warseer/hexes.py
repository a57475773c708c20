"""The hex battlefield's geometry: coordinates, names, distance, neighbours and line of
sight. Pure: no I/O.

Hexes are flat-topped, in columns ``a``, ``b``, ... from p1's left and rows ``1``, ``2``,
... from p1's edge; odd columns (``b``, ``d``, ...) sit half a hex further from p1, as
``table.maps.hex_grid`` prints them. Internally a hex is axial ``(q, r)``: ``q`` the
column, ``r = row - q // 2``, so distance is the usual cube distance.

Line of sight (``line_of_sight``): the rules ask for a straight line from *any* point
of the attacker's hex to *any* point of the defender's hex that crosses no blocking hex
(difficult terrain, another creature). We decide it exactly, and say how a line that
only grazes is decided:

* a line that **touches** a blocking hex anywhere, even only at one corner, is blocked;
  so a creature standing straight between two others always blocks them (the only lines
  past it would run through its corners);
* the attacker's and the defender's own hexes, and free hexes, never block: a line may
  run along their edges and through their corners.

So the lines that count are those that keep a positive distance from every blocking hex.
They form an open set; we decide whether it is empty by growing each blocking hex and
shrinking the two end hexes by a hair (``GROW``, a millionth of a hex) and asking the
closed question there: is there a line from the shrunk end hexes that enters no grown
blocker's interior? If such a line exists, one exists through two corners of the hexes
involved (slide a clear line sideways until it touches a corner, then turn it about that
corner until it touches another), so testing the lines through every pair of corners
decides it exactly, up to gaps narrower than a millionth of a hex.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from table.maps import column_name

SQRT3 = math.sqrt(3.0)
SIZE = 1.0 / SQRT3  # circumradius of a hex one unit across its flats
EPS = 1e-11


class Hex(NamedTuple):
    q: int  # the column, 0 = a
    r: int  # axial row: row - q // 2

    @property
    def col(self) -> int:
        return self.q

    @property
    def row(self) -> int:  # 0-based row from p1's edge
        return self.r + self.q // 2

    def __str__(self) -> str:
        return f"{column_name(self.q)}{self.row + 1}"


def offset(col: int, row: int) -> Hex:
    """The hex at column ``col``, row ``row`` (both from 0)."""
    return Hex(col, row - col // 2)


def parse_hex(text: str) -> Hex:
    """``"c4"`` → Hex; ``ValueError`` for text that is not a hex name."""
    i = 0
    while i < len(text) and "a" <= text[i] <= "z":
        i += 1
    letters, digits = text[:i], text[i:]
    if not letters or len(letters) > 2 or not digits.isdigit() or len(digits) > 3 \
            or digits.startswith("0"):
        raise ValueError(f"not a hex name: {text[:12]!r}")
    col = 0
    for ch in letters:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    return offset(col - 1, int(digits) - 1)


DIRECTIONS = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


# -- geometry in unit hexes (one unit across the flats) ---------------------------------
Point = tuple[float, float]
GROW = 1e-6  # how much a blocking hex grows (and an end hex shrinks), in hexes
Poly = tuple[Point, float]  # a hexagon: its centre and its apothem


def centre(h: Hex) -> Point:
    return 1.5 * SIZE * h.q, h.r + h.q / 2.0


# Outward normals of the six edges (between corners k and k+1, corner k at 60k degrees).
_NORMALS = tuple((math.cos(math.radians(60 * k + 30)), math.sin(math.radians(60 * k + 30)))
                 for k in range(6))
_APOTHEM = 0.5


def corners(h: Hex, apothem: float = _APOTHEM) -> tuple[Point, ...]:
    cx, cy = centre(h)
    rad = apothem * 2 / SQRT3
    return tuple((cx + rad * math.cos(math.radians(60 * k)),
                  cy + rad * math.sin(math.radians(60 * k))) for k in range(6))


def _depth(poly: Poly, p: Point) -> float:
    """How far ``p`` lies outside the hexagon's outline (negative: inside, 0: on it)."""
    (cx, cy), apothem = poly
    x, y = p[0] - cx, p[1] - cy
    return max(nx * x + ny * y for nx, ny in _NORMALS) - apothem


def _clip(poly: Poly, p: Point, d: Point) -> tuple[float, float] | None:
    """The parameters ``t`` where the line ``p + t d`` is within the closed hexagon."""
    (cx, cy), apothem = poly
    px, py = p[0] - cx, p[1] - cy
    lo, hi = -math.inf, math.inf
    for nx, ny in _NORMALS:
        num = apothem - (nx * px + ny * py)  # n.(p + t d) <= a  <=>  t (n.d) <= num
        den = nx * d[0] + ny * d[1]
        if abs(den) < EPS:
            if num < -EPS:
                return None
            continue
        t = num / den
        if den > 0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
    return (lo, hi) if lo <= hi + EPS else None


def _segment_clear(p: Point, q: Point, blockers: tuple[Poly, ...]) -> bool:
    """The segment p-q enters no blocker's interior (it may touch their outlines)."""
    d = (q[0] - p[0], q[1] - p[1])
    cuts = {0.0, 1.0}
    for b in blockers:
        iv = _clip(b, p, d)
        if iv:
            cuts.update(t for t in iv if 0.0 < t < 1.0)
    ts = sorted(cuts)
    for t0, t1 in itertools.pairwise(ts):
        if t1 - t0 <= EPS:
            continue
        m = (p[0] + d[0] * (t0 + t1) / 2, p[1] + d[1] * (t0 + t1) / 2)
        if any(_depth(b, m) < -EPS for b in blockers):
            return False
    return True


def _line_clear(u: Point, v: Point, a: Poly, b: Poly, blockers: tuple[Poly, ...]) -> bool:
    """Along the line through u and v: a stretch from hexagon a to hexagon b enters no
    blocker's interior."""
    d = (v[0] - u[0], v[1] - u[1])
    ia, ib = _clip(a, u, d), _clip(b, u, d)
    if ia is None or ib is None:
        return False
    if ia[1] <= ib[0]:
        t0, t1 = ia[1], ib[0]
    elif ib[1] <= ia[0]:
        t0, t1 = ib[1], ia[0]
    else:
        return True  # the two hexes overlap along this line (cannot happen once shrunk)
    p = (u[0] + d[0] * t0, u[1] + d[1] * t0)
    q = (u[0] + d[0] * t1, u[1] + d[1] * t1)
    return _segment_clear(p, q, blockers)


def _near(h: Hex, a: Point, b: Point) -> bool:
    """Hex ``h`` may meet the hull of two hexes centred at a and b: its centre is within
    two circumradii of the segment between them."""
    c = centre(h)
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(c[0] - a[0] - t * dx, c[1] - a[1] - t * dy) <= 2 * SIZE + 2 * GROW


def line_of_sight(a: Hex, b: Hex, blockers: Iterable[Hex]) -> bool:
    """A straight line joins some point of hex ``a`` to some point of hex ``b`` keeping
    clear of every blocking hex (see the module's note). ``a`` and ``b`` never block."""
    if distance(a, b) <= 1:
        return True
    # Sight does not change when everything moves by the same step: ask it with ``a`` at
    # the origin, so a shape of blockers met anywhere on the battlefield is known.
    d = Hex(b.q - a.q, b.r - a.r)
    around = _around(d)
    aq, ar = a.q, a.r
    near = tuple(sorted({x for h in blockers if (x := (h[0] - aq, h[1] - ar)) in around}))
    key = (d, near)
    known = _KNOWN.get(key)
    if known is None:
        shut = _SHUT.get(d)
        if shut and _shuts(shut, near):
            known = False
        else:
            known = _sight(_ORIGIN, d, near)
            if not known:
                _remember_shut(_ORIGIN, d, near)
        if len(_KNOWN) >= _KNOWN_MAX:
            _KNOWN.clear()
        _KNOWN[key] = known
    return known


_KNOWN: dict[tuple[Hex, tuple[tuple[int, int], ...]], bool] = {}  # answers given
_KNOWN_MAX = 200_000


_ORIGIN = Hex(0, 0)


@lru_cache(maxsize=4096)
def _around(d: Hex) -> frozenset[tuple[int, int]]:
    """The hexes (from the origin) that may stand in the way between the origin and
    ``d``: those ``_near`` the segment between their centres, ends left out."""
    ca, cb = centre(_ORIGIN), centre(d)
    n = distance(_ORIGIN, d) + 2
    return frozenset((q, r) for q in range(-n, n + 1) for r in range(-n, n + 1)
                     if (q, r) not in ((0, 0), (d.q, d.r)) and _near(Hex(q, r), ca, cb))


# Blocking only grows with blockers: a set of hexes that shuts every line between two
# hexes still does with more added (``tests/warseer/test_hexes.py`` checks it). So each
# time some blockers shut a pair, the smallest part of them that still does (blockers
# taken away one at a time while the rest still shut it) is kept for the pair, and a
# later set holding such a part is answered without the geometry: in a game the same
# creature or wood stands between the same two hexes again and again, and a shut pair
# costs the exact test a hundred times an open one.
# By the step from one hex to the other: the single hexes that shut it alone, and the
# larger smallest parts (no part kept holds another).
_Shut = tuple[set[tuple[int, int]], list[frozenset[tuple[int, int]]]]
_SHUT: dict[Hex, _Shut] = {}
_SHUT_PAIRS = 20_000  # a bound on memory: every step on a 26 x 26 battlefield fits
_SHUT_PER_PAIR = 64


def _shuts(shut: _Shut, near: tuple[tuple[int, int], ...]) -> bool:
    singles, larger = shut
    if not singles.isdisjoint(near):
        return True
    if not larger:
        return False
    present = frozenset(near)
    return any(m <= present for m in larger)


def _remember_shut(a: Hex, b: Hex, near: tuple[tuple[int, int], ...]) -> None:
    core = near
    for h in near:
        fewer = tuple(x for x in core if x != h)
        if not _sight(a, b, fewer):
            core = fewer
    if len(_SHUT) >= _SHUT_PAIRS:
        _SHUT.clear()
    singles, larger = _SHUT.setdefault(b, (set(), []))  # a is the origin
    part = frozenset(core)
    if len(part) == 1:
        singles.update(part)
        larger[:] = [m for m in larger if not part <= m]
    elif len(larger) < _SHUT_PER_PAIR:
        larger[:] = [m for m in larger if not part <= m] + [part]


@lru_cache(maxsize=4096)  # the shut-set search asks the same sets again
def _sight(a: Hex, b: Hex, near: tuple[tuple[int, int], ...]) -> bool:
    """``line_of_sight`` past ``near``, the blockers that may be in the way, as (q, r)."""
    if not near:
        return True
    near = tuple(Hex(*h) for h in near)
    grown = tuple((centre(h), _APOTHEM + GROW) for h in near)
    pa, pb = (centre(a), _APOTHEM - GROW), (centre(b), _APOTHEM - GROW)
    if _segment_clear(centre(a), centre(b), grown):
        return True
    ends_a, ends_b = corners(a, pa[1]), corners(b, pb[1])
    # Corner of a to corner of b first: most sightlines past an obstacle are found there.
    if any(_segment_clear(u, v, grown) for u in ends_a for v in ends_b):
        return True
    # Every corner a clear line may pass through, with the hexagon it belongs to: a
    # corner inside another blocker cannot be on a clear line, nor can a line through two
    # opposite corners of one hexagon (it crosses its inside).
    pts: list[tuple[int, int, Point]] = [(-1, k, p) for k, p in enumerate(ends_a)]
    pts += [(-2, k, p) for k, p in enumerate(ends_b)]
    for i, h in enumerate(near):
        pts += [(i, k, p) for k, p in enumerate(corners(h, _APOTHEM + GROW))
                if not any(_depth(g, p) < -EPS for j, g in enumerate(grown) if j != i)]
    # A clear line through a blocker's corner only touches that blocker: both corners
    # beside it lie on one side of the line. Most pairs fail that at once.
    side = {i: corners(h, _APOTHEM + GROW) for i, h in enumerate(near)}

    def tangent(h: int, k: int, u: Point, v: Point) -> bool:
        if h < 0:
            return True
        c = side[h]
        s1 = _cross(u, v, c[(k - 1) % 6])
        s2 = _cross(u, v, c[(k + 1) % 6])
        return s1 * s2 >= -EPS

    for n, (hu, ku, u) in enumerate(pts):
        for hv, kv, v in pts[n + 1:]:
            if hu == hv and (ku - kv) % 6 not in (1, 5):
                continue
            if tangent(hu, ku, u, v) and tangent(hv, kv, v, u) \
                    and _line_clear(u, v, pa, pb, grown):
                return True
    return False


def _cross(u: Point, v: Point, w: Point) -> float:
    """Which side of the line u-v the point w is on (the sign), times |u-v|."""
    return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes the centre-to-centre line runs through, a to b (for drawing a sightline)."""
    n = distance(a, b)
    if n == 0:
        return [a]
    out = []
    for i in range(n + 1):
        t = i / n
        fq = a.q + (b.q - a.q) * t + 1e-6
        fr = a.r + (b.r - a.r) * t + 1e-6
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        out.append(Hex(q, r))
    return out
