"""The rules of the round, each with a position that shows it: flips, pins, command
cards in secret and their order, activations, ranged attacks, magic, the melee, damage,
the end of a round and of the game."""

from __future__ import annotations

import pytest

from table.games.diskwars import combat, engine
from table.games.diskwars.actions import (
    D6,
    Cast,
    Command,
    Deploy,
    Deployed,
    Dice,
    Done,
    Empower,
    First,
    Hold,
    Initiative,
    Move,
    Reinforce,
    Shoot,
    Strike,
)
from table.games.diskwars.errors import RulesError
from table.games.diskwars.stack import is_pinned, pinned_by
from table.games.diskwars.state import CASUALTY, CHOOSE, DEPLOY, FIELD, MELEE, OVER, RESOLVE

from .conftest import CHAOS, ORDER, game, position

# Diameters by size (the built-in catalog): small 45, medium 64, large 89 mm.
# The ruler: short to 76.2, medium to 152.4, long to 228.6 mm.


def play(s, *actions):
    events = []
    for a in actions:
        s, ev = engine.apply(s, a)
        events += ev
    return s, events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


# -- the opening ------------------------------------------------------------------------
def test_initiative_adds_unspent_points_and_a_tie_is_rolled_again(plain) -> None:
    s = engine.new_state(plain)
    # Unspent: p1 12 - 10 = 2, p2 12 - 10 = 2.
    s, ev = play(s, Initiative("p1", 3), Initiative("p2", 3))
    assert "initiative_tie" in kinds(ev) and s.phase == "initiative"
    s, ev = play(s, Initiative("p2", 5), Initiative("p1", 2))
    assert s.phase == "first" and s.active == "p2"
    with pytest.raises(RulesError, match="chosen by the initiative's winner"):
        engine.apply(s, First("p1", "p1"))
    s, _ = play(s, First("p2", "p1"))
    # The last player (p2) deploys first.
    assert s.first == "p1" and s.phase == DEPLOY and s.active == "p2"


def test_deployment_within_the_zone_heroes_first_then_the_first_round(plain) -> None:
    s = engine.new_state(plain)
    s, _ = play(s, Initiative("p1", 6), Initiative("p2", 1), First("p1", "p1"))
    with pytest.raises(RulesError, match="not completely within p2's deployment zone"):
        engine.apply(s, Deploy("p2", "p2#1", 300.0, 700.0))
    with pytest.raises(RulesError, match="every hero is deployed"):
        engine.apply(s, Deployed("p2"))
    s, _ = play(s, Deploy("p2", "p2#0", 300.0, 850.0), Deploy("p2", "p2#1", 300.0, 800.0))
    assert s.disks["p2#1"].level > s.disks["p2#0"].level  # deployed on top of its own
    s, ev = play(s, Deployed("p2"), Deploy("p1", "p1#0", 300.0, 60.0), Deployed("p1"))
    assert s.phase == CHOOSE and s.round == 1 and "round" in kinds(ev)


# -- command cards ----------------------------------------------------------------------
@pytest.mark.parametrize("p1_card, p2_card, first, order", [
    ("Charge", "Hold Fast", "p1", ("p1", "p2")),  # bold before steady
    ("Hold Fast", "Outflank", "p1", ("p1", "p2")),  # steady before devious
    ("Outflank", "Charge", "p1", ("p1", "p2")),  # devious before bold
    ("Hold Fast", "Charge", "p1", ("p2", "p1")),
    ("Charge", "Forward", "p2", ("p2", "p1")),  # the same strategy: the first player
    ("Muster", "Charge", "p1", ("p2", "p1")),  # slow last
    ("Muster", "Muster", "p2", ("p2", "p1")),
])
def test_cards_are_resolved_by_strategy(plain, p1_card, p2_card, first, order) -> None:
    g = game(ORDER, ["Kairos Fateweaver", "Plaguebearers"])
    s = position(g, {"p1#0": (200.0, 100.0), "p2#0": (200.0, 800.0)})
    s.phase, s.order, s.revealed, s.first = CHOOSE, (), {}, first
    code = g.catalog.commands
    s.sides["p1"].hand = [p1_card]
    s.sides["p2"].hand = [p2_card]
    s, ev = play(s, Command("p1", code[p1_card].code), Command("p2", code[p2_card].code))
    revealed = next(e for e in ev if e.kind == "commands_revealed")
    assert tuple(revealed.data["order"]) == order
    assert s.phase == RESOLVE and s.active == order[0]


