"""The shared notation (``table.notation.spelled``): what a template writes, and that
a template naming no field of its class fails when the class is made."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.notation import spelled


@spelled("{player} play {card}[ on {target}][ x {x}]")
@dataclass(frozen=True)
class Play:
    player: str
    card: str
    target: str | None = None
    x: int | None = None


@spelled("{player} roll {faces:,} then {more: }")
@dataclass(frozen=True)
class Roll:
    player: str
    faces: tuple[str, ...]
    more: tuple[int, ...] = ()


def test_fields_and_optional_parts():
    assert str(Play("p1", "fire-bolt")) == "p1 play fire-bolt"
    assert str(Play("p1", "fire-bolt", "p2#0")) == "p1 play fire-bolt on p2#0"
    assert str(Play("p1", "fire-bolt", x=0)) == "p1 play fire-bolt x 0"
    assert str(Play("p2", "bolt", "c4", 3)) == "p2 play bolt on c4 x 3"


def test_sequences_joined():
    assert str(Roll("p1", ("S", "SP", "0"), (1, 2))) == "p1 roll S,SP,0 then 1 2"
    assert str(Roll("p1", ())) == "p1 roll  then "


def test_a_field_the_class_lacks_is_refused_at_once():
    with pytest.raises(TypeError, match="no field 'cell'"):
        @spelled("{player} move {cell}")
        @dataclass(frozen=True)
        class Move:
            player: str

    with pytest.raises(ValueError, match="names no field"):
        spelled("{player} [end]")


@given(st.text("abc#1 ", min_size=1, max_size=8), st.text("xyz-", min_size=1, max_size=8),
       st.none() | st.text("pq", min_size=1, max_size=4), st.none() | st.integers(0, 99))
def test_the_same_as_written_by_hand(player, card, target, x):
    by_hand = f"{player} play {card}" + (f" on {target}" if target is not None else "") \
        + (f" x {x}" if x is not None else "")
    assert str(Play(player, card, target, x)) == by_hand


def test_a_point_on_the_map_reads_to_a_tenth_and_junk_is_refused() -> None:
    from table.errors import NotationError
    from table.notation import point

    assert point("274.0,300.5") == (274.0, 300.5)
    assert point("274.04,300.46") == (274.0, 300.5)
    assert point(f"{point('0.05,5000')[0]},{point('0.05,5000')[1]}") == (0.1, 5000.0)
    for junk in ("274", "nan,3", "-1,3", "1e9,3", "1,2,3", "x,y", "inf,1", ",", ""):
        with pytest.raises(NotationError, match="map millimetres"):
            point(junk)
