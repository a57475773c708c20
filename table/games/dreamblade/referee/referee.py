"""Dreamblade at a live table: what the session asks a game (``table.system.Referee``),
answered for Dreamblade. The session keeps the log, the lock, undo and the listeners;
this keeps what only Dreamblade knows: its dice and buttons (initiative roll-off, a
Wail's two dice, the strike and ready buttons), its 5x5 board as the camera sees it
(cells, miniatures that may still stand where they were, a person's overrule of a
misread cell), its corrections and what a screen draws of it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar

from table.device import DeviceEvent
from table.errors import CommandRefused
from table.observation import Observation, ObservedBase
from table.quoting import quote
from table.stickers import Stickers
from table.system import (
    Explanation,
    Intent,
    Out,
    Prompt,
    Reconciliation,
    Referee,
    RulesEvent,
    Table,
    check_player,
    typed_roll,
)

from .. import actions as A
from .. import dice, engine
from ..combat import legal_attacks
from ..errors import RulesError
from ..game import Game
from ..notation import parse_action, parse_face
from ..playout import chance_action
from ..state import Phase, State, Step, Zone
from ..validity import Status, describe, status
from . import autoplay, prompts, view
from .how import HOW_TO_PLAY
from .reconcile import Reconciler
from .wording import Words

_CORRECT_ZONES = {"reserves": Zone.RESERVES, "graveyard": Zone.GRAVEYARD, "removed": Zone.REMOVED}


@dataclass
class Overrule:
    """A person said the board is right and the camera wrong in one cell."""

    reading: tuple  # the whole cell's reading at that moment
    doubted: Counter  # the readings there that no miniature explained, and how many


class DreambladeReferee(Referee):
    how_to_play: ClassVar[Mapping[str, str]] = MappingProxyType(HOW_TO_PLAY)
    correction_fields: ClassVar[tuple[str, ...]] = ("mini", "to", "damage")
    correction_places: ClassVar[str] = "a cell (c4), reserves, graveyard or removed"
    button_commands: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"ready": "ready", "strike": "strike", "undo": "undo"})
    engine = engine

    def __init__(self, game: Game, names: Mapping[str, str], stickers: Stickers) -> None:
        self.game = game
        self.words = Words(game, names)
        self.stickers = stickers
        self.reconciler = Reconciler(stickers)
        self.lingering: dict[int, str] = {}  # gid -> cell it may still stand in
        # gid -> (the cells it may still stand in; the cell the rules moved it to): moved
        # by a card or a blade chosen at the dashboard, maybe not moved on the map yet
        self.awaited: dict[int, tuple[tuple[str, ...], str]] = {}
        # Whether a camera's boards are judged: without one (a table played on the
        # dashboard alone) nothing is awaited, since nothing would ever see it moved
        self.watching = False
        self.init_dice: dict[str, int] = {}
        self.wail_dice: list[int] = []  # a Wail's first die, waiting for the second
        self.overruled: dict[str, Overrule] = {}  # cell -> what a person overruled there

    # -- the rules ----------------------------------------------------------------------
    def new_state(self) -> State:
        return engine.new_state(self.game)

    def parse_action(self, text: str) -> A.Action:
        return parse_action(text)

    def legal_actions(self, state: State) -> list[A.Action]:
        c = state.combat
        if state.phase is Phase.INITIATIVE or (c is not None and c.step is Step.ROLL):
            return []  # the dice decide (``chance``), not a player
        return engine.legal_actions(state)

    def is_over(self, state: State) -> bool:
        return state.is_over()

    def chance(self, state: State, rng: random.Random) -> A.Action | None:
        return chance_action(state, rng)

    def autoplay(self, state: State, rng: random.Random) -> Intent | None:
        return autoplay.plan(state, self.init_dice, rng)

    # -- what the table must do ---------------------------------------------------------
    def prompt(self, state: State) -> Prompt:
        p = prompts.build(state, self.init_dice, self.words)
        moves = self._awaited_now(state)
        if not moves or state.phase is Phase.GAME_OVER:
            return p
        # What the rules did at the dashboard comes first: the players' next move on the
        # map would otherwise be judged against a board that is not yet the rules'.
        said = "; ".join(self._asked(g, cells, to) for g, (cells, to) in moves)
        return replace(p, text=f"First {said}. {p.text}")

    def _asked(self, g: int, cells: tuple[str, ...], to: str) -> str:
        """The move the players are asked for: from where it stood when that is one
        cell; only where it goes after two moves (it may stand in either)."""
        mini = self.words.piece(self.game.ref(g), owner=True)
        if not cells:
            return f"put {mini} on {to}"
        return f"move {mini} from {cells[0]} to {to}" if len(cells) == 1 else \
            f"move {mini} to {to}"

    def _awaited_now(self, state: State) -> list[tuple[int, tuple[tuple[str, ...], str]]]:
        """The awaited moves ``state`` still has (an undo may have taken one back)."""
        names = self.game.board.cell_names
        return sorted((g, m) for g, m in self.awaited.items()
                      if state.cell[g] >= 0 and names[state.cell[g]] == m[1])

    def dice_needed(self, state: State) -> tuple[prompts.DiceNeed, ...]:
        return prompts.dice_needed(state, self.init_dice)

    def forget_inputs(self) -> None:
        self.init_dice.clear()

    def resume_input(self, state: State, entry: dict[str, Any]) -> None:
        die, player = entry.get("die"), entry.get("player")
        if entry.get("kind") != "die" or not isinstance(die, int) or player not in ("p1", "p2"):
            return
        c = state.combat
        if entry.get("for") == "wail":
            if c is not None and c.step is Step.WAIL:
                self.wail_dice.append(die)
        elif state.phase is Phase.INITIATIVE:
            self.init_dice[player] = die

    def played(self, before: State, after: State, action: A.Action, source: str = "") -> None:
        names = self.game.board.cell_names
        for g, c in enumerate(before.cell):
            now = after.cell[g]
            if c >= 0 and now < 0:
                self.lingering[g] = names[c]
            elif now >= 0:
                self.lingering.pop(g, None)
            if now < 0 or source == "camera":
                # Off the map, or the camera saw it go where the rules now have it.
                self.awaited.pop(g, None)
            elif now != c and self.watching:
                # Still standing where it was before this move, or where an earlier move
                # the players may have followed put it (a blade's Advance twice).
                cells = self.awaited[g][0] if g in self.awaited else ()
                if c >= 0 and names[c] not in cells:
                    cells = (*cells, names[c])
                self.awaited[g] = (tuple(x for x in cells if x != names[now]), names[now])
        if isinstance(action, A.Initiative):
            self.init_dice.clear()

    def announcements(self, events: Sequence[RulesEvent]) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        for e in events:
            if e.kind == "conquest":
                out.append(("score", dict(e.data)))
            elif e.kind == "game_over":
                out.append(("game_over", dict(e.data)))
        return out

    # -- commands and the box ------------------------------------------------------------
    def commands(self) -> dict[str, Any]:
        return {"roll": self._cmd_roll, "initiative": self._cmd_initiative,
                "ready": self._cmd_ready, "strike": self._cmd_strike}

    def _cmd_roll(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        player = check_player(cmd.get("player"))
        faces = cmd.get("faces")
        if not isinstance(faces, list) or not faces or len(faces) > 40 or not all(
                isinstance(f, str | int) and not isinstance(f, bool) and len(str(f)) <= 10
                for f in faces):
            raise CommandRefused("faces: a list of attack die faces (1, 2, 3, miss, blade)")
        t.play(A.Roll(player, tuple(parse_face(str(f)) for f in faces)), source, out)
        t.after_change(out)

    def _cmd_initiative(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        """One six-sided die (``die``: 1-6), or ``faces`` as the dice card sends them
        (one die for initiative, one or two for a Wail)."""
        player = check_player(cmd.get("player"))
        rolled = [int(f.code) for f in typed_roll(dice.SIX_SIDED, cmd, 2, "the initiative die")]
        c = t.state.combat
        if c is not None and c.step is Step.WAIL:  # the same six-sided die, for a Wail
            for die in rolled:
                self._wail_die(t, player, die, source, out)
            return
        if len(rolled) != 1:
            raise CommandRefused("initiative: each player rolls one die")
        self._initiative_die(t, player, rolled[0], source, out)

    def _wail_die(self, t: Table, player: str | None, die: int, source: str,
                  out: Out) -> None:
        """A Wail rolls two six-sided dice: two presses of the box's roll button (it
        rolls one such die a press when not armed for attack dice), or two typed dice."""
        c = t.state.combat
        assert c is not None
        roller = c.attack.player
        if player not in (None, roller):
            raise CommandRefused(f"{player} rolled, but the Wail is {roller}'s to roll")
        self.wail_dice.append(die)
        t.note("die", {"player": roller, "die": die, "for": "wail"}, source)
        if len(self.wail_dice) < 2:
            t.prompt_changed(out)
            return
        dice, self.wail_dice = (self.wail_dice[0], self.wail_dice[1]), []
        try:
            t.play(A.WailRoll(roller, dice), source, out)
        except RulesError as e:
            t.warn(out, f"Wail roll refused: {e}")
        t.after_change(out)

    def _initiative_die(self, t: Table, player: str, die: int, source: str, out: Out) -> None:
        if t.state.phase is not Phase.INITIATIVE:
            raise CommandRefused(f"no initiative roll now ({t.state.phase.value} phase)")
        self.init_dice[player] = die
        t.note("die", {"player": player, "die": die}, source)
        if len(self.init_dice) == 2:
            a = A.Initiative(self.init_dice["p1"], self.init_dice["p2"])
            try:
                t.play(a, source, out)
            except RulesError as e:
                self.init_dice.clear()
                t.warn(out, f"{e}: both players roll again")
        t.prompt_changed(out)

    def _cmd_ready(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        player = check_player(cmd.get("player"))
        prop = prompts.proposal(t.state)
        if prop is None or getattr(prop, "player", None) != player:
            who = self.prompt(t.state).player
            raise CommandRefused(f"nothing for {player} to confirm now"
                                 + (f" (waiting for {who})" if who and who != player else ""))
        t.play(prop, source, out)
        t.after_change(out)

    def _cmd_strike(self, t: Table, cmd: dict[str, Any], source: str, out: Out) -> None:
        player = check_player(cmd.get("player"))
        attacks = [a for a in legal_attacks(t.state) if a.player == player]
        if not attacks:
            raise CommandRefused(f"{player} cannot strike now")
        most = max(len(a.attackers) for a in attacks)
        cells = sorted({a.cell for a in attacks})
        if len(cells) > 1 and "cell" not in cmd:
            raise CommandRefused(f"{player} can strike in {' '.join(cells)}: say which cell")
        cell = cmd.get("cell", cells[0])
        if not isinstance(cell, str) or cell not in cells:
            raise CommandRefused(f"{player} cannot strike in {quote(cell)}; "
                                 f"only in {' '.join(cells)}")
        pick = [a for a in attacks if a.cell == cell and len(a.attackers) == most] or \
            [a for a in attacks if a.cell == cell]
        t.play(max(pick, key=lambda a: len(a.attackers)), source, out)
        t.after_change(out)

    def device(self, t: Table, ev: DeviceEvent, out: Out) -> None:
        """A roll of the box: six-sided dice, whose numbers mean what the step needs
        (an initiative die, a Wail's dice, attack dice through their face table)."""
        if ev.kind != "roll":
            return
        s = t.state
        c = s.combat
        who = ev.player or "someone"
        if ev.sides != 6:
            t.warn(out, f"{who} rolled {len(ev.numbers)} d{ev.sides}; every die of this "
                   "game has six sides: roll again")
            return
        if c is not None and c.step is Step.WAIL:
            try:
                for n in ev.numbers[:2 - len(self.wail_dice)]:
                    self._wail_die(t, ev.player, int(dice.SIX_SIDED.face(n).code), "box", out)
            except CommandRefused as e:
                t.warn(out, str(e))
            return
        if s.phase is Phase.INITIATIVE:
            if ev.player is None:
                t.warn(out, "an initiative die rolled for no player: press your own roll")
                return
            if ev.player in self.init_dice:
                t.warn(out, f"{ev.player} already rolled {self.init_dice[ev.player]}")
                return
            self._initiative_die(t, ev.player, int(dice.INITIATIVE.face(ev.numbers[0]).code),
                                "box", out)
            return
        if c is None or c.step not in (Step.ROLL, Step.DEATHBLOW):
            t.warn(out, f"{who} rolled; no dice are needed now")
            return
        roller = c.attack.player
        if ev.player not in (None, roller):
            t.warn(out, f"{ev.player} rolled, but it is {roller}'s roll")
            return
        need = c.attack.dice - len(c.attack.roll)
        faces = tuple(dice.attack_face(dice.ATTACK.face(n)) for n in ev.numbers[:need])
        # Fewer is a part of a big attack (the box rolls at most 24 at a time): the
        # prompt then asks for the rest. More are not the players' to keep.
        if len(ev.numbers) > need:
            t.warn(out, f"{len(ev.numbers)} dice rolled, {need} needed; the rest were ignored")
        try:
            t.play(A.Roll(roller, faces), "box", out)  # type: ignore[arg-type]
        except RulesError as e:
            t.warn(out, f"roll refused: {e}")
        t.after_change(out)

    # -- the camera ------------------------------------------------------------------------
    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        self.watching = True
        self._arrived(state, obs)
        return self.reconciler.reconcile(state, obs, self.lingering, self.awaited)

    def fits(self, state: State, obs: Observation) -> bool:
        # (the last board, judged after a person's change: a reading chosen at the
        # dashboard plays moves the board already shows)
        self._arrived(state, obs)
        return self.reconciler.reconcile(state, obs, self.lingering, self.awaited).fits

    def _arrived(self, state: State, obs: Observation) -> None:
        """A miniature the board shows where the rules put it is awaited no more: from
        now on its absence there is a desync like any other's. (Changed when a board is
        judged, not in ``settle``: the same observation judged again must see it moved.)"""
        for g in self.reconciler.arrived(state, obs, self.lingering, self.awaited):
            del self.awaited[g]

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        return self.reconciler.diagnose(state, obs, self.lingering, self.awaited)

    def settle(self, verdict: Reconciliation) -> None:
        for g in verdict.gone:
            self.lingering.pop(g, None)

    def distinct(self, explanations: list[Explanation]) -> list[Explanation]:
        """Explanations that differ in more than which copy of the same miniature moved:
        two copies of one miniature are interchangeable for the rules, so the first is
        taken (its sticker, once read, corrects it through the next observation)."""
        seen: dict[tuple, Explanation] = {}
        for e in sorted(explanations, key=lambda e: [str(a) for a in e.actions]):
            s = e.state
            sig = tuple(sorted((m.player, m.d.name, s.zone[m.gid].value, s.cell[m.gid],
                                s.damage[m.gid]) for m in s.game.minis))
            seen.setdefault(sig, e)
        return list(seen.values())

    def overrule(self, state: State, obs: Observation) -> list[str]:
        fits = [f for f in self.reconciler.fit(state, self.adjusted(state, obs), self.lingering,
                                               self.awaited) if not f.ok]
        # The doubted readings are the camera's own, not the already adjusted ones.
        raw = {f.cell: f for f in self.reconciler.fit(state, obs, self.lingering,
                                                      self.awaited)}
        for f in fits:
            bases = obs.regions.get(f.cell, ())
            old = self.overruled.get(f.cell)
            doubted = Counter(_signature(bases[i]) for i in raw[f.cell].extra)
            if old is not None:
                doubted |= old.doubted
            self.overruled[f.cell] = Overrule(_reading(bases), doubted)
        return [f.cell for f in fits]

    def adjusted(self, state: State, obs: Observation) -> Observation:
        """The observation as a person's overrule has it. While an overruled cell reads
        exactly as when it was overruled, what the rules expect there stands in for it.
        Once the cell changes (a base taken, a base added), the bases that read the way
        the person said was wrong still count as unread: a misreading that stuck once (a
        glare spot, a worn ring) sticks again, and every move in or out of that cell
        would otherwise desync the table anew. The doubt ends when no base there reads
        that way any more."""
        if not self.overruled:
            return obs
        regions = dict(obs.regions)
        expected = self.reconciler.expected(state)
        id_of = {ref: sid for sid, ref in self.reconciler.stickers.ref_of.items()}
        for cell, rule in list(self.overruled.items()):
            bases = obs.regions.get(cell, ())
            if _reading(bases) == rule.reading:
                regions[cell] = tuple(
                    ObservedBase(self.game.minis[g].player, id_of.get(self.game.ref(g)),
                                 "read", 1.0, 0.0, 0.0) for g in expected.get(cell, ()))
                continue
            left = Counter(rule.doubted)
            adjusted, any_doubted = [], False
            for b in bases:
                sig = _signature(b)
                if left[sig] > 0:
                    left[sig] -= 1
                    any_doubted = True
                    b = replace(b, owner=None, sticker=None, tag="unreadable", confidence=0.0)
                adjusted.append(b)
            if not any_doubted:  # none of the doubted readings is left: trust the camera
                del self.overruled[cell]
                continue
            regions[cell] = tuple(adjusted)
        return Observation(obs.time, obs.frame, regions, obs.occluded)

    # -- corrections (outside the rules, for fixing a table by hand) -------------------------
    def correct(self, state: State, body: dict[str, Any]) -> State:
        if state.combat is not None:
            raise CommandRefused("finish the fight before correcting the board")
        mini = body.get("mini")
        if not isinstance(mini, str) or len(mini) > 20:
            raise CommandRefused(f"mini: a miniature like p1#3, not {quote(mini)}")
        try:
            g = self.game.gid(mini)
        except KeyError as e:
            raise CommandRefused(str(e).strip("'\"")) from None
        to = body.get("to")
        if not isinstance(to, str):
            raise CommandRefused(f"to: a cell or reserves/graveyard/removed, not {quote(to)}")
        s = state.copy()
        if to in _CORRECT_ZONES:
            s.zone[g], s.cell[g], s.damage[g] = _CORRECT_ZONES[to], -1, 0
        else:
            try:
                c = self.game.board.index(to)
            except (KeyError, TypeError):
                raise CommandRefused(
                    f"to: a cell or reserves/graveyard/removed, not {quote(to)}") from None
            s.zone[g], s.cell[g] = Zone.DREAMSCAPE, c
        dmg = body.get("damage")
        if dmg is not None:
            if not isinstance(dmg, int) or isinstance(dmg, bool) or not 0 <= dmg <= 99 \
                    or s.cell[g] < 0:
                raise CommandRefused("damage: a whole number >= 0, for a miniature on the map")
            s.damage[g] = dmg
        st = status(s)
        if st != Status.VALID:
            raise CommandRefused(f"that correction leaves an impossible board: {describe(st)}")
        return s

    def corrected(self, before: State, after: State, body: dict[str, Any]) -> None:
        g = self.game.gid(body["mini"])
        if before.cell[g] >= 0 and after.cell[g] < 0:
            self.lingering[g] = self.game.board.cell_names[before.cell[g]]

    # -- what a screen draws ---------------------------------------------------------------------
    def view(self, state: State) -> dict[str, Any]:
        return {"board": view.board(state, self.words, self.lingering,
                                    dict(self._awaited_now(state))).to_dict(),
                "score": view.score(state, self.words), "state": state.to_dict()}


def _signature(b: ObservedBase) -> tuple[str, int, str]:
    """What the camera says of one base, without where it stands."""
    return (b.owner or "", -1 if b.sticker is None else b.sticker, b.tag)


def _reading(bases: tuple[ObservedBase, ...]) -> tuple:
    return tuple(sorted(_signature(b) for b in bases))
