"""Diskwars rules scenarios: a malformed file is one line and exit 2, an army the rules
do not allow is a setup error, and the reader takes any JSON without a crash."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import scenarios
from table.errors import ScenarioError
from tests.rules.test_scenarios import run_cli

ROOT = Path(__file__).resolve().parents[2]
GOOD = json.loads((ROOT / "tests/data/scenarios/diskwars/a-pin-and-its-melee.json")
                  .read_text())


def changed(path: str, value: object) -> dict:
    d = copy.deepcopy(GOOD)
    *keys, last = path.split(".")
    at = d
    for k in keys:
        at = at[k]
    if value is KeyError:
        del at[last]
    else:
        at[last] = value
    return d


@pytest.mark.parametrize("path, value, words", [
    ("colour", "red", "unknown key"),
    ("setup.forces", {"p1": ["Tyrion"]}, "setup.forces"),
    ("setup.forces.p1", ["Nobody"], "no disk named 'Nobody'"),
    ("setup.commands", {"p1": ["Nope"]}, "no command card named 'Nope'"),
    ("setup.terrain", [{"name": "Volcano", "x": 1, "y": 1}], "no terrain named"),
    ("setup.terrain", [{"name": "Forest", "x": 1e309, "y": 1}], "millimetres"),
    ("setup.placement", {"p1#9": [1, 1]}, "no disk 'p1#9'"),
    ("setup.placement", {"p1#0": [1, 1]}, "not wholly on the battlefield"),
    ("setup.placement", {"p1#0": "somewhere"}, "[x, y], reserve or casualty"),
    ("setup.round", 9, "setup.round"),
    ("setup.damage", {"p1#0": -1}, "setup.damage.p1#0"),
    ("setup.activated", ["p2#9"], "no disk"),
    ("setup.hand", {"p1": ["Discipline"]}, "has no 'Discipline'"),
    ("setup.resolving", {"player": "p1", "card": "Forward"}, "a command card in its hand"),
    ("notes", 5, "notes"),
    ("actions", [{"do": "step", "action": "p1 fly p1#0"}], "not a Diskwars action"),
    ("actions", [{"do": "jump"}], "actions[0]"),
])
def test_a_malformed_file_is_named_in_one_line(tmp_path: Path, path, value, words) -> None:
    data = changed(path, value)
    with pytest.raises(ScenarioError) as e:
        scenarios.run(data)
    assert words in str(e.value), str(e.value)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(data))
    r = run_cli("rules", "check", str(f))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_an_army_the_rules_refuse_is_a_setup_error() -> None:
    out = scenarios.run(changed("setup.forces.p1", ["Tyrion", "Kairos Fateweaver"]))
    assert out["setup_error"]["error"] == "invalid_setup"
    assert "Order and Destruction" in out["setup_error"]["message"]


values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                      lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["setup.placement", "setup.forces", "setup.terrain", "setup.hand",
                        "setup.resolving", "setup.damage", "setup.round", "setup.first",
                        "actions", "catalog", "setup.activated"]), values)
def test_any_value_anywhere_is_read_or_refused_in_words(path, value) -> None:
    try:
        scenarios.run(changed(path, value))
    except ScenarioError as e:
        assert str(e) and "\n" not in str(e)
