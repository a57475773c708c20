"""What people read of Diskwars: disks by name ("Ann's Plaguebearers 2" where a player
has two), points as where they lie, command cards by title. The notation stays the
machine's language (logs, the API, typed actions)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

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
from ..game import Game

_REF = re.compile(r"\bp[12]#\d+\b")
_PLAYER = re.compile(r"\bp[12]\b(?!#)")
_FACE = {"hit": "hit", "critical": "critical hit", "miss": "miss", "scatter": "scatter",
         "chaos": "chaos"}


class Words:
    def __init__(self, names: Mapping[str, str], game: Game) -> None:
        self.names = dict(names)
        self.catalog: Catalog = game.catalog
        self.disk_names: dict[str, str] = {}
        for p, army in game.armies.items():
            counts = Counter(army.disks)
            seen: Counter[str] = Counter()
            for i, name in enumerate(army.disks):
                seen[name] += 1
                self.disk_names[f"{p}#{i}"] = name if counts[name] == 1 \
                    else f"{name} {seen[name]}"

    def player(self, p: str) -> str:
        return self.names.get(p, p)

    def disk(self, ref: str) -> str:
        return f"{self.player(ref[:2])}'s {self.disk_names.get(ref, 'disk')}"

    def short(self, ref: str) -> str:
        """The disk's own name, for its owner's lists."""
        return self.disk_names.get(ref, "disk")

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

    def humanize(self, text: str) -> str:
        text = _REF.sub(lambda m: self.disk(m.group(0)), text)
        return _PLAYER.sub(lambda m: self.player(m.group(0)), text)

    def entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        if entry.get("kind") == "action":
            out["text"] = self.action(entry["action"])
        return out

    def correction(self, body: dict[str, Any]) -> str:
        disk = body.get("disk")
        name = self.disk(disk) if isinstance(disk, str) and disk in self.disk_names \
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
