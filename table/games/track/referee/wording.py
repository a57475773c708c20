"""What people read of Track: actions and history in players' names ("Ann: pawn 0 to
s4"). The notation stays the machine's language (logs, the API, typed actions)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..actions import Action, Draw, Drew, Graze, Luck, Pass, RollDie, parse
from ..luck import CARDS

_REF = re.compile(r"\bp[12]#\d+\b")
_PLAYER = re.compile(r"\bp[12]\b(?!#)")


class Words:
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = dict(names)

    def player(self, p: str) -> str:
        return self.names.get(p, p)

    def card(self, code: str) -> str:
        return next((c.label for c in CARDS if c.code == code), code)

    def pawn(self, ref: str) -> str:
        return f"{self.player(ref[:2])}'s pawn {ref[3:]}"

    def action(self, a: Action | str) -> str:
        a = parse(a) if isinstance(a, str) else a
        who = self.player(a.player)
        if isinstance(a, RollDie):
            return f"{who} rolled {a.die}"
        if isinstance(a, Pass):
            return f"{who} passes"
        if isinstance(a, Graze):
            return f"{who}: pawn {a.pawn[3:]} out to graze in the meadow"
        if isinstance(a, Draw):
            return f"{who} draws a luck card instead of moving"
        if isinstance(a, Drew):  # only its player, staff and the log read this
            return f"{who} drew the luck card {self.card(a.card)}"
        if isinstance(a, Luck):
            return f"{who} plays a luck card"
        return f"{who}: pawn {a.pawn[3:]} to {a.to}"

    def humanize(self, text: str) -> str:
        """Ids in a sentence the rules wrote replaced by names: "p1#0" by "Ann's pawn
        0", "p1" by "Ann"."""
        text = _REF.sub(lambda m: self.pawn(m.group(0)), text)
        return _PLAYER.sub(lambda m: self.player(m.group(0)), text)

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
        if e.get("kind") == "grazed":
            return f"pawn {e['pawn']} grazes in the meadow"
        if e.get("kind") == "lucky":
            return f"{self.player(e['player'])}'s luck card: {self.card(e['card'])}, " \
                f"a roll of {e['roll']}"
        return None
