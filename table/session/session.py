"""One live game at one physical table.

The session takes three kinds of input and turns them into rules actions:

* stable ``Observation``s from the camera, reconciled against the rules state
  (``reconcile.py``): an explained change is played, anything else is a desync;
* ``DeviceEvent``s from the table box: dice and buttons;
* commands from people (the dashboard, the API): typed actions, dice typed in when no
  box is attached, undo, corrections, confirmations.

Everything accepted is written to the game log *before* listeners hear of it, so what
a screen showed is always in the file. The rules state is rebuilt from the log on
resume (``Session.resume``) by replaying the same operations.

Thread-safe: the camera, the box and web requests call in from their own threads; one
lock orders them and listeners are called in that order.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from table.device import DeviceEvent, StreamPosition
from table.dreamblade import actions as A
from table.dreamblade import stats
from table.dreamblade.catalog import Catalog
from table.dreamblade.combat import legal_attacks
from table.dreamblade.engine import apply
from table.dreamblade.errors import RulesError
from table.dreamblade.events import Event
from table.dreamblade.notation import NotationError, parse_action, parse_face
from table.dreamblade.state import Phase, State, Step, Zone
from table.dreamblade.validity import Status, describe, status
from table.observation import Observation, ObservedBase
from table.quoting import quote

from . import prompts
from .reconcile import Explanation, Reconciler
from .setup import Setup
from .storage import REPLAYED_KINDS, GameLog, StorageError
from .wording import Words

HISTORY_SHOWN = 200
MAX_TEXT = 200  # characters of any text field in a command (an action is ~40)
_CORRECT_ZONES = {"reserves": Zone.RESERVES, "graveyard": Zone.GRAVEYARD, "removed": Zone.REMOVED}


class CommandError(ValueError):
    """A command that was refused; nothing changed. The message says why."""


@dataclass(frozen=True)
class SessionEvent:
    """What the session tells its listeners (the dashboard, the terminal, tests).

    kinds: ``action`` (an accepted action and the rules' events), ``undo``,
    ``correction``, ``prompt``, ``desync``, ``resync``, ``confirm`` (the camera saw
    something with several legal readings), ``warning``, ``health``, ``board``
    (a new observation), ``device``, ``score``, ``game_over``.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


Listener = Callable[[SessionEvent], None]


@dataclass
class _Op:
    """One operation that changes the rules state: an action or a correction."""

    kind: str  # "action" | "correction"
    body: dict[str, Any]


class Session:
    def __init__(self, setup: Setup, log: GameLog | None = None, game_id: int | None = None,
                 catalog: Catalog | None = None) -> None:
        self.setup = setup
        self.game = setup.build_game(catalog)
        self.reconciler = Reconciler(setup.sticker_map())
        self.words = Words(self.game, setup.names)
        self.log = log
        self.game_id = game_id
        self.origin: State = self.game.new_state()  # where the game's operations start
        self.state: State = self.origin
        self.ops: list[_Op] = []
        self.lingering: dict[int, str] = {}  # gid -> cell it may still stand in
        self.desync: list[str] | None = None
        self.confirm: list[Explanation] | None = None
        self.init_dice: dict[str, int] = {}
        self.wail_dice: list[int] = []  # a Wail's first die, waiting for the second
        self.last_obs: Observation | None = None
        self.follow_camera = True
        self._misreads: set[str] = set()
        self.overruled: dict[str, Overrule] = {}  # cell -> what a person overruled there
        self.health: dict[str, dict[str, Any]] = {}
        self.history: list[dict[str, Any]] = []
        self._seq = 0  # entry numbers when there is no log file
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()

    # -- creation ------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: Setup, log: GameLog | None = None,
            catalog: Catalog | None = None) -> Session:
        s = cls(setup, log, None, catalog)  # a bad setup is refused before anything is written
        if log is not None:
            s.game_id = log.new_game(setup.to_dict())
        return s

    @classmethod
    def resume(cls, log: GameLog, game_id: int | None = None,
               catalog: Catalog | None = None) -> Session:
        """The game as the log has it (by default the unfinished game that was on the
        table); ``StorageError`` when the log lost or damaged any of its entries."""
        row = log.game(game_id) if game_id is not None else log.on_table()
        if row is None:
            raise StorageError(f"{log.path}: no unfinished game to resume")
        log.check(row.id)
        setup = Setup.from_dict(row.setup)
        s = cls(setup, log, row.id, catalog)
        ops: list[_Op] = []
        for e in log.entries(row.id):
            if e.kind == "undo":
                if ops:
                    ops.pop()
            elif e.kind in REPLAYED_KINDS:
                ops.append(_Op(e.kind, e.body))
            s.history.append(s.words.entry(e.to_dict()))
        try:
            s.state = s._replay(ops)
        except (RulesError, NotationError, KeyError) as err:
            raise StorageError(f"{log.path}: game {row.id} does not replay: {err}") from None
        s.ops = ops
        s.history = s.history[-HISTORY_SHOWN:]
        return s

    def start_from(self, state: State) -> None:
        """Begin at a given position instead of the first turn (tests, teaching tables);
        not stored in the log, so such a session is not resumable."""
        with self._lock:
            self.origin = self.state = state
            self.ops.clear()

    def _replay(self, ops: list[_Op]) -> State:
        state = self.origin
        for op in ops:
            if op.kind == "action":
                state, _ = apply(state, parse_action(op.body["action"]))
            else:
                state = self._corrected(state, op.body)
        return state

    # -- listeners -----------------------------------------------------------------------
    def subscribe(self, fn: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._listeners:
                    self._listeners.remove(fn)
        return unsubscribe

    def _emit(self, out: list[SessionEvent], kind: str, **data: Any) -> None:
        ev = SessionEvent(kind, data)
        out.append(ev)
        for fn in list(self._listeners):
            try:
                fn(ev)
            except Exception:
                pass

    def _record(self, kind: str, body: dict[str, Any], source: str) -> None:
        """Write first (durable), then remember for the history pane."""
        if self.log is not None and self.game_id is not None:
            entry = self.log.append(self.game_id, kind, body, source).to_dict()
        else:
            self._seq += 1
            entry = {"seq": self._seq, "time": round(time.time(), 3),
                     "kind": kind, "source": source, **body}
        self.history.append(self.words.entry(entry))
        if len(self.history) > HISTORY_SHOWN * 2:
            del self.history[:HISTORY_SHOWN]

    # -- the rules -------------------------------------------------------------------------
    def _play(self, action: A.Action, source: str, out: list[SessionEvent]) -> list[Event]:
        """Apply, log, then tell. Raises RulesError with nothing changed."""
        before = self.state
        new, events = apply(before, action)
        body = {"action": str(action), "events": [e.to_dict() for e in events]}
        self._record("action", body, source)
        self.ops.append(_Op("action", {"action": str(action)}))
        self.state = new
        for g, c in enumerate(before.cell):
            if c >= 0 and new.cell[g] < 0:
                self.lingering[g] = self.game.board.cell_names[c]
            elif new.cell[g] >= 0:
                self.lingering.pop(g, None)
        if isinstance(action, A.Initiative):
            self.init_dice.clear()
        self._emit(out, "action", action=str(action), source=source,
                   events=body["events"])
        for e in events:
            if e.kind == "conquest":
                self._emit(out, "score", **e.data)
            elif e.kind == "game_over":
                self._emit(out, "game_over", **e.data)
                if self.log is not None and self.game_id is not None:
                    self.log.set_status(self.game_id, "over")
        return events

    def _after_change(self, out: list[SessionEvent]) -> None:
        """A person changed the state: the camera board may now fit, or no longer."""
        self.confirm = None
        if self.last_obs is not None and self.follow_camera:
            obs = self._adjusted(self.last_obs)
            # Judged as a new observation would be: a misreading the rules already set
            # aside must not turn into a desync because a button was pressed.
            if self.reconciler.reconcile(self.state, obs, self.lingering).fits:
                self._set_desync(None, out)
            else:
                self._set_desync(self.reconciler.diagnose(self.state, obs, self.lingering), out)
        self._prompt(out)

    def _set_desync(self, lines: list[str] | None, out: list[SessionEvent],
                    source: str = "camera") -> None:
        if lines:
            lines = [self.words.humanize(line) for line in lines]
        if lines == self.desync:
            return
        was = self.desync
        self.desync = lines
        if lines:
            self._record("desync", {"problems": lines}, source)
            self._emit(out, "desync", problems=lines)
        elif was:
            self._record("resync", {}, source)
            self._emit(out, "resync")

    def _prompt(self, out: list[SessionEvent]) -> None:
        self._emit(out, "prompt", **self.prompt().to_dict())

    # -- public: what the table should do -----------------------------------------------------
    def prompt(self) -> prompts.Prompt:
        with self._lock:
            return prompts.build(self.state, self.init_dice, self.words)

    def dice_needed(self) -> tuple[prompts.DiceNeed, ...]:
        with self._lock:
            return prompts.dice_needed(self.state, self.init_dice)

    def snapshot(self) -> dict[str, Any]:
        """Everything a screen needs, in one JSON-ready object."""
        with self._lock:
            s = self.state
            g = self.game
            names = g.board.cell_names
            c_ = s.combat
            to_place = {gid for gid, _ in c_.to_place} if c_ is not None else set()
            at_risk = set(c_.pending_outcome) if c_ is not None else set()
            minis = []
            for m in g.minis:
                c = s.cell[m.gid]
                entry = {"ref": m.ref, "name": m.d.name, "label": self.words.mini(m.ref),
                         "player": m.player,
                         "kind": m.d.kind.value, "zone": s.zone[m.gid].value,
                         "cell": names[c] if c >= 0 else None, "damage": s.damage[m.gid],
                         "cost": m.d.cost}
                if m.d.is_creature:
                    entry.update(power=stats.power(s, m.gid), defense=stats.defense(s, m.gid),
                                 life=stats.life(s, m.gid), engaged=s.is_engaged(m.gid))
                if m.gid in self.lingering and c < 0:
                    entry["take_off_from"] = self.lingering[m.gid]
                if m.gid in to_place:
                    entry["disrupted"] = True  # off the map until its placement
                if m.gid in at_risk:
                    entry["at_risk"] = True  # to be disrupted or destroyed
                minis.append(entry)
            return {
                "game_id": self.game_id,
                "map": self._map(),
                "setup": self.setup.to_dict(),
                "state": s.to_dict(),
                "minis": minis,
                "score": {"turns_won": {"p1": s.turns_won[0], "p2": s.turns_won[1]},
                          "conquest": [c.to_dict() for c in s.conquest],
                          "winner": s.winner},
                "prompt": self.prompt().to_dict(),
                "desync": self.desync,
                "confirm": None if self.confirm is None else
                [[str(a) for a in e.actions] for e in self.confirm],
                "confirm_labels": None if self.confirm is None else
                [[self.words.action(a) for a in e.actions] for e in self.confirm],
                "follow_camera": self.follow_camera,
                "health": dict(self.health),
                "history": self.history[-HISTORY_SHOWN:],
                "board": None if self.last_obs is None else self.last_obs.to_dict(),
                "can_undo": bool(self.ops),
                "undo_label": self._op_text(self.ops[-1]) if self.ops else None,
            }

    def _op_text(self, op: _Op) -> str:
        if op.kind == "action":
            return self.words.action(op.body["action"])
        return "correction: " + self.words.correction(op.body)

    def _map(self) -> dict[str, Any]:
        b = self.game.board
        cells = {}
        for i, name in enumerate(b.cell_names):
            cells[name] = {
                "column": b.column(i), "row": b.row(i),
                "scoring": {p: b.scoring_cells(p)[i] for p in ("p1", "p2")
                            if i in b.scoring_cells(p)},
                "portal": next((p for p in ("p1", "p2") if b.portal(p) == i), None),
                "spawn_row": next((p for p in ("p1", "p2") if i in b.spawn_row(p)), None),
            }
        return {"columns": len(b.columns), "rows": b.rows, "cells": cells}

    # -- input 1: people ---------------------------------------------------------------------
    def command(self, cmd: dict[str, Any], source: str = "dashboard") -> list[SessionEvent]:
        """Run one command; ``CommandError`` (nothing changed) when it is refused.

        ``{"do": "action", "action": "p1 move p1#3 c4"}``, ``{"do": "roll", "player":
        "p1", "faces": [3, "blade"]}``, ``{"do": "initiative", "player": "p1", "die": 5}``,
        ``{"do": "ready"|"strike", "player": "p1"}``, ``{"do": "undo"}``,
        ``{"do": "choose", "option": 0}``, ``{"do": "correct", "mini": "p1#3", "to": "c4"}``,
        ``{"do": "follow_camera", "on": false}``, ``{"do": "board_ok"}`` (the board on
        the table is right, the camera misreads it: overrule its reading of the cells in
        question until they change).
        """
        if not isinstance(cmd, dict):
            raise CommandError("a command is a JSON object with a 'do' field")
        do = cmd.get("do")
        if not isinstance(do, str):
            raise CommandError(f"do: the command's name, not {quote(do)}")
        handlers: dict[str, Callable[[dict[str, Any], str, list[SessionEvent]], None]] = {
            "action": self._cmd_action, "roll": self._cmd_roll,
            "initiative": self._cmd_initiative, "ready": self._cmd_ready,
            "strike": self._cmd_strike, "undo": self._cmd_undo, "choose": self._cmd_choose,
            "correct": self._cmd_correct, "follow_camera": self._cmd_follow,
            "board_ok": self._cmd_board_ok,
        }
        if do not in handlers:
            raise CommandError(f"unknown command {quote(do)}; one of: {', '.join(handlers)}")
        out: list[SessionEvent] = []
        with self._lock:
            try:
                handlers[do](cmd, source, out)
            except RulesError as e:
                raise CommandError(f"refused by the rules: {self.words.humanize(str(e))}") \
                    from None
            except NotationError as e:
                raise CommandError(str(e)) from None
        return out

    def _cmd_action(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        action = parse_action(_text(cmd, "action", "a line of text like 'p1 move p1#3 c4'"))
        self._play(action, source, out)
        self._after_change(out)

    def _cmd_roll(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        player = _player(cmd.get("player"))
        faces = cmd.get("faces")
        if not isinstance(faces, list) or not faces or len(faces) > 40 or not all(
                isinstance(f, str | int) and not isinstance(f, bool) and len(str(f)) <= 10
                for f in faces):
            raise CommandError("faces: a list of attack die faces (1, 2, 3, miss, blade)")
        self._play(A.Roll(player, tuple(parse_face(str(f)) for f in faces)), source, out)
        self._after_change(out)

    def _cmd_initiative(self, cmd: dict[str, Any], source: str,
                        out: list[SessionEvent]) -> None:
        player = _player(cmd.get("player"))
        die = cmd.get("die")
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise CommandError("die: the initiative die, 1 to 6")
        c = self.state.combat
        if c is not None and c.step is Step.WAIL:  # the same six-sided die, for a Wail
            self._wail_die(player, die, source, out)
            return
        self._initiative_die(player, die, source, out)

    def _wail_die(self, player: str | None, die: int, source: str,
                  out: list[SessionEvent]) -> None:
        """A Wail rolls two six-sided dice: two presses of the box's roll button (it
        rolls one such die a press when not armed for attack dice), or two typed dice."""
        c = self.state.combat
        assert c is not None
        roller = c.attack.player
        if player not in (None, roller):
            raise CommandError(f"{player} rolled, but the Wail is {roller}'s to roll")
        self.wail_dice.append(die)
        self._record("die", {"player": roller, "die": die, "for": "wail"}, source)
        if len(self.wail_dice) < 2:
            self._prompt(out)
            return
        dice, self.wail_dice = (self.wail_dice[0], self.wail_dice[1]), []
        try:
            self._play(A.WailRoll(roller, dice), source, out)
        except RulesError as e:
            self._warn(out, f"Wail roll refused: {e}")
        self._after_change(out)

    def _initiative_die(self, player: str, die: int, source: str,
                        out: list[SessionEvent]) -> None:
        if self.state.phase is not Phase.INITIATIVE:
            raise CommandError(f"no initiative roll now ({self.state.phase.value} phase)")
        self.init_dice[player] = die
        self._record("die", {"player": player, "die": die}, source)
        if len(self.init_dice) == 2:
            a = A.Initiative(self.init_dice["p1"], self.init_dice["p2"])
            try:
                self._play(a, source, out)
            except RulesError as e:
                self.init_dice.clear()
                self._warn(out, f"{e}: both players roll again")
        self._prompt(out)

    def _cmd_ready(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        player = _player(cmd.get("player"))
        prop = prompts.proposal(self.state)
        if prop is None or getattr(prop, "player", None) != player:
            who = prompts.build(self.state, self.init_dice, self.words).player
            raise CommandError(f"nothing for {player} to confirm now"
                               + (f" (waiting for {who})" if who and who != player else ""))
        self._play(prop, source, out)
        self._after_change(out)

    def _cmd_strike(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        player = _player(cmd.get("player"))
        attacks = [a for a in legal_attacks(self.state) if a.player == player]
        if not attacks:
            raise CommandError(f"{player} cannot strike now")
        most = max(len(a.attackers) for a in attacks)
        cells = sorted({a.cell for a in attacks})
        if len(cells) > 1 and "cell" not in cmd:
            raise CommandError(f"{player} can strike in {' '.join(cells)}: say which cell")
        cell = cmd.get("cell", cells[0])
        if not isinstance(cell, str) or cell not in cells:
            raise CommandError(f"{player} cannot strike in {quote(cell)}; "
                               f"only in {' '.join(cells)}")
        pick = [a for a in attacks if a.cell == cell and len(a.attackers) == most] or \
            [a for a in attacks if a.cell == cell]
        self._play(max(pick, key=lambda a: len(a.attackers)), source, out)
        self._after_change(out)

    def _cmd_undo(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        if not self.ops:
            raise CommandError("nothing to undo")
        last = self.ops[-1]
        state = self._replay(self.ops[:-1])
        self._record("undo", {"undone": last.body}, source)
        self.ops.pop()
        self.state = state
        self.init_dice.clear()
        self._emit(out, "undo", undone=last.body, source=source)
        self._after_change(out)

    def _cmd_choose(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        if not self.confirm:
            raise CommandError("no camera reading is waiting for confirmation")
        i = cmd.get("option")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self.confirm):
            raise CommandError(f"option: 0 to {len(self.confirm) - 1}")
        chosen = self.confirm[i]
        self.confirm = None
        for a in chosen.actions:
            self._play(a, source, out)
        self._after_change(out)

    def _cmd_board_ok(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        obs = self.last_obs
        if obs is None or not self.desync:
            raise CommandError("nothing to overrule: the camera agrees with the game")
        fits = [f for f in self.reconciler.fit(self.state, self._adjusted(obs), self.lingering)
                if not f.ok]
        # The doubted readings are the camera's own, not the already adjusted ones.
        raw = {f.cell: f for f in self.reconciler.fit(self.state, obs, self.lingering)}
        for f in fits:
            bases = obs.regions.get(f.cell, ())
            old = self.overruled.get(f.cell)
            doubted = Counter(_signature(bases[i]) for i in raw[f.cell].extra)
            if old is not None:
                doubted |= old.doubted
            self.overruled[f.cell] = Overrule(_reading(bases), doubted)
        cells = [f.cell for f in fits]
        self._record("board_ok", {"cells": cells}, source)
        self._emit(out, "warning", message="camera overruled in " + " ".join(cells)
                   + "; its wrong readings there are doubted while they last")
        self._after_change(out)

    def _adjusted(self, obs: Observation) -> Observation:
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
        expected = self.reconciler.expected(self.state)
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

    def _cmd_follow(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        on = cmd.get("on")
        if not isinstance(on, bool):
            raise CommandError("on: true or false")
        self.follow_camera = on
        self._record("follow_camera", {"on": on}, source)
        if not on:
            self._set_desync(None, out, source)
        self._after_change(out)

    # -- corrections (outside the rules, for fixing a table by hand) ----------------------------
    def _corrected(self, state: State, body: dict[str, Any]) -> State:
        if state.combat is not None:
            raise CommandError("finish the fight before correcting the board")
        mini = body.get("mini")
        if not isinstance(mini, str) or len(mini) > 20:
            raise CommandError(f"mini: a miniature like p1#3, not {quote(mini)}")
        try:
            g = self.game.gid(mini)
        except KeyError as e:
            raise CommandError(str(e).strip("'\"")) from None
        to = body.get("to")
        if not isinstance(to, str):
            raise CommandError(f"to: a cell or reserves/graveyard/removed, not {quote(to)}")
        s = state.copy()
        if to in _CORRECT_ZONES:
            s.zone[g], s.cell[g], s.damage[g] = _CORRECT_ZONES[to], -1, 0
        else:
            try:
                c = self.game.board.index(to)  # type: ignore[arg-type]
            except (KeyError, TypeError):
                raise CommandError(f"to: a cell or reserves/graveyard/removed, not {quote(to)}") \
                    from None
            s.zone[g], s.cell[g] = Zone.DREAMSCAPE, c
        dmg = body.get("damage")
        if dmg is not None:
            if not isinstance(dmg, int) or isinstance(dmg, bool) or not 0 <= dmg <= 99 \
                    or s.cell[g] < 0:
                raise CommandError("damage: a whole number >= 0, for a miniature on the map")
            s.damage[g] = dmg
        st = status(s)
        if st != Status.VALID:
            raise CommandError(f"that correction leaves an impossible board: {describe(st)}")
        return s

    def _cmd_correct(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        body = {k: cmd[k] for k in ("mini", "to", "damage") if k in cmd}
        new = self._corrected(self.state, body)
        self._record("correction", body, source)
        self.ops.append(_Op("correction", body))
        g = self.game.gid(body["mini"])
        if self.state.cell[g] >= 0 and new.cell[g] < 0:
            self.lingering[g] = self.game.board.cell_names[self.state.cell[g]]
        self.state = new
        self._emit(out, "correction", source=source, **body)
        self._after_change(out)

    # -- input 2: the camera -------------------------------------------------------------------
    def observe(self, obs: Observation, source: str = "camera") -> list[SessionEvent]:
        out: list[SessionEvent] = []
        with self._lock:
            self.last_obs = obs
            cells = {k: [b.to_dict() for b in v] for k, v in obs.regions.items() if v}
            self._record("observation", {"frame": obs.frame, "regions": cells}, source)
            self._emit(out, "board", **obs.to_dict())
            if not self.follow_camera:
                return out
            r = self.reconciler.reconcile(self.state, self._adjusted(obs), self.lingering)
            for g in r.gone:
                self.lingering.pop(g, None)
            for text in r.misread:
                if text not in self._misreads:
                    self._misreads.add(text)  # said once, not at every frame commit
                    self._warn(out, text)
            if r.fits:
                self.confirm = None
                self._set_desync(None, out)
                return out
            options = _distinct(r.explanations)
            if len(options) == 1:
                self.confirm = None
                try:
                    for a in options[0].actions:
                        self._play(a, source, out)
                except RulesError as e:  # pragma: no cover - the search applied them already
                    self._warn(out, f"camera reading refused: {e}")
                self._set_desync(None, out)
                self._prompt(out)
            elif options:
                self.confirm = options
                self._set_desync(None, out)
                self._emit(out, "confirm",
                           options=[[str(a) for a in e.actions] for e in options])
            else:
                self.confirm = None
                self._set_desync(self.reconciler.diagnose(self.state, self._adjusted(obs),
                                                          self.lingering), out)
        return out

    # -- input 3: the table box ---------------------------------------------------------------
    def device(self, ev: DeviceEvent) -> list[SessionEvent]:
        out: list[SessionEvent] = []
        with self._lock:
            if ev.kind in ("connected", "lost", "lost_events", "unknown_event", "stale_roll"):
                self._record("device", ev.to_dict(), "box")
            if ev.kind == "connected":
                self._health(out, "box", True, "table box connected")
            elif ev.kind == "lost":
                self._health(out, "box", False, "table box lost: "
                             f"{ev.detail.get('reason', 'unplugged?')}; type dice in by hand")
            elif ev.kind == "lost_events":
                why = ev.detail.get("reason") or "its queue was full"
                n = ev.detail.get("count")
                what = "may have lost presses (how many cannot be told)" if n is None \
                    else f"lost {n} press{'es' if n != 1 else ''} or roll{'s' if n != 1 else ''}"
                self._warn(out, f"the table box {what}: {why}; check the table and enter "
                           "them by hand")
            elif ev.kind == "unknown_event":
                self._warn(out, "the table box sent an event this version of tablesight does "
                           f"not know ({ev.detail.get('text', '?')}): skipped")
            elif ev.kind == "stale_roll":
                self._warn(out, "the table box answered a roll asked for before a restart: "
                           "those dice were set aside; roll again")
            elif ev.kind == "roll":
                self._record("device", ev.to_dict(), "box")
                self._device_roll(ev, out)
            elif ev.kind == "button" and ev.button in ("ready", "strike", "undo"):
                self._record("device", ev.to_dict(), "box")
                cmd = {"do": ev.button, "player": ev.player}
                try:
                    {"ready": self._cmd_ready, "strike": self._cmd_strike,
                     "undo": self._cmd_undo}[ev.button](cmd, "box", out)
                except (CommandError, RulesError) as e:
                    self._warn(out, f"{ev.player} pressed {ev.button}: {e}")
            elif ev.kind == "button":  # no command, but in the log: where the box stands
                self._record("device", ev.to_dict(), "box")
        return out

    def _device_roll(self, ev: DeviceEvent, out: list[SessionEvent]) -> None:
        s = self.state
        c = s.combat
        if c is not None and c.step is Step.WAIL and ev.roll_kind == "init":
            try:
                self._wail_die(ev.player, int(ev.faces[0]), "box", out)
            except CommandError as e:
                self._warn(out, str(e))
            return
        if ev.roll_kind == "init":
            if s.phase is not Phase.INITIATIVE or ev.player is None:
                need = [d for d in prompts.dice_needed(s, self.init_dice)
                        if d.player == ev.player]
                if need:  # the box rolled its default: it had not been told the count yet
                    self._warn(out, f"the box was not ready for {ev.player}'s {need[0].n} "
                               "attack dice: press roll again")
                else:
                    self._warn(out, f"{ev.player or 'someone'} rolled initiative; "
                               "not needed now")
                return
            if ev.player in self.init_dice:
                self._warn(out, f"{ev.player} already rolled {self.init_dice[ev.player]}")
                return
            self._initiative_die(ev.player, int(ev.faces[0]), "box", out)
            return
        c = s.combat
        if c is None or c.step not in (Step.ROLL, Step.DEATHBLOW):
            self._warn(out, f"{ev.player or 'someone'} rolled attack dice; not needed now")
            return
        roller = c.attack.player
        if ev.player not in (None, roller):
            self._warn(out, f"{ev.player} rolled, but it is {roller}'s roll")
            return
        need = c.attack.dice - len(c.attack.roll)
        faces = tuple(ev.faces[:need])
        # Fewer is a part of a big attack (the box rolls at most 24 at a time): the
        # prompt then asks for the rest. More are not the players' to keep.
        if len(ev.faces) > need:
            self._warn(out, f"{len(ev.faces)} dice rolled, {need} needed; the rest were "
                       "ignored")
        try:
            self._play(A.Roll(roller, faces), "box", out)
        except RulesError as e:
            self._warn(out, f"roll refused: {e}")
        self._after_change(out)

    def box_resume(self) -> StreamPosition | None:
        """Where the table box's event stream stood when this game last heard from it,
        from the log: the box, its boot, the last event delivered and its count of lost
        presses. A host restarted mid-game hands it to the box bridge, which then
        delivers none of those events again and counts what the box lost meanwhile."""
        if self.log is None or self.game_id is None:
            return None
        box: str | None = None
        boot: str | None = None
        seq = 0
        lost_total: int | None = None
        for e in self.log.entries(self.game_id, ("device",)):
            b = e.body
            if b.get("kind") == "connected" and isinstance(b.get("boot_id"), str):
                boot = b["boot_id"]
                box = b["box_id"] if isinstance(b.get("box_id"), str) else None
            if boot is not None and isinstance(b.get("seq"), int):
                seq = b["seq"]
            if isinstance(b.get("lost_total"), int):
                lost_total = b["lost_total"]
        return None if boot is None else StreamPosition(box, boot, seq, lost_total)

    # -- health and warnings ---------------------------------------------------------------------
    def report_health(self, part: str, ok: bool, message: str) -> list[SessionEvent]:
        """The camera or the box says how it is (only changes are logged and told)."""
        out: list[SessionEvent] = []
        with self._lock:
            prev = self.health.get(part)
            if prev is None or prev["ok"] != ok or prev["message"] != message:
                self._record("health", {"part": part, "ok": ok, "message": message}, part)
                self._health(out, part, ok, message)
        return out

    def _health(self, out: list[SessionEvent], part: str, ok: bool, message: str) -> None:
        self.health[part] = {"ok": ok, "message": message}
        self._emit(out, "health", part=part, ok=ok, message=message)

    def _warn(self, out: list[SessionEvent], message: str) -> None:
        message = self.words.humanize(message)
        self._record("warning", {"message": message}, "session")
        self._emit(out, "warning", message=message)

    # -- export ------------------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The game record (``tablesight-record/1``): setup, every operation, the result."""
        with self._lock:
            return {"format": "tablesight-record/1", "setup": self.setup.to_dict(),
                    "operations": [{"kind": op.kind, **op.body} for op in self.ops],
                    "final": self.state.to_dict()}


def _signature(b: ObservedBase) -> tuple[str, int, str]:
    """What the camera says of one base, without where it stands."""
    return (b.owner or "", -1 if b.sticker is None else b.sticker, b.tag)


def _reading(bases: tuple[ObservedBase, ...]) -> tuple:
    return tuple(sorted(_signature(b) for b in bases))


@dataclass
class Overrule:
    """A person said the board is right and the camera wrong in one cell."""

    reading: tuple  # the whole cell's reading at that moment
    doubted: Counter  # the readings there that no miniature explained, and how many


def _player(v: object) -> str:
    if v not in ("p1", "p2"):
        raise CommandError(f"player: p1 or p2, not {quote(v)}")
    return str(v)


def _text(cmd: dict[str, Any], key: str, what: str) -> str:
    v = cmd.get(key)
    if not isinstance(v, str) or len(v) > MAX_TEXT:
        raise CommandError(f"{key}: {what}, not {quote(v)}")
    return v


def _distinct(options: list[Explanation]) -> list[Explanation]:
    """Explanations that differ in more than which copy of the same miniature moved:
    two copies of one miniature are interchangeable for the rules, so the first is
    taken (its sticker, once read, corrects it through the next observation)."""
    seen: dict[tuple, Explanation] = {}
    for e in sorted(options, key=lambda e: [str(a) for a in e.actions]):
        s = e.state
        sig = tuple(sorted((m.player, m.d.name, s.zone[m.gid].value, s.cell[m.gid],
                            s.damage[m.gid]) for m in s.game.minis))
        seen.setdefault(sig, e)
    return list(seen.values())
