"""Track: the smallest complete game on the seam (``table.system``), used only by tests
and by ``docs/games.md`` as the example to follow.

Each player has pawns that start off the track and race along six spaces, ``s0`` to
``s5``. On a turn the active player rolls one six-sided die, then either enters a pawn
on ``s0`` (a roll of 6 only) or moves one of their pawns on the track that many spaces
(a pawn that would pass ``s5`` stops there). A pawn on ``s5`` is home. The first player
with every pawn home wins. A roll that allows nothing passes the turn.

Registered as ``track`` through a ``tablesight.games`` entry point that the tests make
(a real one: an installed distribution's metadata on ``sys.path``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar

from table.device import DeviceEvent
from table.drawing import Board, Piece, Region, Zone, frame_of
from table.maps import hex_grid, layout_document
from table.observation import Observation
from table.quoting import quote
from table.randomness import FaceError, numbered, read_faces
from table.stickers import Stickers
from table.system import (
    ActionRefused,
    CommandRefused,
    DiceNeed,
    Event,
    Explanation,
    GameSystem,
    Intent,
    NotationError,
    Out,
    Prompt,
    Reconciliation,
    Referee,
    SetupRefused,
    Table,
    check_player,
)

SPACES = tuple(f"s{i}" for i in range(6))
HOME = SPACES[-1]
PLAYERS = ("p1", "p2")
D6 = numbered(6)
# The printed track: six hexes 100 mm across (a zig-zag row: odd ones half a hex lower),
# room for five pawns on one space, markers all round.
LAYOUT = layout_document("track", "track",
                         hex_grid(6, 1, 100.0, name=lambda c, r: SPACES[c]),
                         (25.0, 25.0), {"p1": "#F0780A", "p2": "#1A78E0"})


# -- actions: value objects with a string form --------------------------------------------
@dataclass(frozen=True)
class RollDie:
    player: str
    die: int

    def __str__(self) -> str:
        return f"{self.player} roll {self.die}"


@dataclass(frozen=True)
class Advance:
    player: str
    pawn: str  # "p1#0"
    to: str  # a space

    def __str__(self) -> str:
        return f"{self.player} advance {self.pawn} {self.to}"


@dataclass(frozen=True)
class Pass:
    player: str

    def __str__(self) -> str:
        return f"{self.player} pass"


Action = RollDie | Advance | Pass


def parse(text: object) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action is text, not {quote(text)}")
    t = text.split()
    if len(t) == 3 and t[1] == "roll" and t[0] in PLAYERS and t[2] in "123456" \
            and len(t[2]) == 1:
        return RollDie(t[0], int(t[2]))
    if len(t) == 4 and t[1] == "advance" and t[0] in PLAYERS:
        return Advance(t[0], t[2], t[3])
    if len(t) == 2 and t[1] == "pass" and t[0] in PLAYERS:
        return Pass(t[0])
    raise NotationError(f"not a track action: {quote(text)}")


# -- state: a value --------------------------------------------------------------------------
@dataclass(frozen=True)
class State:
    pawns: tuple[str, ...]  # refs, p1's first
    where: tuple[str | None, ...]  # per pawn: a space, or None (off the track)
    active: str = "p1"
    roll: int | None = None  # rolled, not yet used
    winner: str | None = None

    def at(self, ref: str) -> str | None:
        return self.where[self.pawns.index(ref)]

    def to_dict(self) -> dict[str, Any]:
        return {"active": self.active, "roll": self.roll, "winner": self.winner,
                "where": dict(zip(self.pawns, self.where, strict=True))}


def legal(s: State) -> list[Action]:
    """In a stable order."""
    if s.winner:
        return []
    p = s.active
    if s.roll is None:
        return [RollDie(p, d) for d in range(1, 7)]
    out: list[Action] = []
    for ref, at in zip(s.pawns, s.where, strict=True):
        if not ref.startswith(p):
            continue
        if at is None and s.roll == 6:
            out.append(Advance(p, ref, SPACES[0]))
        elif at is not None and at != HOME:
            out.append(Advance(p, ref, SPACES[min(5, SPACES.index(at) + s.roll)]))
    return out or [Pass(p)]


def play(s: State, a: Action) -> tuple[State, list[Event]]:
    if a not in legal(s):
        raise ActionRefused(f"{a} is not allowed now (legal: "
                            + ", ".join(str(x) for x in legal(s)[:6]) + ")")
    if isinstance(a, RollDie):
        return replace(s, roll=a.die), [Event("rolled", {"player": a.player, "die": a.die})]
    nxt = "p2" if s.active == "p1" else "p1"
    if isinstance(a, Pass):
        return replace(s, roll=None, active=nxt), [Event("passed", {"player": a.player})]
    where = list(s.where)
    where[s.pawns.index(a.pawn)] = a.to
    new = replace(s, where=tuple(where), roll=None, active=nxt)
    events = [Event("advanced", {"pawn": a.pawn, "to": a.to})]
    mine = [w for r, w in zip(new.pawns, new.where, strict=True) if r.startswith(a.player)]
    if all(w == HOME for w in mine):
        new = replace(new, winner=a.player)
        events.append(Event("game_over", {"winner": a.player}))
    return new, events


# -- the table side ---------------------------------------------------------------------------
class Words:
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = dict(names)

    def action(self, a: Any) -> str:
        a = parse(a) if isinstance(a, str) else a
        who = self.names.get(a.player, a.player)
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


class TrackReferee(Referee):
    correction_fields: ClassVar[tuple[str, ...]] = ("pawn", "to")
    button_commands: ClassVar[Mapping[str, str]] = MappingProxyType({"undo": "undo"})

    def __init__(self, forces: Mapping[str, Sequence[str]], names: Mapping[str, str],
                 stickers: Stickers) -> None:
        self.pawns = tuple(f"{p}#{i}" for p in PLAYERS for i in range(len(forces[p])))
        self.words = Words(names)
        self.stickers = stickers

    def new_state(self) -> State:
        return State(self.pawns, (None,) * len(self.pawns))

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return play(state, action)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def state_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def legal_actions(self, state: State) -> list[Action]:
        return [] if state.roll is None else legal(state)  # before a roll the die decides

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def autoplay(self, state: State, rng: random.Random) -> Intent | None:
        """Scripted players: roll on the box, then a random legal move made by hand
        (a pawn put on its new space), or a pass typed on the dashboard."""
        if state.winner:
            return None
        if state.roll is None:
            return Intent("roll", state.active, dice=self.dice_needed(state)[0])
        a = rng.choice(legal(state))
        if isinstance(a, Advance):
            return Intent("board", a.player, a, moves=((a.pawn, a.to),))
        return Intent("type", a.player, a)

    def chance(self, state: State, rng: random.Random) -> Action | None:
        if state.winner or state.roll is not None:
            return None
        return RollDie(state.active, int(D6.face(rng.randint(1, D6.sides)).code))

    def prompt(self, state: State) -> Prompt:
        who = self.words.names.get(state.active, state.active)
        if state.winner:
            return Prompt("over", None, f"{self.words.names[state.winner]} wins")
        if state.roll is None:
            return Prompt("roll", state.active, f"{who}: roll the die",
                          dice=self.dice_needed(state))
        opts = legal(state)
        return Prompt("move", state.active, f"{who}: move a pawn {state.roll}",
                      options=tuple(str(a) for a in opts),
                      choices=tuple({"action": str(a), "label": self.words.action(a),
                                     "cells": [a.to] if isinstance(a, Advance) else [],
                                     "minis": [a.pawn] if isinstance(a, Advance) else []}
                                    for a in opts))

    def dice_needed(self, state: State) -> tuple[DiceNeed, ...]:
        if state.winner or state.roll is not None:
            return ()
        return (DiceNeed(state.active, "d6", 1, D6, "die"),)

    def commands(self) -> dict[str, Any]:
        return {"die": self._cmd_die}

    def _cmd_die(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        """``{"do": "die", "player": "p1", "die": 4}``, or ``"faces": ["4"]`` as a
        screen's dice card sends it."""
        player = check_player(cmd.get("player"))
        if "faces" in cmd:
            try:
                die = int(read_faces(D6, cmd["faces"], 1)[0].code)
            except FaceError as e:
                raise CommandRefused(str(e)) from None
        else:
            die = cmd.get("die")
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise CommandRefused("die: 1 to 6")
        t.play(RollDie(player, die), source, out)
        t.after_change(out)

    def device(self, t: Table, ev: DeviceEvent, out: Out) -> None:
        if ev.kind == "roll" and ev.sides == D6.sides and ev.player:
            try:
                t.play(RollDie(ev.player, int(D6.face(ev.numbers[0]).code)), "box", out)
            except ActionRefused as e:
                t.warn(out, f"roll not used: {e}")
            t.after_change(out)

    def announcements(self, events: Sequence[Event]) -> list[tuple[str, dict[str, Any]]]:
        return [("game_over", dict(e.data)) for e in events if e.kind == "game_over"]

    # -- the camera: pawns seen per space; one move explains a change ----------------------
    def _seen(self, obs: Observation) -> dict[str, str | None]:
        where: dict[str, str | None] = dict.fromkeys(self.pawns)
        for space in SPACES:
            for b in obs.regions.get(space, ()):
                ref = self.stickers.ref_of.get(b.sticker) if b.sticker is not None else None
                if ref in where:
                    where[ref] = space
        return where

    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        seen = self._seen(obs)
        now = dict(zip(state.pawns, state.where, strict=True))
        if seen == now:
            return Reconciliation(True)
        found = []
        for a in legal(state):
            if isinstance(a, Advance):
                new, _ = play(state, a)
                if dict(zip(new.pawns, new.where, strict=True)) == seen:
                    found.append(Explanation((a,), new))
        return Reconciliation(False, found)

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        seen = self._seen(obs)
        return [f"put {ref} {'on ' + at if at else 'off the track'}"
                for ref, at in zip(state.pawns, state.where, strict=True) if seen[ref] != at]

    def correct(self, state: State, body: dict[str, Any]) -> State:
        pawn, to = body.get("pawn"), body.get("to")
        if pawn not in state.pawns:
            raise CommandRefused(f"pawn: one of {', '.join(state.pawns)}, not {quote(pawn)}")
        if to not in (*SPACES, "off"):
            raise CommandRefused(f"to: a space s0-s5 or off, not {quote(to)}")
        where = list(state.where)
        where[state.pawns.index(pawn)] = None if to == "off" else to
        return replace(state, where=tuple(where))

    def view(self, state: State) -> dict[str, Any]:
        """The track as its printed hexes, the pawns on it or waiting."""
        regions = tuple(Region(r["name"], tuple((x, y) for x, y in r["polygon"]), r["name"],
                               fill="#2e5e2e" if r["name"] == HOME else None)
                        for r in LAYOUT["regions"])
        pieces = tuple(Piece(r, r[:2], f"pawn {r[3:]}", region=w,
                             zone=None if w else "waiting")
                       for r, w in zip(state.pawns, state.where, strict=True))
        board = Board(frame_of(regions, 4), regions, pieces, (Zone("waiting", "waiting"),))
        home = {p: sum(1 for r, w in zip(state.pawns, state.where, strict=True)
                       if w == HOME and r[:2] == p) for p in PLAYERS}
        return {"board": board.to_dict(), "state": state.to_dict(),
                "score": {"title": "Pawns home",
                          "players": {p: {"value": home[p], "label": "home",
                                          "of": sum(1 for r in state.pawns if r[:2] == p)}
                                      for p in PLAYERS},
                          "lines": [], "winner": state.winner}}


class Track(GameSystem):
    name: ClassVar[str] = "track"
    title: ClassVar[str] = "Track (a test game)"
    rules_version: ClassVar[str] = "track/1"

    def referee(self, setup: Any, catalog: Any | None = None) -> TrackReferee:
        for p in PLAYERS:
            if any(n != "Pawn" for n in setup.warbands[p]) or len(setup.warbands[p]) > 4:
                raise SetupRefused(f"warbands.{p}: one to four 'Pawn'")
        return TrackReferee(setup.warbands, setup.names, setup.sticker_map())

    def sample_forces(self) -> dict[str, list[str]]:
        return {"p1": ["Pawn", "Pawn"], "p2": ["Pawn", "Pawn"]}

    def catalog(self) -> list[dict[str, Any]]:
        return [{"name": "Pawn", "cost": 0, "kind": "pawn"}]

    def layout(self) -> dict[str, Any]:
        return LAYOUT


SYSTEM = Track()
