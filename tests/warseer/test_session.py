"""Warseer at a live table: through the game-neutral session, with dice from the table
box (one colour at a time, read through each colour's face table), moves and pushes
seen by the camera, typed actions, a desync and its correction, the SQLite log and a
resume that keeps half a roll."""

from __future__ import annotations

import copy
import json

import pytest

from table.device import DeviceEvent
from table.errors import CommandRefused
from table.games.warseer.hexes import parse_hex
from table.games.warseer.state import FIELD
from table.observation import Observation, ObservedBase
from table.session import GameLog, Session, Setup

WARBANDS = {"p1": ["Diodor", "Gil-Talas", "Order Squire", "Forest Archer"],
            "p2": ["Kaitlynn", "Dayodor Order Mentor", "Stone Guardian", "Forest Archer"]}


def seen(session: Session, frame: int, moved: dict[str, str] | None = None,
         hidden: tuple[str, ...] = ()) -> Observation:
    """What a camera reports: each creature on the battlefield in its hex, by its
    sticker (the printed numbering: p1's i is sticker i, p2's is 16 + i)."""
    where = {r: str(u.hex) for r, u in session.state.units.items()
             if u.place == FIELD and u.hex} | (moved or {})
    regions: dict[str, list[ObservedBase]] = {}
    for ref, h in where.items():
        sticker = (0 if ref[:2] == "p1" else 16) + int(ref[3:])
        regions.setdefault(h, []).append(ObservedBase(ref[:2], sticker, "read", 0.9, 0, 0))
    return Observation(float(frame), frame, {k: tuple(v) for k, v in regions.items()},
                       frozenset(hidden))


OPENING = ("p1 draw", "p1 return", "p2 draw", "p2 return")  # the cards stay secret


def roll(player: str, *numbers: int) -> DeviceEvent:
    return DeviceEvent("roll", 0.0, player, sides=6, numbers=numbers)


def test_a_game_of_warseer_at_the_table(tmp_path) -> None:
    log = GameLog(tmp_path / "games.db")
    setup = Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                             "names": {"p1": "Ann", "p2": "Bob"}})
    s = Session.new(setup, log)
    assert log.games()[0].game == "warseer"
    # The opening, on the dashboard: the cards stay in the players' hands.
    assert s.prompt().text.startswith("Ann: shuffle your battle deck and draw seven cards")
    assert s.prompt().proposal_label == "seven cards drawn"
    with pytest.raises(CommandRefused, match="Ann is asked, not Bob"):
        s.command({"do": "ready", "player": "p2"})
    for a in ("p1 draw", "p1 return", "p2 draw"):
        assert s.prompt().proposal == a
        s.command({"do": "ready", "player": a[:2]})  # the Ready button
    assert s.prompt().text.startswith("Bob: put three of your seven cards back")
    s.command({"do": "action", "action": "p2 return"})  # or typed
    assert s.prompt().text.startswith("Ann: put your hero Diodor on a hex")
    # Deployment seen by the camera.
    out = s.observe(seen(s, 1, {"p1#0": "d2"}))
    assert any(e.kind == "action" for e in out), [e.to_dict() for e in out]
    s.observe(seen(s, 2, {"p2#0": "d7"}))
    assert s.prompt().step == "main" and s.prompt().proposal == "p1 end"
    s.observe(seen(s, 3, {"p1#1": "f2"}))  # Gil-Talas from the War Camp
    assert s.state.units["p1#1"].place == FIELD
    s.observe(seen(s, 4, {"p1#1": "f5"}))  # moves three
    assert s.state.units["p1#1"].hex == parse_hex("f5")
    # A move the rules forbid: a desync saying what to put back.
    s.observe(seen(s, 5, {"p1#0": "d6"}))
    assert s.desync and "put Diodor on d2" in s.desync[0]
    s.observe(seen(s, 6))  # put back
    assert s.desync is None
    s.command({"do": "action", "action": "p1 end"})
    # Bob: Kaitlynn steps closer and attacks Gil-Talas (magic, two silver dice).
    s.observe(seen(s, 7, {"p2#0": "d5"}))
    assert s.state.units["p2#0"].hex == parse_hex("d5")
    s.command({"do": "action", "action": "p2 attack p2#0 p1#1"})
    need = s.dice_needed()[0]
    assert (need.player, need.kind, need.n, need.die.sides) == ("p2", "silver", 2, 6)
    with pytest.raises(CommandRefused, match="Bob rolls"):
        s.command({"do": "dice", "player": "p1", "faces": ["S", "S"]})
    s.device(roll("p2", 5, 1))  # silver 5 = dragon (her critical: a push), 1 = blank
    at = s.state.attack
    assert at.faces == ["D", "0"] and s.prompt().step == "modify"
    assert s.prompt().panel["rows"][0]["buttons"][-1]["label"] == "Bob: pass"
    s.command({"do": "action", "action": "p2 pass"})
    s.command({"do": "action", "action": "p1 pass"})
    assert s.prompt().step == "push"
    s.observe(seen(s, 8, {"p1#1": "f6"}))  # Bob pushes Gil-Talas by hand: seen
    assert s.state.units["p1#1"].hex == parse_hex("f6")
    assert s.state.units["p1#1"].wounds == 1 and s.state.attack is None
    snap = s.snapshot()
    json.dumps(snap)
    assert snap["game"]["name"] == "warseer"
    gil = next(p for p in snap["board"]["pieces"] if p["ref"] == "p1#1")
    assert gil["region"] == "f6" and gil["badge"] == 1 and "1 of 5 wounds" in gil["details"]
    assert snap["score"]["title"] == "Victory points"
    # Half a roll (a gold die's attack box of three) survives a restart.
    s.command({"do": "action", "action": "p2 end"})
    with pytest.raises(CommandRefused, match="Ann: Gil-Talas attacks Bob's Kaitlynn: "
                       "Kaitlynn is out of range"):
        s.command({"do": "action", "action": "p1 attack p1#1 p2#0"})
    s.observe(seen(s, 9, {"p1#0": "d4"}))
    s.command({"do": "action", "action": "p1 attack p1#0 p2#0"})
    assert [d.kind for d in s.dice_needed()] == ["silver"]
    s.command({"do": "dice", "player": "p1", "faces": ["sword", "0"]})
    assert [(d.kind, d.n) for d in s.dice_needed()] == [("gold", 1)]
    again = Session.resume(GameLog(tmp_path / "games.db"))
    assert again.state == s.state
    assert [(d.kind, d.n) for d in again.dice_needed()] == [("gold", 1)]
    again.device(roll("p1", 2))  # gold 2 = two swords
    assert again.state.attack.faces == ["S", "0", "SS"]


