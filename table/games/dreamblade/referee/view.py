"""What a screen draws of a Dreamblade game, in the neutral board model
(``table.drawing``): the 5x5 cells as the printed map lays them out, each miniature in
its cell or in a player's reserves or graveyard, portals and scoring cells, fights, and
the score (turns won of six, the last conquest)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from table.drawing import Alert, Board, Key, Mark, Piece, Region, Zone, frame_of

from .. import stats
from ..layout import standard_layout
from ..spawning import Pricing
from ..state import State
from .wording import Words

TURNS_TO_WIN = 6
# Reserves wait beside the table; the destroyed lie on the printed graveyard strip.
ZONES = (Zone("reserves", "reserves"), Zone("graveyard", "graveyard", on_map=True))
ENGAGED = Alert("⚔", "engaged: creatures of both players fight here")


@cache
def _cell_outlines() -> dict[str, tuple[tuple[float, float], ...]]:
    """Each cell's square as the printed sheet has it (map mm, row 1 at the bottom)."""
    return {r["name"]: tuple((float(x), float(y)) for x, y in r["polygon"])
            for r in standard_layout()["regions"] if r["role"] == "cell"}


def board(state: State, words: Words, lingering: dict[int, str],
          awaited: Mapping[int, tuple[tuple[str, ...], str]] | None = None) -> Board:
    """``awaited``: gid -> (the cells it may still stand in, to), moved by the rules at
    the dashboard, perhaps not yet on the map."""
    awaited = awaited or {}
    s, g = state, state.game
    b = g.board
    names = b.cell_names
    c_ = s.combat
    to_place = {gid for gid, _ in c_.to_place} if c_ is not None else set()
    at_risk = set(c_.pending_outcome) if c_ is not None else set()
    # A finished game's board shows where everything ended, not fights to come.
    engaged_cells = set() if s.is_over() else {
        s.cell[m.gid] for m in g.minis
        if m.d.is_creature and s.cell[m.gid] >= 0 and s.is_engaged(m.gid)}
    outlines = _cell_outlines()
    regions = []
    for i, name in enumerate(names):
        portal = next((p for p in ("p1", "p2") if b.portal(p) == i), None)
        marks = tuple(Mark(str(b.scoring_cells(p)[i]), p,
                           f"{words.player(p)} scores {b.scoring_cells(p)[i]} here")
                      for p in ("p1", "p2") if i in b.scoring_cells(p))
        regions.append(Region(name, outlines[name], name, fill=portal, marks=marks,
                              alert=ENGAGED if i in engaged_cells else None))
    pieces = []
    pricing = (Pricing(s, 0), Pricing(s, 1))
    for m in g.minis:
        c = s.cell[m.gid]
        states = []
        if m.d.is_creature and c >= 0 and s.is_engaged(m.gid):
            states.append("engaged")
        if m.gid in at_risk:
            states.append("to be disrupted or destroyed")
        if m.gid in to_place:
            states.append("disrupted: to be placed")
        if m.d.is_creature:
            details = (f"{s.damage[m.gid]} damage of {stats.life(s, m.gid)} life, defense "
                       f"{stats.defense(s, m.gid)}, power {stats.power(s, m.gid)}")
        else:
            details = "location"
        if m.gid in lingering and c < 0:
            details += f"; may still stand in {lingering[m.gid]}: take it off"
        moving = m.gid in awaited
        if moving:
            cells = awaited[m.gid][0]
            details += f"; moved here by the rules: move it from {' or '.join(cells)}" \
                if cells else "; put here by the rules: put it on the map"
            states.append("to be moved here")
        zone = s.zone[m.gid].value
        note = str(m.d.cost)
        if zone == "reserves":
            # What it costs now: the printed cost, one more per aspect symbol the player's
            # miniatures do not match, less a Channel's discount.
            now = pricing[m.pidx].cost(m.gid)
            note = f"cost {now}"
            short = pricing[m.pidx].shortfall(m.gid)
            why = [f"printed cost {m.d.cost}"]
            if short:
                symbols = "1 aspect symbol" if short == 1 else f"{short} aspect symbols"
                why.append(f"+{short}: {symbols} that no miniature of "
                           f"{words.player(m.player)}'s in play or in the graveyard matches")
            if now != m.d.cost + short:
                why.append(f"less {m.d.cost + short - now} for a Channel")
            details += f"; spawns for {now} now ({', '.join(why)})"
        pieces.append(Piece(
            m.ref, m.player, words.piece(m.ref),
            region=names[c] if c >= 0 else None,
            zone=zone if c < 0 and zone in ("reserves", "graveyard") else None,
            badge=s.damage[m.gid] or None,
            # dashed: the rules have it here, the map not yet
            outline="dashed" if m.gid in to_place or moving
            else "solid" if m.gid in at_risk else None,
            details=details, states=tuple(states), note=note,
            kind=f"{m.player}:{m.d.name}"))  # copies are interchangeable
    return Board(frame_of(regions), tuple(regions), tuple(pieces), ZONES,
                 legend=_legend(words))


def _legend(words: Words) -> tuple[Key, ...]:
    """What the printed map's markings mean (the same every turn)."""
    out: list[Key] = []
    for p in ("p1", "p2"):
        out.append(Key("3", p, f"a number in {words.player(p)}'s colour: the points "
                               f"{words.player(p)} scores at the conquest for a creature "
                               "of theirs in that cell"))
    for p in ("p1", "p2"):
        out.append(Key("", p, f"a cell tinted {words.player(p)}'s colour: "
                              f"{words.player(p)}'s portal, where their creatures spawn"))
    out.append(Key(ENGAGED.symbol, "#ff4d4d", ENGAGED.text))
    return tuple(out)


def score(state: State, words: Words) -> dict[str, Any]:
    s = state
    lines = []
    if s.conquest:
        last = s.conquest[-1]
        who = words.player(last.winner) if last.winner else "a tie"
        lines.append(f"last conquest (turn {last.turn}): {words.player('p1')} "
                     f"{last.points[0]} – {words.player('p2')} {last.points[1]} → {who}")
    return {"title": f"Score · turn {s.turn}",
            "players": {p: {"value": s.turns_won[i], "of": TURNS_TO_WIN,
                            "label": "turns won"} for i, p in enumerate(("p1", "p2"))},
            "lines": lines, "winner": s.winner}
