"""Measuring in the core (``table.measure``): worked cases in inches as rules give them,
and the properties every answer keeps: a YES or NO holds wherever within the error the
pieces truly are, and only a limit within the error gets ASK."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.measure import (
    Circle,
    Measured,
    Verdict,
    band,
    bearing,
    completely_in_area,
    completely_within,
    gap,
    in_arc,
    in_area,
    inches,
    near_point,
    overlap,
    touching,
    turn,
    within,
)

MM30, MM40, MM50 = 30.0, 40.0, 50.0  # the bases of skirmish games
DISK = inches(2.0)  # a two-inch disk


def test_edge_to_edge_in_inches() -> None:
    a = Circle(0.0, 0.0, MM30)
    b = Circle(inches(6) + 15 + 20, 0.0, MM40)
    assert gap(a, b).inches == pytest.approx(6.0)
    assert str(gap(a, b)) == '6.00"'
    assert within(a, b, inches(6)).verdict is Verdict.YES
    assert within(a, b, inches(5.9)).verdict is Verdict.NO
    # All of it within 6"? Its far side is 40 mm further.
    assert completely_within(a, b, inches(6)).verdict is Verdict.NO
    assert completely_within(a, b, inches(6) + 40).verdict is Verdict.YES


def test_a_limit_within_the_error_is_put_to_the_players() -> None:
    ogre = Circle(0.0, 0.0, MM50, error=0.6)
    justice = Circle(25 + 20 + inches(6.02), 0.0, MM40, error=0.67)
    j = within(ogre, justice, inches(6))
    assert j.verdict is Verdict.ASK
    assert j.question("Ann's Rat Ogre within 6\" of Bob's Lady Justice") == \
        'is Ann\'s Rat Ogre within 6" of Bob\'s Lady Justice? ' \
        'the camera measures 6.02" ± 0.05"'
    with pytest.raises(TypeError):
        bool(j.verdict)  # an undecided answer must not pass for yes or no
    # Measured without error, the same positions are decided.
    exact = within(Circle(0, 0, MM50), Circle(justice.x, 0, MM40), inches(6))
    assert exact.verdict is Verdict.NO


def test_near_a_point_any_part_or_all_of_it() -> None:
    well = (0.0, 0.0)
    pawn = Circle(inches(4) - 12.5, 0.0, 25.0)  # its far edge exactly 4" away
    assert near_point(pawn, well, inches(4), completely=True).verdict is Verdict.YES
    assert near_point(pawn, well, inches(3.5), completely=True).verdict is Verdict.NO
    assert near_point(pawn, well, inches(3.5)).verdict is Verdict.YES  # its near edge
    shaky = Circle(pawn.x, 0.0, 25.0, error=0.5)
    j = near_point(shaky, well, inches(4), completely=True)
    assert j.verdict is Verdict.ASK and str(j.measured) == '4.00" ± 0.02"'


def test_touching_and_overlapping_disks() -> None:
    a = Circle(0.0, 0.0, DISK)
    assert touching(a, Circle(DISK, 0.0, DISK)) is Verdict.YES
    assert overlap(a, Circle(DISK, 0.0, DISK)) is Verdict.NO  # edges only touch
    assert overlap(a, Circle(DISK * 0.9, 0.0, DISK)) is Verdict.YES
    assert overlap(a, Circle(DISK - 0.5, 0.0, DISK, error=1.0)) is Verdict.ASK


def test_range_bands_name_every_band_the_error_allows() -> None:
    bands = [("short", inches(3)), ("medium", inches(6)), ("long", inches(9))]
    assert band(Measured(inches(2)), bands, "siege") == ["short"]
    assert band(Measured(inches(6) + 0.5, 1.0), bands, "siege") == ["medium", "long"]
    assert band(Measured(inches(12)), bands, "siege") == ["siege"]
    assert band(Measured(inches(9)), bands, "siege") == ["long"]  # the limit is in the band


def test_areas_partly_and_completely() -> None:
    square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    assert completely_in_area(Circle(50, 50, MM30), square) is Verdict.YES
    assert in_area(Circle(50, 50, MM30), square) is Verdict.YES
    edge = Circle(95, 50, MM30)  # its centre inside, its edge over the outline
    assert in_area(edge, square) is Verdict.YES
    assert completely_in_area(edge, square) is Verdict.NO
    outside = Circle(120, 50, MM30)  # 5 mm clear of the outline
    assert in_area(outside, square) is Verdict.NO
    assert in_area(Circle(115, 50, MM30), square) is Verdict.NO  # touches from outside
    assert in_area(Circle(115, 50, MM30, error=0.5), square) is Verdict.ASK
    with pytest.raises(ValueError, match="3 corners"):
        in_area(outside, [(0, 0), (1, 1)])


def test_facing_and_arcs() -> None:
    a = Circle(0.0, 0.0, MM30)
    assert bearing((0, 0), (0, 10)) == pytest.approx(90.0)
    assert turn(350.0, 10.0) == pytest.approx(20.0)
    ahead, behind = Circle(100.0, 5.0, MM30), Circle(-100.0, 0.0, MM30)
    assert in_arc(a, 0.0, 180.0, ahead) is Verdict.YES
    assert in_arc(a, 0.0, 180.0, behind) is Verdict.NO
    beside = Circle(0.0, 100.0, MM30, error=1.0)  # on the front arc's very edge
    assert in_arc(a, 0.0, 180.0, beside) is Verdict.ASK


@pytest.mark.parametrize("bad", [dict(diameter=0.0), dict(error=-1.0), dict(x=math.nan),
                                 dict(y=math.inf), dict(diameter=True)])
def test_a_circle_refuses_what_no_camera_measures(bad: dict) -> None:
    args = dict(x=0.0, y=0.0, diameter=30.0, error=0.0) | bad
    with pytest.raises(ValueError):
        Circle(**args)


coords = st.floats(-600, 600, allow_nan=False)
diameters = st.sampled_from([25.0, 30.0, 40.0, 50.0, DISK, inches(3), inches(4)])
errors = st.floats(0, 3, allow_nan=False)
circles = st.builds(Circle, coords, coords, diameters, errors)
shifts = st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1))


def _truly(c: Circle, s: tuple[float, float, float]) -> Circle:
    """Where the piece may truly be: its edge moved at most by its error (half on the
    centre, half on the radius), and known exactly."""
    share = c.error / 2
    move = math.hypot(s[0], s[1]) or 1.0
    k = share * min(1.0, move) / move
    return Circle(c.x + s[0] * k, c.y + s[1] * k, max(1.0, c.diameter + 2 * share * s[2]))


@given(circles, circles, st.floats(0, 1000), shifts, shifts)
def test_a_decided_answer_holds_wherever_the_pieces_truly_are(a: Circle, b: Circle,
                                                             limit: float, sa, sb) -> None:
    ta, tb = _truly(a, sa), _truly(b, sb)
    for rule in (within, completely_within):
        said = rule(a, b, limit).verdict
        truth = rule(ta, tb, limit).verdict
        assert truth is not Verdict.ASK
        if said is not Verdict.ASK:
            assert said is truth, (rule.__name__, said, truth)
    for rule2 in (touching, overlap):
        said, truth = rule2(a, b), rule2(ta, tb)
        if said is not Verdict.ASK:
            assert said is truth, (rule2.__name__, said, truth)


@given(circles, circles)
def test_distance_is_symmetric_and_never_negative(a: Circle, b: Circle) -> None:
    assert gap(a, b).mm == pytest.approx(gap(b, a).mm)
    assert gap(a, b).mm >= 0
    assert gap(a, b).error == a.error + b.error


@given(circles, shifts, st.floats(5, 400), st.floats(5, 400))
def test_an_area_answer_holds_wherever_the_piece_truly_is(c: Circle, s, w: float,
                                                         h: float) -> None:
    rect = [(-w, -h), (w, -h), (w, h), (-w, h)]
    t = _truly(c, s)
    for rule in (in_area, completely_in_area):
        said, truth = rule(c, rect), rule(t, rect)
        if said is not Verdict.ASK:
            assert said is truth, (rule.__name__, said, truth)


@given(st.floats(0, inches(20)), st.floats(0, 5))
def test_a_measurement_lies_in_at_least_one_band(mm: float, error: float) -> None:
    bands = [("short", inches(3)), ("medium", inches(6)), ("long", inches(9))]
    found = band(Measured(mm, error), bands, "siege")
    assert found and found == sorted(found, key=["short", "medium", "long", "siege"].index)
    if error == 0:
        assert len(found) == 1


def test_an_observed_base_is_measured_with_its_fits_error() -> None:
    from table.observation import ObservedBase

    seen = ObservedBase("p1", 3, "read", 0.9, 10.0, 20.0, 50.0, layer=1, face="front",
                        facing=92.04, error_mm=0.6)
    assert seen.circle() == Circle(10.0, 20.0, 50.0, 0.6)
    assert seen.to_dict() == {"owner": "p1", "sticker": 3, "tag": "read", "confidence": 0.9,
                              "center_mm": [10.0, 20.0], "diameter_mm": 50.0, "layer": 1,
                              "face": "front", "facing": 92.0, "error_mm": 0.6}
    with pytest.raises(ValueError, match="positive diameter"):
        ObservedBase("p1", 3, "read", 0.9, 10.0, 20.0).circle()


def test_the_opposite_question_swaps_yes_and_no_but_not_ask() -> None:
    assert Verdict.YES.negated() is Verdict.NO
    assert Verdict.NO.negated() is Verdict.YES
    assert Verdict.ASK.negated() is Verdict.ASK
