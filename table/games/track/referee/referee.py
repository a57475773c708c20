"""Track at a live table: the seam's ``Referee`` (``table.system``) over the rules
engine. Its chance (the die, the luck deck) is said once, in ``from_faces``: the seam
derives the box's rolls, the dice and cards typed in, and random playouts from it. The
prompts, the camera, the drawing and the scripted players sit beside it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, ClassVar

from table.errors import CommandRefused
from table.observation import Observation
from table.quoting import quote
from table.randomness import Face
from table.stickers import Stickers
from table.system import (
    DiceNeed,
    Event,
    Intent,
    Prompt,
    Reconciliation,
    Referee,
    choice,
)

from .. import engine
from ..actions import Action, Drew, Luck, RollDie, parse
from ..state import SPACES, State
from .autoplay import next_intent
from .how import HOW_TO_PLAY
from .prompts import dice_needed, prompt_for
from .reconcile import Camera
from .view import view
from .wording import Words


class TrackReferee(Referee):
    how_to_play: ClassVar[Mapping[str, str]] = MappingProxyType(HOW_TO_PLAY)
    correction_fields: ClassVar[tuple[str, ...]] = ("pawn", "to")
    correction_places: ClassVar[str] = "a space s0 to s5, or off"
    button_commands: ClassVar[Mapping[str, str]] = MappingProxyType({"undo": "undo"})
    engine = engine
    # A pawn grazes at any point of a circle: listed are a few (``meadow.spots``).
    lists_every_action: ClassVar[bool] = False
    seat_commands: ClassVar[tuple[str, ...]] = ("card",)  # a luck card drawn by hand

    def __init__(self, pawns: Mapping[str, int], names: Mapping[str, str],
                 stickers: Stickers) -> None:
        self.pawns = dict(pawns)
        self.words = Words(names)
        self.stickers = stickers
        self.camera = Camera(stickers, self.words)

    # -- the rules ------------------------------------------------------------------------
    def new_state(self) -> State:
        return engine.new_state(self.pawns)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def legal_actions(self, state: State) -> list[Action]:
        # Before a roll the die decides (``chance``); the players choose only a move.
        return [] if state.roll is None else engine.legal_actions(state)

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def autoplay(self, state: State, rng: random.Random) -> Intent | None:
        return next_intent(state, rng)

    # -- what the table must do ---------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        return prompt_for(self.words, state)

    def dice_needed(self, state: State) -> tuple[DiceNeed, ...]:
        return dice_needed(state)

    # -- hidden information: the luck card in a hand ----------------------------------
    def secret(self, state: State, action: Action) -> tuple[str, str] | None:
        if isinstance(action, Drew):
            return action.player, f"{self.words.player(action.player)} draws a luck card"
        return None

    def private(self, state: State, seat: str) -> dict[str, Any] | None:
        if state.luck is None:
            return None
        code = state.hand(seat)
        out: dict[str, Any] = {
            "text": f"Your luck card: {self.words.card(code)}" if code else
            "You hold no luck card: draw one instead of moving on a roll of 1",
            "hand": [{"code": code, "label": f"luck {self.words.card(code)}"}] if code else [],
            "choices": [choice(a, f"Play your luck card ({self.words.card(code or '')})")
                        for a in self.legal_actions(state)
                        if isinstance(a, Luck) and a.player == seat]}
        need = next((d for d in dice_needed(state)
                     if d.private and d.player == seat), None)
        if need is not None and need.die is not None:
            # Entered here only: the shared screen offers no faces for a hidden draw.
            out["dice"] = {**need.to_dict(), "faces": [f.to_dict() for f in need.die.distinct()]}
        return out

    # -- chance, said once: the die and the luck deck ------------------------------------
    def from_faces(self, state: State, need: DiceNeed, faces: tuple[Face, ...]) -> Action:
        """A luck card drawn (the deck's face is the card), or the die's number. The
        box's rolls, dice and cards typed in (``die``, ``card``) and random playouts all
        come here through the seam (``dice_needed`` says which is awaited)."""
        if need.kind == "luck":
            return Drew(need.player, faces[0].code)
        return RollDie(need.player, int(faces[0].code))

    def announcements(self, events: Sequence[Event]) -> list[tuple[str, dict[str, Any]]]:
        return [("game_over", dict(e.data)) for e in events if e.kind == "game_over"]

    # -- the camera -----------------------------------------------------------------------
    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        return self.camera.reconcile(state, obs)

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        return self.camera.diagnose(state, obs)

    # -- corrections and views --------------------------------------------------------------
    def correct(self, state: State, body: dict[str, Any]) -> State:
        pawn, to = body.get("pawn"), body.get("to")
        if pawn not in state.pawns:
            raise CommandRefused(f"pawn: one of {', '.join(state.pawns)}, not {quote(pawn)}")
        if to not in (*SPACES, "off"):
            raise CommandRefused(f"to: a space s0-s5 or off, not {quote(to)}")
        i = state.pawns.index(pawn)
        where, spots = list(state.where), list(state.spots or (None,) * len(state.pawns))
        where[i], spots[i] = None if to == "off" else to, None
        return replace(state, where=tuple(where), spots=tuple(spots))

    def view(self, state: State) -> dict[str, Any]:
        return view(state, self.words.names)
