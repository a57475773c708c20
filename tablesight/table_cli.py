"""The main job: ``tablesight run`` (a real table), ``tablesight demo`` (the embedded
defaults: a synthetic camera, the simulated table box, the dashboard), and the game
record tools ``tablesight export`` and ``tablesight replay``."""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from table import registry
from table.errors import SetupRefused
from table.session import GameLog, Session, SessionEvent, Setup, StorageError
from table.session.setup import SetupFormatError
from table.system import Wording

from .paths import data_home
from .usage import UsageError, installed_game, read_json

HUB_TOKEN_ENV = "TABLESIGHT_HUB_TOKEN"


# -- the terminal voice ---------------------------------------------------------------
class Narrator:
    """Prints what the table says, one line per thing, for a terminal or a log."""

    def __init__(self, out: TextIO, prompts: bool = True, words: Wording | None = None) -> None:
        self.out = out
        self.prompts = prompts
        self.words = words  # names for the ids the rules' events carry
        self._last_prompt = ""
        self._lock = threading.Lock()

    def _correction(self, body: dict[str, Any]) -> str:
        """A correction as the game words it (its fields are the game's own)."""
        fields = {k: v for k, v in body.items() if k not in ("kind", "source", "t")}
        if self.words is not None:
            return self.words.correction(fields)
        return ", ".join(f"{k} {v}" for k, v in fields.items())

    def __call__(self, ev: SessionEvent) -> None:
        d = ev.data
        lines: list[str] = []
        if ev.kind == "action" and d.get("secret"):  # one seat's secret: its public words
            lines.append(f"[{d.get('source', '')}] {d.get('public', '')}")
        elif ev.kind == "action":
            for e in d.get("events", []):
                text = self.words.event(e) if self.words else None
                if text:
                    lines.append(text.strip())
            if not lines:
                lines.append(self.words.action(d["action"]) if self.words else d["action"])
            lines = [f"[{d.get('source', '')}] " + x for x in lines]
        elif ev.kind == "prompt" and self.prompts:
            if d["text"] != self._last_prompt:
                self._last_prompt = d["text"]
                lines.append(f">> {d['text']}")
        elif ev.kind == "desync":
            lines += [f"!! DESYNC: {p}" for p in d["problems"]]
        elif ev.kind == "resync":
            lines.append("!! board matches the game again")
        elif ev.kind == "confirm":
            opts = [[self.words.action(a) for a in o] if self.words else o
                    for o in d["options"]]
            lines.append("?? the camera saw a move with several readings: "
                         + " | ".join(", ".join(o) for o in opts))
        elif ev.kind in ("warning",):
            lines.append(f"!  {d['message']}")
        elif ev.kind == "health":
            lines.append(f"-- {d['part']}: {'ok' if d['ok'] else d['message']}")
        elif ev.kind == "undo":
            undone = d["undone"]
            if undone.get("secret"):
                what = str(undone.get("public", ""))
            elif "action" in undone:
                what = self.words.action(undone["action"]) if self.words else undone["action"]
            else:
                what = f"correction ({self._correction(undone)})"
            lines.append(f"<< undo: {what}")
        elif ev.kind == "correction":
            lines.append(f"<< correction: {self._correction(d)}")
        if lines and self.words is not None:
            lines = [self.words.humanize(x) for x in lines]
        if lines:
            with self._lock:
                self.out.write("\n".join(lines) + "\n")
                self.out.flush()


# -- shared setup ---------------------------------------------------------------------------
def _open_log(path: Path) -> GameLog:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return GameLog(path)
    except (StorageError, OSError) as e:
        raise UsageError(str(e)) from None


def _setup_from_args(args: argparse.Namespace) -> Setup:
    if args.setup:
        try:
            return Setup.from_dict(read_json(args.setup))
        except SetupFormatError as e:
            raise UsageError(f"{args.setup}: {e}") from None
    system = installed_game(getattr(args, "game", None))
    game = system.name
    if args.forces:
        wbs = []
        for f in args.forces:
            try:
                wbs.append(tuple(system.force_from_file(read_json(f))))
            except SetupRefused as e:
                raise UsageError(f"{f}: {e}") from None
        return Setup({"p1": wbs[0], "p2": wbs[1]}, system=system.name)
    return Setup.sample(game, ("Player 1", "Player 2"))