def test_a_minion_keeps_its_name_after_a_restart(tmp_path) -> None:
    log = GameLog(tmp_path / "games.db")
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS}), log)
    for a in (*OPENING, "p1 deploy p1#0 d2", "p2 deploy p2#0 d7",
              "p1 play call-the-wisp d3"):
        s.command({"do": "action", "action": a})
    wisp = next(p for p in s.snapshot()["board"]["pieces"] if p["ref"] == "p1#4")
    assert wisp["label"] == "Wisp 1"
    again = Session.resume(GameLog(tmp_path / "games.db"))
    wisp = next(p for p in again.snapshot()["board"]["pieces"] if p["ref"] == "p1#4")
    assert wisp["label"] == "Wisp 1" and wisp["region"] == "d3"


def test_the_dashboard_api_starts_a_game_of_warseer(tmp_path) -> None:
    from web import TableServices, create_app

    from ..web.test_api import post

    log = GameLog(tmp_path / "games.db")
    services = TableServices(Session.new(Setup.from_dict(
        {"system": "warseer", "warbands": WARBANDS}), log), log=log)
    c = create_app(services, testing=True).test_client()
    assert "warseer" in {g["name"] for g in c.get("/api/systems").get_json()}
    cat = c.get("/api/catalog?game=warseer").get_json()
    assert cat[0]["kind"] == "hero" and "Wisp" not in {x["name"] for x in cat}
    state = c.get("/api/state").get_json()
    assert state["game"]["name"] == "warseer"
    assert len(state["board"]["regions"]) == 9 * 8
    assert {z["id"] for z in state["board"]["zones"]} == {"camp", "history"}
    r = post(c, "/api/games", {"system": "warseer",
                               "warbands": {"p1": ["Gil-Talas"], "p2": ["Kaitlynn"]}})
    assert r.status_code == 400 and "starts with its hero" in r.get_json()["error"]
    r = post(c, "/api/games", {"system": "warseer", "warbands": WARBANDS,
                               "decks": {"p1": ["Fire Bolt"] * 3, "p2": ["Parry"] * 8}})
    assert r.status_code == 400 and "at least 7 cards" in r.get_json()["error"]
    r = post(c, "/api/games", {"system": "warseer", "warbands": WARBANDS,
                               "decks": {"p1": ["Fire Bolt"] * 8, "p2": ["Parry"] * 8}})
    assert r.status_code == 201, r.get_json()
    r = post(c, "/api/games", {"system": "warseer", "warbands": WARBANDS,
                               "decks": {"p1": "Fire Bolt", "p2": [1]}})
    assert r.status_code == 400 and "decks" in r.get_json()["error"]


