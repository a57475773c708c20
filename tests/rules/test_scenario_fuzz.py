"""`rules check` against malformed scenarios: whatever the JSON, the runner answers with
a result or a ``ScenarioError`` (exit 2, one short line), never another exception."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from table.games.dreamblade import Catalog
from table.games.dreamblade.scenario import MAX_ACTIONS, ScenarioError, run

ROOT = Path(__file__).resolve().parents[2]
DOS = ["initiative", "spawn", "shift", "combat", "end_phase", "step", "explode"]
TEXTS = ["p1", "p2", "p1#0", "p2#0", "c3", "e1", "a5", "Iron Thug", "graveyard", "blade",
         "miss", "destroy", "disrupt", "p1 end", "p1 roll 1", "Charge", "x" * 50]
scalars = (st.none() | st.booleans() | st.integers(-3, 10) | st.integers(-2**70, 2**70)
           | st.floats(allow_nan=True) | st.sampled_from(TEXTS) | st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(TEXTS) | st.text(max_size=6), inner,
                                        max_size=4), max_leaves=12)
actions = st.fixed_dictionaries(
    {"do": st.sampled_from(DOS)},
    optional={"player": st.sampled_from(["p1", "p2", 3]), "mini": values, "cell": values,
              "rolls": st.fixed_dictionaries({"p1": values, "p2": values}) | values,
              "moves": values, "attackers": values, "roll": values, "damage": values,
              "blades": st.lists(values, max_size=3) | values, "outcomes": values,
              "placements": values, "deathblow": values, "action": values})
scenarios = st.fixed_dictionaries(
    {"setup": st.fixed_dictionaries(
        {"warbands": st.fixed_dictionaries({"p1": st.lists(st.sampled_from(
            ["Iron Thug", "Twilight Scout", "Nobody"]), max_size=3) | values,
            "p2": st.lists(st.sampled_from(["Iron Thug", "Noble Dragon"]), max_size=3)})},
        optional={"turn": values, "turns_won": values, "bonus_points": values,
                  "placement": st.fixed_dictionaries(
                      {"p1": st.dictionaries(st.sampled_from(["0", "1", "x"]),
                                             st.sampled_from(TEXTS) | values, max_size=2)})
                  | values}),
     "actions": st.lists(actions, max_size=6)},
    optional={"game": st.sampled_from(["dreamblade", "chess"]) | values,
              "miniatures": st.lists(values, max_size=2)})


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.one_of(scenarios, values))
# Found by this test: a list where a placement names a cell or zone was a TypeError.
@example(data={"setup": {"warbands": {"p1": ["Iron Thug"], "p2": []},
                         "placement": {"p1": {"0": []}}}, "actions": []})
def test_any_json_is_a_result_or_a_scenario_error(data: object) -> None:
    try:
        out = run(data, Catalog.builtin())
    except ScenarioError as e:
        assert "\n" not in str(e)
        return
    assert isinstance(out, dict)
    json.dumps(out)  # what the CLI prints


def cli(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    f = tmp_path / "s.json"
    f.write_text(text)
    return subprocess.run([sys.executable, "-m", "tablesight", "rules", "check", str(f)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("text", [
    "[" * 5000 + "]" * 5000,  # 10 KB nested deeper than Python recurses
    '{"setup": {"warbands": {"p1": [], "p2": []}}, "actions": ' + "[" * 3000 + "]" * 3000 + "}",
    json.dumps({"setup": {"warbands": {"p1": ["x" * 100_000], "p2": []}}, "actions": []}),
    json.dumps({"setup": {"warbands": {"p1": [], "p2": []}},
                "actions": [{"do": "end_phase", "player": "p1"}] * (MAX_ACTIONS + 1)}),
])
def test_malformed_files_get_exit_2_and_one_short_line(tmp_path: Path, text: str) -> None:
    r = cli(tmp_path, text)
    assert r.returncode == 2, r.stderr[-500:]
    assert r.stderr.count("\n") == 1 and len(r.stderr) <= 320, r.stderr[:400]
    assert "Traceback" not in r.stderr and r.stdout == ""