def test_a_chosen_card_stays_hidden_until_both_have_chosen(plain) -> None:
    s = position(plain, {"p1#0": (200.0, 100.0), "p2#0": (200.0, 800.0)})
    s.phase, s.order, s.revealed = CHOOSE, (), {}
    s.sides["p1"].hand.append("Forward")
    s, ev = play(s, Command("p1", "forward"))
    assert s.sides["p1"].chosen == "Forward" and "commands_revealed" not in kinds(ev)
    public = s.public_dict()
    assert public["sides"]["p1"]["chosen"] is True and "Forward" not in str(public)
    with pytest.raises(RulesError, match="has chosen a card already"):
        engine.apply(s, Command("p1", "charge"))
    with pytest.raises(RulesError, match="holds no nope"):
        engine.apply(s, Command("p2", "nope"))


# -- moving and pinning -----------------------------------------------------------------------
def test_a_flip_moves_one_diameter_and_movement_limits_the_flips(plain) -> None:
    s = position(plain, {"p1#1": (200.0, 100.0)})  # Spearmen: small, movement 2
    one, _ = play(s, Move("p1", "p1#1", 245.0, 100.0))
    assert one.disks["p1#1"].face == "back" and one.activations == 2
    two, _ = play(s, Move("p1", "p1#1", 220.0, 100.0))  # nearer than a flip: two flips
    assert two.disks["p1#1"].face == "front"
    with pytest.raises(RulesError, match=r"would need 3 flips .* movement is 2"):
        engine.apply(s, Move("p1", "p1#1", 300.0, 100.0))
    with pytest.raises(RulesError, match="has been activated"):
        engine.apply(one, Move("p1", "p1#1", 200.0, 100.0))
    with pytest.raises(RulesError, match="not lie completely within the battlefield"):
        engine.apply(s, Move("p1", "p1#1", 200.0, 10.0))


def test_landing_on_an_enemy_pins_it_and_a_pinned_disk_cannot_activate(plain) -> None:
    s = position(plain, {"p1#4": (200.0, 300.0), "p2#1": (200.0, 380.0)})
    s, ev = play(s, Move("p1", "p1#4", 200.0, 364.0))  # Silver Helms onto Plaguebearers
    assert [d.ref for d in pinned_by(s, s.disks["p1#4"])] == ["p2#1"]
    assert is_pinned(s, s.disks["p2#1"])
    # Impact 1 on landing; the Plaguebearers are resistant to physical: half, rounded up.
    assert ("damaged", 1) in [(e.kind, e.data.get("damage")) for e in ev]
    s.active, s.order, s.revealed = "p2", ("p2",), {"p2": "Forward"}
    s.activations = 2
    with pytest.raises(RulesError, match="is pinned"):
        engine.apply(s, Hold("p2", "p2#1"))


def test_a_disk_between_two_others_stops_the_top_one_pinning(plain) -> None:
    s = position(plain, {"p2#1": (300.0, 400.0), "p1#1": (320.0, 400.0),
                         "p1#4": (310.0, 400.0)})
    top, middle, bottom = (s.disks[r] for r in ("p1#4", "p1#1", "p2#1"))
    assert top.level > middle.level > bottom.level
    assert [d.ref for d in pinned_by(s, top)] == ["p1#1"]
    assert [d.ref for d in pinned_by(s, middle)] == ["p2#1"]


