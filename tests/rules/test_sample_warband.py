"""The rulebook's sample warband plays with all its abilities: seeded games with the
table's plausible policy use every one that shows in play, and positions with the real
miniatures show the standing ones (Regenerate, Bodyguard, Reinforce, Defender)."""

from __future__ import annotations

import random
from collections import Counter

from table.games.dreamblade import Phase, Step, apply, new_state
from table.games.dreamblade.actions import AssignDamage, Attack, Combat, Move, Roll, Spawn
from table.games.dreamblade.playout import play_random_game, table_policy
from table.games.dreamblade.warband import sample_warband
from tests.session.helpers import sample_game

from .helpers import action_phase, catalog, play, position, rejects, where


def test_seeded_games_use_every_ability_that_shows_in_play():
    seen: Counter[str] = Counter()
    for seed in range(10):
        p = play_random_game(new_state(sample_game()), random.Random(seed),
                             policy=table_policy, keep_events=True)
        assert p.final.is_over()
        for e in p.events:
            if e.kind in ("blade", "activated"):
                seen[e.data["ability"]] += 1
            elif e.kind == "reroll":
                seen["Fortunate 2"] += 1
    wanted = {"Blade: Advance", "Blade: Crit 1", "Blade: Crit 5", "Blade: Dissipate",
              "Blade: Fumble 2", "Blade: Payback", "Spawn 1: Call Adjacent Ally",
              "Fortunate 2"}
    assert wanted <= set(seen), wanted - set(seen)
    # The warband holds nothing else that acts by itself in play.
    printed = {str(a) for n in sample_warband(catalog()).names
               for a in catalog()[n].abilities}
    assert printed - wanted == {"Regenerate", "Bodyguard", "Reinforce Valor", "Defender"}


WB = {"p1": ["Iron Thug", "Runetagged Brawler", "Eagle-feather Warrior", "Saint of Roses"],
      "p2": ["Spellbound Scissors", "Inspired Samurai", "Runetagged Brawler"]}


def test_spellbound_scissors_regenerates():
    s = action_phase(WB, {"p1#0": "c3", "p2#0": "c3"}, first="p1")
    s, ev = apply(s, Combat("p1", "c3", ("p1#0",), (3, 2, "miss", "miss", "miss", "miss"),
                            damage=(("p2#0", 5),)))
    assert where(s, "p2#0") == "reserves" and s.kills == [0, 0]
    assert not any(e.kind == "deathblow_available" for e in ev)


def test_inspired_samurai_guards_its_allies():
    s = action_phase(WB, {"p1#0": "c3", "p2#1": "c3", "p2#2": "c3"}, first="p2")
    s, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", (3, 3, 2, "miss", "miss", 1)))
    assert s.combat.step is Step.DAMAGE
    rejects(s, AssignDamage("p1", "p2#2", 4), "invalid_target")
    s, _ = play(s, AssignDamage("p1", "p2#1", 5), AssignDamage("p1", "p2#2", 4))


def test_eagle_feather_warrior_reinforces_beside_a_valor_ally():
    s = position(WB, {"p1#1": "c3"}, phase=Phase.SPAWN, active="p1", spawn_points=10)
    s, _ = play(s, Spawn("p1", "p1#2", "c3"))
    assert where(s, "p1#2") == "c3"


def test_saint_of_roses_will_not_shift_into_enemies():
    s = action_phase(WB, {"p1#3": "c2", "p2#2": "c3"})
    rejects(s, Move("p1", "p1#3", "c3"), "defender_cannot_enter")
