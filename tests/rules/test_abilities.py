"""Abilities the engine applies: for each, a position where it works and one where it
reaches its limit. The miniatures are in ``helpers.ABILITY_MINIS`` (plain 2/3/5 passion
creatures unless the ability needs more)."""

from __future__ import annotations

from table.games.dreamblade import Phase, apply, legal_actions, stats
from table.games.dreamblade.actions import (
    AssignBlade,
    AssignDamage,
    Attack,
    ChooseOutcome,
    Combat,
    Initiative,
    Roll,
    Spawn,
)
from table.games.dreamblade.spawning import spawn_cost
from table.games.dreamblade.turns import conquest_points

from .helpers import action_phase, play, position, rejects, where


def _stats(s, ref):
    g = s.game.gid(ref)
    return stats.power(s, g), stats.defense(s, g), stats.life(s, g)


# -- auras: stats while in reach ------------------------------------------------------
def test_enrage_bolster_invigorate_reach_allies_in_the_cell_and_adjacent_ones():
    wb = {"p1": ["Warlord", "Shieldbearer", "Healer", "Brute", "Brute", "Brute"],
          "p2": ["Brute"]}
    s = position(wb, {"p1#0": "c3", "p1#1": "c3", "p1#2": "c3",
                      "p1#3": "c3", "p1#4": "c2", "p1#5": "a1", "p2#0": "c4"})
    assert _stats(s, "p1#3") == (2 + 2, 3 + 2, 5 + 3)  # local: all three
    assert _stats(s, "p1#4") == (4, 5, 8)  # adjacent: all three
    assert _stats(s, "p1#5") == (2, 3, 5)  # too far: none
    # Not the holders themselves (a creature is not its own ally), nor enemies.
    assert _stats(s, "p1#0") == (2, 3 + 2, 5 + 3)
    assert _stats(s, "p2#0") == (2, 3, 5)


def test_self_narrows_an_aura_to_its_holder():
    s = position({"p1": ["Show-off", "Brute"], "p2": []}, {"p1#0": "c3", "p1#1": "c3"})
    assert _stats(s, "p1#0")[0] == 2 + 3
    assert _stats(s, "p1#1")[0] == 2


