"""Track at a live table: the seam's ``Referee`` (``table.system``) over the rules
engine, with the game's one command (``die``: a roll typed in) and the box's roll
button; the prompts, the camera, the drawing and the scripted players sit beside it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any, ClassVar

from table.device import DeviceEvent
from table.errors import ActionRefused, CommandRefused
from table.observation import Observation
from table.quoting import quote
from table.stickers import Stickers
from table.system import (
    Command,
    DiceNeed,
    Event,
    Intent,
    Out,
    Prompt,
    Reconciliation,
    Referee,
    Table,
    check_player,
    choice,
    typed_roll,
)

from .. import engine
from ..actions import Action, Drew, Luck, RollDie, parse
from ..dice import D6
from ..state import SPACES, State
from .autoplay import next_intent
from .prompts import dice_needed, prompt_for
from .reconcile import Camera
from .view import view
from .wording import Words


class TrackReferee(Referee):
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

    def commands(self) -> dict[str, Command]:
        return {"die": self._cmd_die, "card": self._cmd_card}

    def _cmd_card(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        """``{"do": "card", "player": "p1", "faces": ["L2a"]}``: the luck card a player
        drew by hand from the physical deck, entered on their own page."""
        player = check_player(cmd.get("player"))
        state: State = t.state
        need = next((d for d in dice_needed(state) if d.kind == "luck"), None)
        if need is None or need.die is None or need.player != player:
            raise CommandRefused(f"{self.words.player(player)} draws no luck card now")
        t.play(Drew(player, typed_roll(need.die, cmd, 1)[0].code), source, out)
        t.after_change(out)

    def _cmd_die(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        """``{"do": "die", "player": "p1", "die": 4}``, or ``"faces": ["4"]`` as a
        screen's dice card sends it."""
        player = check_player(cmd.get("player"))
        t.play(RollDie(player, int(typed_roll(D6, cmd, 1)[0].code)), source, out)
        t.after_change(out)

    def device(self, t: Table, ev: DeviceEvent, out: Out) -> None:
        state: State = t.state
        luck = next((d for d in dice_needed(state) if d.kind == "luck"), None)
        if ev.kind == "roll" and luck is not None and luck.die is not None and ev.player:
            # The box rolled a die of as many sides as cards are left: that card.
            if ev.sides != luck.die.sides or ev.player != luck.player:
                t.warn(out, f"a roll of d{ev.sides} is not this draw (a luck card for "
                       f"{self.words.player(luck.player)}, {luck.die.sides} left): roll again")
                return
            t.play(Drew(ev.player, luck.die.face(ev.numbers[0]).code), "box", out)
            t.after_change(out)
            return
        if ev.kind == "roll" and ev.sides == D6.sides and ev.player:
            try:
                t.play(RollDie(ev.player, int(D6.face(ev.numbers[0]).code)), "box", out)
            except ActionRefused as e:
                t.warn(out, f"roll not used: {e}")
            t.after_change(out)

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
