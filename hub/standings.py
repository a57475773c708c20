"""League standings from finished games: pure functions over results.

A player is their name as the table's setup gives it (``names``), compared without case
or surrounding spaces, so "Ann" at two tables is one player. Per game system:

* **wins**: a win counts 1, a draw a half;
* **sos** (strength of schedule): the mean of each opponent's share of wins, over every
  game played against them (an opponent met twice counts twice);
* **vp**: victory points scored, where the game scores them;
* **elo**: a rating from 1500, K = 32, the games taken in the order they ended.

Standings sort by the tie-breakers named, in order (default wins, sos, vp), then by
name; ``TIE_BREAKERS`` lists the ones there are. ``results_csv`` writes the results in
the format ``docs/hub.md`` documents."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

TIE_BREAKERS = ("wins", "sos", "vp", "elo", "played")
DEFAULT_ORDER = ("wins", "sos", "vp")
ELO_START = 1500.0
ELO_K = 32.0
CSV_COLUMNS = ("finished_utc", "table", "system", "game", "player1", "player2", "winner",
               "player1_points", "player2_points")


@dataclass(frozen=True)
class Result:
    """One finished game: who played (p1, p2 by name), who won, the points."""

    finished: datetime
    table: str
    system: str
    game: str  # the game's id at the hub: "<log>/<number>"
    p1: str
    p2: str
    winner: str | None  # "p1", "p2", "draw", or None when the game said none
    points: dict[str, int] = field(default_factory=dict)


@dataclass
class Standing:
    player: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    vp: int = 0
    elo: float = ELO_START
    sos: float = 0.0
    opponents: list[str] = field(default_factory=list)

    @property
    def wins(self) -> float:
        return self.won + self.drawn / 2

    def key(self, by: Sequence[str]) -> tuple[float, ...]:
        return tuple(-float(getattr(self, k)) for k in by)


def player_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def standings(results: Iterable[Result], system: str,
              order: Sequence[str] = DEFAULT_ORDER) -> list[Standing]:
    """The players of ``system``'s games, best first by ``order``."""
    bad = [k for k in order if k not in TIE_BREAKERS]
    if bad:
        raise ValueError(f"no tie-breaker {bad[0]!r}: one of {', '.join(TIE_BREAKERS)}")
    table: dict[str, Standing] = {}
    shown: dict[str, str] = {}
    games = sorted((r for r in results if r.system == system and r.winner is not None),
                   key=lambda r: (r.finished, r.game))
    for r in games:
        a, b = player_key(r.p1), player_key(r.p2)
        if not a or not b or a == b:
            continue  # a game against oneself, or unnamed, ranks nobody
        shown.setdefault(a, r.p1.strip())
        shown.setdefault(b, r.p2.strip())
        sa = table.setdefault(a, Standing(shown[a]))
        sb = table.setdefault(b, Standing(shown[b]))
        score_a = {"p1": 1.0, "p2": 0.0, "draw": 0.5}[r.winner]
        for s, mine, them in ((sa, "p1", b), (sb, "p2", a)):
            s.played += 1
            s.vp += r.points.get(mine, 0)
            s.opponents.append(them)
            if r.winner == "draw":
                s.drawn += 1
            elif r.winner == mine:
                s.won += 1
            else:
                s.lost += 1
        expected_a = 1 / (1 + 10 ** ((sb.elo - sa.elo) / 400))
        change = ELO_K * (score_a - expected_a)
        sa.elo, sb.elo = sa.elo + change, sb.elo - change
    for s in table.values():
        rates = [table[o].wins / table[o].played for o in s.opponents]
        s.sos = sum(rates) / len(rates) if rates else 0.0
    return sorted(table.values(), key=lambda s: (*s.key(order), s.player.casefold()))


def results_csv(results: Iterable[Result]) -> str:
    """Results as CSV (``CSV_COLUMNS``), oldest first; cells that a spreadsheet would
    take for a formula are quoted with a leading apostrophe."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in sorted(results, key=lambda r: (r.finished, r.game)):
        winner = {"p1": r.p1, "p2": r.p2, "draw": "draw"}.get(r.winner or "", "")
        w.writerow([r.finished.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    *(_cell(x) for x in (r.table, r.system, r.game, r.p1, r.p2, winner)),
                    r.points.get("p1", ""), r.points.get("p2", "")])
    return out.getvalue()


def _cell(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
