"""What every game must do at the table, run over every installed game with no test code
of its own (as OpenSpiel runs one random simulation test over every registered game):
the games the project installs, the example game Track and the test game High Card, and
any game installed later, found through the same ``tablesight.games`` entry points.

Each property is what some part of the table relies on without knowing the game:
notation round-trips (logs and typed actions), ``apply`` leaves its input as it was
(undo, explanations of a camera board), playouts end (benches, demos), everything a
screen or a record gets is JSON, a game resumed from its log is the game that was
played, a refused action changes nothing, and the dashboard's own commands, in the
shapes ``web/static/dashboard.js`` sends them, work through the real Flask app.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.protocol import max_dice
from table import registry
from table.errors import ActionRefused, CommandRefused, NotationError
from table.session import GameLog, Session, Setup
from table.system import GameSystem, Referee
from web import TableServices, create_app

from .conftest import HIGHCARD, TRACK, install_games
from .web.test_api import post

# The example and test games, installed the way a game package is, beside what the
# project installs.
EXTRA = {**TRACK, **HIGHCARD}
GAMES = sorted(set(registry.systems()) | set(EXTRA))
SEEDS = (1, 2, 3)
MAX_ACTIONS = 20_000


@pytest.fixture(scope="module", autouse=True)
def every_game_installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    mp = pytest.MonkeyPatch()
    install_games(tmp_path_factory.mktemp("site"), EXTRA, mp)
    yield
    mp.undo()
    registry.systems.cache_clear()


def system(name: str) -> GameSystem:
    return registry.get(name)


def sample(name: str) -> Setup:
    return Setup.sample(name)


def referee(name: str) -> Referee:
    return system(name).referee(sample(name))


def as_json(what: object, where: str) -> Any:
    """``what`` survives JSON as it is (no NaN, no tuple keys, nothing a browser or a
    record could not hold)."""
    try:
        text = json.dumps(what, allow_nan=False)
    except (TypeError, ValueError) as e:
        pytest.fail(f"{where} is not JSON: {e}")
    return json.loads(text)


def every_marking_is_in_the_legend(board: dict[str, Any], game: str) -> None:
    """A newcomer can read every marking the board draws in its legend: each mark (by its
    colour and text, any number standing for numbers), each alert's symbol, each fill."""
    legend = board.get("legend", [])

    def named(text: str, color: str | None, fill: str | None = None) -> bool:
        return any((k["text"] == text or (text.isdigit() and k["text"].isdigit()))
                   and (color is None or k["color"] == color)
                   and (fill is None or k.get("fill") == fill or
                        (not text and k["color"] == fill)) for k in legend)

    for r in board.get("regions", []):
        for m in r.get("marks", []):
            assert named(m["text"], m["color"]), f"{game}: mark {m} not in the legend"
        if r.get("alert"):
            assert named(r["alert"]["symbol"], None), f"{game}: alert {r['alert']}"
        fill = r.get("fill")
        if fill and not any(m for m in r.get("marks", [])):
            assert named("", None, fill), f"{game}: the fill {fill} of {r['id']}"
        elif fill:
            assert any(k.get("fill") == fill or k["color"] == fill for k in legend), \
                f"{game}: the fill {fill} of {r['id']}"


def decision(ref: Referee, state: Any, rng: random.Random) -> tuple[Any, bool]:
    """The next action of a random game: the chance node's draw, or a legal choice."""
    a = ref.chance(state, rng)
    if a is not None:
        return a, True
    return rng.choice(list(ref.legal_actions(state))), False