def _ports() -> list[dict[str, Any]]:
    from serial.tools import list_ports

    return [{"device": p.device, "description": p.description}
            for p in list_ports.comports()]


def _check_serving(args: argparse.Namespace) -> None:
    """Refuse a bad --host/--admin-pin before anything is created (no game, no log)."""
    from web.security import PinError, check_pin_strength

    from .server import is_loopback

    if not is_loopback(args.host) and not args.admin_pin:
        raise UsageError(f"serving on {args.host} lets anyone on the network change the game: "
                         "give an admin PIN (--admin-pin) for setup and corrections")
    if args.admin_pin is not None:
        try:
            check_pin_strength(args.admin_pin)
        except PinError as e:
            raise UsageError(str(e)) from None


def _serve(services: Any, args: argparse.Namespace) -> Any:
    """The dashboard for ``services`` on --host/--web-port, started; prints where."""
    from web import create_app

    from .server import ServeError, Server, served_names

    app = create_app(services, admin_pin=args.admin_pin,
                     allowed_hosts=served_names(args.host) + list(args.allow_host or ()))
    try:
        server = Server(app, args.host, args.web_port, args.admin_pin).start()
    except ServeError as e:
        raise UsageError(str(e)) from None
    urls = server.urls()
    print(f"dashboard: {urls[0]}" + (f"  (also {', '.join(urls[1:])})" if urls[1:] else ""))
    return server


# -- tablesight run ---------------------------------------------------------------------------
def cmd_run(args: argparse.Namespace) -> int:
    from firmware_bridge.bridge import TableBox, find_box
    from vision.camera import CameraError, open_source
    from vision.layout import Layout as VLayout
    from vision.layout import LayoutError, game_layout
    from web import TableServices

    from .live import LiveTable
    from .server import wait_forever

    _check_serving(args)
    _check_hub(args)
    log = _open_log(Path(args.db) if args.db else data_home() / "games.db")
    try:
        if args.new or log.on_table() is None:
            session = Session.new(_setup_from_args(args), log)
            print(f"new game {session.game_id} in {log.path}")
        else:
            session = Session.resume(log)
            # Where the game stands, in the game's own words: the seam promises a
            # prompt for every state, not a turn counter.
            now = session.words.humanize(session.referee.prompt(session.state).text)
            print(f"resumed game {session.game_id} from {log.path} "
                  f"({len(session.ops)} operations): {now}")
    except (StorageError, SetupFormatError, SetupRefused) as e:
        raise UsageError(str(e)) from None
    try:
        # The printed map of the game on the table (a resumed game may be any game).
        layout = VLayout.load(args.layout) if args.layout else \
            game_layout(session.system.name)
    except LayoutError as e:
        raise UsageError(str(e)) from None
    camera = None
    if args.camera:
        try:
            camera = open_source(args.camera)
        except CameraError as e:
            raise UsageError(str(e)) from None
    box = None
    if args.port:
        url = find_box() if args.port == "auto" else args.port
        if url is None:
            print("no table box found: dice are typed in on the dashboard", file=sys.stderr)
        else:
            box = TableBox(url, resume=session.box_resume())  # no press delivered twice
    try:
        live = LiveTable(session, layout, camera, box)
    except LayoutError as e:  # the layout's learned board cannot be read
        raise UsageError(str(e)) from None
    live.keeper = _keeper(args)
    if args.board:
        from .vision_cli import use_board_file

        use_board_file(live.detector, args.board)
    session.subscribe(Narrator(sys.stdout, words=session.words))
    services = TableServices(session, live, log, _ports, open_camera=open_source,
                             open_box=lambda port: TableBox(
                                 port, resume=services.session.box_resume()))
    services.camera_spec = args.camera or "none"
    services.use_port(box.url if box is not None else "none")
    publisher = _publisher(args, log, lambda: services.session.snapshot())
    server = _serve(services, args)
    live.start()
    stop = threading.Event()
    wait_forever(stop)
    server.stop()
    live.stop()
    if publisher is not None:
        publisher.stop()
    log.close()
    return 0


