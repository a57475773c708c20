"""Warseer scenarios through ``tablesight rules check``: a malformed file exits 2 with one
line naming the problem; a warband the rules refuse is a setup_error; the reader never
fails in any other way, whatever JSON it is given."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import scenarios

ROOT = Path(__file__).resolve().parents[2]
BASE = {"game": "warseer",
        "setup": {"warbands": {"p1": ["Diodor"], "p2": ["Kaitlynn"]},
                  "placement": {"p1#0": "c2", "p2#0": "c7"}},
        "actions": [{"do": "step", "action": "p1 move p1#0 c3"}]}


def variant(**changes):
    d = json.loads(json.dumps(BASE))
    for k, v in changes.items():
        if k.startswith("setup_"):
            d["setup"][k[6:]] = v
        else:
            d[k] = v
    return d


@pytest.mark.parametrize("data, says", [
    (variant(setup_placement={"p1#0": "z9"}), "not a hex of the battlefield"),
    (variant(setup_placement={"p1#7": "c2"}), "no creature 'p1#7'"),
    (variant(setup_placement={"p1#0": "a5"}), "taken or impassable"),
    (variant(actions=[{"do": "step", "action": "p1 fly p1#0 c3"}]), "unknown verb 'fly'"),
    (variant(actions=[{"do": "combat"}]), "do: step"),
    (variant(setup_wounds={"p1#0": -1}), "a whole number"),
    (variant(setup_relics={"p1": ["Fire Bolt"]}), "is a spell, not a relic"),
    (variant(colour="red"), "unknown key"),
    (variant(dice={"dice": []}), "no face table"),
    (variant(catalog={"creatures": [{"name": "X", "kind": "god"}]}), "kind: one of"),
    # every setup key that names something the catalog or the map may not hold
    (variant(setup_warbands={"p1": ["Diodor", "Nobody"], "p2": ["Kaitlynn"]}),
     "setup.warbands.p1: no creature 'Nobody'"),
    (variant(setup_decks={"p1": ["No Such Card"] * 7, "p2": []}),
     "setup.decks.p1: "),
    (variant(setup_relics={"p1": ["No Such Relic"]}), "No Such Relic"),
    (variant(setup_hand="many"), "hand"),
    (variant(setup_turn="soon"), "turn"),
    (variant(setup_active="p3"), "active"),
    (variant(setup_placement="c2"), "placement"),
    (variant(setup_hand={"p1": 99}), "setup.hand.p1: 99 cards in hand"),
    (variant(setup_hand={"p1": ["Fire Bolt", "Nothing"]}), "'Nothing'"),
    (variant(setup_hand={"p1": ["Tower Shield", "Tower Shield"]}), "more times than"),
    (variant(setup_hand={"p1": [3]}), "setup.hand.p1: a list of card names"),
    (variant(setup_relics={"p1": ["Tower Shield"]},
             setup_decks={"p1": ["Fire Bolt"] * 7, "p2": ["Fire Bolt"] * 7}),
     "no tower-shield left"),
    (variant(setup_feats_left=99), "setup.feats_left: a whole number 0-18"),
    (variant(setup_armour={"p1#9": 1}), "setup.armour: no creature 'p1#9'"),
    (variant(setup_armour={"p1#0": "thick"}), "setup.armour.p1#0: a whole number"),
    (variant(setup_feat_hand={"p3": 1}), "setup.feat_hand: an object with p1 and/or p2"),
    (variant(setup_hall={"p1": True}), "setup.hall.p1: a whole number"),
    (variant(setup_buildings={"p1": ["Fire Bolt"]}), "is a spell, not a building"),
    (variant(setup_buildings={"p1": "Barracks"}), "setup.buildings.p1: a list of card names"),
    (variant(setup_opening="yes"), "setup.opening: true"),
    (variant(setup_opening=True), "only its warbands and decks"),
    (variant(actions=[{"do": "step", "action": "p1 draw a,b,c,d,e,f,g,h,i,j,k,l,m"}]),
     "at most 12 cards"),
    (variant(notes={"rule": 1}), "notes: text"),
    (variant(notes=["x" * 20_001]), "notes: text"),
    (variant(battlefield={"terrain": {"c4": "volcano"}}), "unknown kind 'volcano'"),
    (variant(battlefield={"terrain": {"c4": {"k": 1}}}), "battlefield: terrain.c4"),
    (variant(battlefield={"terrain": {"z99": "forest"}}), "not a hex of the battlefield"),
    (variant(battlefield={"terrain": ["c4"]}), "battlefield: terrain is hex -> kind"),
    (variant(battlefield={"clear": "yes"}), "battlefield.clear"),
    (variant(battlefield={"terrain_kinds": {"wall": 3}}), "terrain_kinds.wall"),
    (variant(battlefield={"size": 9}), "unknown key"),
    (variant(actions=[{"do": "step", "action": "p1 end", "expect": [True]}]),
     "actions[0].expect: an object"),
    (variant(actions=[{"do": "step", "action": "p1 play call-the-wisp a1,b1,c1,d1,e1,"
                                                "f1,g1,h1,i1,a2"}]), "at most 9 hexes"),
])
def test_a_malformed_file_is_exit_2_with_one_clear_line(tmp_path, data, says):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, "-m", "tablesight", "rules", "check", str(f)],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], r.stderr


def test_a_warband_the_rules_refuse_is_a_setup_error_not_a_file_error():
    out = scenarios.run(variant(setup_warbands={"p1": ["Gil-Talas"], "p2": ["Kaitlynn"]}))
    assert out["setup_error"]["error"] == "invalid_setup"
    assert "starts with its hero" in out["setup_error"]["message"]


def test_a_users_dice_and_cards_come_with_the_scenario():
    gold = {"name": "gold", "label": "gold die", "faces": [
        {"code": "S", "label": "sword", "symbols": {"sword": 1}}, {"code": "0", "label": "blank"}]}
    dice = json.loads((ROOT / "table" / "games" / "warseer" / "data" / "dice.json").read_text())
    dice["dice"] = [d for d in dice["dice"] if d["name"] != "gold"] + [gold]
    data = variant(dice=dice, catalog={"creatures": [
        {"name": "Golden Hero", "kind": "hero", "attack": {"type": "melee",
                                                           "dice": {"gold": 1}},
         "health": 4, "movement": 2, "leadership": {"1": 1}}]},
        setup_warbands={"p1": ["Golden Hero"], "p2": ["Kaitlynn"]},
        setup_placement={"p1#0": "c6", "p2#0": "c7"},
        actions=[{"do": "step", "action": "p1 attack p1#0 p2#0"},
                 {"do": "step", "action": "p1 roll 0"}])
    out = scenarios.run(data)
    assert [r["ok"] for r in out["results"]] == [True, True]  # a blank on the user's gold


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 100) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["setup", "actions", "dice", "catalog", "game",
                                        "notes", "battlefield"]),
                       json_values, max_size=5),
       st.dictionaries(st.sampled_from([*sorted(BASE["setup"]), "turn", "wounds", "hand",
                                        "relics", "buildings", "feats_left", "opening"]),
                       json_values,
                       max_size=4))
def test_any_json_is_a_result_or_a_scenario_error(top, setup):
    data = {**variant(), **top, "game": "warseer"}
    if isinstance(data.get("setup"), dict):
        data["setup"] = {**data["setup"], **setup}
    try:
        out = scenarios.run(data)
    except scenarios.ScenarioError:
        return
    assert "results" in out or "setup_error" in out


def _check(tmp_path, data, *args):
    f = tmp_path / "case.json"
    f.write_text(json.dumps(data))
    return subprocess.run([sys.executable, "-m", "tablesight", "rules", "check", str(f),
                           *args], capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_a_steps_own_expectation_is_checked_and_a_mismatch_exits_1(tmp_path):
    steps = [{"do": "step", "action": "p1 move p1#0 c3",
              "expect": {"ok": True, "state": {"units": {"p1#0": {"hex": "c3"}}}}},
             {"do": "step", "action": "p1 move p1#0 c4", "expect": {"ok": True}}]
    r = _check(tmp_path, variant(actions=steps))
    assert r.returncode == 1, r.stderr
    assert r.stderr.strip().splitlines() == ["MISMATCH actions[1] $.ok: expected True, got "
                                             "False"]
    assert json.loads(r.stdout)["results"][0]["state"]["units"]["p1#0"]["hex"] == "c3"
    steps[1]["expect"] = {"ok": False, "error": "moved"}
    r = _check(tmp_path, variant(actions=steps), "--events")
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_a_file_without_step_expectations_prints_no_states(tmp_path):
    r = _check(tmp_path, variant())
    assert r.returncode == 0 and "state" not in json.loads(r.stdout)["results"][0]
