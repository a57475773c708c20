"""The seam holds: a second game (``table/games/track``: Track, a race on six spaces), found
through a real ``tablesight.games`` entry point, played end to end through the
game-neutral session: dice from the table box, moves seen by a (synthetic) camera,
typed actions, undo, a correction, the SQLite log, a resume, the dashboard's API."""

from __future__ import annotations

import json

import pytest

from table import registry
from table.device import DeviceEvent
from table.errors import CommandRefused
from table.games.track import State
from table.observation import Observation, ObservedBase
from table.session import GameLog, Session, Setup


def seen(state: State, frame: int, moved: dict[str, str] | None = None) -> Observation:
    """What a camera reports of the track: each pawn on its space, by its sticker
    (default numbering: p1's pawns 0, 1, ..., p2's from 16)."""
    where = dict(zip(state.pawns, state.where, strict=True)) | (moved or {})
    regions: dict[str, list[ObservedBase]] = {}
    for ref, space in where.items():
        if space is not None:
            sticker = (0 if ref[:2] == "p1" else 16) + int(ref[3:])
            regions.setdefault(space, []).append(
                ObservedBase(ref[:2], sticker, "read", 0.9, 0.0, 0.0))
    return Observation(float(frame), frame, {k: tuple(v) for k, v in regions.items()})


def roll(player: str, die: int) -> DeviceEvent:
    return DeviceEvent("roll", 0.0, player, sides=6, numbers=(die,))


def test_the_registry_finds_an_installed_game(track_installed, capsys) -> None:
    from tablesight.cli import main

    assert list(registry.systems()) == ["diskwars", "dreamblade", "track", "warseer"]
    assert registry.get("track").title == "Track (a test game)"
    with pytest.raises(registry.UnknownGame,
                       match="installed: diskwars, dreamblade, track, warseer"):
        registry.get("chess")
    assert main(["games"]) == 0
    assert "track       Track (a test game)  (rules track/2)" in capsys.readouterr().out


def test_a_broken_game_package_does_not_stop_the_others(tmp_path, monkeypatch) -> None:
    dist = tmp_path / "broken-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[tablesight.games]\nbroken = no.such.module:X\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.systems.cache_clear()
    try:
        assert list(registry.systems()) == ["diskwars", "dreamblade", "warseer"]
    finally:
        registry.systems.cache_clear()


def test_a_whole_game_of_track_through_the_session(track_installed, tmp_path) -> None:
    log = GameLog(tmp_path / "games.db")
    setup = Setup.from_dict({"system": "track", "forces": {"p1": ["Pawn"], "p2": ["Pawn"]},
                             "names": {"p1": "Ann", "p2": "Bob"}})
    s = Session.new(setup, log)
    assert log.games()[0].game == "track" and log.games()[0].rules_version == "track/2"
    assert s.prompt().text == "Ann: roll the die" and s.dice_needed()[0].kind == "d6"
    frame = 0

    def turn(player: str, die: int, to: str | None) -> None:
        nonlocal frame
        s.device(roll(player, die))  # the box's roll button
        if to is not None:  # the player moves the pawn by hand; the camera sees it
            frame += 1
            out = s.observe(seen(s.state, frame, {f"{player}#0": to}))
            assert any(e.kind == "action" for e in out), [e.to_dict() for e in out]

    turn("p1", 6, "s0")
    turn("p2", 3, None)  # nothing to move: the prompt offers the pass
    assert s.prompt().options == ("p2 pass",)
    s.command({"do": "action", "action": "p2 pass"})  # typed on the dashboard
    turn("p1", 4, "s4")
    s.command({"do": "action", "action": "p2 roll 6"})
    with pytest.raises(CommandRefused, match="refused by the rules"):
        s.command({"do": "action", "action": "p2 advance p2#0 s5"})
    s.command({"do": "undo"})  # the 6 was a typo: undone, rolled again by hand
    s.command({"do": "die", "player": "p2", "die": 6})  # the game's own command
    frame += 1
    s.observe(seen(s.state, frame, {"p2#0": "s0"}))
    assert s.state.at("p2#0") == "s0"
    # The camera sees a pawn where no legal move puts it: a desync says what to fix.
    frame += 1
    s.observe(seen(s.state, frame, {"p1#0": "s1"}))
    assert s.desync == ["put Ann's pawn 0 on s4"]
    s.command({"do": "correct", "pawn": "p1#0", "to": "s1"})  # no: the board is right
    assert s.desync is None and s.state.at("p1#0") == "s1"
    turn("p1", 2, None)
    s.command({"do": "action", "action": "p1 advance p1#0 s3"})
    s.observe(seen(s.state, frame + 1))
    snap = s.snapshot()
    json.dumps(snap)  # a screen can take it whole
    assert snap["game"]["name"] == "track"
    assert snap["board"]["pieces"][0]["ref"] == "p1#0"
    assert snap["board"]["pieces"][0]["region"] == "s3"
    # The log replays to the same state, in a new process's session.
    again = Session.resume(GameLog(tmp_path / "games.db"))
    assert again.state == s.state and again.system.name == "track"
    for die, to in ((6, "s5"),):
        again.device(roll("p2", 1))
        again.command({"do": "action", "action": "p2 advance p2#0 s1"})
        again.device(roll("p1", die))
        out = again.observe(seen(again.state, 99, {"p1#0": to}))
    assert again.state.winner == "p1" and any(e.kind == "game_over" for e in out)
    assert log.games()[0].status == "over"


