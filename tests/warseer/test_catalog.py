"""The catalog format as a user writes it: the built-in sample reads, every entry kind
round-trips its fields, and any JSON at all is a catalog or one ``CatalogError`` naming
the entry (the user's files are read at start: nothing else may escape)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.games.warseer.catalog import (
    CATALOG_FORMAT,
    Catalog,
    CatalogError,
    creatures_from_csv,
    read_catalog,
    read_dice,
)

DICE = Catalog.builtin().dice
_DICE_DOC = json.loads((Path(__file__).resolve().parents[2] / "table" / "games" / "warseer"
                        / "data" / "dice.json").read_text())


def test_the_sample_reads_and_names_the_rules_texts_creatures():
    cat = Catalog.builtin()
    assert {"Diodor", "Kaitlynn", "Gil-Talas", "Dayodor Order Mentor"} <= set(cat.creatures)
    assert cat.creature("Gil-Talas").has("counterblow")
    assert cat.creature("Diodor").leadership == {1: 3, 2: 2, 3: 1}
    assert cat.card("fire-bolt").effect is not None and str(cat.card("fire-bolt").effect) \
        == "damage 2"
    assert len(cat.feats_deck()) == sum(cat.feat_copies.values()) == 18


@pytest.mark.parametrize("entry, says", [
    ({"creatures": [{"name": "X", "kind": "hero", "attack": {"type": "melee",
                                                             "dice": {"gold": 1}},
                     "health": 3, "movement": 2}]}, "leadership"),
    ({"creatures": [{"name": "X", "kind": "minion", "attack": {"type": "psychic",
                                                               "dice": {"gold": 1}},
                     "health": 3, "movement": 2}]}, "attack.type"),
    ({"cards": [{"name": "Boom", "type": "spell", "effect": "explode 3"}]}, "unknown effect"),
    ({"cards": [{"name": "Boom", "type": "spell", "effect": "add sword"}]}, "cannot stand here"),
    ({"cards": [{"name": "Sneak", "type": "tactic", "effect": "add sword"}]}, "trigger"),
    ({"cards": [{"name": "Call", "type": "spell", "effect": "summon Diodor"}]}, "a minion"),
    ({"feats": [{"name": "F", "points": 2, "condition": "wins 3"}]}, "condition"),
    ({"creatures": [{"name": "X"}, {"name": "X"}]}, "kind"),
    ({"cards": [{"name": "Boots", "type": "relic", "effect": "movement 1", "uses": 2}]},
     "no uses"),
    ({"cards": [{"name": "Bolt", "type": "spell", "effect": "damage 1", "place": "zone"}]},
     "place: where a summon"),
    ({"cards": [{"name": "Call", "type": "spell", "effect": "summon 12 Wisp"}]},
     "a count from 1 to 9"),
    ({"cards": [{"name": "Edge", "type": "tactic", "trigger": "modify",
                 "effect": "add crit"}]}, "a symbol: sword, dragon, push"),
])
def test_a_bad_entry_is_named(entry, says):
    with pytest.raises(CatalogError, match=says):
        read_catalog({"format": CATALOG_FORMAT, **entry}, DICE)


def test_a_spreadsheet_row_reads_as_a_creature():
    rows = creatures_from_csv("name,kind,rank,attack,bronze,silver,gold,critical,range,"
                              "health,movement,abilities,leadership\n"
                              "Ash Queen,hero,3,magic,0,2,1,add dragon,3,7,3,warlord,"
                              "1:2;2:2;3:1\n")
    cat = read_catalog({"format": CATALOG_FORMAT, "creatures": rows}, DICE)
    q = cat.creature("Ash Queen")
    assert q.attack.colours() == ("silver", "silver", "gold") and q.leadership[1] == 2
    assert json.loads(json.dumps(rows)) == rows


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=15)
    | st.sampled_from(["hero", "minion", "spell", "relic", "tactic", "melee", "magic",
                       "damage 2", "add sword", "summon Wisp", "gold", "destroyed 1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "kind", "rank", "attack", "type", "dice", "critical",
                         "range", "health", "movement", "abilities", "leadership",
                         "effect", "trigger", "uses", "armour", "points", "condition",
                         "copies", "gold", "1"]), inner, max_size=6),
    max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(["creatures", "cards", "feats", "format"]),
                       json_values, max_size=4))
def test_any_json_is_a_catalog_or_a_clear_error(doc):
    doc = {"format": CATALOG_FORMAT, **doc} if "format" not in doc else doc
    try:
        read_catalog(doc, DICE)
    except CatalogError as e:
        assert str(e) and len(str(e)) < 400


def test_the_dragon_is_the_critical_symbol_and_a_crit_face_is_refused_by_name():
    dice = json.loads(json.dumps(_DICE_DOC))
    dice["dice"][0]["faces"][5] = {"code": "C", "label": "critical", "symbols": {"crit": 1}}
    with pytest.raises(CatalogError, match="face C shows 'crit': the dragon is the critical"):
        read_dice(dice)


def test_a_summon_of_several_and_a_lasting_relic_read_and_print_back():
    cat = read_catalog({"format": CATALOG_FORMAT, "cards": [
        {"name": "Wisp Swarm", "type": "spell", "effect": "summon 2 Wisp", "place": "zone"},
        {"name": "Boots", "type": "relic", "effect": "movement 1"}]}, DICE)
    swarm = cat.card("wisp-swarm")
    assert (swarm.effect.n, swarm.effect.arg, swarm.place) == (2, "Wisp", "zone")
    assert str(swarm.effect) == "summon 2 Wisp"
    assert str(Catalog.builtin().card("call-the-wisp").effect) == "summon Wisp"
    assert cat.card("boots").effect.verb == "movement" and cat.card("boots").uses == 0
