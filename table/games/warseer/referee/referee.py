"""Warseer at a live table: the seam's ``Referee`` (``table.system``) over the rules
engine. The camera side is ``reconcile.py``, the drawing ``view.py``, the prompts
``prompts.py`` and the scripted players ``autoplay.py``.

Dice: an attack's box holds dice of up to three colours, all six-sided, each with its
own face table. The table is asked for one colour at a time (``dice_needed``): the box
is armed for that many six-sided dice and its numbers read through that colour's face
table, or a person enters the faces; when every die of the roll is in, the roll is
played. A part of a roll already in is written to the log, so a restart keeps it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from table.device import DeviceEvent
from table.errors import ActionRefused, CommandRefused
from table.observation import Observation
from table.quoting import quote
from table.randomness import FaceError, read_faces
from table.stickers import Stickers
from table.system import DiceNeed, Intent, Out, Prompt, Reconciliation, Referee, Table, check_player

from .. import attack as atk
from .. import engine
from ..actions import Action, Roll, parse
from ..damage import Event, victory_points
from ..game import Game
from ..state import CAMP, FIELD, OVER, State
from .autoplay import next_intent
from .how import HOW_TO_PLAY
from .prompts import prompt_for
from .reconcile import Camera
from .view import view
from .wording import Words


class WarseerReferee(Referee):
    how_to_play: ClassVar[Mapping[str, str]] = MappingProxyType(HOW_TO_PLAY)
    correction_fields: ClassVar[tuple[str, ...]] = ("unit", "to")
    correction_places: ClassVar[str] = "a hex like e5, or off"
    # The box's Ready button does what the dashboard's does: the prompt's proposal (the
    # opening's steps, the end of a turn).
    button_commands: ClassVar[Mapping[str, str]] = MappingProxyType({"ready": "ready"})
    engine = engine

    def __init__(self, game: Game, names: Mapping[str, str], stickers: Stickers) -> None:
        self.game = game
        self.words = Words(game, names)
        self.stickers = stickers
        self.camera = Camera(game, stickers)
        self.partial: list[str] = []  # faces of the roll under way already in
        self.partial_key: tuple[Any, ...] | None = None

    # -- the rules --------------------------------------------------------------------------
    def new_state(self) -> State:
        return engine.new_state(self.game)

    def parse_action(self, text: str) -> Action:
        return parse(text)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def autoplay(self, state: State, rng: random.Random) -> Intent | None:
        return next_intent(self, state, rng)

    # -- dice, one colour at a time --------------------------------------------------------
    @staticmethod
    def _roll_key(state: State) -> tuple[Any, ...] | None:
        at = state.attack
        if at is None or atk.dice_wanted(state) is None:
            return None
        return (state.turn, at.attacker, at.defender, at.step, at.reroll, len(at.extra),
                at.counter)

    def pending(self, state: State) -> list[str]:
        """Faces of the roll under way that are already in."""
        return self.partial if self.partial_key == self._roll_key(state) else []

    def dice_needed(self, state: State) -> tuple[DiceNeed, ...]:
        wanted = atk.dice_wanted(state)
        if wanted is None:
            return ()
        who, colours = wanted
        rest = colours[len(self.pending(state)):]
        if not rest:
            return ()
        colour = rest[0]
        n = 1
        while n < len(rest) and rest[n] == colour:
            n += 1
        return (DiceNeed(who, colour, n, self.game.catalog.dice[colour], "dice"),)

    def _take_faces(self, t: Table, player: str, faces: Sequence[str], source: str,
                    out: Out) -> None:
        state = t.state
        key = self._roll_key(state)
        pending = list(self.pending(state)) + list(faces)
        wanted = atk.dice_wanted(state)
        assert wanted is not None
        if len(pending) < len(wanted[1]):
            self.partial, self.partial_key = pending, key
            t.note("dice", {"player": player, "faces": pending, "key": list(map(str, key or ()))},
                   source)
            t.prompt_changed(out)
            return
        self.partial, self.partial_key = [], None
        try:
            t.play(Roll(wanted[0], tuple(pending)), source, out)
        except ActionRefused as e:
            t.warn(out, f"roll not used: {e}")
        t.after_change(out)

    def commands(self) -> dict[str, Any]:
        return {"dice": self._cmd_dice}

    def _cmd_dice(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        """``{"do": "dice", "player": "p1", "faces": ["S", "sword and push"]}``: the dice
        the table is asked for now, by face code or label."""
        player = check_player(cmd.get("player"))
        need = self.dice_needed(t.state)
        if not need:
            raise CommandRefused("no dice are needed now")
        if player != need[0].player:
            raise CommandRefused(f"{self.words.player(need[0].player)} rolls these dice")
        die = need[0].die
        assert die is not None
        try:
            faces = read_faces(die, cmd.get("faces"), need[0].n)
        except FaceError as e:
            raise CommandRefused(str(e)) from None
        if len(faces) != need[0].n:
            raise CommandRefused(f"enter all {need[0].n} {die.label_for(need[0].n)}, "
                                 f"not {len(faces)}")
        self._take_faces(t, player, [f.code for f in faces], source, out)

    def device(self, t: Table, ev: DeviceEvent, out: Out) -> None:
        if ev.kind != "roll" or not ev.player:
            return
        need = self.dice_needed(t.state)
        if not need or need[0].player != ev.player:
            t.warn(out, f"a roll from {self.words.player(ev.player)}'s button was not asked "
                   "for: set aside")
            return
        die = need[0].die
        assert die is not None
        if ev.sides != die.sides:
            t.warn(out, f"the box rolled d{ev.sides}, not the {die.label}: roll again")
            return
        numbers = list(ev.numbers)[:need[0].n]
        try:
            faces = [die.face(n).code for n in numbers]
        except FaceError as e:
            t.warn(out, f"roll not used: {e}")
            return
        self._take_faces(t, ev.player, faces, "box", out)

    def resume_input(self, state: State, entry: dict[str, Any]) -> None:
        key = self._roll_key(state)
        faces = entry.get("faces")
        if entry.get("kind") == "dice" and key is not None and isinstance(faces, list) \
                and entry.get("key") == list(map(str, key)) \
                and all(isinstance(f, str) for f in faces):
            self.partial, self.partial_key = list(faces), key

    def forget_inputs(self) -> None:
        self.partial, self.partial_key = [], None

    # -- what the table is told ----------------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        self._name_minions(state)
        return prompt_for(self, state)

    def _name_minions(self, state: State) -> None:
        """Minions summoned in play get their screen names ("Wisp 2"), also those a
        resumed or replayed game summoned before (replays do not call ``played``)."""
        for ref, u in state.units.items():
            if ref not in self.words.label:
                self.words.join(ref, u.name)

    def played(self, before: State, after: State, action: Any, source: str = "") -> None:
        self._name_minions(after)
        self.camera.played(before, after, seen_by_camera=source == "camera", action=action)

    def corrected(self, before: State, after: State, body: dict[str, Any]) -> None:
        self.camera.played(before, after)

    def announcements(self, events: Sequence[Event]) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        for e in events:
            if e.kind in ("hall_of_fame", "feat"):
                out.append(("score", dict(e.data)))
            elif e.kind == "game_over":
                out.append(("game_over", dict(e.data)))
        return out

    def view(self, state: State) -> dict[str, Any]:
        self._name_minions(state)
        return view(self, state)

    def points(self, state: State, player: str) -> int:
        return victory_points(self.game, state, player)

    # -- the camera ------------------------------------------------------------------------------
    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        return self.camera.reconcile(state, obs)

    def fits(self, state: State, obs: Observation) -> bool:
        return self.camera.fits(state, obs)

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        return self.camera.diagnose(state, obs)

    def settle(self, verdict: Reconciliation) -> None:
        self.camera.settle(verdict)

    # -- corrections -------------------------------------------------------------------------------
    def correct(self, state: State, body: dict[str, Any]) -> State:
        """``{"unit": "p1#2", "to": "d4"}``: a creature put where it stands on the table;
        ``"to": "off"`` takes one on the battlefield back to the War Camp."""
        ref, to = body.get("unit"), body.get("to")
        if not isinstance(ref, str) or ref not in state.units:
            raise CommandRefused(f"unit: one of the game's creatures, not {quote(ref)}")
        new = state.clone()
        if to == "off":
            if new.units[ref].place == FIELD:
                new.put(ref, CAMP, None)
            return new
        try:
            h = self.game.battlefield.hex_named(to)
        except ValueError as e:
            raise CommandRefused(f"to: {e}") from None
        if not self.game.battlefield.standable(h):
            raise CommandRefused(f"to: no creature can stand in {h}")
        if new.occupied().get(h, ref) != ref:
            raise CommandRefused(f"to: {h} is taken by {self.words.piece(new.occupied()[h])}")
        new.put(ref, FIELD, h)
        return new
