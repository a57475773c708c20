"""What people read: actions, prompts and history in players' and miniatures' names.

The notation (``p1 spawn p1#4 e1``) stays the machine's language: logs, the API, typed
actions. Everything shown to a person goes through ``Words`` instead ("Ann: spawn Noble
Dragon (cost 5) into e1"). A player's second copy of a miniature is numbered ("Iron
Thug 2"), so two copies are never confused on screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.wording import Names

from .. import actions as A
from ..board import PLAYERS
from ..game import Game
from ..notation import NotationError, parse_action


class Words(Names):
    def __init__(self, game: Game, names: Mapping[str, str]) -> None:
        super().__init__(names, {p: [m.d.name for m in game.minis if m.player == p]
                                 for p in PLAYERS})
        self.game = game

    def action(self, a: A.Action | str, cost: int | None = None) -> str:
        """One action as a sentence; the notation itself if it cannot be read. A spawn
        shows ``cost`` when given (what it costs now), else the printed cost."""
        if isinstance(a, str):
            try:
                a = parse_action(a)
            except NotationError:
                return a
        who = self.player(getattr(a, "player", None))
        m, t = self.piece, (lambda r: self.piece(r, owner=True))
        match a:
            case A.Initiative():
                return (f"initiative: {self.player('p1')} {a.p1}, "
                        f"{self.player('p2')} {a.p2}")
            case A.Spawn():
                if cost is None and a.mini in self.game.by_ref:
                    cost = self.game.minis[self.game.by_ref[a.mini]].d.cost
                return f"{who}: spawn {m(a.mini)} (cost {cost if cost is not None else '?'}) " \
                    f"into {a.cell}"
            case A.Move():
                return f"{who}: move {m(a.mini)} to {a.cell}"
            case A.Shift():
                moves = ", ".join(f"{m(x)} to {c}" for x, c in a.moves) or "no moves"
                return f"{who}: shift ({moves})"
            case A.Attack():
                return f"{who}: attack in {a.cell} with {self.pieces(a.attackers)}"
            case A.Roll():
                return f"{who}: rolled {' '.join(map(A.face_str, a.faces))}"
            case A.Reroll():
                return (f"{who}: roll {' '.join(map(A.face_str, a.faces))} again"
                        if a.faces else f"{who}: keep the dice")
            case A.AssignBlade() | A.Activate():
                text = f"{who}: {m(a.mini)}'s {a.ability}"
                if a.target is not None:
                    text += f" on {t(a.target)}"
                return text + (f" to {a.to}" if a.to is not None else "")
            case A.AssignDamage():
                return f"{who}: {a.amount} damage to {t(a.target)}"
            case A.ChooseOutcome():
                return f"{who}: {a.outcome} {t(a.target)}"
            case A.Aim():
                return f"{who}: {m(a.mini)} aims at {t(a.target)}"
            case A.WailRoll():
                return f"{who}: Wail rolled {a.dice[0]} and {a.dice[1]}"
            case A.DeclineDeathblow():
                return f"{who}: no deathblow"
            case A.Place():
                return f"{who}: put {t(a.target)} in {a.cell}"
            case A.EndPhase():
                return f"{who}: done"
            case A.Combat():
                return f"{who}: a whole combat in {a.cell} ({a})"
        return str(a)

    def entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A log entry with ``text``: what its own entries say to a person (the table's
        own kinds are worded by ``table.wording.entry_text``)."""
        kind = entry["kind"]
        text = ""
        if kind == "action":
            paid = next((e.get("cost") for e in entry.get("events", ())
                         if isinstance(e, dict) and e.get("kind") == "spawned"), None)
            text = self.action(entry.get("action", ""), paid if isinstance(paid, int) else None)
        elif kind == "die":
            what = " for the Wail" if entry.get("for") == "wail" else ""
            text = f"{self.player(entry.get('player'))} rolled {entry.get('die')}{what}"
        return {**entry, "text": text}

    def event(self, e: Mapping[str, Any]) -> str | None:
        """A rules event (as logged: ``kind`` and its data) as a narration line."""
        data = {k: v for k, v in e.items() if k != "kind"}
        try:
            return event_line(str(e.get("kind")), data)
        except (KeyError, TypeError):
            return None  # an event of another shape (an older log): not narrated

    def correction(self, body: dict[str, Any]) -> str:
        mini = body.get("mini")
        name = self.piece(mini, owner=True) if isinstance(mini, str) else "?"
        dmg = f" with {body['damage']} damage" if body.get("damage") is not None else ""
        return f"{name} to {body.get('to')}{dmg}"


def involved(a: A.Action) -> tuple[list[str], list[str]]:
    """The cells and miniatures an action names: what a click on the board selects."""
    cells = [c for c in (getattr(a, "cell", None), getattr(a, "to", None)) if c]
    minis = [x for x in (getattr(a, "mini", None), getattr(a, "target", None)) if x]
    if isinstance(a, A.Attack):
        minis += list(a.attackers)
    if isinstance(a, A.Shift):
        for x, c in a.moves:
            minis.append(x)
            cells.append(c)
    return cells, minis


def event_line(k: str, d: Mapping[str, Any]) -> str | None:
    """One rules event as a line of the terminal narration (indented by depth: turn,
    phase, combat); None for events a narration skips."""
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