# -- tablesight demo ----------------------------------------------------------------------------
DEMO_LIMIT_S = 300.0  # with --exit-at-end: a --fast game takes 15-120 s here

def cmd_demo(args: argparse.Namespace) -> int:
    _check_serving(args)
    _check_hub(args)
    system = installed_game(args.game)
    setup = Setup.sample(system.name)
    try:  # the scripted players are the game's: a game may have none
        probe = system.referee(setup)
        probe.autoplay(probe.new_state(), random.Random(0))
    except NotImplementedError:
        raise UsageError(f"{system.title} has no scripted players: it cannot be demoed "
                         "(tablesight run plays it at a real table)") from None
    made = None if args.db else Path(tempfile.mkdtemp(prefix="tablesight-demo-"))
    db = made / "demo.db" if made is not None else Path(args.db)
    try:
        return _demo(args, system, setup, db)
    except UsageError:
        # Refused before it began (the dashboard's port in use, no emulator): no
        # temporary folder is left behind.
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        raise


def _demo(args: argparse.Namespace, system: Any, setup: Setup, db: Path) -> int:
    from firmware_bridge.bridge import TableBox
    from vision.layout import game_layout
    from vision.synth.camera import SyntheticCamera
    from vision.synth.scene import Conditions, SceneRenderer
    from web import TableServices

    from .live import LiveTable
    from .scripted import ScriptedTable

    log = _open_log(db)
    session = Session.new(setup, log)
    layout = game_layout(system.name)
    camera = SyntheticCamera(SceneRenderer(layout), Conditions(tilt_deg=12.0, noise=1.5),
                             fps=args.fps, seed=args.seed)
    emulator = sim = None
    if args.emulator:
        from firmware_bridge.emulator import Emulator, EmulatorError

        try:
            emulator = Emulator()
        except EmulatorError as e:
            raise UsageError(f"the firmware emulator cannot start: {e}") from None
        emulator.run()
        port, press = emulator.port, emulator.tap
    else:
        from firmware_bridge.simulator import BoxSimulator

        sim = BoxSimulator().start()
        port, press = sim.port, sim.press
    box = TableBox(port)
    live = LiveTable(session, layout, camera, box)
    live.keeper = _keeper(args)
    quiet = session.subscribe(Narrator(sys.stdout, not args.quiet, session.words))
    server = None
    if not args.no_web:
        from vision.camera import open_source

        services = TableServices(session, live, log, _ports, open_camera=open_source,
                                 open_box=TableBox)
        services.camera_spec = "synthetic"
        services.use_port(port, "the demo's simulated table box")
    print("tablesight demo: a synthetic camera watches two scripted players on the "
          "printed map;\nthe simulated table box rolls their dice"
          + (" (the real firmware in simavr)" if emulator else "") + f". Game log: {db}")
    publisher = _publisher(args, log, lambda: (services.session if server is not None
                                               else session).snapshot())
    if not args.no_web:
        server = _serve(services, args)
    live.start()
    rng = random.Random(args.seed)
    stop = threading.Event()  # Ctrl-C or SIGTERM: the players stop, the demo ends
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    while True:
        players = ScriptedTable(session, camera, layout, press, rng,
                                pace=0.0 if args.fast else args.pace,
                                hand_s=0.0 if args.fast else 0.35, armed=live.ready_to_roll)
        players.sync_from(session.state)  # a new game starts on a cleared map
        over = _play_demo_game(session, players, log, args.exit_at_end, stop,
                               lambda s=session: server is not None and services.session is not s)
        if not server or args.exit_at_end or stop.is_set():
            break
        if services.session is session:
            print("the dashboard stays up: start another game there (the scripted players "
                  "play it); Ctrl-C to quit")
            if not _wait_for_new_game(services, session, stop):
                break
        session = services.session
        quiet()
        quiet = session.subscribe(Narrator(sys.stdout, not args.quiet, session.words))
        print(f"\nnew game {session.game_id}: {session.setup.names['p1']} and "
              f"{session.setup.names['p2']}")
    quiet()  # shutting the parts down is not news for the table
    if server:
        server.stop()
    live.stop()
    if publisher is not None:  # what the hub lacks goes now, if it answers
        publisher.stop(drain_s=10.0)
    if sim:
        sim.stop()
    if emulator:
        emulator.close()
    log.close()
    return 0 if over or players.stop.is_set() else 1


