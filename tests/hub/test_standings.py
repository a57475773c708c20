"""League standings, ratings and the results export, from finished games."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.standings import (
    CSV_COLUMNS,
    ELO_START,
    Result,
    results_csv,
    standings,
)

T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)


def game(i, p1, p2, winner, points=None, system="warseer"):
    return Result(T0 + timedelta(hours=i), f"Table {i % 3 + 1}", system, f"log/{i}", p1, p2,
                  winner, points or {})


LEAGUE = [game(0, "Ann", "Bob", "p1", {"p1": 5, "p2": 3}),
          game(1, "Cleo", "Ann", "p2", {"p1": 2, "p2": 6}),
          game(2, "Bob", "Cleo", "draw", {"p1": 4, "p2": 4}),
          game(3, "bob ", "Dev", "p1", {"p1": 3, "p2": 1}),
          game(4, "Dev", "Cleo", "p2", {"p1": 0, "p2": 2}),
          game(5, "Ann", "Zed", "p1", system="dreamblade")]


def test_wins_then_strength_of_schedule_then_points():
    rows = standings(LEAGUE, "warseer")
    assert [r.player for r in rows] == ["Ann", "Bob", "Cleo", "Dev"]
    ann, bob, cleo, dev = rows
    assert (ann.played, ann.won, ann.lost, ann.vp) == (2, 2, 0, 11)
    assert (bob.played, bob.won, bob.drawn, bob.lost) == (3, 1, 1, 1)  # "bob " is Bob
    assert (cleo.wins, dev.wins) == (1.5, 0)
    # Bob and Cleo both have 1.5 wins: Bob met Ann (2/2), Cleo (1.5/3) and Dev (0/2).
    assert bob.sos == pytest.approx((1 + 0.5 + 0) / 3)
    assert standings(LEAGUE, "dreamblade")[0].player == "Ann"


def test_the_order_of_tie_breakers_is_the_organisers():
    by_points = standings(LEAGUE, "warseer", ["vp"])
    assert [r.player for r in by_points][:2] == ["Ann", "Bob"]
    by_rating = standings(LEAGUE, "warseer", ["elo"])
    assert by_rating[0].player == "Ann" and by_rating[-1].player == "Dev"
    with pytest.raises(ValueError, match="no tie-breaker 'luck'"):
        standings(LEAGUE, "warseer", ["luck"])


def test_a_game_against_oneself_or_without_a_result_ranks_nobody():
    rows = standings([game(0, "Ann", "ann", "p1"), game(1, "Ann", "Bob", None)], "warseer")
    assert rows == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann", "Bob", "Cleo", "Dev"]),
                          st.sampled_from(["Ann", "Bob", "Cleo", "Dev"]),
                          st.sampled_from(["p1", "p2", "draw"])), max_size=30))
def test_ratings_are_exchanged_never_made_and_every_game_counts_twice(games):
    results = [game(i, a, b, w) for i, (a, b, w) in enumerate(games)]
    rows = standings(results, "warseer")
    counted = [g for g in games if g[0] != g[1]]
    assert sum(r.played for r in rows) == 2 * len(counted)
    assert sum(r.won for r in rows) == sum(1 for g in counted if g[2] != "draw")
    assert sum(r.elo for r in rows) == pytest.approx(ELO_START * len(rows))


def test_the_csv_export_reads_back_and_defuses_formulas():
    text = results_csv([*LEAGUE, game(6, "=HYPERLINK(\"x\")", "Bob", "p2")])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert rows[0] == {"finished_utc": "2026-11-01T18:00:00Z", "table": "Table 1",
                       "system": "warseer", "game": "log/0", "player1": "Ann",
                       "player2": "Bob", "winner": "Ann", "player1_points": "5",
                       "player2_points": "3"}
    assert rows[-1]["player1"].startswith("'=") and rows[-1]["winner"] == "Bob"
