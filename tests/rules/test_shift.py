from table.games.dreamblade import Attack, EndPhase, Move, Shift, apply, legal_actions

from .helpers import action_phase, play, rejects, where

WB = {"p1": ["Brute", "Scout", "Guardian", "Tower", "Scout", "Scout", "Brute"],
      "p2": ["Brute", "Tower", "Scout"]}


def test_orthogonal_moves_only():
    s = action_phase(WB, {"p1#0": "c3"})
    rejects(s, Move("p1", "p1#0", "d4"), "not_adjacent")
    rejects(s, Move("p1", "p1#0", "c5"), "not_adjacent")
    for dest in ("c2", "b3", "d3", "c4"):
        s2, _ = apply(s, Move("p1", "p1#0", dest))
        assert where(s2, "p1#0") == dest


def test_engaged_creatures_cannot_move_but_an_enemy_location_does_not_engage():
    s = action_phase(WB, {"p1#0": "c3", "p2#0": "c3", "p1#1": "b2", "p2#1": "b2"})
    rejects(s, Move("p1", "p1#0", "c2"), "engaged_cannot_move")
    s2, _ = apply(s, Move("p1", "p1#1", "b1"))  # only an enemy location in b2
    assert where(s2, "p1#1") == "b1"


def test_each_creature_moves_once_and_locations_never():
    s = action_phase(WB, {"p1#0": "c3", "p1#3": "c3"})
    s2, _ = apply(s, Move("p1", "p1#0", "c4"))
    rejects(s2, Move("p1", "p1#0", "c5"), "moved_twice")
    rejects(s, Move("p1", "p1#3", "c4"), "cannot_move")


def test_stacking_limit_four_per_player():
    s = action_phase(WB, {"p1#1": "d4", "p1#4": "d4", "p1#5": "d4", "p1#6": "d4",
                          "p1#0": "d3"})
    rejects(s, Move("p1", "p1#0", "d4"), "stacking_limit")


def test_defender_cannot_shift_into_enemies():
    s = action_phase(WB, {"p1#2": "c3", "p2#0": "c4", "p2#1": "b3"})
    rejects(s, Move("p1", "p1#2", "c4"), "defender_cannot_enter")
    s2, _ = apply(s, Move("p1", "p1#2", "b3"))  # a location is not an enemy creature
    assert where(s2, "p1#2") == "b3"


def test_shift_is_whole_and_ends_the_phase():
    s = action_phase(WB, {"p1#0": "c3", "p1#1": "e1"})
    s2, _ = apply(s, Shift("p1", (("p1#0", "c4"), ("p1#1", "e2"))))
    assert (s2.action_index, where(s2, "p1#0"), where(s2, "p1#1")) == (2, "c4", "e2")
    rejects(s, Shift("p1", (("p1#0", "c4"), ("p1#1", "d2"))), "not_adjacent")
    empty, _ = apply(s, Shift("p1", ()))
    assert empty.action_index == 2


def test_shift_and_strike_do_not_mix():
    s = action_phase(WB, {"p1#0": "c3", "p2#0": "c3", "p1#1": "a1"})
    s2, _ = apply(s, Move("p1", "p1#1", "a2"))
    rejects(s2, Attack("p1", "c3", ("p1#0",)), "already_shifted")
    s3, _ = apply(s, Attack("p1", "c3", ("p1#0",)))
    s3, _ = play(s3, *[])
    assert s3.combat is not None


def test_not_your_phase_and_not_in_dreamscape():
    s = action_phase(WB, {"p1#0": "c3", "p2#2": "a4"})
    rejects(s, Move("p2", "p2#2", "a3"), "not_your_phase")
    rejects(s, Move("p1", "p2#2", "a3"), "not_your_mini")
    rejects(s, Move("p1", "p1#1", "a3"), "not_in_dreamscape")


def test_legal_moves_match_rules():
    s = action_phase(WB, {"p1#0": "c3", "p2#0": "c3", "p1#1": "a1", "p1#2": "b2",
                          "p2#2": "b3"})
    moves = {(a.mini, a.cell) for a in legal_actions(s) if isinstance(a, Move)}
    # p1#0 engaged; p1#1 from a1; Defender p1#2 may not enter b3 (enemy creature).
    assert moves == {("p1#1", "a2"), ("p1#1", "b1"), ("p1#2", "b1"), ("p1#2", "a2"),
                     ("p1#2", "c2")}
    assert EndPhase("p1") in legal_actions(s)


def test_rulebook_shifting_diagram_creatures_of_one_cell_split_and_may_stay():
    s = action_phase(WB, {"p1#0": "c3", "p1#1": "c3", "p1#4": "c3"})
    s2, _ = apply(s, Shift("p1", (("p1#0", "c4"), ("p1#1", "b3"))))  # p1#4 holds still
    assert [where(s2, r) for r in ("p1#0", "p1#1", "p1#4")] == ["c4", "b3", "c3"]


def test_rulebook_striking_diagram_cells_in_any_order_unengaged_cannot_attack():
    s = action_phase(WB, {"p1#0": "c3", "p2#0": "c3", "p1#1": "b2", "p2#2": "b2",
                          "p1#4": "d4"})
    attacks = {(a.cell, a.attackers) for a in legal_actions(s) if isinstance(a, Attack)}
    assert attacks == {("b2", ("p1#1",)), ("c3", ("p1#0",))}  # d4 is not contested
    from table.games.dreamblade import Roll

    s2, _ = play(s, Attack("p1", "b2", ("p1#1",)), Roll("p1", ("miss",)),
                 Attack("p1", "c3", ("p1#0",)), Roll("p1", ("miss", "miss")))
    assert s2.fought == frozenset({s.game.board.index("b2"), s.game.board.index("c3")})


def test_no_shift_after_a_strike():
    from table.games.dreamblade import Roll

    s = action_phase(WB, {"p1#0": "c3", "p2#0": "c3", "p1#1": "a1"})
    s2, _ = play(s, Attack("p1", "c3", ("p1#0",)), Roll("p1", ("miss", "miss")))
    rejects(s2, Move("p1", "p1#1", "a2"), "already_struck")
    rejects(s2, Shift("p1", (("p1#1", "a2"),)), "already_struck")
