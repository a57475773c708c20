"""Diskwars at a live table: the seam's ``Referee`` (``table.system``) over the rules
engine. Its chance (the initiative's and damage's d6, the battle dice) is said once, in
``from_faces``. The command card a player chooses is that player's secret until both
have chosen: chosen on the player's own page, the shared screens say only that a card
was chosen."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from table.errors import CommandRefused
from table.notation import point
from table.observation import Observation
from table.quoting import quote
from table.randomness import Face
from table.stickers import Stickers
from table.system import DiceNeed, Event, Intent, Prompt, Reconciliation, Referee, choice

from .. import engine
from ..actions import D6, Action, Command, Dice, Initiative, parse
from ..game import Game
from ..stack import circle, land
from ..state import CASUALTY, CHOOSE, FIELD, INITIATIVE, RESERVE, State
from .autoplay import next_intent
from .how import HOW_TO_PLAY
from .prompts import dice_needed, prompt_for
from .reconcile import Camera
from .view import view
from .wording import Words


class DiskwarsReferee(Referee):
    how_to_play: ClassVar[Mapping[str, str]] = MappingProxyType(HOW_TO_PLAY)
    correction_fields: ClassVar[tuple[str, ...]] = ("disk", "to")
    correction_places: ClassVar[str] = "a point x,y in map mm, reserve or casualty"
    button_commands: ClassVar[Mapping[str, str]] = MappingProxyType({"undo": "undo"})
    engine = engine
    # A disk flips to any point within its reach: listed are a few (``moves.spots``).
    lists_every_action: ClassVar[bool] = False

    def __init__(self, game: Game, names: Mapping[str, str], stickers: Stickers) -> None:
        self.game = game
        self.words = Words(names, game)
        self.stickers = stickers
        self.camera = Camera(stickers, self.words)

    # -- the rules ------------------------------------------------------------------------
    def new_state(self) -> State:
        return engine.new_state(self.game)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def autoplay(self, state: State, rng: random.Random) -> Intent | None:
        return next_intent(state, rng)

    # -- what the table must do ---------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        return prompt_for(self.words, state)

    def dice_needed(self, state: State) -> tuple[DiceNeed, ...]:
        return dice_needed(state)

    def from_faces(self, state: State, need: DiceNeed, faces: tuple[Face, ...]) -> Action:
        if need.kind == "battle":
            return Dice(need.player, tuple(f.code for f in faces))
        if state.phase == INITIATIVE:
            return Initiative(need.player, int(faces[0].code))
        return D6(need.player, tuple(int(f.code) for f in faces))

    def announcements(self, events: Sequence[Event]) -> list[tuple[str, dict[str, Any]]]:
        # ``points``: each player's score, as every game's game_over says it (the
        # store's standings read it); Diskwars's rules call it the scores.
        return [("game_over", {**e.data, "points": dict(e.data.get("scores") or {})})
                for e in events if e.kind == "game_over"]

    # -- hidden information: the command card chosen face down ---------------------------
    def secret(self, state: State, action: Action) -> tuple[str, str] | None:
        if isinstance(action, Command):
            return action.player, f"{self.words.player(action.player)} chose a command card"
        return None

    def private(self, state: State, seat: str) -> dict[str, Any] | None:
        side = state.sides[seat]
        cat = self.game.catalog
        hand = [{"code": cat.commands[c].code, "label": _card_label(cat.commands[c])}
                for c in side.hand]
        out: dict[str, Any] = {"hand": hand, "choices": []}
        if state.phase == CHOOSE and side.hand and side.chosen is None:
            out["text"] = "Choose your command card: the other player sees only that you chose"
            # Each card in hand is a button: the hand is not listed twice.
            out["hand"] = []
            out["choices"] = [choice(Command(seat, cat.commands[c].code),
                                     f"Play {_card_label(cat.commands[c])}")
                              for c in side.hand]
        elif side.chosen is not None:
            out["text"] = f"You chose {side.chosen}: waiting for the other player"
        else:
            out["text"] = f"Your command cards: {len(hand)} in hand"
        return out

    # -- the camera -----------------------------------------------------------------------
    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        return self.camera.reconcile(state, obs)

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        return self.camera.diagnose(state, obs)

    def played(self, before: State, after: State, action: Any, source: str = "") -> None:
        self.camera.played(before, after)

    def settle(self, verdict: Reconciliation) -> None:
        self.camera.settle(verdict)

    # -- corrections and views --------------------------------------------------------------
    def correct(self, state: State, body: dict[str, Any]) -> State:
        """A disk put where it lies (``to``: a point, ``reserve`` or ``casualty``),
        outside the rules: a knocked disk, a flip the camera missed."""
        ref, to = body.get("disk"), body.get("to")
        if not isinstance(ref, str) or ref not in state.disks:
            raise CommandRefused(f"disk: one of {', '.join(sorted(state.disks))}, "
                                 f"not {quote(ref)}")
        new = state.clone()
        d = new.disks[ref]
        if to in (RESERVE, CASUALTY):
            d.place, d.activated = str(to), False
            return new
        if not isinstance(to, str):
            raise CommandRefused(f"to: {self.correction_places}, not {quote(to)}")
        try:
            x, y = point(to)
        except ValueError as e:
            raise CommandRefused(f"to: {e}") from None
        d.place = FIELD
        d.x, d.y = x, y
        if not self.game.holds(circle(new, d)):
            raise CommandRefused(f"to: {to} is not on the battlefield")
        land(new, d, x, y)
        return new

    def view(self, state: State) -> dict[str, Any]:
        return view(state, self.words)


def _card_label(card: Any) -> str:
    return f"{card.name} ({card.strategy}, {card.activations} activations)"
