"""``tablesight demo``: the table with its embedded defaults.

Today this is the rules engine refereeing a whole game between two copies of the
rulebook's sample warband, with simulated dice, narrated turn by turn. The live table
(synthetic camera, simulated table box, dashboard) replaces it as those parts land.
"""

from __future__ import annotations

import random
import time
from typing import TextIO

from table.games.dreamblade import Board, Catalog, Game, new_state
from table.games.dreamblade.playout import play_random_game, table_policy
from table.games.dreamblade.referee.wording import event_line
from table.games.dreamblade.warband import sample_warband


def run_rules_demo(seed: int, delay: float, out: TextIO) -> int:
    cat = Catalog.builtin()
    wb = sample_warband(cat)
    game = Game(Board.standard(), cat, {"p1": wb.names, "p2": wb.names})
    out.write("tablesight demo: the Dreamblade rules engine referees a whole game\n"
              f"(both players: {wb.name}; simulated dice; seed {seed})\n")
    out.write("No camera or table box yet: the players' choices come from a simple "
              "built-in player.\n\n")
    record = play_random_game(new_state(game), random.Random(seed), policy=table_policy,
                              keep_events=True, max_turns=60)
    for e in record.events:
        if e.kind == "initiative":
            out.write(f"\nTURN {e.data['turn']}\n")
            if delay:
                out.flush()
                time.sleep(delay)
        text = event_line(e.kind, e.data)
        if text:
            out.write(text + "\n")
    s = record.final
    out.write(f"\nvictory track: p1 {s.turns_won[0]}, p2 {s.turns_won[1]}"
              f" after {len(record.actions)} actions\n")
    return 0
