import pytest

from table.games.dreamblade import (
    AssignBlade,
    AssignDamage,
    Attack,
    ChooseOutcome,
    Combat,
    Deathblow,
    DeclineDeathblow,
    EndPhase,
    Place,
    Roll,
    Step,
    apply,
    legal_actions,
)

from .helpers import action_phase, play, rejects, where

WB = {"p1": ["Brute", "Scout", "Critter", "Mutant", "Gambler", "Zero", "Idol", "Brute"],
      "p2": ["Brute", "Scout", "Brute", "Scout"]}


def fight(placed, player="p1", first=None, **kw):
    return action_phase(WB, placed, player=player, first=first or player, **kw)


def test_attack_needs_an_engaged_cell_once_per_phase():
    s = fight({"p1#0": "c3", "p2#0": "c3", "p1#1": "b2"})
    rejects(s, Attack("p1", "b2", ("p1#1",)), "not_engaged")
    rejects(s, Attack("p1", "c3", ("p1#1",)), "not_in_cell")
    rejects(s, Attack("p1", "c3", ()), "no_attackers")
    rejects(s, Attack("p1", "c3", ("p2#0",)), "not_your_mini")
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", ("miss", "miss")))
    assert s.combat is None and s.mode.value == "strike"
    rejects(s, Attack("p1", "c3", ("p1#0",)), "cell_already_fought")
    rejects(s, Combat("p1", "c3", ("p1#0",), ("miss", "miss")), "cell_already_fought")


def test_dice_count_and_faces():
    s = fight({"p1#0": "c3", "p2#0": "c3"})
    rejects(s, Combat("p1", "c3", ("p1#0",), (3,)), "wrong_dice_count")
    rejects(s, Combat("p1", "c3", ("p1#0",), (3, 4)), "bad_die_face")
    rejects(s, Combat("p1", "c3", ("p1#0",), (3, True)), "bad_die_face")
    s2, _ = apply(s, Attack("p1", "c3", ("p1#0",)))
    rejects(s2, Roll("p1", (1, 2, 3)), "wrong_dice_count")
    rejects(s2, Roll("p2", (1, 2)), "not_your_phase")


def test_damage_goes_to_local_enemies_only_and_all_of_it():
    s = fight({"p1#0": "c3", "p1#1": "c3", "p2#0": "c3", "p2#1": "c2"})
    base = dict(player="p1", cell="c3", attackers=("p1#0",), roll=(2, 1))
    rejects(s, Combat(**base, damage=(("p2#1", 3),)), "invalid_target")
    rejects(s, Combat(**base, damage=(("p1#1", 3),)), "invalid_target")
    rejects(s, Combat(**base, damage=(("p2#0", 2),)), "damage_mismatch")
    rejects(s, Combat(**base, damage=(("p2#0", 4),)), "damage_mismatch")
    s2, _ = apply(s, Combat(**base, damage=(("p2#0", 2), ("p2#0", 1)),
                            placements=(("p2#0", "a1"),)))
    # 3 damage on a 3/5 Brute disrupts it.
    assert s2.combat is None and where(s2, "p2#0") == "a1"


def test_disrupt_needs_a_placement_in_an_empty_cell_not_own_portal():
    s = fight({"p1#0": "c3", "p2#0": "c3", "p2#1": "b2"})
    base = dict(player="p1", cell="c3", attackers=("p1#0",), roll=(2, 1),
                damage=(("p2#0", 3),))
    rejects(s, Combat(**base), "placement_required")
    rejects(s, Combat(**base, placements=(("p2#0", "e1"),)), "invalid_placement")
    rejects(s, Combat(**base, placements=(("p2#0", "b2"),)), "invalid_placement")
    rejects(s, Combat(**base, placements=(("p2#0", "c3"),)), "invalid_placement")
    s2, ev = apply(s, Combat(**base, placements=(("p2#0", "a5"),)))  # p2's portal is fine
    assert where(s2, "p2#0") == "a5" and s2.damage[s2.game.gid("p2#0")] == 0
    assert [e.kind for e in ev if e.kind in ("disrupted", "placed")] == ["disrupted", "placed"]