def _play_demo_game(session: Session, players: Any, log: GameLog, unattended: bool,
                    stop: threading.Event, replaced: Callable[[], bool]) -> bool:
    """The scripted players play ``session`` to its end, until Ctrl-C, or until the
    dashboard puts another game on the table (``replaced``); a summary line. True when
    the game is over."""
    # Unattended (tests, CI), a game that cannot end must fail with its log, not hang.
    runner = threading.Thread(target=players.run,
                              kwargs={"max_seconds": DEMO_LIMIT_S if unattended else None},
                              name="players", daemon=True)
    t0 = time.monotonic()
    runner.start()
    try:
        while runner.is_alive() and not stop.is_set() and not replaced():
            runner.join(0.3)
    except KeyboardInterrupt:
        stop.set()
    if runner.is_alive():
        players.stop.set()
        runner.join(5.0)
    st = players.stats
    names = session.setup.names

    def who(p: str) -> str:
        return names.get(p, p)

    over = session.referee.is_over(session.state)
    score = session.referee.view(session.state).get("score") or {}
    # Desyncs as the table showed them (the log), not as the players noticed them.
    desyncs = sum(1 for e in log.entries(session.game_id) if e.kind == "desync") \
        if session.game_id is not None else st.desyncs
    winner = score.get("winner")
    result = f"{who(winner)} won" if winner else "no winner yet"
    points = ", ".join(f"{who(p)} {v['value']} {v['label']}"
                       for p, v in (score.get("players") or {}).items())
    print(f"\ngame {'over' if over else 'stopped'} after {time.monotonic() - t0:.0f} s: "
          f"{result}; {points}; {st.board_acts} moves seen by the camera, {st.removals} "
          f"taken off, {st.confirms} confirmations, {desyncs} desyncs")
    if not over and not players.stop.is_set():
        print("the players' last acts:\n  " + "\n  ".join(st.log[-12:]))
    return over


def _wait_for_new_game(services: Any, current: Session, stop: threading.Event) -> bool:
    """Until the dashboard puts another game on the table (True) or Ctrl-C (False)."""
    try:
        while not stop.wait(0.3):
            if services.session is not current:
                return True
    except KeyboardInterrupt:
        pass
    return False


# -- records ------------------------------------------------------------------------------------
def _existing_log(path: str) -> GameLog:
    """A game log that must exist already (export, backup): every problem one line."""
    try:
        return GameLog(path, create=False)
    except StorageError as e:
        raise UsageError(str(e)) from None