# -- the rules core ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES)
def test_random_games_end_and_every_step_keeps_the_contract(game: str, seed: int) -> None:
    """A random game ends; at every step each legal action's notation reads back as the
    same action, none is listed twice, ``apply`` leaves the state it was given as it
    was, and the state, the view, the prompt and the events are JSON."""
    ref = referee(game)
    rng = random.Random(seed)
    state = ref.new_state()
    n = 0
    steps: set[str] = set()
    while not ref.is_over(state) and n < MAX_ACTIONS:
        before = as_json(ref.state_dict(state), "the state")
        view = as_json(ref.view(state), "the view")
        if n % 25 == 0:
            every_marking_is_in_the_legend(view.get("board") or {}, game)
        steps.add(as_json(ref.prompt(state).to_dict(), "the prompt")["step"])
        legal = list(ref.legal_actions(state))
        for a in legal:
            back = ref.parse_action(str(a))
            assert str(back) == str(a) and back == a, f"{str(a)!r} does not read back"
        assert len(set(map(str, legal))) == len(legal), "an action is listed twice"
        for need in ref.dice_needed(state):
            # The table box never splits a roll (PROTOCOL.md): a step's dice fit one.
            if need.die is not None:
                assert need.n <= max_dice(need.die.sides), \
                    f"{need.n} d{need.die.sides} at once: more than one box roll holds"
        action, _ = decision(ref, state, rng)
        try:
            new, events = ref.apply(state, action)
        except ActionRefused:
            assert ref.state_dict(state) == before, f"refusing {action} changed the state"
            continue  # a chance the rules refuse (a tied roll-off) is drawn again
        assert ref.state_dict(state) == before, f"applying {action} changed its input"
        as_json([e.to_dict() for e in events], "the events")
        state, n = new, n + 1
    assert ref.is_over(state), f"{game}: no end after {MAX_ACTIONS} actions"
    final = as_json(ref.view(state), "the final view")
    # A finished game's board shows where everything ended: no alert of something to
    # come (a fight) is left on it.
    board = final.get("board") or {}
    assert not [r["id"] for r in board.get("regions", []) if r.get("alert")], \
        "a finished game's board still marks something to do"
    end = ref.prompt(state)
    assert not end.options and not end.dice and end.proposal is None, \
        "a finished game still asks for something"
    assert not list(ref.legal_actions(state)), "a finished game still lists actions"
    for step in {*steps, end.step}:
        explains_how_to_play(ref, step, game)


def explains_how_to_play(ref: Referee, step: str, game: str) -> None:
    """A newcomer can open how to play every step a game prompts: a few sentences, in
    names, never an id."""
    how = ref.how_to_play.get(step, "")
    assert len(how.split()) >= 8, f"{game}: no 'how to play' for the step {step!r}"
    assert not re.search(r"p[12][#:]|\{|\}", how), f"{game}: {step!r}'s help shows {how!r}"


@pytest.mark.parametrize("game", GAMES)
def test_the_legal_order_is_deterministic(game: str) -> None:
    """Two referees of one setup list the same actions in the same order at every step
    of one game (seeded playouts, benches and golden files rely on it)."""
    a, b = referee(game), referee(game)
    rng = random.Random(5)
    state_a, state_b = a.new_state(), b.new_state()
    for _ in range(300):
        if a.is_over(state_a):
            break
        assert list(map(str, a.legal_actions(state_a))) == \
            list(map(str, b.legal_actions(state_b)))
        action, _ = decision(a, state_a, rng)
        try:
            state_a, _ = a.apply(state_a, action)
        except ActionRefused:
            continue
        state_b, _ = b.apply(state_b, b.parse_action(str(action)))
        assert a.state_dict(state_a) == b.state_dict(state_b)


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_action_changes_nothing(game: str) -> None:
    """Where a player decides, what is not listed is refused (with ``ActionRefused``, a
    ``ValueError`` whose text names the action; ``check`` gives the same reason) and the
    state is as it was: actions legal a moment ago, and text that is no action at all.
    A listed action checks legal."""
    ref = referee(game)
    rng = random.Random(9)
    state = ref.new_state()
    seen: dict[str, Any] = {}
    refused = 0
    for _ in range(400):
        if ref.is_over(state):
            break
        action, chance = decision(ref, state, rng)
        if not chance:
            assert ref.check(state, action) is None, f"{action} is listed, checks refused"
        if not chance and ref.lists_every_action:
            listed = set(map(str, ref.legal_actions(state)))
            before = ref.state_dict(state)
            for text, old in list(seen.items())[-40:]:
                if text in listed:
                    continue
                with pytest.raises(ActionRefused) as why:
                    ref.apply(state, old)
                assert isinstance(why.value, ValueError) and str(why.value)
                assert ref.check(state, old) == str(why.value)
                assert ref.state_dict(state) == before, f"refusing {text!r} changed the state"
                refused += 1
        try:
            new, _ = ref.apply(state, action)
        except ActionRefused:
            continue
        seen[str(action)] = action
        state = new
    for junk in ("", "p1", "p9 move x y", "\x00\x01", "p1 " + "a" * 500):
        with pytest.raises(NotationError):
            ref.parse_action(junk)
    if game != "highcard" and ref.lists_every_action:  # High Card only draws (chance)
        assert refused > 0, "no decision was ever checked"


