"""``tablesight demo``: the table with its embedded defaults.

Today this is the rules engine refereeing a whole game between two copies of the
rulebook's sample warband, with simulated dice, narrated turn by turn. The live table
(synthetic camera, simulated table box, dashboard) replaces it as those parts land.
"""

from __future__ import annotations

import random
import time
from typing import TextIO

from table.dreamblade import Board, Catalog, Event, Game
from table.dreamblade.playout import play_random_game, table_policy
from table.dreamblade.warband import sample_warband


def _line(e: Event) -> str | None:
    d = e.data
    k = e.kind
    if k == "initiative":
        skip = "  (a 1: both spawn phases skipped)" if d["spawn_skipped"] else ""
        return (f"  initiative: p1 rolls {d['rolls']['p1']}, p2 rolls {d['rolls']['p2']}"
                f" -> {d['first']} goes first{skip}")
    if k == "phase" and d["phase"] == "spawn":
        return f"  {d['player']} spawn phase: {d['spawn_points']} points"
    if k == "spawned":
        return f"    spawns {d['mini']} in {d['cell']} for {d['cost']}"
    if k == "moved":
        return f"    {d['mini']} {d['from']} -> {d['to']}"
    if k == "phase" and d["phase"] == "action":
        return f"  {d['player']} action phase {d['index']}"
    if k == "combat":
        return f"    combat in {d['cell']}: {', '.join(d['attackers'])} roll {d['dice']} dice"
    if k == "rolled":
        what = "deathblow" if d["deathblow"] else "roll"
        return f"      {what}: {' '.join(map(str, d['faces']))}"
    if k == "blade":
        return f"      blade -> {d['mini']} {d['ability']}"
    if k in ("disrupted", "destroyed"):
        return f"      {d['mini']} {k}"
    if k == "placed":
        return f"      {d['mini']} placed in {d['cell']}"
    if k == "conquest":
        w = d["winner"] or "nobody (tie)"
        return (f"  conquest turn {d['turn']}: p1 {d['points']['p1']} - p2 "
                f"{d['points']['p2']}, won by {w}")
    if k == "game_over":
        return f"GAME OVER: {d['winner']} wins on turn {d['turn']}"
    return None


def run_rules_demo(seed: int, delay: float, out: TextIO) -> int:
    cat = Catalog.builtin()
    wb = sample_warband(cat)
    game = Game(Board.standard(), cat, {"p1": wb.names, "p2": wb.names})
    out.write("tablesight demo: the Dreamblade rules engine referees a whole game\n"
              f"(both players: {wb.name}; simulated dice; seed {seed})\n")
    out.write("No camera or table box yet: the players' choices come from a simple "
              "built-in player.\n\n")
    record = play_random_game(game.new_state(), random.Random(seed), policy=table_policy,
                              keep_events=True, max_turns=60)
    for e in record.events:
        if e.kind == "initiative":
            out.write(f"\nTURN {e.data['turn']}\n")
            if delay:
                out.flush()
                time.sleep(delay)
        text = _line(e)
        if text:
            out.write(text + "\n")
    s = record.final
    out.write(f"\nvictory track: p1 {s.turns_won[0]}, p2 {s.turns_won[1]}"
              f" after {len(record.actions)} actions\n")
    return 0
