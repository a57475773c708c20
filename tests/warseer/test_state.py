"""The state is a value: a clone shares nothing the engine changes."""

from __future__ import annotations

import copy
import dataclasses

from table.games.warseer import engine
from table.games.warseer.hexes import parse_hex
from table.games.warseer.state import Attack, Relic

from .helpers import game, play, position

# The static game (one for every state of a match), and what a state keeps worked out
# and hands to its clones: the occupied map, which ``put`` replaces rather than changes,
# and the last listing of legal actions (``listing.py``). Shared by design.
_NEVER_CHANGED = {"game", "_taken", "_listed", "_base"}


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
            if f.name in _NEVER_CHANGED:
                continue
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


def test_a_creature_put_elsewhere_gives_the_state_a_new_occupied_map():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#1": "c4"})
    taken = s.occupied()
    c = s.clone()
    assert c.occupied() is taken  # shared while nobody moves
    c.edit("p2#1").wounds += 1
    assert c.occupied() is taken  # a change that moves nobody keeps it
    c.put("p2#1", "field", parse_hex("e4"))
    assert s.occupied() is taken and taken == {parse_hex("c3"): "p1#0", parse_hex("c4"): "p2#1"}
    assert c.occupied() == {parse_hex("c3"): "p1#0", parse_hex("e4"): "p2#1"}
    assert c.occupied_bits() == g.battlefield.bits.mask(c.occupied()) != s.occupied_bits()


def test_apply_never_changes_its_input():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#1": "c4"})
    before = copy.deepcopy(s).to_dict()
    for a in engine.legal_actions(s):
        engine.apply(s, a)
    assert s.to_dict() == before