# -- through the session and its log -----------------------------------------------------------
def play_through_session(session: Session, steps: int, rng: random.Random) -> int:
    """``steps`` actions of a random game typed in (as a person or a script would), the
    chance actions too. Returns how many were played."""
    ref = session.referee
    played = 0
    for _ in range(steps * 3):
        if played == steps or ref.is_over(session.state):
            break
        action, _ = decision(ref, session.state, rng)
        try:
            session.command({"do": "action", "action": str(action)}, source="test")
        except CommandRefused:
            continue  # a refused chance (a tied roll-off) is drawn again
        played += 1
    return played


@pytest.mark.parametrize("game", GAMES)
def test_a_game_resumed_from_its_log_is_the_game_played(game: str, tmp_path: Path) -> None:
    log = GameLog(tmp_path / "games.db")
    session = Session.new(sample(game), log)
    played = play_through_session(session, 120, random.Random(4))
    assert played > 0
    again = Session.resume(GameLog(tmp_path / "games.db"), session.game_id)
    assert again.system.name == game
    assert as_json(again.referee.state_dict(again.state), "the resumed state") == \
        as_json(session.referee.state_dict(session.state), "the state")
    assert as_json(again.snapshot(), "the resumed snapshot")["prompt"] == \
        as_json(session.snapshot(), "the snapshot")["prompt"]


# -- the dashboard's commands, as dashboard.js sends them ----------------------------------------
@pytest.fixture
def dashboard(tmp_path: Path):
    def make(game: str) -> tuple[Any, Session, GameLog]:
        log = GameLog(tmp_path / f"{game}.db")
        session = Session.new(sample(game), log)
        services = TableServices(session, log=log, ports=lambda: [])
        return create_app(services, testing=True).test_client(), services, log
    return make


def on_the_board(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in snapshot["board"]["pieces"] if p.get("region")]


def standing(piece: dict[str, Any]) -> str:
    """Where a drawn piece stands, as a correction names it: its region, or its point
    for a piece placed anywhere in an area."""
    at = piece.get("at")
    return f"{at[0]:.1f},{at[1]:.1f}" if at else piece["region"]


@pytest.mark.parametrize("game", GAMES)
def test_the_dashboards_commands_work_for_every_game(game: str, dashboard) -> None:
    """Setup with the game's sample forces, a typed action, undo and a correction, in
    the shapes the dashboard sends, through the real Flask app: each does what it says
    or is refused with a reason (400), never a 500; the page shows no internal field."""
    client, services, _ = dashboard(game)
    sys_ = system(game)
    r = post(client, "/api/games", {"system": game, "names": {"p1": "Ann", "p2": "Bob"},
                                    "colors": {"p1": "#f0780a", "p2": "#1a78e0"},
                                    "forces": sys_.sample_forces()})
    assert r.status_code == 201, r.get_json()
    rng = random.Random(3)
    # Typed actions until a piece stands on the board (or the game ends).
    for _ in range(200):
        snap = client.get("/api/state").get_json()
        ref: Referee = services.session.referee
        state = services.session.state
        if on_the_board(snap) or ref.is_over(state):
            break
        action, _ = decision(ref, state, rng)
        r = post(client, "/api/command", {"do": "action", "action": str(action)})
        assert r.status_code in (200, 400), r.get_json()
    snap = client.get("/api/state").get_json()
    assert snap["can_undo"]
    # Undo (the dashboard's second press sends it) takes the last action back.
    last = services.session.ops[-1]
    r = post(client, "/api/command", {"do": "undo"})
    assert r.status_code == 200, r.get_json()
    r = post(client, "/api/command", {"do": "action", "action": last.body["action"]})
    assert r.status_code == 200, r.get_json()
    r = post(client, "/api/command", {"do": "action", "action": "not an action"})
    assert r.status_code == 400 and r.get_json()["error"]
    # The correction form: a piece picked by name, the place typed in.
    snap = client.get("/api/state").get_json()
    ref = services.session.referee
    if not ref.correction_fields:
        r = post(client, "/api/command", {"do": "correct", "piece": "p1#0", "to": "x"})
        assert r.status_code == 400 and r.get_json()["error"]
        return
    here = on_the_board(snap)
    assert here, f"{game}: no piece on the board to correct"
    assert snap["correction_places"]
    piece = here[0]
    now = ref.state_dict(services.session.state)
    r = post(client, "/api/command", {"do": "correct", "piece": piece["ref"],
                                      "to": standing(piece)})
    assert r.status_code == 200, f"{game}: {r.get_json()}"
    assert ref.state_dict(services.session.state) == now  # it stood there already
    assert client.get("/api/state").get_json()["history"][-1]["kind"] == "correction"
    r = post(client, "/api/command", {"do": "correct", "piece": piece["ref"],
                                      "to": "nowhere at all"})
    assert r.status_code == 400 and "nowhere at all" in r.get_json()["error"]
    # Elsewhere on the map: put there, or refused with a reason; undo takes it back.
    elsewhere = next(g["id"] for g in snap["board"]["regions"] if g["id"] != piece["region"])
    r = post(client, "/api/command", {"do": "correct", "piece": piece["ref"], "to": elsewhere})
    assert r.status_code in (200, 400), r.get_json()
    if r.status_code == 200:
        moved = next(p for p in client.get("/api/state").get_json()["board"]["pieces"]
                     if p["ref"] == piece["ref"])
        assert moved["region"] == elsewhere
        assert post(client, "/api/command", {"do": "undo"}).status_code == 200
        assert ref.state_dict(services.session.state) == now


