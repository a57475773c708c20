"""Warseer's rules outside the attack: warbands, hands, turns, movement, summoning,
support cards, the Hall of Fame and feats, the end of the game."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import NotationError
from table.games.warseer import engine
from table.games.warseer.actions import parse
from table.games.warseer.errors import RulesError, SetupError
from table.games.warseer.hexes import parse_hex
from table.games.warseer.state import CAMP, FIELD, MAIN, OVER

from .helpers import WARBANDS, game, kinds, play, position


# -- warbands ---------------------------------------------------------------------------
@pytest.mark.parametrize("p1, why", [
    (["Gil-Talas", "Diodor"], "starts with its hero"),
    (["Diodor", "Kaitlynn"], "one hero"),
    (["Diodor", "Wisp"], "minion"),
    (["Diodor", "Dayodor Order Mentor", "Dayodor Order Mentor"], "leads 1 character"),
    (["Diodor", "Order Squire"] * 1 + ["Order Squire"] * 3, "leads 3 character"),
    (["Nobody"], "no creature"),
    ([], "needs a hero"),
])
def test_warbands_follow_the_heros_leadership(p1, why):
    with pytest.raises(SetupError, match=why):
        game({"p1": p1, "p2": WARBANDS["p2"]})


def test_a_deck_must_hold_a_starting_draw():
    from table.games.warseer.battlefield import Battlefield
    from table.games.warseer.catalog import Catalog
    from table.games.warseer.game import Game

    with pytest.raises(SetupError, match="at least 7"):
        Game.make(Catalog.builtin(), Battlefield.standard(), WARBANDS,
                  {"p1": ["Fire Bolt"] * 6, "p2": ["Fire Bolt"] * 7})
    with pytest.raises(SetupError, match="no support card"):
        Game.make(Catalog.builtin(), Battlefield.standard(), WARBANDS,
                  {"p1": ["Fire Bolt"] * 6 + ["Nothing"], "p2": ["Fire Bolt"] * 7})


# -- the start and the turn ---------------------------------------------------------------
def test_the_opening_draws_seven_and_returns_three_p1_first():
    g = game()
    s = engine.new_state(g)
    deck = len(g.decks["p1"])
    assert s.phase == "opening" and s.sides["p1"].hand == 0
    assert [str(a) for a in engine.legal_actions(s)] == ["p1 draw"]
    for bad, why in (("p1 deploy p1#0 c1", "returns three first"), ("p2 draw", "p1, then p2"),
                     ("p1 return", "draws seven cards first"), ("p1 end", "opening")):
        with pytest.raises(RulesError, match=why):
            engine.apply(s, parse(bad))
    s, ev = play(g, s, "p1 draw")
    assert (s.sides["p1"].hand, s.sides["p1"].draw_pile) == (7, deck - 7)
    assert [str(a) for a in engine.legal_actions(s)] == ["p1 return"]
    s, ev = play(g, s, "p1 return", "p2 draw", "p2 return")
    assert kinds(ev) == ["returned", "drew", "returned"]
    assert s.phase == "deploy" and s.active == "p1"
    assert all((sd.hand, sd.draw_pile) == (4, deck - 4) for sd in s.sides.values())


def test_an_opening_with_named_cards_knows_the_hand():
    g = game()
    s = engine.new_state(g)
    seven = "fire-bolt,fire-bolt,parry,fury,insight,shrine,tower-shield"
    with pytest.raises(RulesError, match="name 7 cards, not 2"):
        engine.apply(s, parse("p1 draw fire-bolt,parry"))
    with pytest.raises(RulesError, match="parry is not among the deck's cards"):
        engine.apply(s, parse("p1 draw parry,parry,parry,fury,insight,shrine,fury"))
    s, _ = play(g, s, f"p1 draw {seven}")
    with pytest.raises(RulesError, match="stables is not in the hand"):
        engine.apply(s, parse("p1 return stables,parry,fury"))
    s, _ = play(g, s, "p1 return fire-bolt,shrine,tower-shield")
    assert sorted(s.sides["p1"].known) == ["fire-bolt", "fury", "insight", "parry"]
    s, _ = play(g, s, "p2 draw", "p2 return", "p1 deploy p1#0 c1", "p2 deploy p2#0 c8")
    # The turn's draw may be any card left in the deck; the four kept are known.
    s, _ = play(g, s, "p1 play stone-skin p1#0")
    with pytest.raises(RulesError, match="not one of them"):
        engine.apply(s, parse("p1 play mending-light p1#0"))
    s, _ = play(g, s, "p1 play insight")


def test_start_hands_deployment_and_turn_start_draws():
    g = game()
    s = engine.new_state(g, opening=False)
    deck = len(g.decks["p1"])
    assert s.sides["p1"].hand == 4 and s.sides["p1"].draw_pile == deck - 4
    with pytest.raises(RulesError, match="deployment zone"):
        engine.apply(s, parse("p1 deploy p1#0 c5"))
    with pytest.raises(RulesError, match="p1 deploys now"):
        engine.apply(s, parse("p2 deploy p2#0 c8"))
    feats = s.feats_left
    s, _ = play(g, s, "p1 deploy p1#0 c1", "p2 deploy p2#0 c8")
    assert s.phase == MAIN and s.turn == 1 and s.active == "p1"
    assert s.sides["p1"].hand == 5 and s.sides["p1"].feat_hand == 1
    assert s.feats_left == feats - 1
    s, _ = play(g, s, "p1 end")
    assert s.active == "p2" and s.turn == 2 and s.sides["p2"].hand == 5
    with pytest.raises(RulesError, match="p2's turn"):
        engine.apply(s, parse("p1 end"))


def test_one_character_a_turn_from_the_war_camp_into_the_deployment_zone():
    g = game()
    s = position(g, {"p1#0": "c1"})
    with pytest.raises(RulesError, match="deployment zone"):
        engine.apply(s, parse("p1 summon p1#1 c4"))
    with pytest.raises(RulesError, match="taken"):
        engine.apply(s, parse("p1 summon p1#1 c1"))
    s, _ = play(g, s, "p1 summon p1#1 d1")
    assert s.units["p1#1"].place == FIELD
    with pytest.raises(RulesError, match="one character a turn"):
        engine.apply(s, parse("p1 summon p1#2 e1"))
    with pytest.raises(RulesError, match="War Camp"):
        engine.apply(s, parse("p1 summon p2#1 e1"))


def test_movement_costs_two_to_enter_difficult_terrain_and_creatures_bar_the_way():
    g = game()
    s = position(g, {"p1#1": "c2"})  # Gil-Talas, movement 3
    reach = engine.reachable(g, s, s.units["p1#1"])
    assert reach[parse_hex("c3")] == 1 and reach[parse_hex("c4")] == 3  # forest: 1 + 2
    assert parse_hex("c5") not in reach  # 1 + 2 + 2
    s, _ = play(g, s, "p1 move p1#1 c4")
    with pytest.raises(RulesError, match="moved this turn"):
        engine.apply(s, parse("p1 move p1#1 c3"))
    fresh = position(g, {"p1#1": "a4"})
    for where, why in (("a5", "(lake)"), ("z9", "(off the battlefield)")):
        with pytest.raises(RulesError, match=f"stand in {where} {re.escape(why)}"):
            engine.apply(fresh, parse(f"p1 move p1#1 {where}"))
    walled = position(g, {"p1#2": "a1", "p2#1": "a2", "p2#2": "b1", "p2#3": "b2"})
    assert engine.reachable(g, walled, walled.units["p1#2"]) == {}
    with pytest.raises(RulesError, match="cannot reach"):
        engine.apply(walled, parse("p1 move p1#2 a3"))


def test_a_flyer_passes_over_creatures_and_terrain_at_one_a_hex():
    g = game()
    s = position(g, {"p1#0": "c2", "p2#1": "c3"})
    s, _ = play(g, s, "p1 play call-the-wisp d2")
    wisp = next(u for u in s.units.values() if u.name == "Wisp")
    assert wisp.ref == "p1#4" and wisp.hex == parse_hex("d2")
    reach = engine.reachable(g, s, wisp)
    assert parse_hex("c5") in reach  # over the forest (1 each)
    assert parse_hex("c3") not in reach  # it cannot end on a creature


# -- cards -------------------------------------------------------------------------------------
def test_relics_three_at_most_never_two_alike():
    g = game()
    s = position(g, {"p1#0": "c2"})
    s.sides["p1"].hand = 6
    s, _ = play(g, s, "p1 play tower-shield")
    with pytest.raises(RulesError, match="already"):
        engine.apply(s, parse("p1 play tower-shield"))
    s.sides["p1"].unseen += ["tower-shield"]
    s, _ = play(g, s, "p1 play rune-blade", "p1 play lucky-charm")
    s.sides["p1"].unseen += ["barracks"]
    with pytest.raises(RulesError, match="at most 3"):
        engine.apply(s, parse("p1 play tower-shield"))


def test_a_relic_with_uses_serves_its_heros_attacks_until_used_up():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#1": "c4"})
    s, _ = play(g, s, "p1 play lucky-charm", "p1 attack p1#0 p2#1", "p1 roll 0,0,S",
                "p1 modify relic:lucky-charm 1")
    assert s.attack.step == "reroll"
    s, _ = play(g, s, "p1 roll S")
    assert s.attack.faces == ["S", "0", "S"]
    assert "lucky-charm" in s.sides["p1"].history and not s.sides["p1"].relics


def test_a_card_whose_every_copy_is_played_cannot_be_played_again():
    g = game()
    s = position(g, {"p1#0": "c2", "p2#1": "c5"})
    s.sides["p1"].hand = 9
    s, _ = play(g, s, "p1 play fire-bolt p2#1", "p1 play fire-bolt p2#1")
    assert s.units["p2#1"].wounds == 4
    with pytest.raises(RulesError, match="every copy"):
        engine.apply(s, parse("p1 play fire-bolt p2#1"))


def test_spells_have_targets_and_range():
    g = game()
    s = position(g, {"p1#0": "a1", "p2#1": "e8", "p1#1": "b1"})
    with pytest.raises(RulesError, match="within 4 hexes"):
        engine.apply(s, parse("p1 play fire-bolt p2#1"))
    with pytest.raises(RulesError, match="enemy creature"):
        engine.apply(s, parse("p1 play fire-bolt p1#1"))
    with pytest.raises(RulesError, match="tactic"):
        engine.apply(s, parse("p1 play parry"))
    s, _ = play(g, s, "p1 play swift-winds p1#1")
    assert engine.movement(g, s, s.units["p1#1"]) == 4
    assert s.sides["p1"].hand == 3 and "swift-winds" not in s.sides["p1"].history


def test_an_enchantment_goes_to_the_history_when_its_creature_leaves():
    g = game()
    s = position(g, {"p1#0": "c2", "p1#2": "d3", "p2#1": "d4"})
    s, _ = play(g, s, "p1 play blessed-edge p1#2")
    s.units["p1#2"].wounds = 2
    s.active = "p2"
    s, _ = play(g, s, "p2 attack p2#1 p1#2", "p2 roll 0,S", "p2 pass", "p1 pass")
    assert s.units["p1#2"].place == "history"
    assert "blessed-edge" in s.sides["p1"].history


def test_buildings_each_once_a_turn_each_creature_one_bonus():
    g = game()
    s = position(g, {"p1#0": "c2", "p1#1": "d2"})
    s.sides["p1"].hand = 6
    s, _ = play(g, s, "p1 play barracks", "p1 play stables", "p1 use barracks p1#1")
    with pytest.raises(RulesError, match="used this turn"):
        engine.apply(s, parse("p1 use barracks p1#0"))
    with pytest.raises(RulesError, match="bonus this turn"):
        engine.apply(s, parse("p1 use stables p1#1"))
    s, _ = play(g, s, "p1 use stables p1#0")
    assert engine.movement(g, s, s.units["p1#0"]) == 5
    assert s.units["p1#1"].bonus_attack == 1
    s, _ = play(g, s, "p1 end", "p2 end")
    assert engine.movement(g, s, s.units["p1#0"]) == 3  # a bonus lasts the turn


def test_one_support_card_a_turn_discarded_unplayed():
    g = game()
    s = position(g, {"p1#0": "c2"})
    s, _ = play(g, s, "p1 discard parry")
    assert s.sides["p1"].history == ["parry"] and s.sides["p1"].hand == 3
    with pytest.raises(RulesError, match="one support card a turn"):
        engine.apply(s, parse("p1 discard fury"))


# -- feats and the end ---------------------------------------------------------------------------
def test_feats_face_up_when_met_and_one_spent_a_turn():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#3": "c4"})
    s.sides["p1"].feat_hand = 2
    with pytest.raises(RulesError, match="condition is not met"):
        engine.apply(s, parse("p1 feat first-blood"))
    s, _ = play(g, s, "p1 attack p1#0 p2#3", "p1 roll 0,0,SS", "p1 pass", "p2 pass",
                "p1 feat first-blood")
    assert s.sides["p1"].feats_up == ["first-blood"]
    assert engine.victory_points(g, s, "p1") == 2  # the hall card and the feat's point
    s.units["p1#0"].wounds = 3
    s, _ = play(g, s, "p1 spend slaughter p1#0")
    assert s.units["p1#0"].wounds == 1
    s.sides["p1"].feat_hand = 1
    with pytest.raises(RulesError, match="one feat a turn"):
        engine.apply(s, parse("p1 spend first-blood"))


def test_the_game_ends_with_the_turn_the_last_feat_is_drawn():
    g = game()
    s = position(g, {"p1#0": "c2", "p2#0": "c7"})
    s.feats_left = 1
    s.sides["p2"].hall = 2
    s, ev = play(g, s, "p1 end")  # p2's turn starts: the last feat drawn
    assert s.last_turn and "last_feat" in kinds(ev)
    s, ev = play(g, s, "p2 end")
    assert s.phase == OVER and s.winner == "p2"
    assert engine.legal_actions(s) == []
    # The score beside the result no longer says a last turn is being played.
    from table import registry
    from table.session import Setup

    ref = registry.get("warseer").referee(Setup.sample("warseer"))
    said = " ".join(ref.view(s)["score"]["lines"])
    assert "last turn" not in said and "Feats left in the Feats deck: 0" in said
    with pytest.raises(RulesError, match="over"):
        engine.apply(s, parse("p1 end"))


def test_a_refused_action_changes_nothing():
    g = game()
    s = position(g, {"p1#0": "c2", "p2#1": "c5"})
    before = s.to_dict()
    for bad in ("p1 play fire-bolt p1#0", "p1 move p1#0 i8", "p2 end", "p1 summon p1#1 c5"):
        with pytest.raises(RulesError):
            engine.apply(s, parse(bad))
    assert s.to_dict() == before


# -- properties over random games -----------------------------------------------------------------
def _playout(seed: int, limit: int = 400):
    g = game()
    rng = random.Random(seed)
    s = engine.new_state(g)
    for _ in range(limit):
        if s.phase == OVER:
            break
        a = engine.chance(s, rng)
        if a is None:
            legal = engine.legal_actions(s)
            yield g, s, legal
            a = rng.choice(legal)
        s, _ = engine.apply(s, a)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_every_legal_action_reads_back_and_is_accepted(seed):
    for _, s, legal in _playout(seed, 150):
        assert legal, "a decision point with nothing to do"
        assert len(set(map(str, legal))) == len(legal)
        for a in legal[:40]:
            assert parse(str(a)) == a
            engine.apply(s, a)


def test_random_games_end_with_a_result():
    for seed in range(4):
        g = game()
        rng = random.Random(seed)
        s = engine.new_state(g)
        for _ in range(3000):
            if s.phase == OVER:
                break
            a = engine.chance(s, rng) or rng.choice(engine.legal_actions(s))
            s, _ = engine.apply(s, a)
        assert s.phase == OVER and s.winner in ("p1", "p2", "draw")
        counts = {p: sum(1 for u in s.units.values() if u.player == p and u.place == CAMP)
                  for p in ("p1", "p2")}
        assert all(v >= 0 for v in counts.values())


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_an_action_or_a_clear_refusal(text):
    g = game()
    s = position(g, {"p1#0": "c2", "p2#1": "c5"})
    try:
        a = parse(text)
    except NotationError:
        return
    try:
        engine.apply(s, a)
    except RulesError:
        pass


def _walked(g, s, u) -> dict:
    """Where ``u`` can go, worked out the slow plain way: relax every hex's cost until
    nothing changes (no queue, nothing kept between questions)."""
    bf = g.battlefield
    flying = g.catalog.creature(u.name).has("flying")
    taken = {x.hex for x in s.units.values() if x.place == FIELD}
    budget = engine.movement(g, s, u)
    cost = {u.hex: 0}
    changed = True
    while changed:
        changed = False
        for h, c in list(cost.items()):
            for n in bf.adjacent[h]:
                if not flying and (not bf.standable(n) or n in taken):
                    continue
                step = 2 if not flying and bf.difficult(n) else 1
                if c + step <= budget and c + step < cost.get(n, 99):
                    cost[n] = c + step
                    changed = True
    return {h: c for h, c in cost.items() if h != u.hex and h not in taken and bf.standable(h)}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([f"{c}{r}" for c in "abcdefghi" for r in range(1, 9)]),
                min_size=2, max_size=7, unique=True), st.integers(0, 3))
def test_kept_moves_are_the_plain_walks_answer(spots, wisps):
    # Answers about movement are kept with the battlefield and asked again from other
    # positions; each must still be what a plain walk over the map finds.
    g = game()
    refs = ["p1#1", "p1#2", "p1#3", "p2#1", "p2#2", "p2#3", "p1#0"]
    where = {r: h for r, h in zip(refs, spots, strict=False) if h not in ("a5", "i4")}
    s = position(g, where)
    if wisps and "p1#1" in where:
        s.units["p1#1"].enchantments = ["swift-winds"] * wisps  # more movement
    for u in s.on_field():
        assert dict(engine.reachable(g, s, u)) == _walked(g, s, u)
        assert [str(a) for a in engine.moves(g, s, u)] == \
            [f"{u.player} move {u.ref} {h}" for h in sorted(
                _walked(g, s, u), key=lambda h: (h.col, h.row))]
