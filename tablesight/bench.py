"""Benchmarks shipped with the project (``tablesight bench ...``). They report figures;
no test asserts on time."""

from __future__ import annotations

import contextlib
import os
import platform
import random
import statistics
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the vision stack (OpenCV) is imported only when a bench needs it
    pass


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def bench_rules(games: int = 200, seed: int = 1, checks: int = 20000,
                game: str | None = None) -> dict[str, Any]:
    """Random full games per second (one core) and the time to check one action, for
    any installed game, through the seam (``Referee``): the sample forces, dice by
    ``chance``, decisions uniformly among ``legal_actions``."""
    from table import registry
    from table.errors import ActionRefused
    from table.playout import random_game
    from table.session import Setup

    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):  # one core, as the figure promises
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    system = registry.get(game or registry.default())
    referee = system.referee(Setup.from_dict({"system": system.name,
                                              "forces": system.sample_forces()}))
    rng = random.Random(seed)
    seeds = [rng.random() for _ in range(games)]
    per_game: list[float] = []
    n_actions: list[int] = []
    capped = rerolls = 0

    peer_before = chess_peer(games=max(2, games // 8), seed=seed)
    start = time.perf_counter()
    for game_seed in seeds:
        t0 = time.perf_counter()
        p = random_game(referee, random.Random(game_seed))
        per_game.append(time.perf_counter() - t0)
        n_actions.append(len(p.actions))
        capped += p.capped
        rerolls += p.rerolls
    total = time.perf_counter() - start
    peer_after = chess_peer(games=max(2, games // 8), seed=seed + 1)

    # States to time single checks on, from the same games played again: kept while the
    # games above were timed, thousands of live states would slow them (the collector
    # walks them all), which is the bench's cost, not the rules'.
    samples: list[tuple[Any, Any]] = []
    keep_every = max(1, sum(n_actions) // max(1, checks))
    counter = 0

    def keep(before: Any, action: Any, after: Any) -> None:
        nonlocal counter
        counter += 1
        if counter % keep_every == 0 and len(samples) < checks:
            samples.append((before, action))

    for game_seed in seeds:
        if len(samples) >= checks:
            break
        random_game(referee, random.Random(game_seed), on_step=keep)

    # Each action on its own.
    apply_us: list[float] = []
    legal_us: list[float] = []
    refuse_us: list[float] = []
    by_kind: dict[str, list[float]] = {}  # the check time of each kind of action
    for i, (state, action) in enumerate(samples):
        t0 = time.perf_counter_ns()
        referee.apply(state, action)
        apply_us.append((time.perf_counter_ns() - t0) / 1000)
        by_kind.setdefault(type(action).__name__, []).append(apply_us[-1])
        t0 = time.perf_counter_ns()
        referee.legal_actions(state)
        legal_us.append((time.perf_counter_ns() - t0) / 1000)
        # A typical wrong input: what was right at another moment of a game.
        wrong = samples[(i + 7) % len(samples)][1]
        t0 = time.perf_counter_ns()
        try:
            referee.apply(state, wrong)
        except ActionRefused:
            refuse_us.append((time.perf_counter_ns() - t0) / 1000)
    return {
        "game": system.name,
        "rules_version": system.rules_version,
        "machine": f"{platform.python_implementation()} {platform.python_version()} "
                   f"on {platform.machine()}",
        "games": games,
        "games_per_second": round(games / total, 1),
        # Decisions a second (dice and every player's choice, legal actions listed at
        # each), against python-chess's plies a second in the same minute.
        "actions_per_second": round(sum(n_actions) / total),
        "peer": _peer_figures(peer_before, peer_after, sum(n_actions) / total),
        "median_ms_per_game": round(statistics.median(per_game) * 1000, 2),
        "median_actions_per_game": statistics.median(n_actions),
        "games_capped": capped,
        "dice_rolled_again": rerolls,
        "action_checks_timed": len(samples),
        "check_action_p50_us": round(_pct(apply_us, 50), 1),
        "check_action_p99_us": round(_pct(apply_us, 99), 1),
        "reject_action_p50_us": round(_pct(refuse_us, 50), 1),
        "reject_action_p99_us": round(_pct(refuse_us, 99), 1),
        "legal_actions_p50_us": round(_pct(legal_us, 50), 1),
        "legal_actions_p99_us": round(_pct(legal_us, 99), 1),
        # p50 and p99 per kind of action (a move, an attack), the most frequent first.
        "check_by_kind_us": {k: [round(_pct(v, 50), 1), round(_pct(v, 99), 1), len(v)]
                             for k, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1]))},
    }


def chess_peer(games: int, seed: int) -> tuple[int, float] | None:
    """(plies, seconds) of random chess games in python-chess, the Python rules engine
    the project measures its own against: every legal move listed at each ply, one
    picked at random, to mate, stalemate, the fifty-move rule, too little material or
    400 plies. None when python-chess is not installed (it is a test dependency)."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    plies = 0
    t0 = time.perf_counter()
    for _ in range(games):
        board = chess.Board()
        for _ in range(400):
            moves = list(board.legal_moves)
            if not moves or board.halfmove_clock >= 100 or board.is_insufficient_material():
                break
            board.push(rng.choice(moves))
            plies += 1
    return plies, time.perf_counter() - t0


def _peer_figures(before: tuple[int, float] | None, after: tuple[int, float] | None,
                  ours: float) -> dict[str, Any]:
    if before is None or after is None:
        return {"engine": "python-chess", "note": "not installed: pip install chess"}
    import chess

    rate = (before[0] + after[0]) / (before[1] + after[1])
    return {"engine": f"python-chess {chess.__version__}",
            "plies_per_second": round(rate),
            "plies_per_second_before_and_after": [round(before[0] / before[1]),
                                                  round(after[0] / after[1])],
            "ratio": round(ours / rate, 2)}


# -- the table box -------------------------------------------------------------------
def bench_device(presses: int = 300, burst_cycles: int = 200) -> dict[str, Any]:
    """The real firmware in simavr at real time, 115200 baud: press-to-host latency and
    sustained event rate."""
    import statistics as st
    import time as _time

    from firmware_bridge.bridge import TableBox
    from firmware_bridge.emulator import Emulator

    eeprom_ms = 3.4  # the ATmega328P's EEPROM write per byte, modelled by the harness
    out: dict[str, Any] = {"baud": 115200, "emulation": "simavr, throttled to real time",
                           "eeprom_ms_per_byte": eeprom_ms}
    with Emulator(speed=1, eeprom_ms=eeprom_ms) as emu:
        box = TableBox(emu.port).start()
        _time.sleep(0.3)
        emu.run()
        box.events.get(timeout=10)  # connected
        latencies = []
        for i in range(1, presses + 1):
            emu.tap("p1", "ready", 15, 25)
            ev = None
            while ev is None or ev.kind != "button":
                ev = box.events.get(timeout=5)
            deadline = _time.monotonic() + 2
            while i not in emu.pressed_at and _time.monotonic() < deadline:
                _time.sleep(0.001)
            latencies.append((ev.time - emu.pressed_at[i]) * 1000)
        out["press_to_host_ms"] = {
            "presses": presses, "p50": round(st.median(latencies), 2),
            "p99": round(_pct(latencies, 99), 2), "max": round(max(latencies), 2),
            "note": "from the pin going down in the emulator to the event in the host's "
                    "queue; includes the 2 ms press debounce"}
        t0 = _time.monotonic()
        emu.burst(burst_cycles, 10, 20)  # the gap outlasts the 15 ms release lock-out
        want = burst_cycles * 8
        got = 0
        first = last = None
        while got < want and _time.monotonic() - t0 < burst_cycles * 0.1 + 20:
            try:
                ev = box.events.get(timeout=1)
            except Exception:
                continue
            if ev.kind == "button":
                got += 1
                first = first or ev.time
                last = ev.time
        span = (last - first) if first and last and last > first else float("nan")
        out["sustained"] = {"events": got, "expected": want,
                            "offered_per_second": round(8 / 0.030, 1),
                            "events_per_second": round(got / span, 1) if span else None,
                            "note": "eight buttons pressed together every 30 ms"}
        out["host_stats"] = dict(box.stats)
        box.stop()
    return out
