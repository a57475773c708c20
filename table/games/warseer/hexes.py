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
        return _name(self.q, self.r + self.q // 2)


@lru_cache(maxsize=1024)
def _name(col: int, row: int) -> str:
    """A hex's name (``c4``): events name hexes at every step."""
    return f"{column_name(col)}{row + 1}"


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
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    for (cx, cy), apothem in blockers:
        # The part of the segment strictly inside this hexagon: t in (lo, hi), kept
        # inside each edge in turn (n.(p + t d) < apothem, from the hexagon's centre).
        x, y = px - cx, py - cy
        lo, hi = 0.0, 1.0
        for nx, ny in _NORMALS:
            num = apothem - (nx * x + ny * y)
            den = nx * dx + ny * dy
            if -EPS < den < EPS:
                if num <= EPS:  # along or outside this edge's line: never inside
                    break
                continue
            t = num / den
            if den > 0:
                if t < hi:
                    hi = t
            elif t > lo:
                lo = t
            if hi - lo <= EPS:
                break
        else:
            return False  # a stretch of the segment lies inside this blocker
    return True


def _line_between(u: Point, v: Point, a: Poly, b: Poly, blockers: tuple[Poly, ...]
                  ) -> tuple[Point, Point] | None:
    """Along the line through u and v: the stretch from hexagon a to hexagon b, if it
    enters no blocker's interior."""
    d = (v[0] - u[0], v[1] - u[1])
    ia, ib = _clip(a, u, d), _clip(b, u, d)
    if ia is None or ib is None:
        return None
    if ia[1] <= ib[0]:
        t0, t1 = ia[1], ib[0]
    elif ib[1] <= ia[0]:
        t0, t1 = ib[1], ia[0]
    else:  # the two hexes overlap along this line (cannot happen once shrunk)
        return (u[0] + d[0] * ia[0], u[1] + d[1] * ia[0]), \
            (u[0] + d[0] * ia[1], u[1] + d[1] * ia[1])
    p = (u[0] + d[0] * t0, u[1] + d[1] * t0)
    q = (u[0] + d[0] * t1, u[1] + d[1] * t1)
    return (p, q) if _segment_clear(p, q, blockers) else None


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
    if isinstance(blockers, frozenset):
        # Listing the legal actions asks the same pair among the same blockers again and
        # again (a card played leaves the creatures where they stand): kept by the set,
        # whose hash Python keeps with it, before the translated key is worked out.
        whole = (a, b, blockers)
        seen = _SEEN.get(whole)
        if seen is None:
            if len(_SEEN) >= _SEEN_MAX:
                _SEEN.clear()
            seen = _SEEN[whole] = line_of_sight(a, b, tuple(blockers))
        return seen
    # Sight does not change when everything moves by the same step: ask it with ``a`` at
    # the origin, so a shape of blockers met anywhere on the battlefield is known.
    d = Hex(b.q - a.q, b.r - a.r)
    may_block = around(d)
    aq, ar = a.q, a.r
    near = tuple(sorted({x for h in blockers
                         if (x := (h[0] - aq, h[1] - ar)) in may_block}))
    key = (d, near)
    known = _KNOWN.get(key)
    if known is None:
        known = _decide(d, near)
        if len(_KNOWN) >= _KNOWN_MAX:
            _KNOWN.clear()
        _KNOWN[key] = known
    return known


_KNOWN: dict[tuple[Hex, tuple[tuple[int, int], ...]], bool] = {}  # answers given
_SEEN: dict[tuple[Hex, Hex, frozenset[Hex]], bool] = {}  # ... by the whole set asked
# How many of each are kept (then forgotten at once): a game adds some 140 proofs and
# 16 whole sets (each holding its set of blockers); a table playing game after game all
# day keeps a few MB of them, not all it was ever asked.
_KNOWN_MAX = 20_000
_SEEN_MAX = 5_000


_ORIGIN = Hex(0, 0)


@lru_cache(maxsize=4096)
def around(d: Hex) -> frozenset[tuple[int, int]]:
    """The hexes (from the origin) that may stand in the way between the origin and
    ``d``: those ``_near`` the segment between their centres, ends left out."""
    ca, cb = centre(_ORIGIN), centre(d)
    n = distance(_ORIGIN, d) + 2
    return frozenset((q, r) for q in range(-n, n + 1) for r in range(-n, n + 1)
                     if (q, r) not in ((0, 0), (d.q, d.r)) and _near(Hex(q, r), ca, cb))


# Blocking only grows with blockers (``tests/warseer/test_hexes.py`` checks it), and
# the exact test costs far more than looking up what earlier answers proved. Two kinds
# of proof are kept, by the step from the origin to the other hex:
#
# * a set of blockers that shuts every line between the two hexes still does with more
#   added. Each time some blockers shut a pair, the smallest part of them that still
#   does (blockers taken away one at a time while the rest still shut it) is kept, and
#   a later set holding such a part is shut: in a game the same creature or wood stands
#   between the same two hexes again and again. Kept as the single hexes that shut it
#   alone and the larger smallest parts (no part kept holds another).
# * a clear line found once stays clear while no blocker stands on it: with it, the
#   set of hexes it passes into (of all those ``around`` the step) is kept, and a later
#   set of blockers missing all of them is open, with no geometry.
_Shut = tuple[set[tuple[int, int]], list[frozenset[tuple[int, int]]]]
_SHUT: dict[Hex, _Shut] = {}
_OPEN: dict[Hex, list[frozenset[tuple[int, int]]]] = {}
_PROOF_PAIRS = 20_000  # a bound on memory: every step on a 26 x 26 battlefield fits
_PROOFS_PER_PAIR = 64


def _decide(d: Hex, near: tuple[tuple[int, int], ...]) -> bool:
    """Sight from the origin to ``d`` past ``near``: by a kept proof when one applies,
    else by the geometry, whose answer is kept as a proof for the sets to come."""
    if _proven_shut(d, near):
        return False
    lines = _OPEN.get(d)
    if lines and any(line.isdisjoint(near) for line in lines):
        return True
    line = _clear_line(_ORIGIN, d, near)
    if line is None:
        _remember_shut(d, near)
        return False
    _remember_open(d, line)
    return True


def _proven_shut(d: Hex, near: tuple[tuple[int, int], ...]) -> bool:
    shut = _SHUT.get(d)
    if not shut:
        return False
    singles, larger = shut
    if not singles.isdisjoint(near):
        return True
    if not larger:
        return False
    present = frozenset(near)
    return any(m <= present for m in larger)


def _remember_shut(d: Hex, near: tuple[tuple[int, int], ...]) -> None:
    core = near
    for h in near:
        fewer = tuple(x for x in core if x != h)
        if _proven_shut(d, fewer):
            core = fewer
            continue
        lines = _OPEN.get(d)
        if lines and any(line.isdisjoint(fewer) for line in lines):
            continue
        line = _clear_line(_ORIGIN, d, fewer)
        if line is None:
            core = fewer
        else:
            _remember_open(d, line)
    if len(_SHUT) >= _PROOF_PAIRS:
        _SHUT.clear()
    singles, larger = _SHUT.setdefault(d, (set(), []))
    part = frozenset(core)
    if len(part) == 1:
        singles.update(part)
        larger[:] = [m for m in larger if not part <= m]
    elif len(larger) < _PROOFS_PER_PAIR:
        larger[:] = [m for m in larger if not part <= m] + [part]


def _remember_open(d: Hex, line: tuple[Point, Point]) -> None:
    """Keep a clear line from the origin's hex to ``d``'s as the hexes it passes into."""
    p, q = line
    dx, dy = q[0] - p[0], q[1] - p[1]
    span = dx * dx + dy * dy
    reach = SIZE + 2 * GROW  # a hexagon lies within its circumradius of its centre
    hit = []
    for h in around(d):
        c = centre(Hex(*h))
        t = 0.0 if span == 0 else max(0.0, min(1.0, ((c[0] - p[0]) * dx
                                                     + (c[1] - p[1]) * dy) / span))
        if math.hypot(c[0] - p[0] - t * dx, c[1] - p[1] - t * dy) > reach:
            continue
        if not _segment_clear(p, q, ((c, _APOTHEM + GROW),)):
            hit.append(h)
    if len(_OPEN) >= _PROOF_PAIRS:
        _OPEN.clear()
    lines = _OPEN.setdefault(d, [])
    if len(lines) < _PROOFS_PER_PAIR:
        lines.append(frozenset(hit))


@lru_cache(maxsize=4096)
def _sight(a: Hex, b: Hex, near: tuple[tuple[int, int], ...]) -> bool:
    """``line_of_sight`` past ``near``, the blockers that may be in the way, as (q, r)."""
    return _clear_line(a, b, near) is not None


def _clear_line(a: Hex, b: Hex, near: tuple[tuple[int, int], ...]
                ) -> tuple[Point, Point] | None:
    """A segment from hex ``a`` to hex ``b`` that keeps clear of ``near`` (see the
    module's note), or None when there is none."""
    grown = tuple((centre(Hex(*h)), _APOTHEM + GROW) for h in near)
    pa, pb = (centre(a), _APOTHEM - GROW), (centre(b), _APOTHEM - GROW)
    if _segment_clear(centre(a), centre(b), grown):
        return centre(a), centre(b)
    ends_a, ends_b = corners(a, pa[1]), corners(b, pb[1])
    # Corner of a to corner of b first: most sightlines past an obstacle are found there.
    for u in ends_a:
        for v in ends_b:
            if _segment_clear(u, v, grown):
                return u, v
    # Every corner a clear line may pass through, with the hexagon it belongs to: a
    # corner inside another blocker cannot be on a clear line, nor can a line through two
    # opposite corners of one hexagon (it crosses its inside).
    near_hexes = tuple(Hex(*h) for h in near)
    pts: list[tuple[int, int, Point]] = [(-1, k, p) for k, p in enumerate(ends_a)]
    pts += [(-2, k, p) for k, p in enumerate(ends_b)]
    for i, h in enumerate(near_hexes):
        pts += [(i, k, p) for k, p in enumerate(corners(h, _APOTHEM + GROW))
                if not any(_depth(g, p) < -EPS for j, g in enumerate(grown) if j != i)]
    # A clear line through a blocker's corner only touches that blocker: both corners
    # beside it lie on one side of the line. Most pairs fail that at once.
    side = {i: corners(h, _APOTHEM + GROW) for i, h in enumerate(near_hexes)}

    def tangent(h: int, k: int, u: Point, v: Point) -> bool:
        if h < 0:
            return True
        c = side[h]
        s1 = _cross(u, v, c[(k - 1) % 6])
        s2 = _cross(u, v, c[(k + 1) % 6])
        return s1 * s2 >= -EPS

    # A line that misses the circle around a hexagon misses the hexagon: most pairs of
    # corners are dropped by that before the exact tests.
    (ax, ay), (bx, by) = pa[0], pb[0]
    ra = pa[1] * 2 / SQRT3
    for n, (hu, ku, u) in enumerate(pts):
        ux, uy = u
        for hv, kv, v in pts[n + 1:]:
            if hu == hv and (ku - kv) % 6 not in (1, 5):
                continue
            ex, ey = v[0] - ux, v[1] - uy
            reach = ra * math.hypot(ex, ey)
            if abs(ex * (ay - uy) - ey * (ax - ux)) > reach \
                    or abs(ex * (by - uy) - ey * (bx - ux)) > reach:
                continue
            if tangent(hu, ku, u, v) and tangent(hv, kv, v, u):
                seg = _line_between(u, v, pa, pb, grown)
                if seg is not None:
                    return seg
    return None


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
