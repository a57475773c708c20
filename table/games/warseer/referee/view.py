"""What a screen draws of Warseer, in the neutral board model (``table.drawing``): the
battlefield's hexes with their terrain and the deployment zones, each creature in its
hex with its wounds as a badge, the War Camp and the History beside the board, the
attack under way as a line, and the score: victory points, with each player's hand,
relics, City Zone, Hall of Fame and the feats left in words."""

from __future__ import annotations

from typing import Any

from table.drawing import Alert, Board, Key, Line, Mark, Piece, Region, Zone, frame_of

from .. import engine
from ..state import CAMP, FIELD, HISTORY, PLAYERS, State
from .context import Context

ATTACK_RED = "#ff5050"  # the arrow of an attack under way


def _regions(ref: Context, state: State) -> tuple[Region, ...]:
    bf = ref.game.battlefield
    zone_of = {h: p for p, hs in bf.deployment.items() for h in hs}
    at = state.attack
    alert = {}
    if at is not None:
        for r, what in ((at.attacker, "attacks"), (at.defender, "is attacked")):
            u = state.units[r]
            if u.hex is not None:
                alert[str(u.hex)] = Alert("⚔", f"{ref.words.piece(r)} {what}")
    out = []
    for r in bf.regions():
        h = bf.hex_named(r["name"])
        t = bf.terrain.get(h)
        marks = (Mark(t.label[0].upper(), "#ffffff", t.label),) if t else ()
        out.append(Region(r["name"], tuple((x, y) for x, y in r["polygon"]), r["name"],
                          fill=t.fill if t else zone_of.get(h), marks=marks,
                          alert=alert.get(r["name"])))
    return tuple(out)


def _legend(ref: Context) -> tuple[Key, ...]:
    """The battlefield's markings: each kind of terrain by its letter and tint, the
    deployment zones, an attack under way."""
    bf = ref.game.battlefield
    out: list[Key] = []
    for t in sorted({t for t in bf.terrain.values()}, key=lambda t: t.label):
        out.append(Key(t.label[0].upper(), "#ffffff", t.label, t.fill))
    for p in PLAYERS:
        if bf.deployment.get(p):
            out.append(Key("", p, f"{ref.words.player(p)}'s deployment zone"))
    out.append(Key("⚔", "#ff4d4d", "an attack under way: the attacker and its target"))
    out.append(Key("→", ATTACK_RED, "a red arrow: from the attacker to its target"))
    return tuple(out)


def _details(ref: Context, state: State, ref_: str) -> str:
    u = state.units[ref_]
    c = ref.game.catalog.creature(u.name)
    dice = ", ".join(f"{n} {col}" for col, n in c.attack.dice)
    bits = [f"{u.name} ({c.kind}, rank {c.rank}): {u.wounds} of {c.health} wounds"]
    if u.armour:
        bits.append(f"{u.armour} armour")
    bits.append(f"{c.attack.type} {dice}, range {c.range}, "
                f"movement {engine.movement(ref.game, state, u)}")
    if c.attack.critical:
        bits.append(f"critical: {c.attack.critical}")
    if c.abilities:
        bits.append(", ".join(c.abilities))
    if u.enchantments:
        bits.append("enchanted: " + ", ".join(ref.words.card(e) for e in u.enchantments))
    return "; ".join(bits)


def _pieces(ref: Context, state: State) -> tuple[Piece, ...]:
    out = []
    for r, u in sorted(state.units.items()):
        if u.place == FIELD and u.hex is not None:
            where: dict[str, Any] = {"region": str(u.hex)}
        elif u.place in (CAMP, HISTORY):
            where = {"zone": "camp" if u.place == CAMP else "history"}
        else:
            continue  # an eliminated minion: gone
        states = tuple(s for s, on in (("moved", u.moved), ("attacked", u.attacked)) if on)
        out.append(Piece(r, u.player, ref.words.piece(r), badge=u.wounds or None,
                         details=_details(ref, state, r), states=states,
                         note=f"{u.wounds}/{ref.game.catalog.creature(u.name).health}",
                         **where))
    return tuple(out)


def _centre(regions: tuple[Region, ...], name: str) -> tuple[float, float]:
    r = next(x for x in regions if x.id == name)
    return (sum(p[0] for p in r.outline) / len(r.outline),
            sum(p[1] for p in r.outline) / len(r.outline))


def score(ref: Context, state: State) -> dict[str, Any]:
    w = ref.words
    if state.winner is not None:
        ending = f"Feats left in the Feats deck: {state.feats_left}"
    elif state.last_turn:
        ending = ("Feats left in the Feats deck: 0 — this is the last turn: at its end, "
                  "more victory points wins")
    else:
        ending = (f"Feats left in the Feats deck: {state.feats_left} — the turn that "
                  "draws the last one is the last; then more victory points wins")
    lines = [ending]
    for p in PLAYERS:
        side = state.sides[p]
        bits = [f"hand {_count(side.hand, 'card')}, {_count(side.feat_hand, 'feat')}",
                f"deck {side.draw_pile}", f"Hall of Fame {side.hall}"]
        if side.feats_up:
            bits.append("feats face up: " + ", ".join(w.card(f) for f in side.feats_up))
        if side.relics:
            bits.append("relics: " + ", ".join(
                w.card(r.code) + (f" ({r.armour} armour)" if r.armour else "")
                + (f" ({r.uses} uses)" if r.uses else "") for r in side.relics))
        if side.buildings:
            bits.append("City Zone: " + ", ".join(w.card(b) for b in side.buildings))
        lines.append(f"{w.player(p)} · " + " · ".join(bits))
    if state.winner == "draw":
        lines.append("The game is a draw")
    return {"title": "Victory points",
            "players": {p: {"value": ref.points(state, p), "label": "victory points"}
                        for p in PLAYERS},
            "lines": lines, "winner": state.winner if state.winner != "draw" else None}


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def view(ref: Context, state: State) -> dict[str, Any]:
    regions = _regions(ref, state)
    lines = ()
    at = state.attack
    if at is not None:
        a, d = state.units[at.attacker], state.units[at.defender]
        if a.hex is not None and d.hex is not None:
            # No words on it: it would lie over the names; the legend says what it is.
            lines = (Line(_centre(regions, str(a.hex)), _centre(regions, str(d.hex)),
                          "", ATTACK_RED, arrow=True),)
    board = Board(frame_of(regions, 4), regions, _pieces(ref, state),
                  (Zone("camp", "War Camp"), Zone("history", "History")), lines,
                  _legend(ref))
    return {"board": board.to_dict(), "state": state.to_dict(), "score": score(ref, state)}