def test_weaken_panic_drain_hit_local_enemies_down_to_the_minimums():
    wb = {"p1": ["Hexer"], "p2": ["Brute", "Scout", "Brute"]}
    s = position(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3", "p2#2": "c4"})
    assert _stats(s, "p2#0") == (1, 2, 4)
    # A 1/2/3 Scout: power 0, defense 1; never below the minimums.
    assert _stats(s, "p2#1") == (0, 1, 2)
    assert _stats(s, "p2#2") == (2, 3, 5)  # adjacent is not local
    assert _stats(s, "p1#0") == (2, 3, 5)  # its own side is untouched


def test_minimums_apply_after_every_modifier():
    # A 1-power Scout under two Weaken 1 and an adjacent ally's Enrage +2: 1 - 2 + 2 = 1.
    # Clamping step by step would give max(0, 1 - 2) + 2 = 2.
    wb = {"p1": ["Hexer", "Hexer"], "p2": ["Scout", "Warlord"]}
    s = position(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3", "p2#1": "c4"})
    assert _stats(s, "p2#0")[0] == 1


def test_inciter_gives_local_enemies_power():
    s = position({"p1": ["Taunter"], "p2": ["Brute", "Brute"]},
                 {"p1#0": "c3", "p2#0": "c3", "p2#1": "b3"})
    assert _stats(s, "p2#0")[0] == 3 and _stats(s, "p2#1")[0] == 2


def test_fight_type_only_with_an_enemy_of_that_type_in_the_cell():
    wb = {"p1": ["Slayer"], "p2": ["Scout", "Brute"]}  # Scout: valor; Brute: passion
    s = position(wb, {"p1#0": "c3", "p2#1": "c3", "p2#0": "c4"})
    assert _stats(s, "p1#0")[0] == 1
    s = position(wb, {"p1#0": "c3", "p2#0": "c3"})
    assert _stats(s, "p1#0")[0] == 1 + 2


def test_score_activated_aura_works_only_on_its_own_scoring_cell_and_type():
    wb = {"p1": ["Banner", "Scout", "Brute"], "p2": []}
    s = position(wb, {"p1#0": "c3", "p1#1": "c3", "p1#2": "c3"})
    assert _stats(s, "p1#1")[1] == 2 + 1  # c3 scores for p1; Scout is valor
    assert _stats(s, "p1#2")[1] == 3  # Brute is passion: not its type
    s = position(wb, {"p1#0": "a3", "p1#1": "a3"})
    assert _stats(s, "p1#1")[1] == 2  # a3 is not a scoring cell


def test_geomancy_counts_own_locations_in_its_column():
    wb = {"p1": ["Earthshaper", "Tower", "Tower"], "p2": ["Tower"]}
    s = position(wb, {"p1#0": "c3", "p1#1": "c1", "p1#2": "b1", "p2#0": "c5"})
    assert _stats(s, "p1#0") == (1 + 1, 2 + 1, 3 + 1)


def test_thanatomancy_power_is_the_graveyard_count():
    wb = {"p1": ["Necromancer", "Brute", "Brute", "Tower"], "p2": ["Brute"]}
    s = position(wb, {"p1#0": "c3", "p1#1": "graveyard", "p1#2": "graveyard",
                      "p1#3": "graveyard", "p2#0": "graveyard"})
    assert _stats(s, "p1#0")[0] == 2  # two creatures; the location and p2's do not count
    s = position(wb, {"p1#0": "c3"})
    assert _stats(s, "p1#0")[0] == 0


def test_auras_change_the_dice_of_an_attack():
    wb = {"p1": ["Warlord", "Brute"], "p2": ["Brute"]}
    s = action_phase(wb, {"p1#0": "c2", "p1#1": "c3", "p2#0": "c3"})
    s, _ = play(s, Attack("p1", "c3", ("p1#1",)))
    assert s.combat.attack.dice == 2 + 2


# -- blade abilities that add damage -----------------------------------------------------
def _strike_blade(wb, placed, attackers, mini, ability):
    s = action_phase(wb, placed)
    s, _ = play(s, Attack("p1", "c3", attackers))
    n = s.combat.attack.dice
    s, ev = play(s, Roll("p1", ("blade",) + ("miss",) * (n - 1)),
                 AssignBlade("p1", mini, ability))
    return s, next(e for e in ev if e.kind == "blade")


def test_flanking_only_when_outnumbering():
    wb = {"p1": ["Flanker", "Brute"], "p2": ["Brute", "Brute"]}
    s, e = _strike_blade(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"}, ("p1#0",),
                         "p1#0", "Flanking")
    assert e.data["damage"] == 3 and s.combat.attack.damage_total == 3
    s, e = _strike_blade(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3", "p2#1": "c3"},
                         ("p1#0",), "p1#0", "Flanking")
    assert e.data["damage"] == 0


def test_heroics_only_when_outnumbered():
    wb = {"p1": ["Underdog"], "p2": ["Brute", "Brute"]}
    _, e = _strike_blade(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}, ("p1#0",),
                         "p1#0", "Heroics")
    assert e.data["damage"] == 3
    _, e = _strike_blade(wb, {"p1#0": "c3", "p2#0": "c3"}, ("p1#0",), "p1#0", "Heroics")
    assert e.data["damage"] == 0


def test_pack_counts_local_and_adjacent_allies_and_stalwart_local_enemies():
    wb = {"p1": ["Wolf", "Brute", "Brute", "Brute"], "p2": ["Brute", "Brute", "Brute"]}
    placed = {"p1#0": "c3", "p1#1": "c3", "p1#2": "b3", "p1#3": "a1",
              "p2#0": "c3", "p2#1": "c3", "p2#2": "c4"}
    _, e = _strike_blade(wb, placed, ("p1#0",), "p1#0", "Pack")
    assert e.data["damage"] == 2  # p1#1 local, p1#2 adjacent; p1#3 too far
    wb = {"p1": ["Stubborn"], "p2": ["Brute", "Brute", "Brute"]}
    _, e = _strike_blade(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3", "p2#2": "c4"},
                         ("p1#0",), "p1#0", "Stalwart")
    assert e.data["damage"] == 2  # the enemy in c4 is not local


def test_a_blade_stat_change_lasts_to_the_end_of_the_combat_only():
    # Hexblade (Blade: Weaken 2) destroys a Brute as the first player; the Brute's
    # deathblow is rolled with its power weakened: 2 - 2 = 0 dice, so no deathblow.
    wb = {"p1": ["Hexblade", "Brute"], "p2": ["Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"}, first="p1")
    s, _ = play(s, Attack("p1", "c3", ("p1#0", "p1#1")))
    s, _ = play(s, Roll("p1", ("blade", 3, 2, 1)), AssignBlade("p1", "p1#0", "Weaken"))
    assert _stats(s, "p2#0")[0] == 0
    s, ev = play(s, AssignDamage("p1", "p2#0", 6), ChooseOutcome("p1", "p2#0", "destroy"))
    assert not any(e.kind == "deathblow_available" for e in ev)
    assert s.combat is None and where(s, "p2#0") == "graveyard"
    # After the combat, the Weaken is gone.
    s2 = action_phase(wb, {"p1#0": "c3", "p2#0": "c3"})
    assert _stats(s2, "p2#0")[0] == 2


# -- Nullify -------------------------------------------------------------------------
def test_nullify_negates_local_creatures_blade_abilities_but_not_locations():
    wb = {"p1": ["Critter", "Idol"], "p2": ["Silencer"]}
    s = action_phase(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"})
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)))
    s, _ = play(s, Roll("p1", ("blade", "miss")))
    # Critter's Crit is negated; the Idol (a location) still takes the blade.
    rejects(s, AssignBlade("p1", "p1#0", "Crit"), "invalid_blade")
    s, _ = play(s, AssignBlade("p1", "p1#1", "Crit"))
    assert s.combat.attack.damage_total == 2


def test_nullify_type_only_reaches_creatures_of_that_type():
    wb = {"p1": ["Critter"], "p2": ["Valor Silencer"]}  # Critter is passion
    _, e = _strike_blade(wb, {"p1#0": "c3", "p2#0": "c3"}, ("p1#0",), "p1#0", "Crit")
    assert e.data["damage"] == 3


# -- scoring and spawning ----------------------------------------------------------------
def test_dominate_claims_a_contested_scoring_cell():
    wb = {"p1": ["Conqueror", "Brute"], "p2": ["Brute", "Brute"]}
    s = position(wb, {"p1#0": "c4", "p2#0": "c4", "p1#1": "b4", "p2#1": "b4"})
    assert conquest_points(s) == (4, 0)  # c4 claimed by Dominate; b4 contested