def test_the_dashboard_api_offers_and_starts_any_installed_game(track_installed,
                                                                tmp_path) -> None:
    from web import TableServices, create_app

    from .web.test_api import post

    log = GameLog(tmp_path / "games.db")
    services = TableServices(Session.new(Setup.from_dict(
        {"system": "track", "forces": {"p1": ["Pawn"], "p2": ["Pawn"]}}), log), log=log)
    c = create_app(services, testing=True).test_client()
    assert {g["name"] for g in c.get("/api/systems").get_json()} == {
        "diskwars", "dreamblade", "track", "warseer"}
    assert c.get("/api/catalog?game=track").get_json() == [
        {"name": "Pawn", "cost": 0, "kind": "pawn"}]
    assert c.get("/api/catalog?game=chess").status_code == 400
    assert c.get("/api/state").get_json()["game"]["title"] == "Track (a test game)"
    r = post(c, "/api/games", {"system": "track", "forces": {"p1": ["Pawn"] * 3,
                                                               "p2": ["Pawn"]}})
    assert r.status_code == 201, r.get_json()
    third = c.get("/api/state").get_json()["board"]["pieces"][2]
    assert third["ref"] == "p1#2" and third["region"] is None and third["zone"] == "waiting"
    r = post(c, "/api/games", {"system": "track", "forces": {"p1": ["Queen"],
                                                               "p2": ["Pawn"]}})
    assert r.status_code == 400 and "one to four 'Pawn'" in r.get_json()["error"]
    r = post(c, "/api/games", {"system": "chess", "warbands": {"p1": ["x"], "p2": ["y"]}})
    assert r.status_code == 400 and "no game 'chess' is installed" in r.get_json()["error"]


def test_a_games_printed_map_comes_from_its_system(track_installed) -> None:
    from vision.layout import game_layout

    layout = game_layout("track")
    assert [r.name for r in layout.cells] == ["s0", "s1", "s2", "s3", "s4", "s5"]
    assert game_layout().game == "dreamblade"  # the default


def test_the_demo_plays_any_game_that_has_scripted_players(track_installed, tmp_path,
                                                          capsys) -> None:
    """``tablesight demo --game track``: the synthetic camera watches the scripted
    players put pawns on the printed hexes and out to graze in the meadow, the simulated
    box rolls the die, to the end."""
    from tablesight.cli import main

    db = tmp_path / "demo.db"
    rc = main(["demo", "--game", "track", "--fast", "--exit-at-end", "--no-web", "--quiet",
               "--db", str(db)])
    out = capsys.readouterr().out
    assert rc == 0, out[-2000:]
    assert "game over" in out and "won" in out
    log = GameLog(db)
    game = log.games()[0]
    assert game.game == "track" and game.status == "over"
    sources: dict[str, set[str]] = {}
    for e in log.entries(game.id, ("action",)):
        d = e.to_dict()
        sources.setdefault(d["action"].split()[1], set()).add(d["source"])
    assert sources["roll"] == {"box"} and sources["advance"] == {"camera"}
    # A pawn home put out to graze at a point of the meadow, seen there by the camera.
    assert sources["graze"] == {"camera"}, sources


def test_a_game_without_scripted_players_cannot_be_demoed(monkeypatch, track_installed,
                                                           capsys) -> None:
    from table.games.track.referee import TrackReferee
    from tablesight.cli import main

    def none(self, state, rng):
        raise NotImplementedError

    monkeypatch.setattr(TrackReferee, "autoplay", none)
    assert main(["demo", "--game", "track", "--no-web"]) == 2
    err = capsys.readouterr().err
    assert "Track (a test game) has no scripted players" in err and len(err.splitlines()) == 1


def test_chance_said_once_serves_the_box_typed_dice_and_playouts(track_installed) -> None:
    """Track says what its chance means once (``from_faces``): the box's rolls, dice and
    cards typed in, and random playouts all follow from ``dice_needed`` through it."""
    import random

    s = Session.new(Setup.from_dict({"system": "track", "names": {"p1": "Ann", "p2": "Bob"},
                                     "forces": {"p1": ["Pawn"], "p2": ["Pawn"]}}))
    out = s.device(roll("p2", 4))  # not Bob's turn
    assert s.state.roll is None
    assert any("not what the table waits for (six-sided die for Ann)" in
               e.data.get("message", "") for e in out if e.kind == "warning")
    out = s.device(DeviceEvent("roll", 0.0, "p1", sides=8, numbers=(3,)))  # a d8
    assert s.state.roll is None and any(e.kind == "warning" for e in out)
    s.device(roll("p1", 1))
    assert s.state.roll == 1
    s.command({"do": "action", "action": "p1 draw"})
    need = s.dice_needed()[0]
    assert need.kind == "luck" and need.private and need.die.sides == 6
    assert [f.label for f in need.die.distinct()] == ["+1", "+2", "+3"]
    s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(5,)))  # the fifth card left
    assert s.state.hand("p1") == "L3a" and s.state.active == "p2"
    with pytest.raises(CommandRefused, match="nothing waits for it now"):
        s.command({"do": "card", "player": "p2", "faces": ["L1a"]})
    ref = s.referee
    rng = random.Random(3)
    assert isinstance(ref.chance(s.state, rng), type(ref.parse_action("p2 roll 3")))