def test_the_real_table_watches_warseers_map_and_resumes_after_a_crash(tmp_path) -> None:
    """``tablesight run --game warseer --camera FOLDER``: the camera (an image folder: a
    photo of the printed battlefield with p1's hero on d2) is read against Warseer's
    printed map, so the hero is deployed from what it sees; killed, the process resumes
    the same game, on the same map."""
    import time

    import cv2

    from table import registry
    from vision.layout import Layout
    from vision.synth import Conditions, SceneRenderer
    from vision.synth.scene import Base, Scene

    from ..test_main_job import Running

    lay = Layout.from_dict(registry.get("warseer").layout())
    d2 = next(r for r in lay.cells if r.name == "d2")
    photo = SceneRenderer(lay).render(Scene(lay, [Base(*d2.center, "p1", 0, 30.0, 40.0,
                                                       0.2, "p1#0")]),
                                      Conditions(tilt_deg=10, noise=2), size=(1280, 960),
                                      seed=1)
    folder = tmp_path / "camera"  # a short recording: the same view, frame after frame
    folder.mkdir()
    for i in range(12):
        cv2.imwrite(str(folder / f"frame{i:02}.png"), photo)
    db = tmp_path / "games.db"
    table = Running("--game", "warseer", "--camera", str(folder), "--db", str(db),
                    "--web-port", "0")
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            state = table.get("/api/state")
            if state["state"]["units"]["p1#0"]["hex"] == "d2":
                break
            time.sleep(0.2)
        assert state["game"]["name"] == "warseer"
        assert state["state"]["units"]["p1#0"]["hex"] == "d2", state["prompt"]
        assert state["prompt"]["text"].startswith("Player 2: put your hero Kaitlynn")
    finally:
        table.kill()
    again = Running("--db", str(db), "--web-port", "0", "--camera", str(folder))
    try:
        assert "resumed game 1" in "".join(again.lines)
        after = again.get("/api/state")
        assert after["game"]["name"] == "warseer"
        assert after["state"]["units"] == state["state"]["units"]
        time.sleep(3.0)  # the camera sees the same board again: nothing changes
        assert again.get("/api/state")["desync"] is None
        assert again.get("/api/state")["state"]["units"] == state["state"]["units"]
    finally:
        again.stop()


def test_the_main_phase_lists_attacks_and_feats_before_the_hex_by_hex_choices() -> None:
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS}))
    for a in (*OPENING, "p1 deploy p1#0 d2", "p2 deploy p2#0 d7"):
        s.command({"do": "action", "action": a})
    verbs = [c["action"].split()[1] for c in s.prompt().choices]
    assert verbs.index("play") < verbs.index("summon") < verbs.index("move")
    assert sorted(c["action"] for c in s.prompt().choices) == sorted(s.prompt().options)
    for a in ("p1 end", "p2 move p2#0 d4", "p2 end", "p1 move p1#0 d3"):
        s.command({"do": "action", "action": a})
    assert s.prompt().choices[0]["action"] == "p1 attack p1#0 p2#0"  # beside Kaitlynn


def test_a_creature_a_card_summons_is_asked_for_not_a_desync(tmp_path) -> None:
    """A card played at the dashboard puts a minion on the battlefield at once; the
    table cannot show it before a hand places it. The prompt asks for it (not a desync
    banner, as in every demo game before), and once placed it is watched like any
    other creature."""
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                     "names": {"p1": "Ann", "p2": "Bob"}}),
                    GameLog(tmp_path / "games.db"))
    s.observe(seen(s, 1, {"p1#0": "d2"}))
    s.observe(seen(s, 2, {"p2#0": "d7"}))

    def without_wisp(frame: int) -> Observation:
        obs = seen(s, frame)
        regions = {k: tuple(b for b in v if b.sticker != 4) for k, v in obs.regions.items()}
        return Observation(float(frame), frame, {k: v for k, v in regions.items() if v},
                           obs.occluded)

    s.command({"do": "action", "action": "p1 play call-the-wisp d3"}, source="dashboard")
    assert s.state.units["p1#4"].hex == parse_hex("d3")
    assert s.desync is None
    # (with the sticker the camera knows it by: the first spare one after the warband's)
    assert s.prompt().text.startswith("First put Wisp 1 (sticker 4) on d3. Ann's turn 1")
    s.observe(without_wisp(3))  # the camera's next board: not placed yet
    assert s.desync is None
    out = s.observe(seen(s, 4))  # placed
    assert s.desync is None and s.prompt().text.startswith("Ann's turn 1")
    assert any(e.kind == "prompt" for e in out)  # the table is told at once
    s.observe(without_wisp(5))  # taken away again: now a desync like any other's
    assert s.desync and "put Wisp 1 on d3" in s.desync[0]
    s.observe(seen(s, 6))
    assert s.desync is None
    # A creature the camera saw arrive is not awaited: taken away, it is missed.
    s.observe(seen(s, 7, {"p1#1": "f2"}))  # Gil-Talas from the War Camp
    assert s.state.units["p1#1"].place == FIELD and s.desync is None
    obs = seen(s, 8)
    s.observe(Observation(8.0, 8, {k: tuple(b for b in v if b.sticker != 1)
                                   for k, v in obs.regions.items() if k != "f2"},
                          frozenset()))
    assert s.desync and "put Gil-Talas on f2" in s.desync[0]


