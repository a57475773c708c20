"""What people read of Diskwars: disks by name ("Ann's Plaguebearers 2" where a player
has two), points as where they lie, command cards by title. The notation stays the
machine's language (logs, the API, typed actions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.wording import Names

from ..actions import (
    D6,
    Action,
    Cast,
    Command,
    Deploy,
    Deployed,
    Dice,
    Done,
    Empower,
    First,
    Hold,
    Initiative,
    Move,
    Reinforce,
    Shoot,
    Strike,
    parse,
)
from ..catalog import Catalog
from ..dice import LABELS as _FACE
from ..game import Game


class Words(Names):
    """Names (``table.wording``) with Diskwars's sentences: a disk is its name, numbered
    where a player has two ("Plaguebearers 2"), with its owner where it matters."""

    def __init__(self, names: Mapping[str, str], game: Game) -> None:
        super().__init__(names, {p: a.disks for p, a in game.armies.items()})
        self.catalog: Catalog = game.catalog

    def disk(self, ref: str) -> str:
        return self.piece(ref, owner=True)

    def short(self, ref: str) -> str:
        """The disk's own name, for its owner's lists."""
        return self.piece(ref)

    def card(self, code: str) -> str:
        card = self.catalog.command(code)
        return card.name if card else code

    def action(self, a: Action | str) -> str:
        a = parse(a) if isinstance(a, str) else a
        who = self.player(a.player)
        match a:
            case Initiative():
                return f"{who} rolled {a.number} for the initiative"
            case First():
                return f"{who} makes {self.player(a.who)} the first player"
            case Deploy():
                return f"{who} deploys {self.short(a.disk)}"
            case Deployed():
                return f"{who} has deployed"
            case Command():  # only its player, staff and the log read this before the reveal
                return f"{who} chose {self.card(a.card)}"
            case Move():
                return f"{who}: {self.short(a.disk)} flips"
            case Shoot():
                return f"{who}: {self.short(a.disk)} shoots at {self.disk(a.target)}"
            case Cast():
                return f"{who}: {self.short(a.disk)} casts at {self.disk(a.target)}"
            case Hold():
                return f"{who}: {self.short(a.disk)} holds"
            case Reinforce():
                return f"{who}: {self.short(a.disk)} comes from the reserve"
            case Empower():
                return f"{who} empowers {self.short(a.disk)}"
            case Done():
                return f"{who} ends the command card"
            case Dice():
                return f"{who} rolled " + ", ".join(_FACE[f] for f in a.faces)
            case D6():
                return f"{who} rolled " + ", ".join(map(str, a.numbers))
            case Strike():
                return f"{who}: {self.short(a.disk)} strikes {self.disk(a.target)}"
        return str(a)

    def entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        if entry.get("kind") == "action":
            out["text"] = self.action(entry["action"])
        return out

    def correction(self, body: dict[str, Any]) -> str:
        disk = body.get("disk")
        name = self.disk(disk) if isinstance(disk, str) and disk in self.label \
            else "a disk"
        return f"{name} put {body.get('to')}"

    def event(self, e: Mapping[str, Any]) -> str | None:
        k = e.get("kind")
        d = self.disk(str(e.get("disk", "")))
        if k == "initiative_won":
            return f"{self.player(e['player'])} wins the initiative"
        if k == "initiative_tie":
            return "the initiative is tied: both roll again"
        if k == "first_player":
            return f"{self.player(e['player'])} is the first player"
        if k == "round":
            return f"round {e['round']}"
        if k == "commands_revealed":
            cards = e.get("cards", {})
            return "revealed: " + "; ".join(f"{self.player(p)} {c}" for p, c in cards.items())
        if k == "moved" and e.get("pins"):
            return f"{d} lands on " + ", ".join(self.disk(r) for r in e["pins"])
        if k == "damaged":
            return f"{d} takes {e['damage']} {e['type']} damage"
        if k == "wounded":
            return f"{d} is wounded"
        if k == "casualty":
            return f"{d} is a casualty"
        if k == "scatter":
            return f"scatter: rolled again against {d}"
        if k == "strikes":
            return f"{d} deals {e['damage']} to {self.disk(str(e['target']))}"
        if k == "game_over":
            w = e.get("winner")
            return "no one wins" if w == "draw" else f"{self.player(str(w))} wins"
        return None
