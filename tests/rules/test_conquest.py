from table.games.dreamblade import EndPhase, Initiative, Phase, Spawn, apply
from table.games.dreamblade.turns import conquest_points

from .helpers import action_phase, position, rejects

WB = {"p1": ["Brute", "Brute", "Scout", "Scout", "Tower", "Brute"],
      "p2": ["Brute", "Brute", "Scout", "Scout", "Tower", "Brute"]}


def finish_turn(s):
    """End the remaining action phases of the turn (passes)."""
    while s.phase is Phase.ACTION:
        s, _ = apply(s, EndPhase(s.active))
    return s


def test_rulebook_scoring_example():
    # 1: p1 alone in its 3-point cell d4. 2: b3 scores for both; p1's only miniature there
    # is a location, so p2's creature claims it (1). 3: c3 and d3 contested. 4: d2, a p2
    # cell, contested. 5: p2 destroyed three of p1's miniatures, p1 destroyed two.
    s = position(WB, {"p1#0": "d4", "p1#4": "b3", "p2#0": "b3",
                      "p1#1": "c3", "p2#1": "c3", "p1#2": "d3", "p2#2": "d3",
                      "p1#3": "d2", "p2#3": "d2"})
    s.kills = [2, 3]
    assert conquest_points(s) == (5, 4)


def test_conquest_phase_scores_and_advances_the_victory_track():
    s = action_phase(WB, {"p1#0": "b4", "p2#0": "d2", "p2#1": "c2", "p1#1": "c3"},
                     player="p2", first="p1", index=2)
    s, ev = apply(s, EndPhase("p2"))
    # p1: b4 (5) + c3 (2) = 7; p2: d2 (5) + c2 (4) = 9.
    assert s.conquest[-1].points == (7, 9) and s.conquest[-1].winner == "p2"
    assert s.turns_won == [0, 1] and s.phase is Phase.INITIATIVE and s.turn == 3
    assert [e.kind for e in ev][-2:] == ["conquest", "turn"]


def test_tie_wins_nothing_and_kills_reset_each_turn():
    s = action_phase(WB, {"p1#0": "c3", "p2#0": "c3"}, player="p2", first="p1", index=2)
    s.kills = [1, 1]
    s, _ = apply(s, EndPhase("p2"))
    assert s.conquest[-1].winner is None and s.turns_won == [0, 0] and s.kills == [0, 0]


def test_six_turns_win_the_game_and_nothing_more_can_happen():
    s = action_phase(WB, {"p1#0": "b4"}, player="p2", first="p1", index=2,
                     turns_won=(5, 4))
    s, ev = apply(s, EndPhase("p2"))
    assert s.phase is Phase.GAME_OVER and s.winner == "p1"
    assert ev[-1].kind == "game_over"
    rejects(s, Initiative(3, 4), "game_over")
    rejects(s, EndPhase("p1"), "game_over")
    rejects(s, Spawn("p1", "p1#1", "e1"), "game_over")


def test_conquest_never_exceeds_what_the_map_allows():
    s = position(WB, {"p1#0": "b4", "p1#1": "c4", "p1#2": "d4", "p1#3": "b3",
                      "p1#5": "c3", "p2#5": "d3"})
    board = s.game.board
    pts = conquest_points(s)
    assert pts[0] == 5 + 4 + 3 + 1 + 2 <= board.max_conquest_points("p1")
    assert pts[1] == 1


def test_locations_neither_claim_nor_contest():
    s = position(WB, {"p1#4": "b4", "p2#4": "c2", "p1#0": "c2"})
    assert conquest_points(s) == (0, 0)  # p1's creature in c2 is not a p1 scoring cell
    s = position(WB, {"p1#4": "d2", "p2#0": "d2"})
    assert conquest_points(s) == (0, 5)


def test_destroyed_sacrificed_banished_and_removed_score_differently():
    from table.games.dreamblade.fates import banish, destroy, remove, sacrifice

    s = position(WB, {"p1#0": "c3", "p1#1": "c2", "p1#2": "b2", "p1#3": "b3", "p1#5": "d3"})
    g = s.game.gid
    destroy(s, g("p1#0"), by="p2")  # an enemy destroyed it: point for p2, bonus for p1
    assert (s.kills, s.bonus_points) == ([0, 1], [2, 0])
    destroy(s, g("p1#5"), by="p1")  # its own side destroyed it: bonus, no point
    assert (s.kills, s.bonus_points) == ([0, 1], [4, 0])
    sacrifice(s, g("p1#1"))
    banish(s, g("p1#2"))
    remove(s, g("p1#3"))
    assert (s.kills, s.bonus_points) == ([0, 1], [4, 0])
    zones = [s.zone[g(r)].value for r in ("p1#0", "p1#1", "p1#2", "p1#3")]
    assert zones == ["graveyard", "graveyard", "reserves", "removed"]
