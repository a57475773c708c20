"""The state is a value: a clone shares nothing the engine changes."""

from __future__ import annotations

import copy
import dataclasses

from table.games.warseer import engine
from table.games.warseer.state import Attack, Relic

from .helpers import game, play, position


def _mutable_parts(obj, path="s"):
    """Every list and dict reachable from a state, by path."""
    if isinstance(obj, list | dict):
        yield path, obj
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)
        for k, v in items:
            yield from _mutable_parts(v, f"{path}[{k!r}]")
    elif dataclasses.is_dataclass(obj):
        yield path, obj
        for f in dataclasses.fields(obj):
            if f.name == "game":
                continue  # the static game: one for every state of the match, never changed
            yield from _mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")


def test_a_clone_shares_no_mutable_part_but_creatures_until_one_is_edited():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#1": "c4"})
    s, _ = play(g, s, "p1 play blessed-edge p1#0", "p1 attack p1#0 p2#1", "p1 roll S,0,S")
    s.sides["p1"].relics.append(Relic("tower-shield", 2))
    assert isinstance(s.attack, Attack)
    c = s.clone()
    assert c.to_dict() == s.to_dict() == copy.deepcopy(s).to_dict()
    mine = {id(o) for _, o in _mutable_parts(s)}
    shared = [p for p, o in _mutable_parts(c) if id(o) in mine]
    # The creatures themselves (copy on write), and nothing in them or beside them.
    assert shared == [f"s.units[{r!r}]" for r in s.units]
    before, after = copy.deepcopy(s).to_dict(), copy.deepcopy(c).to_dict()
    c.edit("p2#1").wounds += 1
    s.edit("p1#0").attacked = False
    assert c.units["p1#0"].attacked and s.units["p2#1"].wounds == before["units"]["p2#1"]["wounds"]
    assert c.to_dict()["units"]["p2#1"]["wounds"] == after["units"]["p2#1"]["wounds"] + 1
    assert c.clone().edit("p1#0") is not c.units["p1#0"]  # a clone of a clone copies too


def test_apply_never_changes_its_input():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#1": "c4"})
    before = copy.deepcopy(s).to_dict()
    for a in engine.legal_actions(s):
        engine.apply(s, a)
    assert s.to_dict() == before
