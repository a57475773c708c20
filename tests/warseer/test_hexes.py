"""Hex geometry and line of sight, decided exactly (see ``table.games.warseer.hexes``)."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from table.games.warseer import hexes as hexes_mod
from table.games.warseer.hexes import (
    Hex,
    centre,
    corners,
    distance,
    hex_line,
    line_of_sight,
    neighbours,
    offset,
    parse_hex,
)


def H(name: str) -> Hex:
    return parse_hex(name)


def test_names_round_trip_and_follow_the_printed_map():
    for col in range(12):
        for row in range(10):
            h = offset(col, row)
            assert (h.col, h.row) == (col, row)
            assert parse_hex(str(h)) == h
    assert str(offset(0, 0)) == "a1" and str(offset(2, 3)) == "c4"
    # odd columns sit half a hex further from p1, as table.maps.hex_grid prints them
    assert centre(H("b1"))[1] - centre(H("a1"))[1] == 0.5


def test_bad_names_are_refused():
    for bad in ("", "4c", "c0", "c04", "C4", "c", "abc1", "c4x"):
        try:
            parse_hex(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_neighbours_are_one_hex_away_and_touch():
    h = H("c3")
    ns = neighbours(h)
    assert len(set(ns)) == 6 and all(distance(h, n) == 1 for n in ns)
    for n in ns:  # centres one unit apart: the hexes share an edge
        assert math.isclose(math.dist(centre(h), centre(n)), 1.0)
    assert {str(n) for n in neighbours(H("c2"))} == {"d2", "d1", "c1", "b1", "b2", "c3"}


def test_distance_counts_hexes():
    assert distance(H("a1"), H("a5")) == 4
    assert distance(H("a1"), H("e3")) == 4
    assert len(hex_line(H("a1"), H("e3"))) == 5


def test_a_creature_straight_between_two_others_blocks():
    # The only lines past c3 from c2 to c4 would run through its corners.
    assert not line_of_sight(H("c2"), H("c4"), [H("c3")])
    assert line_of_sight(H("c2"), H("c4"), [])


def test_one_of_two_hexes_between_left_free_lets_sight_through():
    a, b = H("c2"), H("d3")
    between = [n for n in neighbours(a) if distance(n, b) == 1]
    assert len(between) == 2
    assert line_of_sight(a, b, [between[0]])
    assert line_of_sight(a, b, [between[1]])
    # both taken: the only line left runs through the seam between them
    assert not line_of_sight(a, b, between)


def test_a_line_grazing_a_blocking_hexs_corner_is_blocked():
    # a1 to a3: every line runs through a2 or exactly through its corners; touching blocks.
    assert not line_of_sight(H("a1"), H("a3"), [H("a2")])
    # a1 to c1 are not in a straight line (b1 sits half a hex higher): sight passes under b1
    assert line_of_sight(H("a1"), H("c1"), [H("b1")])
    # along a diagonal, c2 - d2 - e3: d2 is straight between and blocks
    assert distance(H("c2"), H("e3")) == 2
    assert not line_of_sight(H("c2"), H("e3"), [H("d2")])
    # a wall of three hexes across the way blocks; a gap of one hex lets sight through
    assert not line_of_sight(H("b1"), H("b5"), [H("a3"), H("b3"), H("c3")])
    assert line_of_sight(H("b1"), H("b5"), [H("a3"), H("c3")])


def test_adjacent_hexes_always_see_each_other():
    h = H("d4")
    for n in neighbours(h):
        assert line_of_sight(h, n, [m for m in neighbours(h) if m != n])


hexes = st.builds(offset, st.integers(0, 8), st.integers(0, 7))


@settings(max_examples=200, deadline=None)
@given(hexes, hexes, st.lists(hexes, max_size=10))
def test_sight_is_symmetric(a, b, blockers):
    assert line_of_sight(a, b, blockers) == line_of_sight(b, a, blockers)


@settings(max_examples=200, deadline=None)
@given(hexes, hexes, st.lists(hexes, max_size=8), hexes)
def test_another_blocker_never_opens_a_line(a, b, blockers, more):
    if not line_of_sight(a, b, blockers):
        assert not line_of_sight(a, b, [*blockers, more])


def _sampled_clear(a: Hex, b: Hex, blockers: list[Hex], rng: random.Random) -> bool:
    """A clear line found by sampling points inside both hexes (kept well away from
    every blocker): a witness the exact test must agree with."""
    def inside(h: Hex) -> tuple[float, float]:
        cs = corners(h, 0.49)
        w = [rng.random() for _ in cs]
        return (sum(p[0] * k for p, k in zip(cs, w, strict=True)) / sum(w),
                sum(p[1] * k for p, k in zip(cs, w, strict=True)) / sum(w))

    for _ in range(400):
        p, q = inside(a), inside(b)
        ok = True
        for h in blockers:
            c = centre(h)
            for i in range(41):  # points along the segment, none inside a blocker's circle
                t = i / 40
                x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
                if math.hypot(x - c[0], y - c[1]) < 1 / math.sqrt(3) + 1e-3:
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return True
    return False


def test_every_line_found_by_sampling_is_seen_by_the_exact_test():
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        a, b = offset(rng.randrange(9), rng.randrange(8)), offset(rng.randrange(9),
                                                                  rng.randrange(8))
        if distance(a, b) < 2:
            continue
        blockers = [offset(rng.randrange(9), rng.randrange(8)) for _ in range(6)]
        blockers = [h for h in blockers if h not in (a, b)]
        if _sampled_clear(a, b, blockers, rng):
            checked += 1
            assert line_of_sight(a, b, blockers), (a, b, blockers)
    assert checked > 100


def _exact(a: Hex, b: Hex, blockers: list[Hex]) -> bool:
    """The geometry alone, where the hexes stand: no answer kept, nothing moved."""
    if distance(a, b) <= 1:
        return True
    ca, cb = centre(a), centre(b)
    near = tuple(sorted({h for h in blockers if h not in (a, b) and hexes_mod._near(h, ca, cb)}))
    return hexes_mod._sight.__wrapped__(a, b, near)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(hexes, hexes, st.lists(hexes, max_size=8)), min_size=1,
                max_size=6))
def test_kept_answers_are_the_geometrys_answers(cases):
    # Answers are asked from the origin and kept (a shut pair's smallest shutting part
    # too); a sequence of questions must still get what the geometry says in place.
    for a, b, blockers in cases:
        assert line_of_sight(a, b, blockers) == _exact(a, b, blockers)
        shifted = [Hex(h.q + 1, h.r - 2) for h in (a, b, *blockers)]
        assert line_of_sight(shifted[0], shifted[1], shifted[2:]) == _exact(a, b, blockers)
