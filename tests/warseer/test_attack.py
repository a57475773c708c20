"""The attack sequence, step by step, with the rules text's two worked attacks."""

from __future__ import annotations

import pytest

from table.games.warseer import engine
from table.games.warseer.actions import parse
from table.games.warseer.errors import RulesError
from table.games.warseer.hexes import parse_hex
from table.games.warseer.state import HISTORY, MODIFY, PUSH

from .helpers import game, kinds, play, position


def test_worked_attack_kaitlynn_magic_push_into_forest_no_counterblow():
    # Kaitlynn's magic attack shows a dragon and a sword: 2 damage, and the dragon sets
    # off her critical effect, a push; the push into the forest adds one more. Gil-Talas
    # has Counterblow but cannot use it against magic.
    g = game()
    s = position(g, {"p2#0": "d7", "p1#1": "d5"}, active="p2")
    s, ev = play(g, s, "p2 attack p2#0 p1#1", "p2 roll D,S", "p2 pass", "p1 pass")
    assert s.attack is not None and s.attack.step == PUSH
    assert "critical" in kinds(ev)
    s, ev = play(g, s, "p2 push p1#1 c5")
    assert s.units["p1#1"].hex == parse_hex("c5")
    assert s.units["p1#1"].wounds == 3
    assert "pushed_into_terrain" in kinds(ev)
    assert s.attack is None  # no counterblow step against a magic attack


def _dayodor(advance: bool):
    g = game()
    s = position(g, {"p2#1": "c6", "p1#1": "c5"}, active="p2")  # Gil-Talas in the forest
    s, _ = play(g, s, "p2 attack p2#1 p1#1", "p2 roll P,D", "p2 pass")
    # The forest lets the defender remove a sword, but the roll shows none.
    with pytest.raises(RulesError, match="no sword"):
        engine.apply(s, parse("p1 modify cover"))
    assert "p1 modify cover" not in [str(a) for a in engine.legal_actions(s)]
    s, _ = play(g, s, "p1 pass", "p2 push p1#1 d4")
    assert s.units["p1#1"].wounds == 1  # the dragon: one damage, and the Advance
    assert {str(a) for a in engine.legal_actions(s)} == {"p2 advance", "p2 stay"}
    return g, play(g, s, "p2 advance" if advance else "p2 stay")[0]


def test_worked_attack_dayodor_advance_brings_it_into_counterblow_range():
    g, s = _dayodor(advance=True)
    assert s.units["p2#1"].hex == parse_hex("c5")
    assert [str(a) for a in engine.legal_actions(s)] == ["p1 counterblow", "p1 pass"]
    s, _ = play(g, s, "p1 counterblow")
    assert s.attack is not None and s.attack.counter and s.attack.attacker == "p1#1"


def test_worked_attack_dayodor_staying_out_of_range_gets_no_counterblow():
    _, s = _dayodor(advance=False)
    assert s.attack is None


def test_declare_needs_range_sight_and_one_attack_a_turn():
    g = game()
    s = position(g, {"p1#1": "c2", "p2#1": "c4", "p1#2": "c3", "p2#2": "e3"})
    with pytest.raises(RulesError, match="out of range"):
        engine.apply(s, parse("p1 attack p1#1 p2#1"))
    s2 = position(g, {"p1#3": "c2", "p1#2": "c3", "p2#1": "c4"})  # archer, range 4
    with pytest.raises(RulesError, match="line of sight"):
        engine.apply(s2, parse("p1 attack p1#3 p2#1"))
    s3 = position(g, {"p1#3": "b3", "p2#1": "b6"})
    s3, _ = play(g, s3, "p1 attack p1#3 p2#1", "p1 roll 0,0", "p1 pass", "p2 pass")
    with pytest.raises(RulesError, match="attacked this turn"):
        engine.apply(s3, parse("p1 attack p1#3 p2#1"))


def test_dice_must_match_the_attack_box():
    g = game()
    s = position(g, {"p1#1": "c3", "p2#1": "c4"})
    s, _ = play(g, s, "p1 attack p1#1 p2#1")
    assert engine.legal_actions(s) == []  # the state waits for dice
    for bad, why in (("p1 roll S", "2 dice"), ("p1 roll S,X", "not a face"),
                     ("p2 roll S,S", "p1 rolls")):
        with pytest.raises(RulesError, match=why):
            engine.apply(s, parse(bad))


def test_modification_round_ends_after_two_passes_in_a_row():
    g = game()
    s = position(g, {"p1#0": "c2", "p1#1": "c3", "p2#1": "c4"})
    s, _ = play(g, s, "p1 attack p1#1 p2#1", "p1 roll S,0")
    s, _ = play(g, s, "p1 modify warlord")  # Diodor stands beside Gil-Talas: +1 sword
    assert s.attack.step == MODIFY and s.attack.to_act == "p1"
    with pytest.raises(RulesError, match="used in this attack"):
        engine.apply(s, parse("p1 modify warlord"))
    s, _ = play(g, s, "p1 pass")
    assert s.attack.to_act == "p2"
    s, _ = play(g, s, "p2 modify tactic:parry")  # removes one sword, then p2 may go on
    assert s.attack.passes == 0 and s.attack.to_act == "p2"
    with pytest.raises(RulesError, match="used in this attack"):  # same name, same trigger
        engine.apply(s, parse("p2 modify tactic:parry"))
    s, _ = play(g, s, "p2 pass", "p1 pass")
    assert s.units["p2#1"].wounds == 1  # S + warlord - parry