@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_narrates_corrections_in_the_games_words(game: str) -> None:
    """``tablesight run`` prints a correction and its undo as the game words them, for
    any game (the narrator once printed Dreamblade's field, so a Warseer correction read
    "None -> e4")."""
    import io

    from tablesight.table_cli import Narrator

    session = Session.new(sample(game))
    out = io.StringIO()
    session.subscribe(Narrator(out, prompts=False, words=session.words))
    ref = session.referee
    rng = random.Random(2)
    for _ in range(200):
        pieces = on_the_board(session.snapshot())
        if pieces or ref.is_over(session.state) or not ref.correction_fields:
            break
        play_through_session(session, 1, rng)
    if not ref.correction_fields:
        return
    piece = on_the_board(session.snapshot())[0]
    session.command({"do": "correct", "piece": piece["ref"], "to": standing(piece)})
    session.command({"do": "undo"})
    said = out.getvalue()
    words = session.words.correction({ref.correction_fields[0]: piece["ref"],
                                      "to": standing(piece)})
    assert f"<< correction: {session.words.humanize(words)}" in said
    assert f"<< undo: correction ({session.words.humanize(words)})" in said
    assert "None" not in said


@pytest.mark.parametrize("game", GAMES)
def test_a_secret_never_reaches_the_shared_screen(game: str, tmp_path: Path) -> None:
    """Random games through the session and its log: after each action one seat alone
    may know (``Referee.secret``), nothing of it that the shared screen did not show
    already appears in its snapshot, the event stream or a record exported mid-game;
    the log keeps it whole, so a resume and a revealed record still have it."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(sample(game), log)
    heard: list[dict[str, Any]] = []
    session.subscribe(lambda ev: heard.append(ev.to_dict()))
    ref, rng = session.referee, random.Random(6)
    secrets = 0
    for _ in range(600):
        if ref.is_over(session.state):
            break
        before = json.dumps(session.snapshot())
        action, _ = decision(ref, session.state, rng)
        hidden = ref.secret(session.state, action)
        heard.clear()
        try:
            session.command({"do": "action", "action": str(action)}, source="test")
        except CommandRefused:
            continue
        if hidden is None:
            continue
        secrets += 1
        _seat, public = hidden
        told = [t for t in str(action).split() if t not in before and t not in public]
        assert told, f"{action}: a secret with nothing secret in it"
        shown = json.dumps(session.snapshot()) + json.dumps(heard)
        if not ref.is_over(session.state):
            shown += json.dumps(session.record())
        for token in told:
            assert token not in shown, f"{game}: {token!r} of {action} reached the screen"
        assert public in json.dumps(session.snapshot()["history"])
    if game == "track":
        assert secrets > 0, "no secret was drawn: the test proves nothing for Track"
    if secrets:
        entries = [e.body for e in log.entries(session.game_id, ("action",))]
        assert sum(1 for b in entries if b.get("secret")) == secrets  # the log keeps all
        assert session.record(reveal=True)["final"] is not None
        again = Session.resume(GameLog(tmp_path / "games.db"), session.game_id)
        assert again.referee.state_dict(again.state) == ref.state_dict(session.state)