def test_energize_adds_spawn_points_while_in_the_dreamscape():
    wb = {"p1": ["Dynamo"], "p2": ["Brute"]}

    def p1_points(placed):
        s, _ = play(position(wb, placed), Initiative(5, 3))  # p1 first
        assert s.phase is Phase.SPAWN and s.active == "p1"
        return s.spawn_points[0]

    assert p1_points({"p1#0": "c3"}) == 8 + 2
    assert p1_points({}) == 8  # in the reserves it gives nothing


def test_channel_lowers_spawn_costs_never_below_zero_and_only_for_its_type():
    wb = {"p1": ["Channeler", "Valor Channeler", "Brute", "Scout", "Scout"], "p2": []}
    s = position(wb, {"p1#0": "e1", "p1#1": "e1", "p1#3": "graveyard"},
                 phase=Phase.SPAWN, active="p1", spawn_points=10)
    g = s.game.gid
    assert spawn_cost(s, g("p1#2")) == 3 - 1  # passion Brute: Channel 1 only
    assert spawn_cost(s, g("p1#4")) == 0  # a 2-cost valor Scout, 3 off: not below 0
    s = position(wb, {"p1#1": "e1"}, phase=Phase.SPAWN, active="p1", spawn_points=10)
    assert spawn_cost(s, g("p1#2")) == 3  # Channel Valor does not reach a passion Brute
    s2, _ = play(s, Spawn("p1", "p1#2", "e1"))
    assert s2.spawn_points[0] == 10 - 3


# -- leaving the dreamscape ------------------------------------------------------------
def test_vessel_gives_its_bonus_points_instead_of_two():
    wb = {"p1": ["Brute"], "p2": ["Urn", "Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}, first="p2")
    s, _ = apply(s, Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#0", 2),),
                           outcomes=(("p2#0", "destroy"),)))
    assert where(s, "p2#0") == "graveyard" and s.bonus_points == [0, 5]
    s, _ = apply(action_phase(wb, {"p1#0": "c3", "p2#1": "c3"}, first="p2"),
                 Combat("p1", "c3", ("p1#0",), (3, 2), damage=(("p2#1", 5),)))
    assert s.bonus_points == [0, 2]


def test_regenerate_banishes_instead_of_destroying_without_points_or_deathblow():
    wb = {"p1": ["Brute"], "p2": ["Troll", "Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}, first="p1")
    s, ev = apply(s, Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#0", 2),),
                            outcomes=(("p2#0", "destroy"),)))
    assert where(s, "p2#0") == "reserves"
    assert s.kills == [0, 0] and s.bonus_points == [0, 0]
    assert not any(e.kind == "deathblow_available" for e in ev)
    # Disrupted, it is placed as usual: Regenerate only replaces destruction.
    s, _ = apply(action_phase(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}, first="p2"),
                 Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#0", 2),),
                        outcomes=(("p2#0", "disrupt"),), placements=(("p2#0", "a3"),)))
    assert where(s, "p2#0") == "a3"


def test_fade_and_detonate_leave_after_attacking_unless_destroyed():
    wb = {"p1": ["Ghost", "Detonator", "Brute"], "p2": ["Brute", "Brute"]}
    placed = {"p1#0": "c3", "p1#1": "c3", "p1#2": "c3", "p2#0": "c3", "p2#1": "b2"}
    s, _ = apply(action_phase(wb, placed, first="p2"),
                 Combat("p1", "c3", ("p1#0", "p1#1"), ("miss",) * 4))
    assert where(s, "p1#0") == "reserves"  # Fade: banished
    assert where(s, "p1#1") == "graveyard"  # Detonate: sacrificed
    assert s.bonus_points == [0, 0] and s.kills == [0, 0]  # neither is a destruction
    # Not attacking: they stay.
    s, _ = apply(action_phase(wb, placed, first="p2"),
                 Combat("p1", "c3", ("p1#2",), ("miss", "miss")))
    assert where(s, "p1#0") == "c3" and where(s, "p1#1") == "c3"


def test_bloodthirsty_is_sacrificed_when_its_attack_destroys_no_one():
    wb = {"p1": ["Berserker"], "p2": ["Scout", "Scout"]}
    placed = {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}
    s, _ = apply(action_phase(wb, placed, first="p2"),
                 Combat("p1", "c3", ("p1#0",), ("miss", "miss")))
    assert where(s, "p1#0") == "graveyard"
    s, _ = apply(action_phase(wb, placed, first="p2"),
                 Combat("p1", "c3", ("p1#0",), (3, "miss"), damage=(("p2#0", 3),),
                        outcomes=(("p2#0", "destroy"),)))
    assert where(s, "p2#0") == "graveyard" and where(s, "p1#0") == "c3"


def test_loner_attacks_alone_only():
    wb = {"p1": ["Hermit", "Brute"], "p2": ["Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"})
    rejects(s, Attack("p1", "c3", ("p1#0", "p1#1")), "loner")
    s2, _ = play(s, Attack("p1", "c3", ("p1#0",)))
    assert s2.combat is not None
    attacks = [a for a in legal_actions(s) if isinstance(a, Attack)]
    assert all("p1#0" not in a.attackers or len(a.attackers) == 1 for a in attacks)
    assert any(a.attackers == ("p1#0",) for a in attacks)


