"""Each player's private page (a hidden hand, a card drawn by hand), by its key, through
the real Flask app: the key opens that seat's page and nothing else, a new key revokes
the old, a restart keeps it, and the shared screen never shows what the page shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from table.session import GameLog, Session, Setup
from web import TableServices, create_app

from .test_api import post

PIN = "table-staff-7"


def track_game(tmp_path: Path) -> tuple[Session, GameLog]:
    log = GameLog(tmp_path / "games.db")
    s = Session.new(Setup.from_dict({"system": "track", "names": {"p1": "Ann", "p2": "Bob"},
                                     "forces": {"p1": ["Pawn"], "p2": ["Pawn"]}}), log)
    return s, log


def drawn(s: Session, card: str = "L2a") -> None:
    """Ann rolls a 1, draws instead of moving, and the deck gives her ``card``."""
    s.command({"do": "die", "player": "p1", "die": 1})
    s.command({"do": "action", "action": "p1 draw"})
    s.command({"do": "card", "player": "p1", "faces": [card]})


@pytest.fixture
def table(track_installed, tmp_path: Path):
    s, log = track_game(tmp_path)
    services = TableServices(s, log=log)
    return create_app(services, testing=True).test_client(), s, log


def link(client, seat: str) -> str:
    r = post(client, "/api/seats", {"seat": seat})
    assert r.status_code == 200, r.get_json()
    d = r.get_json()
    assert d["url"] == f"/seat/{d['key']}" and len(d["key"]) >= 32
    return d["key"]


def test_a_key_opens_its_seats_page_and_nothing_else(table) -> None:
    client, s, _ = table
    ann, bob = link(client, "p1"), link(client, "p2")
    drawn(s)
    page = client.get(f"/seat/{ann}")
    assert page.status_code == 200 and b"seat.js" in page.data
    mine = client.get(f"/api/seat/{ann}").get_json()
    assert mine["seat"] == "p1" and mine["name"] == "Ann"
    assert mine["private"]["text"] == "Your luck card: +2"
    theirs = client.get(f"/api/seat/{bob}").get_json()
    assert theirs["private"]["text"].startswith("You hold no luck card")
    shared = json.dumps(client.get("/api/state").get_json())
    assert "L2a" not in shared and "+2" not in shared
    assert "Ann holds a luck card" in shared and "Ann draws a luck card" in shared
    for bad in ("nope", "x" * 500, "../../etc/passwd", ann[:-1] + "!", ann.upper()):
        r = client.get(f"/api/seat/{bad}")
        assert r.status_code == 404 and r.get_json()["error"]
        if "/" not in bad:  # (a path is no route at all)
            assert "ask the table's staff" in r.get_json()["error"]
        assert client.get(f"/seat/{bad}").status_code == 404


def test_a_seat_plays_its_own_actions_only(table) -> None:
    client, s, _ = table
    ann, bob = link(client, "p1"), link(client, "p2")
    drawn(s)
    s.command({"do": "die", "player": "p2", "die": 3})

    def send(key: str, cmd: object):
        return post(client, f"/api/seat/{key}/command", cmd)

    r = send(ann, {"do": "action", "action": "p2 pass"})
    assert r.status_code == 400 and "Ann's page plays Ann's actions only" in r.get_json()["error"]
    for cmd in ({"do": "undo"}, {"do": "correct", "piece": "p2#0", "to": "s1"},
                {"do": "card", "player": "p2", "faces": ["L1a"]}, [1, 2], "x",
                {"do": "action", "action": 7}, {"do": "action", "action": "p1 luck " * 99}):
        r = send(ann, cmd)
        assert r.status_code == 400 and r.get_json()["error"], cmd
    assert send(bob, {"do": "action", "action": "p2 pass"}).status_code == 200
    s.command({"do": "die", "player": "p1", "die": 2})
    assert send(ann, {"do": "action", "action": "p1 luck"}).status_code == 200
    assert s.state.roll == 4 and s.state.hand("p1") is None  # played, now public
    # The shared screen may not take what one player alone may know.
    r = post(client, "/api/command", {"do": "card", "player": "p1", "faces": ["L1a"]})
    assert r.status_code == 400 and "own page" in r.get_json()["error"]


def test_a_new_link_revokes_the_old_and_a_restart_keeps_it(table, tmp_path: Path) -> None:
    client, s, log = table
    old = link(client, "p1")
    new = link(client, "p1")
    assert client.get(f"/api/seat/{old}").status_code == 404
    assert client.get(f"/api/seat/{new}").status_code == 200
    again = Session.resume(GameLog(tmp_path / "games.db"), s.game_id)
    assert again.seat_of(new) == "p1" and again.seat_of(old) is None
    # The log keeps the key's digest only; the history shows neither.
    bodies = [e.body for e in log.entries(s.game_id, ("seat_key",))]
    assert bodies and all(new not in json.dumps(b) for b in bodies)
    history = json.dumps(client.get("/api/state").get_json()["history"])
    assert "digest" not in history and "a new private page link for Ann" in history


def test_links_and_revealed_records_need_staff(track_installed, tmp_path: Path) -> None:
    s, log = track_game(tmp_path)
    client = create_app(TableServices(s, log=log), admin_pin=PIN,
                        testing=True).test_client()
    drawn(s)
    assert post(client, "/api/seats", {"seat": "p1"}).status_code == 401
    mid = client.get("/api/record").get_json()
    assert mid["final"] is None and "L2a" not in json.dumps(mid)
    assert client.get("/api/record?reveal=1").status_code == 401
    assert post(client, "/api/login", {"pin": PIN}).status_code == 200
    assert post(client, "/api/seats", {"seat": "p3"}).status_code == 400
    assert "L2a" in json.dumps(client.get("/api/record?reveal=1").get_json())


def test_export_leaves_secrets_out_until_the_game_ends(track_installed, tmp_path: Path,
                                                       capsys) -> None:
    """``tablesight export`` of a game still played: the hidden card is left out, and
    the record says it cannot be replayed; ``--reveal`` has it, and replays."""
    from tablesight.cli import main

    s, _ = track_game(tmp_path)
    drawn(s)
    db = str(tmp_path / "games.db")
    assert main(["export", "--db", db]) == 0
    hidden = capsys.readouterr().out
    assert "L2a" not in hidden and '"hidden"' in hidden
    (tmp_path / "hidden.json").write_text(hidden)
    assert main(["replay", str(tmp_path / "hidden.json")]) == 2
    assert "export it with --reveal" in capsys.readouterr().err
    assert main(["export", "--db", db, "--reveal"]) == 0
    whole = capsys.readouterr().out
    assert "p1 drew L2a" in whole
    (tmp_path / "whole.json").write_text(whole)
    assert main(["replay", str(tmp_path / "whole.json")]) == 0


def test_the_boxs_number_for_a_hidden_card_stays_in_the_log(table) -> None:
    """The box rolls a number among the cards left; on the shared screen that number
    would tell which card was drawn, so the history shows no box numbers at all."""
    from table.device import DeviceEvent

    client, s, log = table
    s.command({"do": "die", "player": "p1", "die": 1})
    s.command({"do": "action", "action": "p1 draw"})
    s.device(DeviceEvent("roll", 0.0, "p1", sides=6, numbers=(4,)))
    assert s.state.hand("p1") is not None
    shared = client.get("/api/state").get_json()
    rolls = [h for h in shared["history"] if h["source"] == "box"]
    assert rolls and all("numbers" not in h for h in rolls)
    assert all("numbers" not in h for h in client.get("/api/history").get_json())
    logged = [e.body for e in log.entries(s.game_id, ("device",))]
    assert any(b.get("numbers") == [4] for b in logged)