def test_moving_off_a_disk_frees_it(plain) -> None:
    s = position(plain, {"p2#1": (300.0, 400.0), "p1#1": (310.0, 400.0)})
    assert is_pinned(s, s.disks["p2#1"])
    s, _ = play(s, Move("p1", "p1#1", 355.0, 400.0))
    assert not is_pinned(s, s.disks["p2#1"])


# -- shooting and magic --------------------------------------------------------------------------
def test_a_ranged_attack_in_range_and_sight_rolls_its_dice(plain) -> None:
    # Archers (2 dice, strength 1, long range) at a Plaguebearer 200 mm apart edge to edge.
    s = position(plain, {"p1#3": (200.0, 100.0), "p2#1": (200.0, 345.0)})
    s, ev = play(s, Shoot("p1", "p1#3", "p2#1"))
    assert s.shot is not None and s.shot.dice == 2 and s.shot.band == "long"
    assert engine.legal_actions(s) == []  # the dice are awaited
    with pytest.raises(RulesError, match="rolls 2 battle dice"):
        engine.apply(s, Dice("p1", ("hit",)))
    s, ev = play(s, Dice("p1", ("hit", "critical")))
    # Two damage of 1, each halved and rounded up (resistant to physical): 1 + 1 = 2.
    assert [e.data["damage"] for e in ev if e.kind == "damaged"] == [1, 1]
    assert s.disks["p2#1"].activated  # the critical's activation token


def test_out_of_range_behind_terrain_and_cover(plain) -> None:
    g = game(terrain=[("Forest", 300.0, 450.0), ("Ruins", 650.0, 450.0)])
    s = position(g, {"p1#3": (300.0, 100.0), "p2#1": (700.0, 700.0)})
    with pytest.raises(RulesError, match="beyond High Elf Archers's long range"):
        engine.apply(s, Shoot("p1", "p1#3", "p2#1"))
    s = position(g, {"p1#3": (300.0, 345.0), "p2#1": (300.0, 555.0)})
    with pytest.raises(RulesError, match="no line of sight"):
        engine.apply(s, Shoot("p1", "p1#3", "p2#1"))
    # A disk on the forest is seen: terrain does not block sight to a disk overlapping it.
    s = position(g, {"p1#3": (300.0, 250.0), "p2#1": (300.0, 390.0)})
    assert engine.apply(s, Shoot("p1", "p1#3", "p2#1"))[0].shot is not None
    # On the ruins (cover): one die fewer.
    s = position(g, {"p1#3": (650.0, 250.0), "p2#1": (650.0, 400.0)})
    assert engine.apply(s, Shoot("p1", "p1#3", "p2#1"))[0].shot.dice == 1


def test_scatter_is_rolled_again_against_the_nearest_disk(plain) -> None:
    s = position(plain, {"p1#3": (200.0, 100.0), "p2#1": (200.0, 345.0),
                         "p2#2": (260.0, 345.0)})
    s, ev = play(s, Shoot("p1", "p1#3", "p2#1"), Dice("p1", ("scatter", "miss")))
    assert s.shot.step == "scatter" and s.shot.scatter_target == "p2#2"
    s, ev = play(s, Dice("p1", ("hit",)))
    assert [(e.data["disk"], e.data["damage"]) for e in ev if e.kind == "damaged"] == \
        [("p2#2", 1)]


def test_siege_range_ignores_hits_and_a_d6_strength_rolls_per_hit() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], CHAOS)
    # Hellcannon (3 dice, d6 strength, siege) at Tyrion 500 mm away: siege range.
    s = position(g, {"p2#3": (200.0, 800.0), "p1#0": (200.0, 200.0)}, player="p2",
                 card="Frenzied Rush")
    s, _ = play(s, Shoot("p2", "p2#3", "p1#0"), Dice("p2", ("hit", "critical", "miss")))
    assert s.shot.step == "strength" and s.shot.dice == 1  # the hit is ignored at siege
    s, ev = play(s, D6("p2", (4,)))
    assert [e.data["damage"] for e in ev if e.kind == "damaged"] == [4]