def test_a_critical_applies_once_whatever_the_number_of_critical_symbols():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#1": "c4"})  # Diodor: critical adds a sword
    s, ev = play(g, s, "p1 attack p1#0 p2#1", "p1 roll D,D,D", "p1 pass", "p2 pass")
    assert kinds(ev).count("critical") == 1
    assert s.units["p2#1"].wounds == 4  # three dragons, one damage each, and one sword


def test_additional_die_is_rolled_after_the_round_and_cannot_be_modified():
    g = game()
    s = position(g, {"p1#3": "b2", "p2#1": "b5"})  # archer: critical rolls a bronze die
    s, _ = play(g, s, "p1 attack p1#3 p2#1", "p1 roll D,0", "p1 pass", "p2 pass")
    assert s.attack.step == "extra"
    assert engine.legal_actions(s) == []  # no modification possible: only the die
    s, _ = play(g, s, "p1 roll S")
    assert s.units["p2#1"].wounds == 2 and s.attack is None


def test_push_surrounded_costs_one_damage_and_lethal_damage_skips_the_push():
    g = game()
    # p2#3 (archer, health 2) in c3 hemmed in by creatures and the map edge? Use a ring.
    where = {"p1#1": "c2", "p2#3": "c3", "p1#0": "b3", "p1#2": "b2", "p1#3": "d2",
             "p2#2": "d3", "p2#1": "c4"}
    s = position(g, where)
    s, ev = play(g, s, "p1 attack p1#1 p2#3", "p1 roll 0,0", "p1 pass", "p2 pass")
    s = position(g, where)
    s, ev = play(g, s, "p1 attack p1#1 p2#3", "p1 roll SP,0", "p1 pass", "p2 pass")
    assert "cannot_be_pushed" in kinds(ev)
    assert s.units["p2#3"].place == HISTORY  # 1 sword + 1 for the push that could not be
    g2 = game()
    s = position(g2, {"p1#1": "c3", "p2#3": "c4"})
    s, ev = play(g2, s, "p1 attack p1#1 p2#3", "p1 roll SP,S", "p1 pass", "p2 pass")
    assert s.attack is None and "pushed" not in kinds(ev)  # 2 damage kills: no push asked


def test_tough_reduces_and_armour_takes_damage_before_wounds():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#2": "c4"})  # Stone Guardian: tough 1
    s, _ = play(g, s, "p1 attack p1#0 p2#2", "p1 roll 0,0,SS", "p1 pass", "p2 pass")
    assert s.units["p2#2"].wounds == 1
    s = position(g, {"p1#0": "c3", "p2#1": "c4"})
    s.units["p2#1"].armour = 2
    s, ev = play(g, s, "p1 attack p1#0 p2#1", "p1 roll S,S,SS", "p1 pass", "p2 pass")
    dmg = next(e for e in ev if e.kind == "damaged")
    assert (dmg.data["armour"], dmg.data["wounds"]) == (2, 2)


def test_relic_armour_takes_only_non_magic_damage():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#0": "b4", "p2#1": "c4"})
    s, _ = play(g, s, "p1 play tower-shield")
    assert [r.armour for r in s.sides["p1"].relics] == [2]
    s.active = "p2"
    s2, _ = play(g, s, "p2 attack p2#1 p1#0", "p2 roll S,S", "p2 pass", "p1 pass")
    assert s2.units["p1#0"].wounds == 0 and s2.sides["p1"].relics[0].armour == 0
    s3, _ = play(g, s, "p2 attack p2#0 p1#0", "p2 roll S,S", "p2 pass", "p1 pass")
    assert s3.units["p1#0"].wounds == 2 and s3.sides["p1"].relics[0].armour == 2


def test_eliminating_an_enemy_character_fills_the_hall_of_fame_minions_do_not():
    g = game()
    s = position(g, {"p1#0": "c3", "p2#3": "c4"})
    left = s.feats_left
    s, ev = play(g, s, "p1 attack p1#0 p2#3", "p1 roll 0,0,SS", "p1 pass", "p2 pass")
    assert s.units["p2#3"].place == HISTORY and s.units["p2#3"].hex is None
    assert s.sides["p1"].hall == 1 and s.feats_left == left - 1
    assert s.sides["p1"].destroyed == 1
    assert "hall_of_fame" in kinds(ev)


def test_counterblow_is_not_answered_by_another():
    g = game()
    s = position(g, {"p2#2": "c4", "p1#1": "c3"}, active="p2")  # both have counterblow
    s, _ = play(g, s, "p2 attack p2#2 p1#1", "p2 roll 0,0", "p2 pass", "p1 pass",
                "p1 counterblow", "p1 roll 0,0", "p1 pass", "p2 pass")
    assert s.attack is None
