"""Dice by face tables and decks drawn without replacement (``table.randomness``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.randomness import (
    Card,
    Deck,
    DeckError,
    Die,
    Face,
    FaceError,
    numbered,
    read_faces,
)

ATTACK = Die("attack", "attack die", (Face("1", "1"), Face("2", "2"), Face("3", "3"),
                                      Face("M", "miss"), Face("M", "miss"), Face("B", "blade")))


def test_a_face_table_maps_the_box_number_to_a_face_with_repeats() -> None:
    assert ATTACK.sides == 6
    assert [ATTACK.face(n).label for n in range(1, 7)] == ["1", "2", "3", "miss", "miss",
                                                           "blade"]
    assert [f.code for f in ATTACK.distinct()] == ["1", "2", "3", "M", "B"]
    assert ATTACK.odds(ATTACK.parse("miss")) == pytest.approx(1 / 3)
    assert ATTACK.label_for(1) == "attack die" and ATTACK.label_for(3) == "attack dice"
    assert numbered(6).label == "six-sided die" and numbered(7).label == "7-sided die"


@pytest.mark.parametrize("bad", [0, 7, -1, True, "3", None, 2.0])
def test_a_number_off_the_die_is_refused_by_name(bad: object) -> None:
    with pytest.raises(FaceError, match="shows 1 to 6"):
        ATTACK.face(bad)  # type: ignore[arg-type]


def test_typed_faces_by_code_or_label_any_case_and_refusals_name_the_input() -> None:
    assert [f.code for f in read_faces(ATTACK, ["b", "Miss", 2, "M"])] == ["B", "M", "2", "M"]
    with pytest.raises(FaceError, match=r"'sword' is not a face of the attack die \(1, 2"):
        read_faces(ATTACK, ["1", "sword"])
    for bad in ([], "1", [True], [None], ["1"] * 41, [[1]]):
        with pytest.raises(FaceError):
            read_faces(ATTACK, bad)


def test_a_face_table_from_its_json_form_and_its_refusals() -> None:
    symbol = Die.from_dict({"name": "red", "label": "red attack die", "faces": [
        {"code": "S", "label": "sword", "symbols": {"sword": 1}},
        {"code": "SS", "label": "two swords", "symbols": {"sword": 2}},
        {"code": "P", "label": "push", "symbols": {"push": 1}},
        {"code": "C", "label": "critical", "symbols": {"critical": 1}},
        {"code": "D", "label": "dragon", "symbols": {"dragon": 1}},
        "blank"]})
    assert symbol.sides == 6 and symbol.face(2).symbols == {"sword": 2}
    assert Die.from_dict(symbol.to_dict()) == symbol
    bad = [None, [], {"name": "", "label": "x", "faces": ["a", "b"]},
           {"name": "x", "label": "x", "faces": ["a"]},
           {"name": "x", "label": "x", "faces": ["a b", "c"]},
           {"name": "x", "label": "x", "faces": [{"code": "a", "label": "A"},
                                                 {"code": "a", "label": "B"}]},
           {"name": "x", "label": "x", "faces": [{"code": "a", "symbols": {"s": 10}}, "b"]},
           {"name": "x", "label": "x", "faces": ["a"] * 251},
           {"name": "x", "label": "x", "faces": [1, 2]}]
    for d in bad:
        with pytest.raises(FaceError):
            Die.from_dict(d)


FATE = [Card(f"{v}{s}", f"{v} of {s}") for s in "CDRT" for v in range(1, 14)] + \
    [Card("RJ", "red joker"), Card("BJ", "black joker")]


def test_a_deck_draws_without_replacement_discards_and_reshuffles() -> None:
    d = Deck.new("fate", FATE)
    assert d.left == 54
    d, card = d.draw(54)  # the box rolled a 54 on a 54-sided die: the last card, sorted
    assert card.code == "RJ" and d.left == 53  # codes sorted: "RJ" comes last
    with pytest.raises(DeckError, match="picks 1 to 53, not 54"):
        d.draw(54)
    d = d.to_discard(card.code)
    with pytest.raises(DeckError, match="not in play"):
        d.to_discard(card.code)
    d = d.take("BJ")  # a named card searched out of the deck
    with pytest.raises(DeckError, match="black joker is not in the fate deck's draw pile"):
        d.take("BJ")
    assert d.left == 52 and d.discard == ("RJ",) and d.out == ("BJ",)
    d = d.reshuffle()
    assert d.left == 53 and d.discard == ()
    with pytest.raises(DeckError, match="no card 'ZZ'"):
        d.card("ZZ")


@given(st.lists(st.integers(min_value=1, max_value=10_000), max_size=80))
def test_any_draw_sequence_keeps_every_card_in_exactly_one_pile(rolls: list[int]) -> None:
    d = Deck.new("fate", FATE)
    drawn = []
    for r in rolls:
        if not d.left:
            d = d.reshuffle()
            if not d.left:
                break
        d, c = d.draw((r - 1) % d.left + 1)
        drawn.append(c.code)
        if len(drawn) % 3 == 0:
            d = d.to_discard(c.code)
    # the deck's own check ran on each value; and nothing drawn is still in the pile
    assert not set(d.out) & set(d.draw_pile)
    assert sorted(d.draw_pile + d.discard + d.out) == sorted(c.code for c in FATE)


def test_a_deck_replays_to_the_same_state_from_the_same_numbers() -> None:
    """The log holds the numbers the box rolled: the same numbers give the same deck,
    whatever happened to the box between them (the host's log is the truth)."""
    def play(numbers: list[int]) -> Deck:
        d = Deck.new("feats", FATE[:10])
        for n in numbers:
            d, _ = d.draw(n)
        return d
    assert play([3, 1, 8]) == play([3, 1, 8]) != play([3, 1, 7])


def test_a_deck_with_the_same_card_twice_or_a_lost_card_is_refused() -> None:
    with pytest.raises(DeckError, match="two cards share a code"):
        Deck.new("x", [Card("a", "A"), Card("a", "B")])
    with pytest.raises(DeckError, match="do not hold each card once"):
        Deck("x", (Card("a", "A"), Card("b", "B")), ("a",))