def test_destroy_and_the_attackers_choice_when_both_thresholds_are_reached():
    s = fight({"p1#0": "c3", "p2#0": "c3"}, first="p2")  # p1 is second: no deathblow
    s2, _ = apply(s, Combat("p1", "c3", ("p1#0",), (3, 2), damage=(("p2#0", 5),)))
    assert where(s2, "p2#0") == "graveyard"
    assert s2.kills == [1, 0] and s2.bonus_points == [0, 2]
    s3, _ = apply(s, Combat("p1", "c3", ("p1#0",), (3, 2), damage=(("p2#0", 5),),
                            outcomes=(("p2#0", "disrupt"),), placements=(("p2#0", "a1"),)))
    assert where(s3, "p2#0") == "a1" and s3.kills == [0, 0]
    # Step by step: the engine stops and asks.
    s4, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", (3, 2)),
                 AssignDamage("p1", "p2#0", 5))
    assert s4.combat.step is Step.OUTCOME
    assert set(legal_actions(s4)) == {ChooseOutcome("p1", "p2#0", "disrupt"),
                                      ChooseOutcome("p1", "p2#0", "destroy")}
    rejects(s4, ChooseOutcome("p1", "p2#0", "banish"), "invalid_outcome")


def test_outcome_for_a_creature_without_a_choice_is_refused():
    s = fight({"p1#0": "c3", "p2#0": "c3", "p2#1": "c3"}, first="p2")
    # 3 damage on a 3/5 Brute reaches its defense only: there is no choice to make.
    rejects(s, Combat("p1", "c3", ("p1#0",), (2, 1), damage=(("p2#0", 3),),
                      outcomes=(("p2#0", "destroy"),), placements=(("p2#0", "a1"),)),
            "invalid_outcome")
    s2, _ = apply(s, Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#1", 2),),
                            placements=(("p2#1", "a1"),)))
    assert where(s2, "p2#1") == "a1"


def test_damage_stays_until_the_end_of_the_phase():
    s = fight({"p1#0": "c3", "p2#0": "c3"})
    s, _ = apply(s, Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#0", 2),)))
    g = s.game.gid("p2#0")
    assert s.damage[g] == 2
    s, _ = apply(s, EndPhase("p1"))
    assert s.damage[g] == 0


def test_deathblow_in_the_first_players_phase():
    s = fight({"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"})  # p1 first
    s1, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", (3, 2)),
                 AssignDamage("p1", "p2#0", 5))
    assert s1.combat.step is Step.OUTCOME
    s1, _ = apply(s1, ChooseOutcome("p1", "p2#0", "destroy"))
    assert s1.combat.step is Step.DEATHBLOW and s1.combat.attack.player == "p2"
    assert s1.combat.attack.dice == 2
    rejects(s1, Roll("p1", (3, 3)), "not_your_phase")
    # Blades are misses in a deathblow; the damage may hit any local enemy.
    s2, _ = play(s1, Roll("p2", ("blade", 3)), AssignDamage("p2", "p1#1", 3))
    assert s2.combat.step is Step.OUTCOME  # 3 damage on a 2/3 Scout: the defender picks
    s2, _ = apply(s2, ChooseOutcome("p2", "p1#1", "destroy"))
    assert where(s2, "p1#1") == "graveyard" and where(s2, "p2#0") == "graveyard"
    assert s2.kills == [1, 1] and s2.bonus_points == [2, 2]
    s3, _ = apply(s1, DeclineDeathblow("p2"))
    assert s3.combat is None and where(s3, "p2#0") == "graveyard"


def test_no_deathblow_in_the_second_players_phase_or_for_disrupted():
    s = fight({"p1#0": "c3", "p2#0": "c3"}, first="p2")
    rejects(s, Combat("p1", "c3", ("p1#0",), (3, 2), damage=(("p2#0", 5),),
                      deathblow=Deathblow((1, 1))), "no_deathblow")
    s = fight({"p1#0": "c3", "p2#1": "c3"})
    rejects(s, Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#1", 2),),
                      placements=(("p2#1", "a1"),), deathblow=Deathblow((1,))),
            "no_deathblow")