def test_magic_deals_arcane_damage_within_medium_range() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], CHAOS)
    s = position(g, {"p2#0": (200.0, 500.0), "p1#1": (200.0, 400.0)}, player="p2",
                 card="Frenzied Rush")
    s, _ = play(s, Cast("p2", "p2#0", "p1#1"))
    assert s.disks["p1#1"].place == CASUALTY  # 2 arcane on toughness 2
    far = position(g, {"p2#0": (200.0, 700.0), "p1#1": (200.0, 400.0)}, player="p2",
                   card="Frenzied Rush")
    with pytest.raises(RulesError, match="magic reaches medium range"):
        engine.apply(far, Cast("p2", "p2#0", "p1#1"))


def test_stamina_turns_a_first_wound_into_a_wound_token() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], CHAOS)
    s = position(g, {"p2#0": (200.0, 500.0), "p1#0": (200.0, 400.0)}, player="p2",
                 card="Frenzied Rush")
    s.disks["p1#0"].damage = 4  # toughness 5
    s, _ = play(s, Cast("p2", "p2#0", "p1#0"))
    tyrion = s.disks["p1#0"]
    assert tyrion.place == FIELD and tyrion.wounds == 1 and tyrion.damage == 0


# -- the melee ---------------------------------------------------------------------------------
def _to_melee(s):
    """Everything done: the step ends, and with no cards left the melee comes."""
    for p in ("p1", "p2"):
        s.sides[p].hand = []
    return play(s, Done(s.active))


def test_attacker_and_defender_deal_damage_together() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], ["Kairos Fateweaver", "Plaguebearers"])
    # Spearmen (attack 2, counter 3, toughness 2) pinning a Plaguebearer (attack 1,
    # counter 2, toughness 3, resistant physical).
    s = position(g, {"p2#1": (300.0, 400.0), "p1#1": (320.0, 400.0),
                     "p1#0": (100.0, 100.0), "p2#0": (700.0, 800.0)})
    s, ev = _to_melee(s)
    strikes = [(e.data["disk"], e.data["target"], e.data["damage"]) for e in ev
               if e.kind == "strikes"]
    assert sorted(strikes) == [("p1#1", "p2#1", 2), ("p2#1", "p1#1", 2)]
    assert s.disks["p1#1"].place == CASUALTY  # counter 2 on toughness 2
    assert s.disks["p2#1"].place == FIELD  # attack 2 halved: 1 on toughness 3
    assert s.round == 2 and s.disks["p2#1"].damage == 0  # the end phase cleared it


def test_a_swift_disk_strikes_first_and_a_slow_one_last() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], ["Kairos Fateweaver", "Bloodletters"])
    # Bloodletters (swift, attack 3, counter 1) pinned by Spearmen (toughness 2):
    # the swift counter comes first but deals 1; then the Spearmen deal 2.
    s = position(g, {"p2#1": (300.0, 400.0), "p1#1": (320.0, 400.0),
                     "p1#0": (100.0, 100.0), "p2#0": (700.0, 800.0)})
    s, ev = _to_melee(s)
    order = [e.data["disk"] for e in ev if e.kind == "strikes"]
    assert order == ["p2#1", "p1#1"]
    # Tyrion (swift, attack 4) on the Bloodletters (swift too, toughness 2): together.
    s = position(g, {"p2#1": (300.0, 400.0), "p1#0": (320.0, 400.0),
                     "p2#0": (700.0, 800.0)})
    s, ev = _to_melee(s)
    assert s.disks["p2#1"].place == CASUALTY and s.disks["p1#0"].damage == 0


