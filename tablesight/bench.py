"""Benchmarks shipped with the project (``tablesight bench ...``). They report figures;
no test asserts on time."""

from __future__ import annotations

import contextlib
import os
import platform
import random
import statistics
import time
from typing import Any


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def _sample_game():  # -> Game
    from table.dreamblade import Board, Catalog, Game
    from table.dreamblade.warband import sample_warband

    cat = Catalog.builtin()
    wb = sample_warband(cat)
    return Game(Board.standard(), cat, {"p1": wb.names, "p2": wb.names})


def bench_rules(games: int = 200, seed: int = 1, checks: int = 20000) -> dict[str, Any]:
    """Random full games per second (one core) and the time to check one action."""
    from table.dreamblade import apply, is_legal, legal_actions
    from table.dreamblade.playout import play_random_game

    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):  # one core, as the figure promises
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    game = _sample_game()
    rng = random.Random(seed)
    per_game: list[float] = []
    n_actions: list[int] = []
    turns: list[int] = []
    capped = 0
    samples: list[tuple[Any, Any]] = []
    keep_every = max(1, games * 380 // max(1, checks))
    counter = 0

    def keep(before: Any, action: Any, after: Any) -> None:
        nonlocal counter
        counter += 1
        if counter % keep_every == 0 and len(samples) < checks:
            samples.append((before, action))

    start = time.perf_counter()
    for _ in range(games):
        t0 = time.perf_counter()
        p = play_random_game(game.new_state(), random.Random(rng.random()), on_step=keep)
        per_game.append(time.perf_counter() - t0)
        n_actions.append(len(p.actions))
        turns.append(p.final.turn)
        capped += p.capped
    total = time.perf_counter() - start

    # The playouts above also paid for the sampling hook; time actions on their own.
    apply_us: list[float] = []
    legal_us: list[float] = []
    illegal_us: list[float] = []
    from table.dreamblade import actions as A

    for state, action in samples:
        t0 = time.perf_counter_ns()
        apply(state, action)
        apply_us.append((time.perf_counter_ns() - t0) / 1000)
        t0 = time.perf_counter_ns()
        legal_actions(state)
        legal_us.append((time.perf_counter_ns() - t0) / 1000)
        # A typical wrong input: the same action from the wrong player, or a bad cell.
        wrong: Any = A.EndPhase("p2" if getattr(action, "player", "p1") == "p1" else "p1")
        t0 = time.perf_counter_ns()
        is_legal(state, wrong)
        illegal_us.append((time.perf_counter_ns() - t0) / 1000)
    return {
        "machine": f"{platform.python_implementation()} {platform.python_version()} "
                   f"on {platform.machine()}",
        "games": games,
        "games_per_second": round(games / total, 1),
        "median_ms_per_game": round(statistics.median(per_game) * 1000, 2),
        "median_actions_per_game": statistics.median(n_actions),
        "median_turns_per_game": statistics.median(turns),
        "games_capped_at_60_turns": capped,
        "action_checks_timed": len(samples),
        "check_action_p50_us": round(_pct(apply_us, 50), 1),
        "check_action_p99_us": round(_pct(apply_us, 99), 1),
        "reject_action_p50_us": round(_pct(illegal_us, 50), 1),
        "reject_action_p99_us": round(_pct(illegal_us, 99), 1),
        "legal_actions_p50_us": round(_pct(legal_us, 50), 1),
        "legal_actions_p99_us": round(_pct(legal_us, 99), 1),
    }
