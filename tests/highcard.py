"""High Card: the smallest game that draws from a shuffled deck through the table box
(a test game: the example of a deck at the table).

A 54-card deck (52 cards and two jokers) lies between the players. In turn each draws
one card and scores its rank (2-10, jack 11, queen 12, king 13, ace 14); the card goes
to the discard pile. A joker scores nothing and shuffles the discard pile back into the
deck. After ``ROUNDS`` draws each, the higher score wins.

A draw is randomness the table supplies: the box rolls a die with as many sides as
cards are left and ``Deck.draw`` takes the card at that place among them, so the deck's
whole state is in the log (``table.randomness``): a box reboot or a host crash loses
nothing. A card drawn by hand is typed in instead (``{"do": "draw", "card": "QH"}``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar

from table.device import DeviceEvent
from table.drawing import Board, Region, frame_of, rectangle
from table.errors import ActionRefused, CommandRefused, NotationError
from table.maps import free_area, layout_document
from table.observation import Observation
from table.quoting import quote
from table.randomness import Card, Deck, DeckError, numbered
from table.system import (
    DiceNeed,
    Event,
    GameSystem,
    Out,
    Prompt,
    Reconciliation,
    Referee,
    Table,
    check_player,
)

ROUNDS = 12
RANKS = {**{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14}
CARDS = (*(Card(f"{r}{s}", f"{r}{s}") for s in "SHDC" for r in RANKS),
         Card("X1", "joker"), Card("X2", "joker"))


def value(code: str) -> int:
    return 0 if code.startswith("X") else RANKS[code[:-1]]


@dataclass(frozen=True)
class Draw:
    player: str
    card: str

    def __str__(self) -> str:
        return f"{self.player} draw {self.card}"


def parse(text: object) -> Draw:
    t = text.split() if isinstance(text, str) else []
    if len(t) == 3 and t[0] in ("p1", "p2") and t[1] == "draw" and t[2] in {c.code
                                                                             for c in CARDS}:
        return Draw(t[0], t[2])
    raise NotationError(f"not a High Card action: {quote(text)}")


@dataclass(frozen=True)
class State:
    deck: Deck
    score: tuple[int, int] = (0, 0)
    draws: int = 0
    active: str = "p1"
    winner: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"deck": self.deck.to_dict(), "score": list(self.score), "draws": self.draws,
                "active": self.active, "winner": self.winner}


def play(s: State, a: Draw) -> tuple[State, list[Event]]:
    if s.winner:
        raise ActionRefused(f"{a}: the game is over")
    if a.player != s.active:
        raise ActionRefused(f"{a}: {s.active} draws now")
    try:
        deck = s.deck.take(a.card).to_discard(a.card)
    except DeckError as e:
        raise ActionRefused(f"{a}: {e}") from None
    events = [Event("drew", {"player": a.player, "card": a.card})]
    if value(a.card) == 0:
        deck = deck.reshuffle()
        events.append(Event("reshuffled", {"left": deck.left}))
    i = 0 if a.player == "p1" else 1
    score = list(s.score)
    score[i] += value(a.card)
    new = replace(s, deck=deck, score=(score[0], score[1]), draws=s.draws + 1,
                  active="p2" if a.player == "p1" else "p1")
    if new.draws == 2 * ROUNDS:
        win = "p1" if score[0] > score[1] else "p2" if score[1] > score[0] else None
        new = replace(new, winner=win or "draw")
        events.append(Event("game_over", {"winner": new.winner}))
    return new, events


class Words:
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = dict(names)

    def action(self, a: Any) -> str:
        a = parse(a) if isinstance(a, str) else a
        return f"{self.names.get(a.player, a.player)} drew {a.card}"

    def humanize(self, text: str) -> str:
        return text

    def entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        return dict(entry)

    def correction(self, body: dict[str, Any]) -> str:
        return "no corrections"

    def event(self, e: Mapping[str, Any]) -> str | None:
        return None


class HighCardReferee(Referee):
    how_to_play = MappingProxyType({
        "draw": "Draw a card from the shared deck with the box's roll button: its rank "
                "is your score, and after the last round the higher total wins.",
        "game_over": "The game is over. Staff start the next one from the Setup tab.",
    })

    def __init__(self, names: Mapping[str, str]) -> None:
        self.words = Words(names)

    def new_state(self) -> State:
        return State(Deck.new("deck", CARDS))

    def apply(self, state: State, action: Draw) -> tuple[State, list[Event]]:
        return play(state, action)

    def parse_action(self, text: str) -> Draw:
        return parse(text)

    def state_dict(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def legal_actions(self, state: State) -> list[Draw]:
        return []  # every draw is the table's randomness

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def chance(self, state: State, rng: random.Random) -> Draw | None:
        if state.winner:
            return None
        return Draw(state.active, state.deck.draw(rng.randint(1, state.deck.left))[1].code)

    def dice_needed(self, state: State) -> tuple[DiceNeed, ...]:
        if state.winner:
            return ()
        left = state.deck.left
        return (DiceNeed(state.active, "deck", 1, numbered(left, "deck", f"{left}-card deck"),
                         "draw", label="a card from the deck"),)

    def prompt(self, state: State) -> Prompt:
        if state.winner:
            return Prompt("game_over", None, f"{state.winner} wins")
        who = self.words.names.get(state.active, state.active)
        return Prompt("draw", state.active, f"{who}: draw a card ({state.deck.left} left)",
                      dice=self.dice_needed(state))

    def commands(self) -> dict[str, Any]:
        return {"draw": self._cmd_draw}

    def _cmd_draw(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        """A card drawn by hand, typed in: ``{"do": "draw", "player": "p1", "card": "QH"}``."""
        player = check_player(cmd.get("player"))
        try:
            t.play(Draw(player, str(cmd.get("card"))[:8]), source, out)
        except ActionRefused as e:
            raise CommandRefused(str(e)) from None
        t.after_change(out)

    def device(self, t: Table, ev: DeviceEvent, out: Out) -> None:
        s: State = t.state
        if ev.kind != "roll" or not ev.player or s.winner:
            return
        if ev.sides != s.deck.left or ev.player != s.active:
            t.warn(out, f"a roll of d{ev.sides} by {ev.player} is not this draw "
                   f"(d{s.deck.left} by {s.active}): roll again")
            return
        _, card = s.deck.draw(ev.numbers[0])
        t.play(Draw(ev.player, card.code), "box", out)
        t.after_change(out)

    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        return Reconciliation(True)  # nothing stands on the map

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        return []

    def correct(self, state: State, body: dict[str, Any]) -> State:
        raise CommandRefused("High Card has no corrections")

    def announcements(self, events: Sequence[Event]) -> list[tuple[str, dict[str, Any]]]:
        return [("game_over", dict(e.data)) for e in events if e.kind == "game_over"]

    def view(self, state: State) -> dict[str, Any]:
        table = (Region("table", rectangle(0, 0, 200, 200), "the table"),)
        return {"board": Board(frame_of(table), table, ()).to_dict(), "state": state.to_dict(),
                "score": {"title": "High Card",
                          "players": {p: {"value": state.score[i], "label": "points"}
                                      for i, p in enumerate(("p1", "p2"))},
                          "lines": [f"{state.deck.left} cards in the deck"],
                          "winner": state.winner if state.winner != "draw" else None}}


class HighCard(GameSystem):
    name: ClassVar[str] = "highcard"
    title: ClassVar[str] = "High Card (a test game)"
    rules_version: ClassVar[str] = "highcard/1"

    def referee(self, setup: Any, catalog: Any | None = None) -> HighCardReferee:
        return HighCardReferee(setup.names)

    def sample_forces(self) -> dict[str, list[str]]:
        return {"p1": ["Player"], "p2": ["Player"]}

    def catalog(self) -> list[dict[str, Any]]:
        return [{"name": "Player", "cost": 0, "kind": "player"}]

    def layout(self) -> dict[str, Any]:
        return layout_document("highcard", "highcard", [free_area(200.0, 200.0, "table")],
                               (25.0, 32.0), {"p1": "#F0780A", "p2": "#1A78E0"})


SYSTEM = HighCard()
