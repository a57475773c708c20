"""The scenario contract: data-driven regression files and the CLI's error handling."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from table import scenarios as scenario

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "examples" / "scenarios"
DIRS = [ROOT / "tests" / "data" / "scenarios", *(ROOT / "tests" / "data" / "scenarios" / g
                                                    for g in ("warseer", "diskwars"))] \
    + ([SHARED] if SHARED.is_dir() else [])
CASES = sorted({p for d in DIRS for p in d.glob("*.json") if not p.name.endswith(".expected.json")})


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario_files_give_their_expected_output(path: Path):
    """Each file is checked by its ``.expected.json``, its steps' own ``expect``, or both."""
    data = json.loads(path.read_text())
    out = scenario.run(data)
    expected_file = path.with_name(path.stem + ".expected.json")
    steps = [a for a in data.get("actions", []) if "expect" in a]
    assert expected_file.exists() or steps, f"{path.name} checks nothing"
    if expected_file.exists():
        assert scenario.compare(json.loads(expected_file.read_text()), out) == []
    assert scenario.step_differences(data, out) == []


def test_the_contract_examples_are_in_the_suite():
    assert {"first-turn", "combat-and-conquest", "worked-attacks", "short-game"} \
        <= {p.stem for p in CASES}


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablesight", *args], capture_output=True,
                          text=True, input=stdin, cwd=ROOT, timeout=60)


def test_cli_prints_the_contract_output():
    case = ROOT / "tests" / "data" / "scenarios" / "first-turn.json"
    r = run_cli("rules", "check", str(case))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    expected = json.loads(case.with_name("first-turn.expected.json").read_text())
    assert scenario.compare(expected, out) == []
    assert "events" not in out["results"][0]


BASE = {"game": "dreamblade",
        "miniatures": [{"name": "Plain Brute", "type": "creature", "cost": 3,
                        "aspects": ["passion"], "power": 2, "defense": 3, "life": 5}],
        "setup": {"warbands": {"p1": ["Plain Brute"], "p2": ["Plain Brute"]}},
        "actions": []}


def variant(**changes) -> str:
    doc = json.loads(json.dumps(BASE))
    for path, value in changes.items():
        node = doc
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return json.dumps(doc)


@pytest.mark.parametrize("text,needle", [
    ("{not json", "not valid JSON"),
    ("[]", "expected an object"),
    (variant(colour="red"), "unknown key"),
    (variant(setup__warbands={"p1": ["Nobody"]}), "unknown miniature name 'Nobody'"),
    (variant(actions=[{"do": "spawn", "player": "p1", "mini": "p1#0", "cell": "f9"}]),
     "unknown cell 'f9'"),
    (variant(actions=[{"do": "dance", "player": "p1"}]), "unknown action 'dance'"),
    (variant(actions=[{"do": "spawn", "player": "p3", "mini": "p1#0", "cell": "e1"}]),
     "player must be"),
    (variant(actions=[{"do": "spawn", "player": "p1", "mini": "brute", "cell": "e1"}]),
     "not a miniature reference"),
    (variant(actions=[{"do": "end_phase"}]), "missing key"),
    (variant(setup__placement={"p1": {"0": "zz"}}), "unknown cell 'zz'"),
    (variant(setup__placement={"p1": {"4": "c3"}}), "no miniature p1#4"),
    (variant(miniatures=[{"name": "X", "cost": 1, "aspects": ["fear"], "power": 1,
                          "defense": 1, "life": 1, "abilities": ["Sparkle"]}]), "Sparkle"),
    (variant(game="chess"), "no game 'chess' is installed"),
])
def test_a_malformed_file_is_exit_2_with_one_clear_line(tmp_path, text, needle):
    f = tmp_path / "bad.json"
    f.write_text(text)
    r = run_cli("rules", "check", str(f))
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_missing_file_is_exit_2(tmp_path):
    r = run_cli("rules", "check", str(tmp_path / "nope.json"))
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_setup_breaking_warband_rules_is_reported_not_a_file_error(tmp_path):
    f = tmp_path / "big.json"
    f.write_text(variant(setup__warbands={"p1": ["Plain Brute"] * 4, "p2": ["Plain Brute"]}))
    r = run_cli("rules", "check", str(f))
    assert r.returncode == 0
    assert json.loads(r.stdout) == {"setup_error": {
        "error": "too_many_copies",
        "message": "p1's warband has 4 copies of 'Plain Brute'; at most 3 allowed"}}


def test_bad_die_faces_and_unknown_minis_are_action_errors_not_file_errors():
    doc = json.loads(variant(setup__turn=2, actions=[
        {"do": "initiative", "rolls": {"p1": 9, "p2": 2}},
        {"do": "initiative", "rolls": {"p1": 4, "p2": 2}},
        {"do": "spawn", "player": "p1", "mini": "p1#5", "cell": "e1"}]))
    out = scenario.run(doc)
    assert [r.get("error") for r in out["results"]] == ["bad_die_face", None, "unknown_mini"]


def test_rejected_actions_leave_the_state_and_later_actions_continue():
    doc = json.loads(variant(actions=[
        {"do": "initiative", "rolls": {"p1": 5, "p2": 2}},
        {"do": "spawn", "player": "p2", "mini": "p2#0", "cell": "a5"},
        {"do": "spawn", "player": "p1", "mini": "p1#0", "cell": "e1"}]))
    out = scenario.run(doc)
    assert [r["ok"] for r in out["results"]] == [True, False, True]
    assert out["state"]["minis"]["p2#0"]["zone"] == "reserves"
    assert out["state"]["spawn_points"] == {"p1": 3, "p2": 0}
