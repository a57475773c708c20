"""Rules scenarios for any installed game (``docs/contracts/rules-scenario.md``): a
scenario names its ``game`` (the registry's default when absent), the game's system
reads and plays it (``GameSystem.run_scenario``), and ``compare`` checks an output
against an expected one the way the examples mean it. Pure: the caller reads the files.

Two kinds of failure stay apart, for every game: ``ScenarioError`` (the file is not a
valid scenario: the CLI exits 2 with one line) and a refused action (reported in the
output's ``results``; the state is left as it was)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from table import registry
from table.errors import RulesError, ScenarioError
from table.quoting import quote

__all__ = ["ScenarioError", "compare", "play_steps", "run", "section", "step_differences",
           "whole_number"]


def run(data: object, catalog: Any | None = None) -> dict[str, Any]:
    """Play a scenario of the game it names; the contract's output object."""
    game = data.get("game", registry.default()) if isinstance(data, dict) else None
    if not isinstance(data, dict):
        raise ScenarioError(f"scenario: expected an object, got {quote(data)}")
    try:
        system = registry.get(game)
    except registry.UnknownGame as e:
        raise ScenarioError(f"game: {e}") from None
    return system.run_scenario(data, catalog)


def compare(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """Differences between an expected output and an actual one, ignoring ``message``
    texts and keys the expectation does not mention (the examples' rule)."""
    diffs: list[str] = []

    def walk(e: object, a: object, path: str) -> None:
        if isinstance(e, dict):
            if not isinstance(a, dict):
                diffs.append(f"{path}: expected an object, got {quote(a, 200)}")
                return
            for k, v in e.items():
                if k == "message":
                    continue
                if k not in a:
                    diffs.append(f"{path}.{k}: missing")
                else:
                    walk(v, a[k], f"{path}.{k}")
        elif isinstance(e, list):
            if not isinstance(a, list) or len(a) != len(e):
                diffs.append(f"{path}: expected {len(e)} items, got {quote(a, 200)}")
                return
            for i, (x, y) in enumerate(zip(e, a, strict=True)):
                walk(x, y, f"{path}[{i}]")
        elif e != a:
            diffs.append(f"{path}: expected {quote(e, 200)}, got {quote(a, 200)}")

    walk(expected, actual, "$")
    return diffs


def step_differences(data: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """Differences between each action's own ``expect`` (what that step's result and the
    state after it must show, as far as it names them) and the output of ``run``, whose
    results carry the state after every step that has an expectation."""
    diffs: list[str] = []
    results = actual.get("results", [])
    for i, step in enumerate(data.get("actions", [])):
        if isinstance(step, dict) and "expect" in step and i < len(results):
            diffs += [f"actions[{i}] {d}" for d in compare(step["expect"], results[i])]
    return diffs


# -- reading a game's scenario file: the checks every game's reader makes ------------------
def section(v: object, where: str, allowed: set[str]) -> dict[str, Any]:
    """``v`` as an object of the ``allowed`` keys only; ``ScenarioError`` naming ``where``
    (a misspelt key must not be silently ignored)."""
    if not isinstance(v, dict):
        raise ScenarioError(f"{where}: expected an object, got {quote(v)}")
    extra = set(v) - allowed
    if extra:
        raise ScenarioError(f"{where}: unknown key(s) {sorted(map(str, extra))[:5]}")
    return v


def whole_number(v: object, where: str, hi: int = 99) -> int:
    """``v`` as a whole number from 0 to ``hi``; ``ScenarioError`` naming ``where``."""
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
        raise ScenarioError(f"{where}: a whole number 0-{hi}, not {quote(v)}")
    return v


def play_steps(apply: Callable[[Any, Any], tuple[Any, Sequence[Any]]], state: Any,
               actions: Sequence[Any], steps: Sequence[Mapping[str, Any]]
               ) -> tuple[Any, list[dict[str, Any]]]:
    """Play a scenario's actions in turn with a game's ``apply``: each result is
    ``{"ok": true, "events": [...]}`` or ``{"ok": false, "error": code, "message": ...}``
    (a refused action leaves the state as it was), with the state after it added where
    its step carries an ``expect`` (``step_differences`` checks it). The last state and
    the results."""
    results: list[dict[str, Any]] = []
    for step, a in zip(steps, actions, strict=True):
        try:
            state, events = apply(state, a)
        except RulesError as e:
            results.append({"ok": False, "error": e.code, "message": e.message})
        else:
            results.append({"ok": True, "events": [ev.to_dict() for ev in events]})
        if "expect" in step:
            results[-1]["state"] = state.to_dict()
    return state, results
