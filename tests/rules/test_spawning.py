import pytest

from table.games.dreamblade import EndPhase, Phase, Spawn, apply
from table.games.dreamblade.spawning import spawn_cost

from .helpers import play, position, rejects, where


def spawn_phase(wb, placed=None, player="p1", points=12, turn=2):
    return position(wb, placed, turn=turn, phase=Phase.SPAWN, active=player,
                    spawn_points=points)


def test_aspect_cost_counts_dreamscape_and_graveyard_of_your_own():
    wb = {"p1": ["Brute", "Brute", "Brute"], "p2": ["Brute"]}
    s = spawn_phase(wb, {"p2#0": "c3"})
    g = s.game.gid("p1#0")
    assert spawn_cost(s, g) == 4  # no passion miniature of p1 yet: +1
    s = spawn_phase(wb, {"p1#1": "graveyard", "p2#0": "c3"})
    assert spawn_cost(s, g) == 3  # the graveyard counts
    s = spawn_phase(wb, {"p1#1": "removed"})
    assert spawn_cost(s, g) == 4  # removed from the game does not


def test_rulebook_aspect_example_follows_the_stated_rule():
    # Rulebook: cost 7 with four Valor symbols, one Valor creature in the dreamscape and
    # one in the graveyard. The stated rule (one point per miniature short) gives
    # 7 + (4 - 2) = 9; the book's example says 8. We follow the rule (docs/rules).
    wb = {"p1": ["Giant", "Scout", "Scout"], "p2": ["Brute"]}
    s = spawn_phase(wb, {"p1#1": "e1", "p1#2": "graveyard"})
    assert spawn_cost(s, s.game.gid("p1#0")) == 9


def test_multi_aspect_cost_is_paid_per_aspect():
    wb = {"p1": ["Twin", "Scout"], "p2": ["Brute"]}
    s = spawn_phase(wb)
    assert spawn_cost(s, s.game.gid("p1#0")) == 6  # valor and madness both short
    s = spawn_phase(wb, {"p1#1": "e1"})
    assert spawn_cost(s, s.game.gid("p1#0")) == 5


def test_earlier_spawn_in_the_same_phase_helps_the_next():
    wb = {"p1": ["Brute", "Brute"], "p2": ["Brute"]}
    s = spawn_phase(wb, points=7, turn=1)
    s, ev = apply(s, Spawn("p1", "p1#0", "e1"))
    assert ev[0].data["cost"] == 4
    s, ev = apply(s, Spawn("p1", "p1#1", "e1"))
    assert ev[0].data["cost"] == 3 and s.spawn_points[0] == 0


def test_insufficient_points():
    s = spawn_phase({"p1": ["Giant"], "p2": ["Brute"]}, points=10)
    rejects(s, Spawn("p1", "p1#0", "e1"), "insufficient_spawn_points")  # 7 + 4 = 11


def test_first_turn_everything_spawns_in_the_portal():
    s = spawn_phase({"p1": ["Brute", "Brute"], "p2": ["Brute"]}, turn=1)
    rejects(s, Spawn("p1", "p1#0", "d1"), "illegal_spawn_cell")
    s, _ = apply(s, Spawn("p1", "p1#0", "e1"))
    assert where(s, "p1#0") == "e1"


def test_portal_is_always_open_even_past_four():
    wb = {"p1": ["Scout"] * 3 + ["Brute"] * 3, "p2": ["Brute"]}
    s = spawn_phase(wb, {"p1#0": "e1", "p1#1": "e1", "p1#2": "e1", "p1#3": "e1"}, points=12)
    s, _ = play(s, Spawn("p1", "p1#4", "e1"), Spawn("p1", "p1#5", "e1"))
    assert len(s.creatures_in(s.game.board.index("e1"), 0)) == 6


def test_spawn_row_needs_a_miniature_in_the_column():
    # Rulebook diagram: a spawn-row cell is open when you have a miniature in its column,
    # engaged or not, and it held no ally at the start of the phase.
    wb = {"p1": ["Scout", "Scout", "Brute", "Brute"], "p2": ["Brute"]}
    s = spawn_phase(wb, {"p1#0": "b4", "p1#1": "c1", "p2#0": "b4"})
    s2, _ = apply(s, Spawn("p1", "p1#2", "b1"))  # column b: p1#0 (engaged) is there
    assert where(s2, "p1#2") == "b1"
    rejects(s, Spawn("p1", "p1#2", "a1"), "illegal_spawn_cell")  # nothing in column a
    rejects(s, Spawn("p1", "p1#2", "c1"), "illegal_spawn_cell")  # ally there at the start
    rejects(s, Spawn("p1", "p1#2", "c2"), "illegal_spawn_cell")  # not the spawn row
    rejects(s, Spawn("p1", "p1#2", "a5"), "illegal_spawn_cell")  # not p1's row


