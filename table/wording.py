"""Players and pieces as people read them, for every game.

The notation (``p1 move p1#3 c4``) is the machine's language: logs, the API, typed
actions. Everything shown to a person names players by their names ("Ann") and pieces
by theirs: a player's second copy of a piece is numbered ("Iron Thug 2"), so two copies
are never confused on screen. ``Names`` holds that once; each game's ``Words`` builds on
it with the sentences of its own actions and events.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

_REF = re.compile(r"\bp[12]#\d+\b")
_REF_NAMED = re.compile(r"\b(p[12]#\d+) \(([^()]+)\)")
_PLAYER = re.compile(r"\bp[12]\b(?!#)")


def listing(names: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class Names:
    """The names people read: ``names`` by player (``p1`` -> "Ann"), and each piece
    of ``forces`` (the pieces' names per player, in force order: index ``i`` of p1's is
    ``p1#i``) by its name, numbered where the player has more than one of it."""

    def __init__(self, names: Mapping[str, str], forces: Mapping[str, Sequence[str]]) -> None:
        self.names = dict(names)
        self.label: dict[str, str] = {}  # ref -> the name people read
        self.kind: dict[str, str] = {}  # ref -> the piece's own name, unnumbered
        for p, force in forces.items():
            copies = Counter(force)
            seen: Counter[str] = Counter()
            for i, name in enumerate(force):
                seen[name] += 1
                ref = f"{p}#{i}"
                self.kind[ref] = name
                self.label[ref] = name if copies[name] == 1 else f"{name} {seen[name]}"

    def join(self, ref: str, name: str) -> None:
        """A piece that joins during play (a summoned minion) gets a name people read,
        numbered after the player's others of its kind ("Wisp 2")."""
        if ref not in self.label:
            n = 1 + sum(1 for r, lab in self.label.items()
                        if r[:2] == ref[:2] and lab.startswith(name))
            self.kind[ref] = name
            self.label[ref] = f"{name} {n}"

    def player(self, p: str | None) -> str:
        return self.names.get(p or "", p or "someone")

    def piece(self, ref: str, *, owner: bool = False) -> str:
        """A piece's name; with ``owner``, whose it is ("Bob's Twilight Scout")."""
        name = self.label.get(ref, ref)
        if owner and ref in self.label and ref[:2] in self.names:
            return f"{self.names[ref[:2]]}'s {name}"
        return name

    def pieces(self, refs: Iterable[str], *, owner: bool = False) -> str:
        return listing([self.piece(r, owner=owner) for r in refs])

    def humanize(self, text: str, *, owner: bool = True) -> str:
        """Ids in a sentence written for the log or the rules (a refusal, a warning, a
        desync line) replaced by names: "p1#3" by "Ann's Iron Thug" (by "Iron Thug"
        without ``owner``), "p2" by "Bob". "p1#15 (Noble Dragon)", as rules may write a
        piece, is one name, not two."""
        text = _REF_NAMED.sub(lambda m: self._named(m, owner), text)
        text = _REF.sub(lambda m: self.piece(m.group(0), owner=owner), text)
        return _PLAYER.sub(lambda m: self.player(m.group(0)), text)

    def _named(self, m: re.Match[str], owner: bool) -> str:
        if self.kind.get(m.group(1)) == m.group(2):
            return self.piece(m.group(1), owner=owner)
        return m.group(0)


class _Says(Protocol):
    def action(self, a: Any) -> str: ...
    def humanize(self, text: str) -> str: ...
    def correction(self, body: dict[str, Any]) -> str: ...
    def entry(self, entry: dict[str, Any]) -> dict[str, Any]: ...


def entry_text(words: _Says, entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry for the history pane, with the ``text`` a person reads: the game's
    words for its own entries (its actions, its dice), the table's for the table's
    (undo, corrections, warnings, the camera), so that no game must word them again."""
    if "numbers" in entry:  # a box event's entry (its own kind, "roll", is shown)
        # What the box rolled: public dice show in the action they made, and a number
        # that drew a hidden card would tell which (the log keeps it).
        entry = {k: v for k, v in entry.items() if k != "numbers"}
    if entry.get("kind") == "seat_key":  # its digest stays in the log
        return {**{k: v for k, v in entry.items() if k != "digest"},
                "text": words.humanize(f"a new private page link for {entry.get('seat')}")}
    if entry.get("secret"):  # an action one seat alone may know: the others' words only
        return {**{k: entry[k] for k in ("seq", "time", "kind", "source", "secret")
                   if k in entry}, "text": str(entry.get("public", ""))}
    undone = entry.get("undone")
    if isinstance(undone, dict) and undone.get("secret"):
        return {**{k: v for k, v in entry.items() if k != "undone"},
                "undone": {"secret": undone["secret"], "public": undone.get("public", "")},
                "text": f"undone: {undone.get('public', '')}"}
    out = words.entry(entry)
    if out.get("text"):
        return out
    kind, text = entry.get("kind"), ""
    if kind == "undo":
        undone = entry.get("undone") or {}
        text = "undone: " + (words.action(undone["action"]) if "action" in undone
                             else "correction of " + words.correction(undone))
    elif kind == "correction":
        text = "corrected: " + words.correction(entry)
    elif kind in ("warning", "desync"):
        text = str(entry.get("message") or "; ".join(map(str, entry.get("problems", []))))
    elif kind == "answered":
        text = f"{entry.get('question', '')}: the players said {entry.get('answer', '')}"
    elif kind == "resync":
        text = "the board matches the game again"
    elif kind == "result":
        winner = entry.get("winner")
        points = entry.get("points") or {}
        score = (f" ({points.get('p1')} to {points.get('p2')})"
                 if {"p1", "p2"} <= set(points) else "")
        text = words.humanize("the game is a draw" if winner == "draw" else
                              f"{winner} wins the game" if winner else "the game is over") \
            + score
    elif kind == "board_ok":
        # "cells": what logs written before the neutral key say
        text = "camera overruled in " + " ".join(map(str, entry.get("regions",
                                                                    entry.get("cells", []))))
    return {**out, "text": text}