def cmd_export(args: argparse.Namespace) -> int:
    log = _existing_log(args.db)
    try:
        games = log.games()
        if not games:
            raise UsageError(f"{args.db}: no games")
        session = Session.resume(log, args.game or games[-1].id)
    except (StorageError, SetupFormatError) as e:
        raise UsageError(str(e)) from None
    json.dump(session.record(reveal=args.reveal), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    log = _existing_log(args.db)
    try:
        out = log.backup(args.out)
        games = log.games()
    except StorageError as e:
        raise UsageError(str(e)) from None
    finally:
        log.close()
    print(f"backed up {len(games)} games ({sum(g.entries for g in games)} entries, every "
          f"one checked) to {out} and {out.name}-head")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    if not isinstance(data, dict) or data.get("format") != "tablesight-record/1":
        raise UsageError(f"{args.file}: not a tablesight game record (tablesight-record/1)")
    if data.get("hidden"):
        raise UsageError(f"{args.file}: exported mid-game with the players' secrets left "
                         "out, so it cannot be played back: export it with --reveal")
    try:
        setup = Setup.from_dict(data.get("setup"))
        session = Session.new(setup)
    except (SetupFormatError, SetupRefused, registry.UnknownGame) as e:
        raise UsageError(f"{args.file}: {e}") from None
    session.subscribe(Narrator(sys.stdout, prompts=False, words=session.words))
    ops = data.get("operations")
    if not isinstance(ops, list):
        raise UsageError(f"{args.file}: operations must be a list")
    from table.errors import CommandRefused

    for i, op in enumerate(ops):
        if not isinstance(op, dict) or op.get("kind") not in ("action", "correction"):
            raise UsageError(f"{args.file}: operation {i} is not an action or a correction")
        fields = session.referee.correction_fields  # what the game's corrections carry
        cmd = ({"do": "action", "action": op.get("action")} if op["kind"] == "action"
               else {"do": "correct", **{k: op[k] for k in fields if k in op}})
        try:
            session.command(cmd, source="replay")
        except CommandRefused as e:
            raise UsageError(f"{args.file}: operation {i} ({op}) does not replay: {e}") from None
        if args.delay:
            time.sleep(args.delay)
    final = session.referee.state_dict(session.state)
    if "final" in data and data["final"] != final:
        print("the replayed game ends differently from the record", file=sys.stderr)
        return 1
    # The game's own score, as its screens show it.
    score = session.referee.view(session.state).get("score") or {}
    players = score.get("players") or {}
    label = next((v.get("label") for v in players.values()), None) or "score"
    points = ", ".join(f"{session.words.humanize(p)} {v.get('value')}"
                       for p, v in players.items())
    winner = score.get("winner")
    print(f"replayed {len(ops)} operations: "
          f"{session.words.humanize(winner) + ' won' if winner else 'no winner'}"
          f"{f'; {label}: {points}' if points else ''}")
    return 0


class _WithDefaults(argparse.HelpFormatter):
    """Help that names each option's default, where it has one worth saying."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text:
            return text
        return f"{text} (default: %(default)s)"


def add_parsers(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="the real table: camera, table box, dashboard")
    run.add_argument("--camera", help="camera: device index, URL, video file or image folder")
    run.add_argument("--port", help="table box serial port or URL ('auto' to search)")
    run.add_argument("--layout", help="the printed map's layout JSON (default: standard)")
    run.add_argument("--board", help="a board the project did not print, as learned by "
                                     "'tablesight vision learn-board' (PNG)")
    run.add_argument("--db", help="game database (default: the tablesight data folder)")
    run.add_argument("--new", action="store_true", help="start a new game even if one is open")
    run.add_argument("--setup", help="setup JSON (tablesight-setup/1) for a new game")
    # "--warbands": the option's name before there was more than one game; still read.
    run.add_argument("--forces", "--warbands", nargs=2, metavar=("P1.json", "P2.json"),
                     help="each player's force file, in the game's format")
    run.add_argument("--game", help="the game of a new game (tablesight games; default "
                                    f"{registry.default()}): its sample forces, or --forces "
                                    "in its format")
    _keep_frames_arg(run)
    _serving_args(run)
    _hub_args(run)
    run.set_defaults(func=cmd_run)

    demo = sub.add_parser("demo", help="the table with its embedded defaults (no hardware)",
                          formatter_class=_WithDefaults)
    demo.add_argument("--game", help="an installed game (tablesight games); default "
                       f"{registry.default()}")
    demo.add_argument("--seed", type=int, default=7,
                      help="the scripted players' choices and the synthetic camera's noise")
    demo.add_argument("--fps", type=float, default=30.0,
                      help="frames a second from the synthetic camera")
    demo.add_argument("--pace", type=float, default=0.6, help="seconds between the players' acts")
    demo.add_argument("--fast", action="store_true", help="no pauses (tests, benchmarks)")
    demo.add_argument("--no-web", action="store_true", help="no dashboard, terminal only")
    demo.add_argument("--exit-at-end", action="store_true",
                      help="end when the game ends (else the dashboard stays up for another)")
    demo.add_argument("--quiet", action="store_true", help="no prompts in the terminal")
    demo.add_argument("--emulator", action="store_true",
                      help="the real firmware in simavr instead of the Python box simulator")
    demo.add_argument("--db", help="game database (default: a new temporary file)")
    _keep_frames_arg(demo)
    _serving_args(demo)
    _hub_args(demo)
    demo.set_defaults(func=cmd_demo)

    bak = sub.add_parser("backup", help="copy a game database safely, even while it is used")
    bak.add_argument("--db", required=True)
    bak.add_argument("--out", required=True, help="the new file (never overwritten)")
    bak.set_defaults(func=cmd_backup)

    exp = sub.add_parser("export", help="write a game record (JSON) from a game database")
    exp.add_argument("--db", required=True)
    exp.add_argument("--game", type=int)
    exp.add_argument("--reveal", action="store_true",
                     help="include what one player alone may know (a hidden hand) in a "
                          "game still played; a finished game's record has it anyway")
    exp.set_defaults(func=cmd_export)

    rep = sub.add_parser("replay", help="play a game record back")
    rep.add_argument("file")
    rep.add_argument("--delay", type=float, default=0.0)
    rep.set_defaults(func=cmd_replay)


def _keep_frames_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep-frames", metavar="DIR",
                   help="on a desync, write the last camera frames (PNG, with what the "
                        "detector saw) into a new folder under DIR")


def _keeper(args: argparse.Namespace) -> Any:
    """The ``--keep-frames`` keeper, or None."""
    if not getattr(args, "keep_frames", None):
        return None
    from .keep_frames import FrameKeeper

    try:
        return FrameKeeper(args.keep_frames, announce=lambda out: print(
            f"the board does not match the game: the last camera frames go to {out}",
            flush=True))
    except OSError as e:
        raise UsageError(f"--keep-frames {args.keep_frames}: {e}") from None


def _hub_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hub", metavar="URL",
                   help="publish the game log to the store's hub at URL (docs/hub.md)")
    p.add_argument("--hub-token-file", metavar="FILE",
                   help=f"the file holding this table's hub token (or {HUB_TOKEN_ENV})")


def _check_hub(args: argparse.Namespace) -> None:
    """Refuse a bad --hub or a missing token before anything is created; keeps the
    token in ``args.hub_token``."""
    args.hub_token = None
    if not getattr(args, "hub", None):
        return
    if not args.hub.startswith(("http://", "https://")):
        raise UsageError(f"--hub: the hub's address, like http://hub.local:8780, "
                         f"not {args.hub[:60]!r}")
    token = os.environ.get(HUB_TOKEN_ENV, "")
    if args.hub_token_file:
        try:
            token = Path(args.hub_token_file).read_text(encoding="utf-8").strip()
        except OSError as e:
            raise UsageError(f"--hub-token-file: {e.strerror or e}") from None
    if not token:
        raise UsageError(f"--hub needs this table's token: --hub-token-file FILE or "
                         f"{HUB_TOKEN_ENV} (the hub's 'tablesight hub table add' makes one)")
    args.hub_token = token


def _publisher(args: argparse.Namespace, log: GameLog,
               snapshot: Callable[[], dict[str, Any]]) -> Any:
    """The table's publisher to the hub, started, when --hub was given (else None)."""
    if not getattr(args, "hub_token", None):
        return None
    from .publish import Publisher, table_status

    publisher = Publisher(log.path, log.log_id(), args.hub, args.hub_token,
                          status=lambda: table_status(snapshot()))
    print(f"publishing the game log to the hub at {args.hub}")
    return publisher.start()


def _serving_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="dashboard address; 0.0.0.0 serves the LAN (needs --admin-pin)")
    p.add_argument("--web-port", type=int, default=8765, help="the dashboard's port")
    p.add_argument("--admin-pin", help="PIN for setup and corrections (required off "
                                       "localhost; at least 6 characters)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="another name the dashboard is opened by (e.g. table3.local)")