def test_a_cell_spawned_into_this_phase_stays_open_but_only_four_per_phase():
    wb = {"p1": ["Scout"] * 3 + ["Brute"] * 2 + ["Guardian"], "p2": ["Brute"]}
    s = spawn_phase(wb, {"p1#5": "d3"}, points=40)
    s, _ = play(s, *(Spawn("p1", f"p1#{i}", "d1") for i in range(4)))
    rejects(s, Spawn("p1", "p1#4", "d1"), "spawn_cell_limit")


def test_stacking_limit_in_a_spawn_row_cell():
    wb = {"p1": ["Scout"] * 3 + ["Brute"] * 2, "p2": ["Brute"]}
    s = spawn_phase(wb, {"p1#0": "d2"}, points=40)
    # Four allies walked into d1 after the phase began is impossible; simulate the
    # stacking check alone with spawned_into reset.
    s, _ = play(s, *(Spawn("p1", f"p1#{i}", "d1") for i in (1, 2, 3)))
    s.spawned_into = {}
    s.cell[s.game.gid("p1#0")] = s.game.board.index("d1")
    rejects(s, Spawn("p1", "p1#4", "d1"), "stacking_limit")


def test_locations_go_where_you_control_a_creature_one_per_cell():
    wb = {"p1": ["Brute", "Tower", "Tower"], "p2": ["Brute", "Tower"]}
    s = spawn_phase(wb, {"p1#0": "c3", "p2#0": "b2", "p2#1": "d4"})
    rejects(s, Spawn("p1", "p1#1", "b2"), "illegal_spawn_cell")  # only an enemy there
    rejects(s, Spawn("p1", "p1#1", "e1"), "illegal_spawn_cell")  # no creature of p1
    s, _ = apply(s, Spawn("p1", "p1#1", "c3"))
    rejects(s, Spawn("p1", "p1#2", "c3"), "location_limit")


def test_wrong_player_wrong_zone_wrong_owner_unknown():
    wb = {"p1": ["Brute", "Brute"], "p2": ["Brute"]}
    s = spawn_phase(wb, {"p1#1": "graveyard"})
    rejects(s, Spawn("p2", "p2#0", "a5"), "not_your_phase")
    rejects(s, Spawn("p1", "p2#0", "a5"), "not_your_mini")
    rejects(s, Spawn("p1", "p1#1", "e1"), "not_in_reserves")
    rejects(s, Spawn("p1", "p1#7", "e1"), "unknown_mini")
    rejects(s, Spawn("p1", "p1#0", "z9"), "unknown_cell")
    s2, _ = apply(s, EndPhase("p1"))
    rejects(s2, Spawn("p1", "p1#0", "e1"), "not_your_phase")


def test_spawn_outside_spawn_phase():
    s = position({"p1": ["Brute"], "p2": ["Brute"]})
    rejects(s, Spawn("p1", "p1#0", "e1"), "wrong_phase")


def test_unique_and_vengeance():
    wb = {"p1": ["Unique One", "Unique One", "Avenger"], "p2": ["Unique One"]}
    s = spawn_phase(wb, {"p1#0": "c3", "p2#0": "c2"})
    rejects(s, Spawn("p1", "p1#1", "e1"), "unique_controlled")
    rejects(s, Spawn("p1", "p1#2", "e1"), "vengeance")
    s.turns_won = [0, 2]
    apply(s, Spawn("p1", "p1#2", "e1"))
    # The opponent's copy does not stop p2 either way: p1 controlling one is fine for p2.
    s = spawn_phase({"p1": ["Unique One"], "p2": ["Unique One"]}, {"p1#0": "a5"},
                    player="p2")
    apply(s, Spawn("p2", "p2#0", "a5"))


@pytest.mark.parametrize("turn", [1, 3])
def test_legal_spawns_are_all_accepted(turn):
    from table.games.dreamblade import legal_actions

    wb = {"p1": ["Brute", "Scout", "Tower", "Giant"], "p2": ["Brute"]}
    s = spawn_phase(wb, {"p1#0": "c2"} if turn > 1 else None, points=9, turn=turn)
    acts = legal_actions(s)
    assert acts[-1] == EndPhase("p1")
    for a in acts:
        apply(s, a)
    cells = {a.cell for a in acts if isinstance(a, Spawn) and a.mini == "p1#1"}
    assert cells == ({"e1"} if turn == 1 else {"e1", "c1"})