def test_a_disk_engaged_twice_chooses_whom_it_strikes() -> None:
    g = game(["Tyrion", "High Elf Spearmen", "High Elf Spearmen"],
             ["Kairos Fateweaver", "Plaguebearers"])
    # Two Spearmen each pin the Plaguebearer: it deals its counter to one of them.
    s = position(g, {"p2#1": (300.0, 400.0), "p1#1": (270.0, 400.0),
                     "p1#2": (330.0, 400.0), "p1#0": (100.0, 100.0),
                     "p2#0": (700.0, 800.0)})
    s, _ = _to_melee(s)
    assert s.phase == MELEE and s.active == "p2"
    assert [str(a) for a in engine.legal_actions(s)] == ["p2 strike p2#1 p1#1",
                                                         "p2 strike p2#1 p1#2"]
    s, ev = play(s, Strike("p2", "p2#1", "p1#2"))
    hit = [(e.data["disk"], e.data["target"]) for e in ev if e.kind == "strikes"]
    assert ("p2#1", "p1#2") in hit and ("p2#1", "p1#1") not in hit


# -- the end -----------------------------------------------------------------------------------
def test_a_player_with_no_disk_on_the_battlefield_loses_at_once() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], ["Kairos Fateweaver", "Plaguebearers"])
    s = position(g, {"p2#0": (200.0, 500.0), "p1#1": (200.0, 400.0)}, player="p2",
                 card="Frenzied Rush")
    s, ev = play(s, Cast("p2", "p2#0", "p1#1"))
    assert s.phase == OVER and s.winner == "p2" and "game_over" in kinds(ev)
    with pytest.raises(RulesError, match="the game is over"):
        engine.apply(s, Hold("p2", "p2#0"))


def test_after_five_rounds_the_points_decide() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], ["Kairos Fateweaver", "Plaguebearers"],
             terrain=[("Hill", 500.0, 450.0)])
    s = position(g, {"p1#0": (500.0, 450.0), "p2#0": (100.0, 850.0)}, round_=5)
    s, _ = _to_melee(s)
    # p1: the hill, and p2's Plaguebearers (left in the reserve: a casualty); p2: p1's
    # Spearmen, left in the reserve too.
    assert s.phase == OVER and s.scores == {"p1": 2, "p2": 1} and s.winner == "p1"


def test_reinforcing_and_empowering() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], ["Kairos Fateweaver", "Plaguebearers"])
    s = position(g, {"p1#0": (300.0, 100.0), "p2#0": (700.0, 800.0)}, card="Charge")
    with pytest.raises(RulesError, match="not completely within p1's deployment zone"):
        engine.apply(s, Reinforce("p1", "p1#1", 300.0, 400.0))
    s, _ = play(s, Reinforce("p1", "p1#1", 400.0, 100.0), Empower("p1", "p1#0"))
    assert s.disks["p1#1"].activated and s.disks["p1#0"].empowered
    with pytest.raises(RulesError, match="no empowering left"):
        engine.apply(s, Empower("p1", "p1#1"))


# -- terrain and keywords -------------------------------------------------------------------
def test_dangerous_terrain_rolls_when_a_disk_ends_on_it_and_a_strider_does_not() -> None:
    g = game(["Tyrion", "High Elf Spearmen"], ["Kairos Fateweaver", "Plaguebearers"],
             terrain=[("Marsh", 400.0, 450.0)])
    s = position(g, {"p1#1": (400.0, 330.0), "p1#0": (100.0, 60.0), "p2#0": (800.0, 850.0)})
    s, ev = play(s, Move("p1", "p1#1", 400.0, 375.0))  # one flip, onto the marsh's edge
    assert s.danger == "p1#1" and "dangerous" in kinds(ev)
    assert engine.legal_actions(s) == []  # the d6 is awaited
    with pytest.raises(RulesError, match="rolls one d6 for dangerous terrain"):
        engine.apply(s, D6("p2", (3,)))
    s, ev = play(s, D6("p1", (2,)))
    assert s.disks["p1#1"].place == CASUALTY  # 2 physical on toughness 2


