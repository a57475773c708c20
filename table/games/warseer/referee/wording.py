"""What people read of Warseer: actions, events and history in players' and creatures'
names ("Ann: Gil-Talas attacks Kaitlynn"). The notation stays the machine's language
(logs, the API, typed actions); screens and the narrator go through ``Words``.
Summoned minions are named by their kind and a number ("Wisp 2")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.errors import NotationError
from table.wording import Names

from .. import actions as A
from ..game import Game


class Words(Names):
    """Summoned minions are named by their kind and a number (``Names.join``); an enemy
    creature is named with its owner ("Bob's Wisp 1": both sides' minions are numbered
    from 1)."""

    def __init__(self, game: Game, names: Mapping[str, str]) -> None:
        super().__init__(names, game.warbands)
        self.game = game

    def card(self, code: str) -> str:
        c = self.game.catalog.cards.get(code) or self.game.catalog.feats.get(code)
        return c.name if c else code

    def action(self, a: Any) -> str:
        if isinstance(a, str):
            try:
                a = A.parse(a)
            except NotationError:
                return a
        who = self.player(a.player)
        u = self.piece
        match a:
            case A.Draw():
                named = f": {', '.join(map(self.card, a.cards))}" if a.cards else ""
                return f"{who} draws seven cards{named}"
            case A.Return():
                named = f" ({', '.join(map(self.card, a.cards))})" if a.cards else ""
                return f"{who} returns three cards{named} and shuffles the deck"
            case A.Deploy():
                return f"{who}: {u(a.unit)} deploys on {a.hex}"
            case A.Summon():
                return f"{who}: {u(a.unit)} comes from the War Camp to {a.hex}"
            case A.Move():
                return f"{who}: {u(a.unit)} moves to {a.hex}"
            case A.Declare():
                return f"{who}: {u(a.attacker)} attacks {self.piece(a.defender, owner=True)}"
            case A.Roll():
                return f"{who} rolled {' '.join(self.face(f) for f in a.faces)}"
            case A.Modify():
                src = a.source.split(":")
                what = self.card(src[1]) if len(src) == 2 else src[0]
                return f"{who} uses {what}" + (f" on die {a.die}" if a.die else "")
            case A.Pass():
                return f"{who} passes"
            case A.Push():
                return f"{who} pushes {u(a.unit)} to {a.hex}"
            case A.Advance():
                return f"{who}: {'advance' if a.take else 'stay'}"
            case A.Counterblow():
                return f"{who}: counterblow"
            case A.Play():
                tgt = ""
                if a.target:
                    tgt = " on " + (" and ".join(a.target.split(",")) if "#" not in a.target
                                    else u(a.target) if a.target[:2] == a.player
                                    else self.piece(a.target, owner=True))
                return f"{who} plays {self.card(a.card)}{tgt}"
            case A.Use():
                return f"{who}: {self.card(a.building)} gives {u(a.unit)} its bonus"
            case A.Discard():
                return f"{who} discards {self.card(a.card)}"
            case A.PlayFeat():
                return f"{who} plays the feat {self.card(a.feat)} face up"
            case A.SpendFeat():
                return f"{who} discards the feat {self.card(a.feat)} for its effect"
            case A.EndTurn():
                return f"{who} ends the turn"
        return str(a)

    def face(self, code: str) -> str:
        for die in self.game.catalog.dice.values():
            for f in die.distinct():
                if f.code == code:
                    return f.label
        return code

    def humanize(self, text: str, *, owner: bool = False) -> str:
        """Refs and players in names; a refusal that starts with the action in notation
        ("p1 attack p1#1 p2#0: ...") starts with it in words."""
        head, sep, rest = text.partition(": ")
        if sep:
            try:
                text = self.action(A.parse(head)) + sep + rest
            except NotationError:
                pass
        return super().humanize(text, owner=owner)

    def entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        if entry.get("kind") == "action" and isinstance(entry.get("action"), str):
            out["text"] = self.action(entry["action"])
        return out

    def correction(self, body: dict[str, Any]) -> str:
        to = body.get("to")
        where = "off the battlefield" if to == "off" else f"on {to}"
        return f"{self.piece(str(body.get('unit')))} put {where}"

    def event(self, e: Mapping[str, Any]) -> str | None:
        k, u = e.get("kind"), self.piece
        match k:
            case "damaged":
                return f"{u(e['unit'])} takes {e['wounds']} wound(s)" + (
                    f" ({e['armour'] + e['relics']} absorbed by armour)"
                    if e["armour"] + e["relics"] else "")
            case "eliminated":
                return f"{u(e['unit'])} is eliminated"
            case "hall_of_fame":
                return f"{self.player(e['player'])} takes a feat into the Hall of Fame " \
                    f"({e['feats_left']} feats left)"
            case "critical":
                return f"critical: {e['effect']}"
            case "pushed":
                return f"{u(e['unit'])} is pushed to {e['to']}"
            case "last_feat":
                return "the last feat is drawn: the game ends with this turn"
            case "game_over":
                w = e.get("winner")
                return "the game is a draw" if w == "draw" else f"{self.player(w)} wins"
        return None