def test_an_undone_summon_is_not_asked_for(tmp_path) -> None:
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                     "names": {"p1": "Ann", "p2": "Bob"}}),
                    GameLog(tmp_path / "games.db"))
    s.observe(seen(s, 1, {"p1#0": "d2"}))
    s.observe(seen(s, 2, {"p2#0": "d7"}))
    s.command({"do": "action", "action": "p1 play call-the-wisp d3"}, source="dashboard")
    assert s.prompt().text.startswith("First put Wisp 1 (sticker 4) on d3.")
    s.command({"do": "undo"}, source="dashboard")
    assert "p1#4" not in s.state.units or s.state.units["p1#4"].place != FIELD
    assert s.prompt().text.startswith("Ann's turn 1") and s.desync is None


def test_an_unread_base_coming_onto_the_battlefield_is_settled_by_the_rules(tmp_path
                                                                           ) -> None:
    """A creature summoned from the War Camp whose sticker the camera cannot read: an
    orange base on a free hex is one of Ann's creatures off the battlefield (the rules
    say which may come there, or the table is asked), not a desync; a base in the other
    player's colour is not."""
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                     "names": {"p1": "Ann", "p2": "Bob"}}),
                    GameLog(tmp_path / "games.db"))
    s.observe(seen(s, 1, {"p1#0": "d2"}))
    s.observe(seen(s, 2, {"p2#0": "d7"}))

    def with_unread(frame: int, owner: str) -> Observation:
        obs = seen(s, frame)
        regions = dict(obs.regions)
        regions["f2"] = (ObservedBase(owner, None, "unreadable", 0.0, 0, 0),)
        return Observation(float(frame), frame, regions, frozenset())

    s.observe(with_unread(3, "p2"))  # Bob's colour: none of Ann's
    assert s.desync and "f2" in s.desync[0]
    out = s.observe(with_unread(4, "p1"))
    assert s.desync is None
    if s.confirm:  # several of Ann's creatures could have come: the table picks
        options = [[str(a) for a in e.actions] for e in s.confirm]
        assert ["p1 summon p1#1 f2"] in options, options
        s.command({"do": "choose", "option": options.index(["p1 summon p1#1 f2"])})
    else:
        assert any(e.kind == "action" for e in out)
    assert s.state.units["p1#1"].hex == parse_hex("f2")
    # The reading is what the board shows: the summon is not asked for.
    assert not s.referee.camera.awaited and not s.prompt().text.startswith("First")


def _up_to_bobs_push(s: Session, wounds: int = 0) -> None:
    """Seen by the camera: Ann's Diodor on d2 and Gil-Talas on f5, Bob's Kaitlynn to d5.
    Kaitlynn's attack on Gil-Talas (who has ``wounds`` already) rolls a dragon and a
    sword with a push (two damage); both players pass: the push waits."""
    s.observe(seen(s, 1, {"p1#0": "d2"}))
    s.observe(seen(s, 2, {"p2#0": "d7"}))
    s.observe(seen(s, 3, {"p1#1": "f2"}))
    s.observe(seen(s, 4, {"p1#1": "f5"}))
    s.command({"do": "action", "action": "p1 end"})
    s.observe(seen(s, 5, {"p2#0": "d5"}))
    if wounds:
        wounded = copy.deepcopy(s.state)
        wounded.units["p1#1"].wounds = wounds
        s.start_from(wounded)
    s.command({"do": "action", "action": "p2 attack p2#0 p1#1"})
    s.device(roll("p2", 5, 4))
    s.command({"do": "action", "action": "p2 pass"})
    s.command({"do": "action", "action": "p1 pass"})
    assert s.prompt().step == "push"