def test_fortified_terrain_is_immune_to_impact_and_high_ground_sees_over_woods() -> None:
    g = game(terrain=[("Stone Wall", 400.0, 450.0), ("Hill", 700.0, 250.0),
                      ("Forest", 700.0, 520.0)])
    # Silver Helms (impact 1) land on a Plaguebearer behind the wall: no impact damage.
    s = position(g, {"p2#1": (400.0, 450.0), "p1#4": (400.0, 330.0),
                     "p1#0": (100.0, 60.0), "p2#0": (100.0, 850.0)})
    s, ev = play(s, Move("p1", "p1#4", 400.0, 420.0))
    assert "unharmed" in kinds(ev) and s.disks["p2#1"].damage == 0
    # Archers on the hill see a Plaguebearer behind the forest.
    s = position(g, {"p1#3": (700.0, 250.0), "p2#2": (700.0, 640.0),
                     "p1#0": (100.0, 60.0), "p2#0": (100.0, 850.0)})
    assert combat.in_sight(s, s.disks["p1#3"], s.disks["p2#2"])
    s.disks["p1#3"].x = 560.0  # off the hill, the forest between them
    assert not combat.in_sight(s, s.disks["p1#3"], s.disks["p2#2"])


def test_frenzy_attacks_every_enemy_it_pins_and_immunity_refuses_a_target() -> None:
    doc = {"format": "tablesight-diskwars-catalog/1", "disks": [
        {"name": "Berserkers", "race": "high elves", "faction": "order", "size": "medium",
         "cost": 2, "attack": 2, "counter": 1, "toughness": 3, "movement": 2,
         "keywords": ["frenzy"]},
        {"name": "Wraiths", "race": "chaos", "faction": "destruction", "size": "small",
         "cost": 2, "attack": 1, "counter": 1, "toughness": 2, "movement": 2,
         "keywords": ["immune physical"]}]}
    from table.games.diskwars import army, catalog
    from table.games.diskwars.game import make

    cat = catalog.with_document(catalog.builtin(), doc)
    g = make(cat, {"p1": army.check(cat, ["Tyrion", "High Elf Archers", "High Elf Spearmen",
                                          "Berserkers"]),
                   "p2": army.check(cat, ["Kairos Fateweaver", "Plaguebearers",
                                          "Plaguebearers", "Wraiths"])}, ())
    s = position(g, {"p2#1": (380.0, 400.0), "p2#2": (440.0, 400.0), "p1#3": (410.0, 400.0),
                     "p1#0": (100.0, 60.0), "p2#0": (800.0, 850.0), "p2#3": (410.0, 300.0),
                     "p1#1": (410.0, 150.0)})
    with pytest.raises(RulesError, match="immune to physical damage"):
        engine.apply(s, Shoot("p1", "p1#1", "p2#3"))
    s, ev = _to_melee(s)
    hits = sorted(e.data["target"] for e in ev if e.kind == "strikes"
                  and e.data["disk"] == "p1#3")
    assert hits == ["p2#1", "p2#2"]  # no choice asked: it attacks both


def test_a_slow_disk_deals_its_damage_last_and_may_never_deal_it() -> None:
    g = game(["Tyrion", "High Elf Spearmen", "Silver Helms"], CHAOS)
    # The Hellcannon (slow, counter 2, toughness 5, two damage already) pinned by Silver
    # Helms (attack 3, neither swift nor slow): the Helms strike first and remove it.
    s = position(g, {"p2#3": (400.0, 400.0), "p1#2": (420.0, 400.0),
                     "p1#0": (100.0, 60.0), "p2#0": (800.0, 850.0)})
    s.disks["p2#3"].damage = 2
    s, ev = _to_melee(s)
    assert s.disks["p2#3"].place == CASUALTY
    assert [e.data["disk"] for e in ev if e.kind == "strikes"] == ["p1#2"]
    # Unharmed, it survives the blow and deals its counter after it.
    s = position(g, {"p2#3": (400.0, 400.0), "p1#2": (420.0, 400.0),
                     "p1#0": (100.0, 60.0), "p2#0": (800.0, 850.0)})
    s, ev = _to_melee(s)
    assert [e.data["disk"] for e in ev if e.kind == "strikes"] == ["p1#2", "p2#3"]
