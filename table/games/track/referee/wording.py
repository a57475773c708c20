"""What people read of Track: actions and history in players' names ("Ann: pawn 0 to
s4"). The notation stays the machine's language (logs, the API, typed actions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions import Action, Pass, RollDie, parse


class Words:
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = dict(names)

    def player(self, p: str) -> str:
        return self.names.get(p, p)

    def action(self, a: Action | str) -> str:
        a = parse(a) if isinstance(a, str) else a
        who = self.player(a.player)
        if isinstance(a, RollDie):
            return f"{who} rolled {a.die}"
        if isinstance(a, Pass):
            return f"{who} passes"
        return f"{who}: pawn {a.pawn[3:]} to {a.to}"

    def humanize(self, text: str) -> str:
        for p, n in self.names.items():
            text = text.replace(f"{p} ", f"{n} ")
        return text

    def entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        if entry.get("kind") == "action":
            out["text"] = self.action(entry["action"])
        return out

    def correction(self, body: dict[str, Any]) -> str:
        return f"pawn {body.get('pawn')} put on {body.get('to')}"

    def event(self, e: Mapping[str, Any]) -> str | None:
        if e.get("kind") == "advanced":
            return f"pawn {e['pawn']} to {e['to']}"
        return None