def test_a_push_picked_at_the_dashboard_asks_for_the_miniature_to_be_moved(tmp_path
                                                                            ) -> None:
    """The pushed creature's hex picked on the dashboard: the rules move it at once, the
    miniature still stands where it was; the prompt says where it goes, no desync."""
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                     "names": {"p1": "Ann", "p2": "Bob"}}),
                    GameLog(tmp_path / "games.db"))
    _up_to_bobs_push(s)
    stale = seen(s, 6)  # Gil-Talas still on f5
    push = next(a for a in s.prompt().options if a.startswith("p2 push"))
    s.command({"do": "action", "action": push}, source="dashboard")
    to = str(s.state.units["p1#1"].hex)
    assert to != "f5" and s.desync is None
    assert f"put Gil-Talas on {to}" in s.prompt().text
    s.observe(Observation(7.0, 7, stale.regions, frozenset()))  # not moved yet
    assert s.desync is None
    s.observe(seen(s, 8))  # moved
    assert s.desync is None and "put Gil-Talas" not in s.prompt().text


def test_without_a_camera_nothing_is_asked_for(tmp_path) -> None:
    """A table played on the dashboard alone (no camera, or its boards not followed):
    nothing would ever see a summoned creature placed, so the prompt never asks."""
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                     "names": {"p1": "Ann", "p2": "Bob"}}),
                    GameLog(tmp_path / "games.db"))
    for a in (*OPENING, "p1 deploy p1#0 d2", "p2 deploy p2#0 d7", "p1 summon p1#1 f2",
              "p1 play call-the-wisp d3"):
        s.command({"do": "action", "action": a})
    assert s.prompt().text.startswith("Ann's turn 1")


def _pushed_into_the_forest(read: bool) -> tuple[Session, Observation]:
    """Bob's push of a wounded Gil-Talas (3 of 5 wounds after the hit) into the forest
    on g5, which costs one more wound and eliminates him; what the camera then sees:
    Gil-Talas standing on g5 (his sticker read, or a base whose sticker is not)."""
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                     "names": {"p1": "Ann", "p2": "Bob"}}))
    _up_to_bobs_push(s, wounds=2)
    assert s.referee.game.battlefield.difficult(parse_hex("g5"))
    board = seen(s, 6, {"p1#1": "g5"})
    if not read:
        gil = ObservedBase("p1", None, "unreadable", 0.0, 0, 0)
        board = Observation(6.0, 6, {**board.regions, "g5": (gil,)}, frozenset())
    return s, board


@pytest.mark.parametrize("read", [True, False], ids=["sticker read", "sticker unread"])
def test_a_push_into_terrain_that_eliminates_is_seen_not_a_desync(read: bool) -> None:
    """A creature pushed into difficult terrain takes a wound more and may die of it:
    the camera then sees it on the hex it was pushed to, and the push is what happened
    (seen in demo games as 'put Dayodor Order Mentor on d5 (seen on c5)'). It stays
    there until the players take it off, with no desync either way."""
    s, board = _pushed_into_the_forest(read)
    out = s.observe(board)
    assert s.desync is None, s.desync
    assert any(e.kind == "action" for e in out), [e.to_dict() for e in out]
    assert s.state.units["p1#1"].place != FIELD and s.state.attack is None
    s.observe(Observation(7.0, 7, board.regions, frozenset()))  # not taken off yet
    assert s.desync is None, s.desync
    s.observe(seen(s, 8))  # taken off
    assert s.desync is None and "p1#1" not in s.referee.camera.lingering
    s.observe(seen(s, 9, {"p1#1": "g5"}))  # and it cannot come back
    assert s.desync and "not on the battlefield" in s.desync[0]


def test_a_sticker_no_creature_wears_is_named_by_its_number() -> None:
    """Stickers 4-15 are printed for the minions a player summons later. One seen on
    the battlefield before its minion exists (or a sticker misread as one) was named by
    a creature that did not exist: 'take p1#6 off a1' (a Warseer demo game). The
    players are told the sticker's number instead."""
    s = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                     "names": {"p1": "Ann", "p2": "Bob"}}))
    s.observe(seen(s, 1, {"p1#0": "d2"}))
    s.observe(seen(s, 2, {"p2#0": "d7"}))
    assert "p1#6" not in s.state.units
    board = seen(s, 3)
    stray = ObservedBase("p1", 6, "read", 0.9, 0, 0)
    s.observe(Observation(3.0, 3, {**board.regions, "a1": (stray,)}, frozenset()))
    assert s.desync == ["take the base with sticker 6 off a1: no creature wears it yet "
                        "(if one stands there, turn its sticker to the camera)"], s.desync
    s.observe(seen(s, 4))  # taken off
    assert s.desync is None
