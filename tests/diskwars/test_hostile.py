"""Hostile input to Diskwars: action text, catalog files and table commands of any
shape get a clear refusal and change nothing."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import CatalogError, CommandRefused, NotationError
from table.games.diskwars import catalog, parse
from table.session import Session, Setup

from .test_browser import OPENING

WORDS = ["p1", "p2", "p1#0", "p2#3", "p1#999", "move", "shoot", "command", "dice", "d6",
         "roll", "deploy", "hit,miss", "3,5", "7", "0", "-1", "1e309", "nan", "120.0,80.5",
         "99999,1", "charge", "hold-fast", "first", "strike", "", " ", "\x00", "é"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=12), max_size=6))
def test_any_text_is_an_action_or_a_notation_error(words) -> None:
    text = " ".join(words)
    try:
        a = parse(text)
    except NotationError as e:
        assert str(e) and len(str(e)) < 600
        return
    assert parse(str(a)) == a


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True)
    | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "race", "faction", "size", "attack", "counter",
                         "toughness", "movement", "keywords", "ranged", "dice",
                         "strength", "type", "range", "strategy", "activations",
                         "diameter_mm", "x", "y"]) | st.text(max_size=6), inner, max_size=8),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"format": st.just(catalog.FORMAT)}, optional={
    "disks": st.lists(json_values, max_size=3), "commands": st.lists(json_values, max_size=3),
    "terrain": st.lists(json_values, max_size=3), "sizes_mm": json_values,
    "ruler_mm": json_values, "battle_die": json_values, "battlefield_mm": json_values,
    "standard_terrain": json_values}))
def test_a_catalog_file_of_any_shape_is_read_or_refused_in_words(doc) -> None:
    base = catalog.builtin()
    try:
        cat = catalog.with_document(base, json.loads(json.dumps(doc, allow_nan=True)))
    except CatalogError as e:
        assert str(e) and len(str(e)) < 600
        return
    assert set(base.disks) <= set(cat.disks)


COMMANDS = ["action", "d6", "dice", "correct", "undo", "ready", "choose", "board_ok",
            "follow_camera", "strike", "nope"]
VALUES = st.sampled_from(WORDS) | st.integers(-3, 300) | st.none() | st.booleans() \
    | st.lists(st.sampled_from(["hit", "miss", "6", 6, None]), max_size=4)


def table(which: str) -> Session:
    """A table waiting for command cards, or one where Ann resolves a card."""
    s = Session.new(Setup.from_dict({
        "system": "diskwars", "names": {"p1": "Ann", "p2": "Bob"},
        "forces": {"p1": ["Tyrion", "High Elf Spearmen", "High Elf Spearmen",
                          "High Elf Archers", "Silver Helms"],
                   "p2": ["Kairos Fateweaver", "Plaguebearers", "Plaguebearers",
                          "Hellcannon"]}}))
    extra = ["p1 command charge", "p2 command hold-fast"] if which == "resolve" else []
    for cmd in [*OPENING, *({"do": "action", "action": a} for a in extra)]:
        s.command(cmd)
    return s


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["choose", "resolve"]),
       st.fixed_dictionaries({"do": st.sampled_from(COMMANDS)}, optional={
           "player": VALUES, "action": VALUES, "die": VALUES, "faces": VALUES,
           "piece": VALUES, "disk": VALUES, "to": VALUES, "option": VALUES}))
def test_a_table_command_of_any_shape_is_done_or_refused_and_changes_nothing(
        which, cmd) -> None:
    s = table(which)
    before = s.referee.state_dict(s.state)
    try:
        s.command(cmd)
    except CommandRefused as e:
        assert str(e) and "Traceback" not in str(e)
        assert s.referee.state_dict(s.state) == before
        return
    if cmd["do"] != "undo" and s.referee.state_dict(s.state) != before:
        # Done: an undo takes it back whole.
        s.command({"do": "undo"})
        assert s.referee.state_dict(s.state) == before