def test_deathblow_dice_count_checked():
    s = fight({"p1#0": "c3", "p2#0": "c3"})
    rejects(s, Combat("p1", "c3", ("p1#0",), (3, 2), damage=(("p2#0", 5),),
                      deathblow=Deathblow((1,), (("p1#0", 1),))), "wrong_dice_count")


def test_a_disrupted_creature_with_no_empty_cell_is_destroyed():
    kinds = ["Brute", "Scout", "Guardian", "Critter", "Twin", "Mirrorman"]
    names = [k for k in kinds for _ in range(3)][:16]  # 16 each, 3 copies at most
    wb = {"p1": names, "p2": names}
    cells = [f"{c}{r}" for r in range(1, 6) for c in "abcde"]
    others = [c for c in cells if c not in ("c3", "e1")]  # e1: p1's own portal
    placed = {"p1#0": "c3", "p2#3": "c3"}  # a Brute attacks a 2/3 Scout
    pool = [f"p1#{i}" for i in range(1, 16)] + [f"p2#{i}" for i in range(16) if i != 3]
    for ref, c in zip(pool, others, strict=False):
        placed[ref] = c
    s = action_phase(wb, placed, player="p1", first="p2")
    assert len(others) <= len(pool)
    s2, ev = apply(s, Combat("p1", "c3", ("p1#0",), (2, "miss"), damage=(("p2#3", 2),)))
    assert where(s2, "p2#3") == "graveyard"
    assert s2.kills == [1, 0] and s2.bonus_points == [0, 2]
    assert any(e.kind == "destroyed" and e.data.get("reason") for e in ev)


def test_blades_must_be_assigned_when_an_ability_can_take_them():
    s = fight({"p1#2": "c3", "p2#0": "c3"})  # Critter: Blade: Crit 3
    rejects(s, Combat("p1", "c3", ("p1#2",), ("blade", 1), damage=(("p2#0", 1),)),
            "blades_unassigned")
    s2, _ = apply(s, Combat("p1", "c3", ("p1#2",), ("blade", 1),
                            blades=(("p1#2", "Crit"),), damage=(("p2#0", 4),),
                            placements=(("p2#0", "b1"),)))
    # Crit 3 + 1 = 4 damage disrupts a 3/5 Brute.
    assert where(s2, "p2#0") == "b1"


def test_blade_crit_adds_damage_and_a_second_blade_has_nowhere_to_go():
    s = fight({"p1#2": "c3", "p2#0": "c3"}, first="p2")
    s1, _ = play(s, Attack("p1", "c3", ("p1#2",)), Roll("p1", ("blade", "blade")))
    assert s1.combat.step is Step.BLADES
    assert legal_actions(s1) == [AssignBlade("p1", "p1#2", "Crit")]
    s2, _ = apply(s1, AssignBlade("p1", "p1#2", "Crit"))
    # Blade (single) abilities take one blade: the second blade is simply lost.
    assert s2.combat.step is Step.DAMAGE and s2.combat.attack.damage_total == 3
    rejects(s2, AssignBlade("p1", "p1#2", "Crit"), "wrong_step")


def test_minimum_damage_after_all_modifiers_rulebook_example():
    # Rulebook: 2 damage with -5 is 0; adding +5 brings it back to 2, not 5.
    s = fight({"p1#3": "c3", "p2#0": "c3"}, first="p2")  # Mutant: Crit 5 and Fumble 5
    s1, _ = play(s, Attack("p1", "c3", ("p1#3",)), Roll("p1", (2, "blade")),
                 AssignBlade("p1", "p1#3", "Fumble"))
    assert s1.combat is None  # 0 damage: nothing to assign, combat over
    s2, _ = play(s, Attack("p1", "c3", ("p1#3",)), Roll("p1", (2, "blade")))
    s2.combat.attack.blades_left = 2  # a second blade, as if rolled with more dice
    s2, _ = play(s2, AssignBlade("p1", "p1#3", "Fumble"), AssignBlade("p1", "p1#3", "Crit"))
    assert s2.combat.attack.damage_total == 2


