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
lock orders them and listeners are called in that order. (Long because it is the one
place the three inputs meet under that lock; each player's private page is in
``seats.py``, the log in ``storage.py``.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from table import registry
from table.device import DeviceEvent, StreamPosition
from table.errors import ActionRefused, CommandRefused, NotationError, SetupRefused
from table.observation import Observation
from table.quoting import quote
from table.system import (
    DiceNeed,
    Explanation,
    Prompt,
    Referee,
    RulesEvent,
    check_player,
    typed_roll,
)
from table.wording import entry_text

from .seats import PrivatePages, SeatKeys
from .setup import Setup
from .storage import REPLAYED_KINDS, GameLog, StorageError

HISTORY_SHOWN = 200
MAX_TEXT = 200  # characters of any text field in a command (an action is ~40)


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


class Session(PrivatePages):
    def __init__(self, setup: Setup, log: GameLog | None = None, game_id: int | None = None,
                 catalog: Any | None = None) -> None:
        self.setup = setup
        self.system = registry.get(setup.system)
        # The game's referee knows its rules, its board and its dice; a setup it cannot
        # play (an unknown miniature, an illegal force) is refused here, before any log.
        self.referee: Referee = self.system.referee(setup, catalog)
        self.words = self.referee.words
        self.log = log
        self.game_id = game_id
        self.origin: Any = self.referee.new_state()  # where the game's operations start
        self.state: Any = self.origin
        self.ops: list[_Op] = []
        self.desync: list[str] | None = None
        self._prompt_shown: dict[str, Any] | None = None  # the last prompt told
        self.confirm: list[Explanation] | None = None
        self.seats = SeatKeys()  # each player's private page, by key
        # With ``confirm``: a measured rule too close to call, put to the players; their
        # no leaves the board to be put right (``choose`` with option "no").
        self.question: str | None = None
        self.last_obs: Observation | None = None
        self.follow_camera = True
        self._misreads: set[str] = set()
        self.health: dict[str, dict[str, Any]] = {}
        self.history: list[dict[str, Any]] = []
        self._seq = 0  # entry numbers when there is no log file
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()

    # -- creation ------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: Setup, log: GameLog | None = None,
            catalog: Any | None = None) -> Session:
        s = cls(setup, log, None, catalog)  # a bad setup is refused before anything is written
        if log is not None:
            s.game_id = log.new_game(setup.to_dict(), s.system.name, s.system.rules_version)
        return s

    @classmethod
    def resume(cls, log: GameLog, game_id: int | None = None,
               catalog: Any | None = None) -> Session:
        """The game as the log has it (by default the unfinished game that was on the
        table); ``StorageError`` when the log lost or damaged any of its entries."""
        row = log.game(game_id) if game_id is not None else log.on_table()
        if row is None:
            raise StorageError(f"{log.path}: no unfinished game to resume")
        log.check(row.id)
        setup = Setup.from_dict(row.setup)
        try:
            s = cls(setup, log, row.id, catalog)
        except (SetupRefused, registry.UnknownGame) as err:
            raise StorageError(f"{log.path}: game {row.id} cannot be set up: {err}") from None
        ops: list[_Op] = []
        since: list[dict[str, Any]] = []  # entries after the last change of state
        for e in log.entries(row.id):
            if e.kind == "undo":
                if ops:
                    ops.pop()
            elif e.kind in REPLAYED_KINDS:
                ops.append(_Op(e.kind, e.body))
            if e.kind == "seat_key" and isinstance(e.body.get("digest"), str) \
                    and e.body.get("seat") in ("p1", "p2"):
                s.seats.restore(e.body["seat"], e.body["digest"])
            since = [] if e.kind in REPLAYED_KINDS else [*since, e.to_dict()]
            s.history.append(entry_text(s.words, e.to_dict()))
        try:
            s.state = s._replay(ops)
        except (ActionRefused, NotationError, CommandRefused, KeyError) as err:
            raise StorageError(f"{log.path}: game {row.id} does not replay: {err}") from None
        for entry in since:  # a die rolled for a step that needs two, before a crash
            s.referee.resume_input(s.state, entry)
        s.ops = ops
        s.history = s.history[-HISTORY_SHOWN:]
        if row.rules_version and row.rules_version != s.system.rules_version:
            # It replayed, but under other rules code than it was played with: say so.
            s.warn([], f"this game was played under rules {row.rules_version} and is "
                   f"replayed under {s.system.rules_version}")
        return s

    def start_from(self, state: Any) -> None:
        """Begin at a given position instead of the first turn (tests, teaching tables);
        not stored in the log, so such a session is not resumable."""
        with self._lock:
            self.origin = self.state = state
            self.ops.clear()

    def _replay(self, ops: list[_Op]) -> Any:
        state = self.origin
        ref = self.referee
        for op in ops:
            if op.kind == "action":
                state, _ = ref.apply(state, ref.parse_action(op.body["action"]))
            else:
                state = ref.correct(state, op.body)
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

    def note(self, kind: str, body: dict[str, Any], source: str) -> None:
        """Write first (durable), then remember for the history pane."""
        if self.log is not None and self.game_id is not None:
            entry = self.log.append(self.game_id, kind, body, source).to_dict()
        else:
            self._seq += 1
            entry = {"seq": self._seq, "time": round(time.time(), 3),
                     "kind": kind, "source": source, **body}
        self.history.append(entry_text(self.words, entry))
        if len(self.history) > HISTORY_SHOWN * 2:
            del self.history[:HISTORY_SHOWN]

    # -- the rules -------------------------------------------------------------------------
    def play(self, action: Any, source: str, out: list[SessionEvent]) -> list[RulesEvent]:
        """Apply, log, then tell. Raises ``ActionRefused`` with nothing changed."""
        before = self.state
        new, events = self.referee.apply(before, action)
        body: dict[str, Any] = {"action": str(action), "events": [e.to_dict() for e in events]}
        hidden = self.referee.secret(before, action)
        seal = {"secret": hidden[0], "public": hidden[1]} if hidden else {}
        body.update(seal)  # the log keeps the whole action, and who alone may know it
        self.note("action", body, source)
        self.ops.append(_Op("action", {"action": str(action), **seal}))
        self.state = new
        self.referee.played(before, new, action, source)
        if hidden:  # every screen and the event stream hear the others' words only
            self._emit(out, "action", source=source, **seal)
        else:
            self._emit(out, "action", action=str(action), source=source,
                       events=body["events"])
        for kind, data in self.referee.announcements(events):
            self._emit(out, kind, **data)
            if kind == "game_over":
                self._record_result(data, source)
        return list(events)

    def _record_result(self, data: dict[str, Any], source: str) -> None:
        """The game's result in the log (a ``result`` entry: who won, each player's
        points where the game scores them), for records and the store's standings."""
        winner = data.get("winner")
        points = data.get("points")
        self.note("result", {
            "winner": winner if winner in ("p1", "p2", "draw") else None,
            "points": {p: n for p, n in points.items() if p in ("p1", "p2")
                       and isinstance(n, int) and not isinstance(n, bool)}
            if isinstance(points, dict) else {}}, source)
        if self.log is not None and self.game_id is not None:
            self.log.set_status(self.game_id, "over")

    def after_change(self, out: list[SessionEvent]) -> None:
        """A person changed the state: the camera board may now fit, or no longer."""
        self.confirm, self.question = None, None
        if self.last_obs is not None and self.follow_camera:
            obs = self.referee.adjusted(self.state, self.last_obs)
            # Judged as a new observation would be: a misreading the rules already set
            # aside must not turn into a desync because a button was pressed.
            if self.referee.fits(self.state, obs):
                self._set_desync(None, out)
            else:
                self._set_desync(self.referee.diagnose(self.state, obs), out)
        self.prompt_changed(out)

    def _set_desync(self, lines: list[str] | None, out: list[SessionEvent],
                    source: str = "camera") -> None:
        if lines:
            lines = [self.words.humanize(line) for line in lines]
        if lines == self.desync:
            return
        was = self.desync
        self.desync = lines
        if lines:
            self.note("desync", {"problems": lines}, source)
            self._emit(out, "desync", problems=lines)
        elif was:
            self.note("resync", {}, source)
            self._emit(out, "resync")

    def prompt_changed(self, out: list[SessionEvent]) -> None:
        self._prompt_shown = self.prompt().to_dict()
        self._emit(out, "prompt", **self._prompt_shown)

    # -- public: what the table should do -----------------------------------------------------
    def prompt(self) -> Prompt:
        with self._lock:
            p = self.referee.prompt(self.state)
        how = self.referee.how_to_play.get(p.step, "")
        return replace(p, how=how) if how and not p.how else p

    def dice_needed(self) -> tuple[Any, ...]:
        with self._lock:
            return self.referee.dice_needed(self.state)

    def snapshot(self) -> dict[str, Any]:
        """Everything a screen needs, in one JSON-ready object."""
        with self._lock:
            view = self.referee.view(self.state)
            return {
                "game_id": self.game_id,
                "game": self.system.describe(),
                **view,
                "setup": self.setup.to_dict(),
                "prompt": self.prompt().to_dict(),
                "desync": self.desync,
                "confirm": None if self.confirm is None else
                [[str(a) for a in e.actions] for e in self.confirm],
                "confirm_labels": None if self.confirm is None else
                [[self.words.action(a) for a in e.actions] for e in self.confirm],
                "confirm_question": None if self.confirm is None or self.question is None
                else self.words.humanize(self.question),
                "follow_camera": self.follow_camera,
                "health": dict(self.health),
                "history": self.history[-HISTORY_SHOWN:],
                "seen": None if self.last_obs is None else self.last_obs.to_dict(),
                "correction_places": self.referee.correction_places,
                "can_undo": bool(self.ops),
                "undo_label": self._op_text(self.ops[-1]) if self.ops else None,
            }

    def _op_text(self, op: _Op) -> str:
        if op.body.get("secret"):
            return str(op.body.get("public", ""))
        if op.kind == "action":
            return self.words.action(op.body["action"])
        return "correction: " + self.words.correction(op.body)

    # -- input 1: people ---------------------------------------------------------------------
    def command(self, cmd: dict[str, Any], source: str = "dashboard") -> list[SessionEvent]:
        """Run one command; ``CommandRefused`` (nothing changed) when it is refused.

        The table's own: ``{"do": "action", "action": "<the game's notation>"}``,
        ``{"do": "undo"}``, ``{"do": "choose", "option": 0}`` (one reading of a camera
        board with several), ``{"do": "correct", "piece": ..., "to": ...}`` (or the
        game's own correction fields),
        ``{"do": "follow_camera", "on": false}``, ``{"do": "board_ok"}`` (the board on
        the table is right, the camera misreads it: overrule its reading where they
        disagree until that changes). Then the game's (``Referee.commands``: dice typed
        in, its buttons), e.g. ``{"do": "roll", "player": "p1", "faces": [3, "blade"]}``.
        """
        if not isinstance(cmd, dict):
            raise CommandRefused("a command is a JSON object with a 'do' field")
        do = cmd.get("do")
        if not isinstance(do, str):
            raise CommandRefused(f"do: the command's name, not {quote(do)}")
        handlers = self._handlers()
        if do not in handlers:
            raise CommandRefused(f"unknown command {quote(do)}, or nothing waits for it now; "
                                 f"now: {', '.join(handlers)}")
        out: list[SessionEvent] = []
        with self._lock:
            self._run(handlers[do], cmd, source, out)
        return out

    def _handlers(self) -> dict[str, Callable[[dict[str, Any], str, list[SessionEvent]], None]]:
        """The table's own commands, then the game's (dice, its buttons)."""
        handlers: dict[str, Callable[[dict[str, Any], str, list[SessionEvent]], None]] = {
            "action": self._cmd_action, "undo": self._cmd_undo, "choose": self._cmd_choose,
            "correct": self._cmd_correct, "follow_camera": self._cmd_follow,
            "board_ok": self._cmd_board_ok,
        }
        for name, fn in self.referee.commands().items():
            handlers.setdefault(name, lambda c, src, o, fn=fn: fn(self, c, src, o))
        # Dice (or cards) typed in, for a game that says what they mean (``from_faces``):
        # each need's command takes its faces.
        # Needs may share a command (both players' initiative dice): the player says which.
        if self.referee.reads_faces():
            by_command: dict[str, list[DiceNeed]] = {}
            for need in self.referee.dice_needed(self.state):
                by_command.setdefault(need.command, []).append(need)
            for command, needs in by_command.items():
                handlers.setdefault(command, lambda c, src, o, needs=needs:
                                    self._cmd_faces(needs, c, src, o))
        # The dashboard's Ready button (and a box button a game maps to it): the prompt's
        # proposal, for a game whose referee has no "ready" of its own.
        handlers.setdefault("ready", self._cmd_ready)
        return handlers

    def _cmd_faces(self, needs: list[DiceNeed], cmd: dict[str, Any], source: str,
                   out: list[SessionEvent]) -> None:
        """``{"do": need.command, "player": "p1", "faces": [codes]}`` (or ``"die": n``): the
        dice or the card the table waits for, typed in."""
        player = check_player(cmd.get("player"))
        need = next((n for n in needs if n.player == player), needs[0])
        if player != need.player or need.die is None:
            raise CommandRefused(f"{need.label or need.kind} is "
                                 f"{self.setup.names[need.player]}'s now")
        self.play(self.referee.from_faces(self.state, need, typed_roll(need.die, cmd, need.n)),
                  source, out)
        self.after_change(out)

    def _cmd_ready(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        """``{"do": "ready", "player": "p1"}``: what the prompt proposes now, for the
        player it asks."""
        player = check_player(cmd.get("player"))
        p = self.referee.prompt(self.state)
        if not p.proposal:
            raise CommandRefused("nothing waits for Ready now: "
                                 + self.words.humanize(p.text))
        if p.player is not None and player != p.player:
            raise CommandRefused(f"{self.words.player(p.player)} is asked, not "
                                 f"{self.words.player(player)}")
        self.play(self.referee.parse_action(p.proposal), source, out)
        self.after_change(out)

    def _run(self, handler: Callable[[dict[str, Any], str, list[SessionEvent]], None],
             cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        try:
            handler(cmd, source, out)
        except ActionRefused as e:
            raise CommandRefused(f"refused by the rules: {self.words.humanize(str(e))}") \
                from None
        except NotationError as e:
            raise CommandRefused(str(e)) from None

    def _cmd_action(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        action = self.referee.parse_action(
            _text(cmd, "action", "a line of text: an action in the game's notation"))
        self.play(action, source, out)
        self.after_change(out)

    def _cmd_undo(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        if not self.ops:
            raise CommandRefused("nothing to undo")
        last = self.ops[-1]
        state = self._replay(self.ops[:-1])
        self.note("undo", {"undone": last.body}, source)
        self.ops.pop()
        if self.referee.is_over(self.state) and not self.referee.is_over(state) \
                and self.log is not None and self.game_id is not None:
            self.log.set_status(self.game_id, "playing")  # its result no longer stands
        self.state = state
        self.referee.forget_inputs()
        self._emit(out, "undo", undone=_shown(last.body), source=source)
        self.after_change(out)

    def _cmd_choose(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        if not self.confirm:
            raise CommandRefused("no camera reading is waiting for confirmation")
        i = cmd.get("option")
        if i == "no" and self.question is not None:
            # The players say the measured rule does not hold: nothing is played and
            # the board, as the camera saw it, is to be put right.
            self.note("answered", {"question": self.question, "answer": "no"}, source)
            self.after_change(out)
            return
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self.confirm):
            raise CommandRefused(f"option: 0 to {len(self.confirm) - 1}")
        chosen = self.confirm[i]
        if self.question is not None:
            self.note("answered", {"question": self.question, "answer": "yes"}, source)
        self.confirm, self.question = None, None
        for a in chosen.actions:
            self.play(a, source, out)
        self.after_change(out)

    def _cmd_board_ok(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        obs = self.last_obs
        if obs is None or not self.desync:
            raise CommandRefused("nothing to overrule: the camera agrees with the game")
        places = self.referee.overrule(self.state, obs)
        self.note("board_ok", {"regions": places}, source)
        self._emit(out, "warning", message="camera overruled in " + " ".join(places)
                   + "; its wrong readings there are doubted while they last")
        self.after_change(out)

    def _cmd_follow(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        on = cmd.get("on")
        if not isinstance(on, bool):
            raise CommandRefused("on: true or false")
        self.follow_camera = on
        self.note("follow_camera", {"on": on}, source)
        if not on:
            self._set_desync(None, out, source)
        self.after_change(out)

    # -- corrections (outside the rules, for fixing a table by hand) ----------------------------
    def _cmd_correct(self, cmd: dict[str, Any], source: str, out: list[SessionEvent]) -> None:
        # A screen or a tool that knows no game says ``piece`` and ``to``; the game's
        # first correction field is its own word for the piece.
        fields = self.referee.correction_fields
        body = {k: cmd[k] for k in fields if k in cmd}
        if "piece" in cmd and fields and fields[0] not in body:
            body[fields[0]] = cmd["piece"]
        new = self.referee.correct(self.state, body)
        self.note("correction", body, source)
        self.ops.append(_Op("correction", body))
        self.referee.corrected(self.state, new, body)
        self.state = new
        self._emit(out, "correction", source=source, **body)
        self.after_change(out)

    # -- input 2: the camera -------------------------------------------------------------------
    def observe(self, obs: Observation, source: str = "camera") -> list[SessionEvent]:
        out: list[SessionEvent] = []
        with self._lock:
            self.last_obs = obs
            cells = {k: [b.to_dict() for b in v] for k, v in obs.regions.items() if v}
            self.note("observation", {"frame": obs.frame, "regions": cells}, source)
            self._emit(out, "board", **obs.to_dict())
            if not self.follow_camera:
                return out
            ref = self.referee
            r = ref.reconcile(self.state, ref.adjusted(self.state, obs))
            ref.settle(r)
            self.question = None  # asked again below if this board still raises it
            for text in r.misread:
                if text not in self._misreads:
                    self._misreads.add(text)  # said once, not at every frame commit
                    self.warn(out, text)
            if r.fits:
                self.confirm = None
                self._set_desync(None, out)
                # (what the board shows may change the prompt: a creature a card
                # summoned is placed, and no longer asked for)
                if self.prompt().to_dict() != self._prompt_shown:
                    self.prompt_changed(out)
                return out
            options = ref.distinct(r.explanations)
            if len(options) == 1 and r.question is None:
                self.confirm = None
                try:
                    for a in options[0].actions:
                        self.play(a, source, out)
                except ActionRefused as e:  # pragma: no cover - the search applied them
                    self.warn(out, f"camera reading refused: {e}")
                self._set_desync(None, out)
                self.prompt_changed(out)
            elif options:
                self.confirm, self.question = options, r.question
                self._set_desync(None, out)
                self._emit(out, "confirm",
                           options=[[str(a) for a in e.actions] for e in options],
                           question=r.question)
            else:
                self.confirm = None
                self._set_desync(ref.diagnose(self.state, ref.adjusted(self.state, obs)), out)
        return out

    # -- input 3: the table box ---------------------------------------------------------------
    def device(self, ev: DeviceEvent) -> list[SessionEvent]:
        out: list[SessionEvent] = []
        with self._lock:
            if ev.kind in ("connected", "lost", "lost_events", "unknown_event", "stale_roll"):
                self.note("device", ev.to_dict(), "box")
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
                self.warn(out, f"the table box {what}: {why}; check the table and enter "
                           "them by hand")
            elif ev.kind == "unknown_event":
                self.warn(out, "the table box sent an event this version of tablesight does "
                           f"not know ({ev.detail.get('text', '?')}): skipped")
            elif ev.kind == "stale_roll":
                why = ev.detail.get("reason") or "it answers a roll asked for before a restart"
                self.warn(out, f"the table box sent dice that were set aside: {why}; "
                           "roll again")
            elif ev.kind == "roll":
                self.note("device", ev.to_dict(), "box")
                try:
                    self.referee.device(self, ev, out)
                except (CommandRefused, ActionRefused) as e:
                    self.warn(out, f"{ev.player or 'the box'} rolled: {e}")
            elif ev.kind == "button":
                # Every press is logged (where the box's stream stands); the game says
                # which buttons run a command.
                self.note("device", ev.to_dict(), "box")
                name = self.referee.button_commands.get(ev.button or "")
                handlers = self._handlers()
                if name in handlers:
                    cmd = {"do": name, "player": ev.player}
                    try:
                        self._run(handlers[name], cmd, "box", out)
                    except CommandRefused as e:
                        self.warn(out, f"{ev.player} pressed {ev.button}: {e}")
            else:
                self.referee.device(self, ev, out)
        return out

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
                self.note("health", {"part": part, "ok": ok, "message": message}, part)
                self._health(out, part, ok, message)
        return out

    def _health(self, out: list[SessionEvent], part: str, ok: bool, message: str) -> None:
        self.health[part] = {"ok": ok, "message": message}
        self._emit(out, "health", part=part, ok=ok, message=message)

    def warn(self, out: list[SessionEvent], message: str) -> None:
        message = self.words.humanize(message)
        self.note("warning", {"message": message}, "session")
        self._emit(out, "warning", message=message)

    # -- export ------------------------------------------------------------------------------------
    def record(self, reveal: bool = False) -> dict[str, Any]:
        """The game record (``tablesight-record/1``): setup, every operation, the result.
        While the game goes on, what one seat alone may know is left out (the secret
        operations in the others' words, no final state) unless ``reveal`` (staff)."""
        with self._lock:
            hide = not reveal and not self.referee.is_over(self.state) and any(
                op.body.get("secret") for op in self.ops)
            out = {"format": "tablesight-record/1", "setup": self.setup.to_dict(),
                   "operations": [{"kind": op.kind, **(_shown(op.body) if hide else op.body)}
                                  for op in self.ops],
                   "game": self.system.describe(),
                   "final": None if hide else self.referee.state_dict(self.state)}
            if hide:
                out["hidden"] = "secrets of a game still played are left out"
            return out


def _shown(body: dict[str, Any]) -> dict[str, Any]:
    """An operation as screens and the event stream may carry it: a secret one in the
    others' words (who alone knows it, and what they read)."""
    if body.get("secret"):
        return {"secret": body["secret"], "public": body.get("public", "")}
    return body


def _text(cmd: dict[str, Any], key: str, what: str) -> str:
    v = cmd.get(key)
    if not isinstance(v, str) or len(v) > MAX_TEXT:
        raise CommandRefused(f"{key}: {what}, not {quote(v)}")
    return v
