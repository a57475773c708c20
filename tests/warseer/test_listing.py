"""A listing of legal actions takes what it can from the last one (``listing.py``): in
random games, each must be the listing made from nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from table.games.warseer import engine, listing
from table.games.warseer.actions import Move
from table.games.warseer.catalog import Card, Effect
from table.games.warseer.hexes import parse_hex
from table.games.warseer.state import FIELD, MAIN, Relic

from .helpers import game, play, position


def _main_phase(s) -> bool:
    return s.phase == MAIN and s.attack is None and engine.opening_step(s) is None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_every_listing_is_the_one_made_from_nothing(seed):
    g = game()
    rng = random.Random(seed)
    s = engine.new_state(g, opening=False)
    compared = 0
    for _ in range(1500):
        if s.phase == "over":
            break
        roll = engine.chance(s, rng)
        if roll is None:
            base = s._base
            kept = engine.legal_actions(s)
            if _main_phase(s):
                assert kept == listing.main_actions(g, s, fresh=True), str(kept)
                compared += base is not None
            action = rng.choice(kept)
        else:
            action = roll
        try:
            s, _ = engine.apply(s, action)
        except engine.RulesError:
            assert roll is not None  # only dice (a first-turn tie) are refused
    assert compared > 10


def test_a_relic_equipped_lists_the_heros_moves_again():
    # The hero is the same creature before and after, and nobody moved: only its
    # relics say its movement changed.
    g = game()
    g.catalog.cards["boots-of-haste"] = Card("boots-of-haste", "Boots of Haste", "relic",
                                             Effect("movement", 1, ""))
    s = position(g, {"p1#0": "c3", "p2#1": "h6"})

    def hero_moves(state):
        return {a.hex for a in engine.legal_actions(state)
                if isinstance(a, Move) and a.unit == "p1#0"}

    before = hero_moves(s)
    later = s.clone()
    later.sides["p1"].relics.append(Relic("boots-of-haste"))
    assert later._base is not None and later.units["p1#0"] is s.units["p1#0"]
    assert before < hero_moves(later)


def test_a_move_lists_the_others_moves_and_targets_again():
    g = game()
    s = position(g, {"p1#0": "c3", "p1#1": "d3", "p2#1": "d5"})
    engine.legal_actions(s)
    s2, _ = play(g, s, "p1 move p1#1 d4")
    assert s2.units["p1#1"].place == FIELD and s2.units["p1#1"].hex == parse_hex("d4")
    assert engine.legal_actions(s2) == listing.main_actions(g, s2, fresh=True)