def test_double_blade_needs_two_blades_rulebook_example():
    # Two blades, one single-blade ability and one double-blade ability: after the single
    # one takes a blade, the second blade has nowhere legal to go.
    s = fight({"p1#2": "c3", "p1#4": "c3", "p2#0": "c3"}, first="p2")
    s1, _ = play(s, Attack("p1", "c3", ("p1#2", "p1#4")), Roll("p1", ("blade", "blade", 1)))
    opts = set(legal_actions(s1))
    assert opts == {AssignBlade("p1", "p1#2", "Crit"), AssignBlade("p1", "p1#4", "Crit")}
    a, _ = apply(s1, AssignBlade("p1", "p1#2", "Crit"))
    assert a.combat.step is Step.DAMAGE and a.combat.attack.damage_total == 4
    b, _ = apply(s1, AssignBlade("p1", "p1#4", "Crit"))
    assert b.combat.step is Step.DAMAGE and b.combat.attack.damage_total == 5


def test_zero_power_attacker_and_multiblade_and_location_blades():
    s = fight({"p1#5": "c3", "p1#0": "c3", "p1#6": "c3", "p2#0": "c3"}, first="p2")
    s1, _ = play(s, Attack("p1", "c3", ("p1#5", "p1#0")), Roll("p1", ("blade", "blade")))
    opts = set(legal_actions(s1))
    assert AssignBlade("p1", "p1#5", "Crit") in opts  # 0 power, still takes blades
    assert AssignBlade("p1", "p1#6", "Crit") in opts  # own location, regular attack
    s2, _ = play(s1, AssignBlade("p1", "p1#5", "Crit"), AssignBlade("p1", "p1#5", "Crit"))
    assert s2.combat.attack.damage_total == 2


def test_location_blades_need_local_allies_attacking():
    s = fight({"p1#6": "c3", "p1#0": "c3", "p2#0": "c3"}, first="p2")
    rejects(s, Combat("p1", "c3", ("p1#0",), ("blade", 2), damage=(("p2#0", 2),)),
            "blades_unassigned")
    s2, _ = apply(s, Combat("p1", "c3", ("p1#0",), ("blade", 2), blades=(("p1#6", "Crit"),),
                            damage=(("p2#0", 4),), placements=(("p2#0", "a1"),)))
    assert where(s2, "p2#0") == "a1"


def test_combat_in_progress_blocks_other_actions():
    s = fight({"p1#0": "c3", "p2#0": "c3", "p1#1": "b2", "p2#1": "b2"})
    s1, _ = apply(s, Attack("p1", "c3", ("p1#0",)))
    rejects(s1, EndPhase("p1"), "combat_in_progress")
    rejects(s1, Attack("p1", "b2", ("p1#1",)), "combat_in_progress")
    rejects(s1, Place("p1", "p2#0", "a1"), "wrong_step")


@pytest.mark.parametrize("roll", [(1, 1), (3, 3), ("blade", "miss")])
def test_every_listed_combat_step_is_accepted(roll):
    s = fight({"p1#0": "c3", "p1#2": "c3", "p2#0": "c3", "p2#1": "c3"})
    s, _ = apply(s, Attack("p1", "c3", ("p1#0", "p1#2")))
    s, _ = apply(s, Roll("p1", (*roll, 2, 2)))
    seen = 0
    while s.combat is not None:
        acts = legal_actions(s)
        assert acts
        for a in acts:
            apply(s, a)
        s, _ = apply(s, acts[-1])
        seen += 1
    assert seen >= 1


def test_the_board_marks_fights_while_the_game_is_on_only() -> None:
    """Cells where creatures of both players fight carry the engaged alert in play; the
    finished game's board carries none (the conformance suite checks every game's end)."""
    import random

    from table import registry
    from table.playout import random_game
    from table.session import Setup

    system = registry.get("dreamblade")
    ref = system.referee(Setup.from_dict({"system": "dreamblade",
                                          "forces": system.sample_forces()}))
    marked = 0
    for seed in range(6):
        middle = random_game(ref, random.Random(seed), max_actions=300).final
        marked += sum(1 for r in ref.view(middle)["board"]["regions"] if r.get("alert"))
    assert marked, "no fight marked in six games' middles"