# -- blade abilities with a target ---------------------------------------------------------
def _blade_on(wb, placed, attackers, blade, first="p1"):
    """Strike in c3 with one blade (the rest misses) assigned as ``blade``."""
    s = action_phase(wb, placed, first=first)
    s, _ = play(s, Attack("p1", "c3", attackers))
    n = s.combat.attack.dice
    s, _ = play(s, Roll("p1", ("blade",) + ("miss",) * (n - 1)))
    return s, blade


def test_payback_adds_the_power_of_a_local_enemy():
    wb = {"p1": ["Avenger Dragon"], "p2": ["Brute", "Crusher", "Brute"]}
    s, _ = _blade_on(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3", "p2#2": "c4"},
                     ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Payback"), "invalid_target")  # one is needed
    rejects(s, AssignBlade("p1", "p1#0", "Payback", "p2#2"), "invalid_target")  # not local
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Payback", "p2#1"))
    assert s2.combat.attack.damage_total == 3


def test_ferocity_destroys_a_target_that_would_be_disrupted():
    wb = {"p1": ["Mauler", "Brute"], "p2": ["Brute", "Brute"]}
    s, _ = apply(action_phase(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3", "p2#1": "c3"},
                              first="p2"),
                 Combat("p1", "c3", ("p1#0", "p1#1"), ("blade", 3, "miss", "miss"),
                        blades=(("p1#0", "Ferocity", "p2#0"),), damage=(("p2#0", 3),)))
    assert where(s, "p2#0") == "graveyard" and s.kills == [1, 0]
    # Without it, 3 damage only disrupts a 3/5 Brute.
    s, _ = apply(action_phase(wb, {"p1#1": "c3", "p2#0": "c3"}, first="p2"),
                 Combat("p1", "c3", ("p1#1",), (3, "miss"), damage=(("p2#0", 3),),
                        placements=(("p2#0", "a3"),)))
    assert where(s, "p2#0") == "a3"


def test_demolish_destroys_a_local_or_adjacent_location_only():
    wb = {"p1": ["Sapper"], "p2": ["Brute", "Tower", "Tower"]}
    s, _ = _blade_on(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c4", "p2#2": "a1"},
                     ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Demolish", "p2#2"), "invalid_target")
    rejects(s, AssignBlade("p1", "p1#0", "Demolish", "p2#0"), "invalid_target")
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Demolish", "p2#1"))
    assert where(s2, "p2#1") == "graveyard"


def test_lure_pulls_one_cell_closer_and_scare_pushes_one_farther():
    wb = {"p1": ["Siren", "Ghoul"], "p2": ["Brute", "Brute", "Brute"]}
    placed = {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3", "p2#1": "c5", "p2#2": "a3"}
    s, _ = _blade_on(wb, placed, ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Lure", "p2#1", "b5"), "invalid_target")  # sideways
    rejects(s, AssignBlade("p1", "p1#0", "Lure", "p2#0", "c4"), "invalid_target")  # engaged
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Lure", "p2#1", "c4"))
    assert where(s2, "p2#1") == "c4"
    s, _ = _blade_on(wb, placed, ("p1#1",), None)
    rejects(s, AssignBlade("p1", "p1#1", "Scare", "p2#2", "b3"), "invalid_target")  # closer
    s2, _ = play(s, AssignBlade("p1", "p1#1", "Scare", "p2#2", "a2"))
    assert where(s2, "p2#2") == "a2"
    # A "may" ability: the blade can go to it with no target at all.
    s3, _ = play(s, AssignBlade("p1", "p1#1", "Scare"))
    assert where(s3, "p2#2") == "a3"


def test_expel_moves_an_engaged_enemy_out_of_the_fight():
    wb = {"p1": ["Bouncer", "Brute"], "p2": ["Brute", "Brute"]}
    s, _ = _blade_on(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3", "p2#1": "a1"},
                     ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Expel", "p2#1", "a2"), "invalid_target")
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Expel", "p2#0", "d3"))
    assert where(s2, "p2#0") == "d3"
    assert s2.combat is None or not s2.creatures_in(s2.combat.cell, 1)


def test_advance_and_skirmish_move_allies_by_engagement():
    wb = {"p1": ["Captain", "Skirmisher", "Brute", "Brute"], "p2": ["Brute"]}
    placed = {"p1#0": "c3", "p1#1": "c3", "p1#2": "c3", "p1#3": "a1", "p2#0": "c3"}
    s, _ = _blade_on(wb, placed, ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Advance", "p1#2", "b3"), "invalid_target")
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Advance", "p1#3", "a2"))
    assert where(s2, "p1#3") == "a2"
    s, _ = _blade_on(wb, placed, ("p1#1",), None)
    rejects(s, AssignBlade("p1", "p1#1", "Skirmish", "p1#3", "a2"), "invalid_target")
    s2, _ = play(s, AssignBlade("p1", "p1#1", "Skirmish", "p1#2", "b3"))
    assert where(s2, "p1#2") == "b3"


def test_teleport_goes_anywhere_but_a_portal_within_the_stacking_limit():
    wb = {"p1": ["Blinker", "Brute", "Brute", "Brute", "Scout"], "p2": ["Brute"]}
    placed = {"p1#0": "c3", "p2#0": "c3", "p1#1": "b4", "p1#2": "b4", "p1#3": "b4",
              "p1#4": "b4"}
    s, _ = _blade_on(wb, placed, ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Teleport", "p2#0", "a5"), "invalid_target")
    rejects(s, AssignBlade("p1", "p1#0", "Teleport", "p1#0", "b4"), "invalid_target")
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Teleport", "p2#0", "e3"))
    assert where(s2, "p2#0") == "e3"


def test_swap_trades_places_with_a_nonlocal_ally():
    wb = {"p1": ["Trickster", "Brute", "Brute"], "p2": ["Brute"]}
    s, _ = _blade_on(wb, {"p1#0": "c3", "p1#1": "c3", "p1#2": "a1", "p2#0": "c3"},
                     ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Swap", "p1#1"), "invalid_target")
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Swap", "p1#2"))
    assert where(s2, "p1#0") == "a1" and where(s2, "p1#2") == "c3"


def test_purge_raise_and_appease_reach_other_zones():
    wb = {"p1": ["Inquisitor", "Gravedigger", "Cultist", "Brute", "Tower"],
          "p2": ["Brute", "Scout"]}
    placed = {"p1#0": "c3", "p1#1": "c3", "p1#2": "c3", "p1#3": "graveyard",
              "p1#4": "graveyard", "p2#0": "c3"}
    s, _ = _blade_on(wb, placed, ("p1#0",), None)
    rejects(s, AssignBlade("p1", "p1#0", "Purge", "p2#0"), "invalid_target")  # not reserves
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Purge", "p2#1"))
    assert where(s2, "p2#1") == "graveyard"
    s, _ = _blade_on(wb, placed, ("p1#1",), None)
    rejects(s, AssignBlade("p1", "p1#1", "Raise", "p1#4"), "invalid_target")  # a location
    s2, _ = play(s, AssignBlade("p1", "p1#1", "Raise", "p1#3"))
    assert where(s2, "p1#3") == "reserves"
    s, _ = _blade_on(wb, placed, ("p1#2",), None)
    rejects(s, AssignBlade("p1", "p1#2", "Appease"), "invalid_target")  # must sacrifice
    s2, _ = play(s, AssignBlade("p1", "p1#2", "Appease", "p1#1"))
    assert where(s2, "p1#1") == "graveyard" and s2.bonus_points == [0, 0]


def test_bomb_sacrifices_itself_to_damage_every_local_enemy():
    wb = {"p1": ["Bomber", "Brute"], "p2": ["Brute", "Brute", "Brute"]}
    placed = {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3", "p2#1": "c3", "p2#2": "c4"}
    s, _ = _blade_on(wb, placed, ("p1#0", "p1#1"), None, first="p2")
    s2, _ = play(s, AssignBlade("p1", "p1#0", "Bomb", "p1#0"))
    assert where(s2, "p1#0") == "graveyard"
    assert s2.damage[s2.game.gid("p2#0")] == 2 and s2.damage[s2.game.gid("p2#1")] == 2
    assert s2.damage[s2.game.gid("p2#2")] == 0
    s3, _ = play(s, AssignBlade("p1", "p1#0", "Bomb"))  # "may": not this time
    assert where(s3, "p1#0") == "c3"


def test_the_text_form_carries_target_and_destination():
    from table.games.dreamblade.notation import parse_action
    a = AssignBlade("p1", "p1#0", "Lure", "p2#1", "c4")
    assert str(a) == "p1 blade p1#0 Lure on p2#1 to c4" and parse_action(str(a)) == a
    assert parse_action("p1 blade p1#0 Crit from p1#3") == AssignBlade("p1", "p1#0",
                                                                      "Crit from p1#3")


# -- where and how miniatures are spawned ------------------------------------------------
def test_reinforce_spawns_beside_an_ally_of_its_type_within_the_stacking_limit():
    wb = {"p1": ["Reinforcement", "Scout", "Scout", "Scout", "Twin", "Brute"], "p2": []}
    s = position(wb, {"p1#1": "c3", "p1#5": "b3"}, phase=Phase.SPAWN, active="p1",
                 spawn_points=10)
    s2, _ = play(s, Spawn("p1", "p1#0", "c3"))  # a valor Scout stands there
    assert where(s2, "p1#0") == "c3"
    rejects(s, Spawn("p1", "p1#0", "b3"), "illegal_spawn_cell")  # only a passion Brute
    full = position(wb, {f"p1#{i}": "c3" for i in range(1, 5)}, phase=Phase.SPAWN,
                    active="p1", spawn_points=10)
    rejects(full, Spawn("p1", "p1#0", "c3"), "stacking_limit")


def test_respawn_spawns_from_the_graveyard_for_its_cost():
    wb = {"p1": ["Phoenix", "Brute"], "p2": []}
    s = position(wb, {"p1#0": "graveyard", "p1#1": "graveyard"}, phase=Phase.SPAWN,
                 active="p1", spawn_points=3)
    s2, _ = play(s, Spawn("p1", "p1#0", "e1"))
    assert where(s2, "p1#0") == "e1" and s2.spawn_points[0] == 1
    rejects(s, Spawn("p1", "p1#1", "e1"), "not_in_reserves")


# -- damage and disruption ---------------------------------------------------------------
def test_bodyguard_takes_damage_first():
    wb = {"p1": ["Giant"], "p2": ["Guard", "Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}, first="p2")
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", (3, 3, "miss", "miss")))
    rejects(s, AssignDamage("p1", "p2#1", 2), "invalid_target")
    s, _ = play(s, AssignDamage("p1", "p2#0", 3))
    rejects(s, AssignDamage("p1", "p2#1", 2), "invalid_target")  # 3 of 4: still guarding
    s, _ = play(s, AssignDamage("p1", "p2#0", 1))  # 4: enough to disrupt a 4/6 Guard
    s, _ = play(s, AssignDamage("p1", "p2#1", 2))
    assert s.damage[s.game.gid("p2#1")] == 2 and s.combat.step.value == "place"


def test_relentless_attacks_do_not_disrupt():
    wb = {"p1": ["Crusher"], "p2": ["Brute", "Brute"]}
    s, _ = apply(action_phase(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}, first="p2"),
                 Combat("p1", "c3", ("p1#0",), (3, "miss", "miss"), damage=(("p2#0", 3),)))
    assert where(s, "p2#0") == "c3"  # 3 damage reaches a Brute's defense: not disrupted
    s, _ = apply(action_phase(wb, {"p1#0": "c3", "p2#0": "c3"}, first="p2"),
                 Combat("p1", "c3", ("p1#0",), (3, 2, "miss"), damage=(("p2#0", 5),)))
    assert where(s, "p2#0") == "graveyard"  # life reached: destroyed, no choice


# -- abilities other miniatures lend ---------------------------------------------------
def test_hells_fury_lends_crit_2_to_nearby_hellbred_allies_only():
    wb = {"p1": ["Hellion", "Imp", "Brute"], "p2": ["Brute"]}
    placed = {"p1#0": "c2", "p1#1": "c3", "p1#2": "c3", "p2#0": "c3"}
    _, e = _strike_blade(wb, placed, ("p1#1",), "p1#1", "Crit from p1#0")
    assert e.data["damage"] == 2
    s = action_phase(wb, placed)
    s, _ = play(s, Attack("p1", "c3", ("p1#2",)), Roll("p1", ("blade", "miss")))
    # A Brute is not Hellbred: nothing can take the blade, which counts as a miss.
    assert s.combat is None


def test_copy_uses_local_blade_abilities_which_keep_theirs_and_are_not_copied_again():
    wb = {"p1": ["Mimic", "Critter", "Mimic"], "p2": ["Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p1#1": "c3", "p1#2": "c3", "p2#0": "c3"})
    s, _ = play(s, Attack("p1", "c3", ("p1#0", "p1#1", "p1#2")),
                Roll("p1", ("blade", "blade", "blade", "miss", "miss", "miss")))
    keys = {(a.mini, a.ability) for a in legal_actions(s) if isinstance(a, AssignBlade)}
    assert keys == {("p1#1", "Crit"), ("p1#0", "Crit from p1#1"), ("p1#2", "Crit from p1#1")}
    s, _ = play(s, AssignBlade("p1", "p1#0", "Crit from p1#1"),
                AssignBlade("p1", "p1#1", "Crit"), AssignBlade("p1", "p1#2", "Crit from p1#1"))
    assert s.combat.attack.damage_total == 9


# -- rerolls -----------------------------------------------------------------------------
def test_fortunate_rerolls_up_to_x_dice_once():
    from table.games.dreamblade import Reroll, Step
    from table.games.dreamblade.notation import parse_action
    wb = {"p1": ["Lucky", "Brute"], "p2": ["Giant"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3"})
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", ("miss", "miss", 1)))
    assert s.combat.step is Step.REROLL and s.combat.attack.rerolls == 2
    rejects(s, Reroll("p1", ("miss", "miss", 1)), "wrong_dice_count")  # 3 > 2
    rejects(s, Reroll("p1", (3,)), "bad_die_face")  # no 3 was rolled
    s2, _ = play(s, Reroll("p1", ("miss", "miss")))
    assert s2.combat.step is Step.ROLL and s2.combat.attack.roll == (1,)
    s2, _ = play(s2, Roll("p1", (3, "miss")))
    # No second chance: straight on to damage, with the new dice.
    assert s2.combat.step is Step.DAMAGE and s2.combat.attack.damage_total == 4
    s3, _ = play(s, Reroll("p1", ()))  # keep the dice
    assert s3.combat.step is Step.DAMAGE and s3.combat.attack.damage_total == 1
    assert parse_action("p1 reroll miss miss") == Reroll("p1", ("miss", "miss"))
    assert parse_action(str(Reroll("p1", ()))) == Reroll("p1", ())
    # Without Fortunate among the attackers, no reroll is offered.
    s = action_phase(wb, {"p1#1": "c3", "p2#0": "c3"})
    s, _ = play(s, Attack("p1", "c3", ("p1#1",)), Roll("p1", ("miss", 1)))
    assert s.combat.step is Step.DAMAGE


# -- spawn-point abilities -------------------------------------------------------------
def test_pearlthorn_castle_calls_an_adjacent_ally_once_per_spawn_phase():
    from table.games.dreamblade import Activate
    from table.games.dreamblade.notation import parse_action
    wb = {"p1": ["Pearlthorn Castle", "Brute", "Brute", "Brute"], "p2": ["Brute"]}
    placed = {"p1#0": "c2", "p1#1": "c3", "p1#2": "a1", "p1#3": "c2"}
    s = position(wb, placed, phase=Phase.SPAWN, active="p1", spawn_points=3)
    call = Activate("p1", "p1#0", "Call Adjacent Ally", "p1#1", "c2")
    assert call in legal_actions(s) and parse_action(str(call)) == call
    rejects(s, Activate("p1", "p1#0", "Call Adjacent Ally", "p1#2", "c2"), "invalid_target")
    rejects(s, Activate("p1", "p1#0", "Call Adjacent Ally", "p1#1", "b3"), "invalid_target")
    s2, _ = play(s, call)
    assert where(s2, "p1#1") == "c2" and s2.spawn_points[0] == 2
    rejects(s2, Activate("p1", "p1#0", "Call Adjacent Ally"), "invalid_ability")  # used
    poor = position(wb, placed, phase=Phase.SPAWN, active="p1", spawn_points=0)
    rejects(poor, call, "insufficient_spawn_points")
    rejects(position(wb, placed, phase=Phase.SPAWN, active="p1", spawn_points=3),
            Activate("p1", "p1#1", "Call Adjacent Ally"), "invalid_ability")  # not its own


# -- special attacks ---------------------------------------------------------------------
def test_assault_makes_an_x_power_attack_on_its_target_after_the_attack():
    from table.games.dreamblade import Step
    wb = {"p1": ["Raider"], "p2": ["Brute", "Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "c4"}, first="p2")
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", ("blade", "miss")))
    rejects(s, AssignBlade("p1", "p1#0", "Assault", "p2#1"), "invalid_target")  # not local
    s, _ = play(s, AssignBlade("p1", "p1#0", "Assault", "p2#0"))
    # The regular attack (no damage) is settled; the 2-dice special attack waits.
    assert s.combat.step is Step.ROLL and s.combat.attack.dice == 2
    assert s.combat.attack.target == s.game.gid("p2#0")
    s, _ = play(s, Roll("p1", ("blade", 3)))  # blades are misses: 3 damage, all to p2#0
    assert s.combat.step is Step.PLACE and s.damage[s.game.gid("p2#0")] == 0
    s, _ = play(s, legal_actions(s)[0])  # put the disrupted Brute somewhere
    assert s.combat is None and "c3" in [s.game.board.cell_names[c] for c in s.fought]


def test_warpstrike_hits_an_enemy_in_another_cell():
    wb = {"p1": ["Sniper"], "p2": ["Brute", "Scout"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3", "p2#1": "a5"}, first="p2")
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", ("blade", "miss")))
    rejects(s, AssignBlade("p1", "p1#0", "Warpstrike", "p2#0"), "invalid_target")  # local
    s, _ = play(s, AssignBlade("p1", "p1#0", "Warpstrike", "p2#1"), Roll("p1", (3, 2)),
                ChooseOutcome("p1", "p2#1", "destroy"))  # 5 damage on a 1/2/3 Scout
    assert where(s, "p2#1") == "graveyard" and s.kills == [1, 0]
    assert s.combat is None


def test_charge_attacks_when_entering_a_cell_with_enemies():
    from table.games.dreamblade import Aim, DeclineDeathblow, Move, Step
    wb = {"p1": ["Charger", "Brute"], "p2": ["Brute", "Scout"]}
    s = action_phase(wb, {"p1#0": "c2", "p1#1": "a1", "p2#0": "c3", "p2#1": "c3"})
    s, _ = play(s, Move("p1", "p1#0", "c3"))
    assert s.combat is not None and s.combat.step is Step.AIM and not s.combat.strike
    rejects(s, Move("p1", "p1#1", "a2"), "combat_in_progress")
    rejects(s, Aim("p1", "p1#0", "p1#1"), "invalid_target")
    s, _ = play(s, Aim("p1", "p1#0", "p2#1"), Roll("p1", (2, 1)),
                ChooseOutcome("p1", "p2#1", "destroy"))  # 3 damage on a 1/2/3 Scout
    # The second player's creature destroyed in the first player's action phase gets
    # its deathblow, whatever attack destroyed it (here a Charge during a shift).
    assert s.combat.step is Step.DEATHBLOW and s.combat.attack.player == "p2"
    s, _ = play(s, DeclineDeathblow("p2"))
    assert where(s, "p2#1") == "graveyard"
    assert s.combat is None and not s.fought  # not the cell's combat: c3 may still strike
    s, _ = play(s, Move("p1", "p1#1", "a2"))  # the shift goes on
    # Entering an empty cell triggers nothing.
    s = action_phase(wb, {"p1#0": "c2", "p2#0": "c4"})
    s, _ = play(s, Move("p1", "p1#0", "c3"))
    assert s.combat is None


def test_ambush_attacks_each_enemy_entering_its_cell():
    from table.games.dreamblade import Move
    wb = {"p1": ["Brute", "Brute"], "p2": ["Lurker"]}
    s = action_phase(wb, {"p1#0": "c2", "p1#1": "b3", "p2#0": "c3"})
    s, _ = play(s, Move("p1", "p1#0", "c3"))
    assert s.combat.attack.player == "p2" and s.combat.attack.target == s.game.gid("p1#0")
    s, _ = play(s, Roll("p2", (1, "miss")))
    assert s.combat is None and s.damage[s.game.gid("p1#0")] == 1
    # A creature spawned into the cell does not "enter" it.
    s = position(wb, {"p2#0": "e1"}, phase=Phase.SPAWN, active="p1", spawn_points=5)
    s, _ = play(s, Spawn("p1", "p1#0", "e1"))
    assert s.combat is None


def test_strikeback_answers_an_attack_that_disrupted_and_destroyed_nothing():
    from table.games.dreamblade import Step
    wb = {"p1": ["Brute"], "p2": ["Answerer"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3"}, first="p2")
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", (1, "miss")),
                AssignDamage("p1", "p2#0", 1))
    assert s.combat.step is Step.ROLL and s.combat.attack.player == "p2"
    s, _ = play(s, Roll("p2", (3, "miss")))
    assert s.combat.step is Step.PLACE  # 3 damage disrupts a 2/3/5 Brute
    # An attack that disrupts gets no answer.
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3"}, first="p2")
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", (3, "miss")),
                AssignDamage("p1", "p2#0", 3))
    assert s.combat.step is Step.PLACE and s.combat.attack.player == "p1"
    assert not s.combat.specials


# -- triggered abilities that wait for a choice ------------------------------------------
def test_comes_into_play_abilities_are_resolved_before_anything_else():
    from table.games.dreamblade import Activate, EndPhase
    wb = {"p1": ["Zealot", "Brute"], "p2": ["Brute", "Scout"]}
    s = position(wb, {"p2#0": "c3"}, phase=Phase.SPAWN, active="p1", spawn_points=10)
    s, _ = play(s, Spawn("p1", "p1#0", "e1"))
    assert s.pending == ((s.game.gid("p1#0"), "Purge"),)
    rejects(s, Spawn("p1", "p1#1", "e1"), "trigger_pending")
    rejects(s, EndPhase("p1"), "trigger_pending")
    assert legal_actions(s) == [Activate("p1", "p1#0", "Purge", "p2#1")]  # p2#0 is not in
    rejects(s, Activate("p1", "p1#0", "Purge", "p2#0"), "invalid_target")  # its reserves
    s, _ = play(s, Activate("p1", "p1#0", "Purge", "p2#1"))
    assert where(s, "p2#1") == "graveyard" and not s.pending
    # Nothing to choose (the opponent's reserves are empty): nothing waits.
    s = position(wb, {"p2#0": "c3", "p2#1": "c4"}, phase=Phase.SPAWN, active="p1",
                 spawn_points=10)
    s, _ = play(s, Spawn("p1", "p1#0", "e1"))
    assert not s.pending


def test_appease_must_sacrifice_a_creature_already_there():
    from table.games.dreamblade import Activate
    wb = {"p1": ["Martyr", "Brute", "Brute"], "p2": []}
    s = position(wb, {"p1#1": "e1"}, phase=Phase.SPAWN, active="p1", spawn_points=10)
    s, _ = play(s, Spawn("p1", "p1#0", "e1"))
    rejects(s, Activate("p1", "p1#0", "Appease"), "invalid_target")  # must choose one
    rejects(s, Spawn("p1", "p1#2", "e1"), "trigger_pending")  # no quick new victim
    s, _ = play(s, Activate("p1", "p1#0", "Appease", "p1#1"))
    assert where(s, "p1#1") == "graveyard" and s.bonus_points == [0, 0]


def test_reincarnate_returns_another_creature_from_the_graveyard():
    from table.games.dreamblade import Activate, whose_decision
    wb = {"p1": ["Brute"], "p2": ["Reborn", "Scout", "Tower"]}
    placed = {"p1#0": "c3", "p2#0": "c3", "p2#1": "graveyard", "p2#2": "graveyard"}
    s, _ = apply(action_phase(wb, placed, first="p2"),
                 Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#0", 2),),
                        outcomes=(("p2#0", "destroy"),)))
    assert where(s, "p2#0") == "graveyard" and whose_decision(s) == "p2"
    assert legal_actions(s) == [Activate("p2", "p2#0", "Reincarnate", "p2#1")]  # not itself
    s, _ = play(s, Activate("p2", "p2#0", "Reincarnate", "p2#1"))
    assert where(s, "p2#1") == "reserves"
    # An empty graveyard (but for itself): nothing happens.
    s, _ = apply(action_phase(wb, {"p1#0": "c3", "p2#0": "c3"}, first="p2"),
                 Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#0", 2),),
                        outcomes=(("p2#0", "destroy"),)))
    assert not s.pending


def test_wail_banishes_every_creature_whose_cost_is_the_two_dice_total():
    from table.games.dreamblade import Step, WailRoll
    wb = {"p1": ["Banshee", "Brute", "Scout"], "p2": ["Brute", "Giant"]}
    placed = {"p1#0": "c3", "p1#1": "a1", "p1#2": "b1", "p2#0": "c3", "p2#1": "e5"}
    s, _ = _blade_on(wb, placed, ("p1#0",), None, first="p2")
    s, _ = play(s, AssignBlade("p1", "p1#0", "Wail"))
    assert s.combat.step is Step.WAIL
    rejects(s, WailRoll("p1", (0, 7)), "bad_die_face")
    s, _ = play(s, WailRoll("p1", (1, 2)))  # 3: both Brutes, whoever controls them
    assert where(s, "p1#1") == "reserves" and where(s, "p2#0") == "reserves"
    assert where(s, "p1#2") == "b1" and where(s, "p2#1") == "e5"  # costs 2 and 7
    assert s.combat is None and s.kills == [0, 0]


def test_a_compound_combat_leaves_its_special_attacks_to_step_actions():
    from table.games.dreamblade import Step
    wb = {"p1": ["Raider"], "p2": ["Brute"]}
    s = action_phase(wb, {"p1#0": "c3", "p2#0": "c3"}, first="p2")
    s, _ = apply(s, Combat("p1", "c3", ("p1#0",), ("blade", "miss"),
                           blades=(("p1#0", "Assault", "p2#0"),)))
    assert s.combat.step is Step.ROLL and s.combat.attack.source == "Assault"
    s, _ = play(s, Roll("p1", (1, 1)))
    assert s.combat is None and s.damage[s.game.gid("p2#0")] == 2
