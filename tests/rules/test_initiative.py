from table.games.dreamblade import EndPhase, Initiative, Phase, apply

from .helpers import play, position, rejects

WB = {"p1": ["Brute", "Scout"], "p2": ["Brute", "Scout"]}


def test_first_turn_rerolls_ones_and_ties():
    s = position(WB, turn=1)
    rejects(s, Initiative(1, 4), "reroll_required")
    rejects(s, Initiative(6, 1), "reroll_required")
    rejects(s, Initiative(3, 3), "reroll_required")
    s, _ev = apply(s, Initiative(2, 5))
    assert (s.phase, s.active, s.first_player) == (Phase.SPAWN, "p2", "p2")
    assert s.spawn_points == [0, 7]


def test_later_tie_goes_to_more_turns_won_else_reroll():
    s = position(WB, turn=4, turns_won=(1, 3))
    s2, _ = apply(s, Initiative(4, 4))
    assert s2.first_player == "p2"
    s = position(WB, turn=4, turns_won=(2, 2))
    rejects(s, Initiative(4, 4), "reroll_required")


def test_a_one_after_the_first_turn_skips_both_spawn_phases_and_keeps_bonus():
    s = position(WB, turn=3)
    s.bonus_points = [2, 4]
    s, ev = apply(s, Initiative(1, 5))
    assert (s.phase, s.active, s.action_index) == (Phase.ACTION, "p2", 1)
    assert s.bonus_points == [2, 4]  # kept for the next spawn phase actually played
    assert any(e.kind == "initiative" and e.data["spawn_skipped"] for e in ev)


def test_spawn_points_are_both_dice_plus_bonus_and_unspent_points_are_wasted():
    s = position(WB, turn=3)
    s.bonus_points = [2, 0]
    s, _ = apply(s, Initiative(6, 3))
    assert s.spawn_points == [11, 0] and s.bonus_points == [0, 0]
    s, _ = apply(s, EndPhase("p1"))
    assert s.spawn_points == [0, 9]  # p1's 11 are gone
    s, _ = apply(s, EndPhase("p2"))
    assert s.spawn_points == [0, 0] and s.phase is Phase.ACTION


def test_bad_initiative_faces():
    s = position(WB, turn=2)
    rejects(s, Initiative(0, 3), "bad_die_face")
    rejects(s, Initiative(7, 3), "bad_die_face")


def test_initiative_only_in_initiative_phase_and_phase_order():
    s = position(WB, turn=2)
    s, _ = apply(s, Initiative(5, 2))
    rejects(s, Initiative(5, 2), "wrong_phase")
    rejects(s, EndPhase("p2"), "not_your_phase")
    s, _ = play(s, EndPhase("p1"), EndPhase("p2"))
    order = []
    for _ in range(4):
        order.append((s.active, s.action_index))
        s, _ = apply(s, EndPhase(s.active))
    assert order == [("p1", 1), ("p1", 2), ("p2", 1), ("p2", 2)]
    assert s.phase is Phase.INITIATIVE and s.turn == 3
    assert s.conquest[-1].turn == 2


def test_end_phase_at_initiative_is_refused():
    rejects(position(WB), EndPhase("p1"), "wrong_phase")
