"""The dashboard's API with Flask's test client, and the SSE wire format."""

from __future__ import annotations

import json
import re
import threading

import pytest

from table.session import GameLog, Session
from web import TableServices, create_app
from web.events import Broker, SSEEvent

from ..session.helpers import sample_setup, seen


@pytest.fixture
def session() -> Session:
    s = Session.new(sample_setup())
    s.observe(seen(s.state))
    return s


@pytest.fixture
def services(session: Session, tmp_path) -> TableServices:
    log = GameLog(tmp_path / "games.db")
    return TableServices(session, log=log,
                         ports=lambda: [{"device": "/dev/ttyACM0", "description": "Uno"}])


@pytest.fixture
def app(services: TableServices):
    return create_app(services, testing=True)


@pytest.fixture
def client(app):
    return app.test_client()


def token(client) -> str:
    """The CSRF token as a browser gets it: from the page (tied to the session cookie
    the test client keeps)."""
    page = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def post(client, url: str, body: object, csrf: bool = True):
    headers = {"X-CSRF-Token": token(client)} if csrf else {}
    return client.post(url, data=json.dumps(body), content_type="application/json",
                       headers=headers)


def test_the_page_carries_the_csrf_token(client) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert re.search(rb'name="csrf-token" content="[^"]{20,}"', r.data)
    assert b'aria-label="The board"' in r.data


def test_state_has_board_prompt_score_and_map(client) -> None:
    d = client.get("/api/state").get_json()
    assert d["prompt"]["step"] == "initiative"
    regions = {r["id"]: r for r in d["board"]["regions"]}
    assert len(regions) == 25 and regions["e1"]["fill"] == "p1"  # p1's portal
    assert regions["b4"]["marks"] == [{"text": "5", "color": "p1",
                                       "title": "Ann scores 5 here"}]
    assert len(d["board"]["pieces"]) == 32
    assert {p: v["value"] for p, v in d["score"]["players"].items()} == {"p1": 0, "p2": 0}


def test_commands_play_and_refusals_are_400_with_the_reason(client, session: Session) -> None:
    r = post(client, "/api/command", {"do": "initiative", "player": "p1", "die": 5})
    assert r.status_code == 200 and r.get_json()["ok"]
    post(client, "/api/command", {"do": "initiative", "player": "p2", "die": 2})
    assert session.state.phase.value == "spawn"
    r = post(client, "/api/command", {"do": "action", "action": "p2 end"})
    assert r.status_code == 400
    assert "refused by the rules" in r.get_json()["error"]


@pytest.mark.parametrize(("body", "status", "message"), [
    ("[1, 2]", 400, "JSON object"),
    ("{not json", 400, "JSON object"),
    ('{"do": "explode"}', 400, "unknown command"),
])
def test_bad_bodies(client, body: str, status: int, message: str) -> None:
    r = client.post("/api/command", data=body, content_type="application/json",
                    headers={"X-CSRF-Token": token(client)})
    assert r.status_code == status and message in r.get_json()["error"]


def test_no_csrf_token_no_change(client, session: Session) -> None:
    r = post(client, "/api/command", {"do": "initiative", "player": "p1", "die": 5}, csrf=False)
    assert r.status_code == 403 and "CSRF" in r.get_json()["error"]
    assert not session.referee.init_dice
    r = client.post("/api/command", data="do=undo",
                    headers={"X-CSRF-Token": token(client)})
    assert r.status_code == 415


def test_unknown_paths_and_methods_are_json(client) -> None:
    assert client.get("/api/nothing").status_code == 404
    r = client.get("/api/command")
    assert r.status_code == 405 and "error" in r.get_json()


def test_with_a_pin_corrections_need_a_staff_login(services: TableServices) -> None:
    app = create_app(services, admin_pin="246813", testing=True)
    c = app.test_client()
    r = post(c, "/api/command", {"do": "follow_camera", "on": False})
    assert r.status_code == 401 and "staff" in r.get_json()["error"]
    assert post(c, "/api/games", {"warbands": {"p1": [], "p2": []}}).status_code == 401
    assert post(c, "/api/login", {"pin": "111111"}).status_code == 401
    assert post(c, "/api/login", {"pin": "246813"}).status_code == 200
    assert post(c, "/api/command", {"do": "follow_camera", "on": False}).status_code == 200
    assert c.get("/api/state").get_json()["staff"] is True


def test_new_game_from_the_setup_page(client, services: TableServices) -> None:
    wb = sample_setup().forces["p1"]
    r = post(client, "/api/games", {"warbands": {"p1": list(wb), "p2": list(wb[:4])},
                                    "names": {"p1": "Ann", "p2": "Bob"},
                                    "colors": {"p1": "#0000ff", "p2": "#ff0000"}})
    assert r.status_code == 201
    assert services.session.game_id == r.get_json()["game_id"]
    assert client.get("/api/state").get_json()["setup"]["names"]["p2"] == "Bob"
    r = post(client, "/api/games", {"warbands": {"p1": ["Nobody Knows"], "p2": ["Iron Thug"]}})
    assert r.status_code == 400 and "Nobody Knows" in r.get_json()["error"]


def test_history_record_catalog_ports(client) -> None:
    post(client, "/api/command", {"do": "initiative", "player": "p1", "die": 5})
    h = client.get("/api/history?after=0").get_json()
    assert any(e["kind"] == "die" for e in h)
    assert client.get("/api/history?after=x").status_code == 400
    assert client.get("/api/record").get_json()["format"] == "tablesight-record/1"
    assert any(m["name"] == "Iron Thug" for m in client.get("/api/catalog").get_json())
    assert client.get("/api/ports").get_json()[0]["device"] == "/dev/ttyACM0"
    assert client.get("/camera.jpg").status_code == 404


# -- SSE ------------------------------------------------------------------------------------
def test_sse_wire_format() -> None:
    assert str(SSEEvent("prompt", {"a": 1}, 7)) == 'id: 7\nevent: prompt\ndata: {"a":1}\n\n'
    assert str(SSEEvent("x", "two\nlines", retry_ms=100)) == \
        "retry: 100\nevent: x\ndata: two\ndata: lines\n\n"
    assert str(SSEEvent("a\nb", "")) == "event: a b\ndata: \n\n"


def test_broker_replays_missed_events_after_last_event_id() -> None:
    b = Broker(keep=5)
    for i in range(8):
        b.publish("n", {"i": i})
    _, missed = b.subscribe(last_id=6)
    assert [e.data["i"] for e in missed] == [6, 7]
    _, missed = b.subscribe(last_id=1)  # older than what is kept: reload
    assert [e.event for e in missed] == ["reload"]


def test_one_slow_subscriber_does_not_hold_the_others() -> None:
    from web import events

    b = Broker()
    slow, _ = b.subscribe()
    fast, _ = b.subscribe()
    for i in range(events.QUEUE + 5):
        b.publish("n", i)
        fast.q.get_nowait()
    assert slow.dropped and b.subscribers == 1


def test_the_stream_sends_session_events(services: TableServices, session: Session) -> None:
    stop = threading.Event()
    gen = services.broker.stream(last_id=services.broker.last_id, heartbeat_s=0.05, stop=stop)
    assert next(gen).startswith("retry: 2000\nevent: hello")
    session.command({"do": "initiative", "player": "p1", "die": 3})
    chunks = [next(gen) for _ in range(2)]
    assert any("event: prompt" in c and "Ann rolled 3" in c for c in chunks)
    stop.set()


def test_the_sse_endpoint_streams_over_http(client, services: TableServices) -> None:
    r = client.get("/api/events", buffered=False, headers={"Last-Event-ID": "0"})
    assert r.headers["Content-Type"].startswith("text/event-stream")
    it = r.response
    first = next(iter(it)).decode()
    assert "event: hello" in first
    r.close()


def test_games_are_listed_and_an_old_one_resumed(client, services: TableServices,
                                                  session: Session) -> None:
    wb = list(sample_setup().forces["p1"])
    first = post(client, "/api/games", {"warbands": {"p1": wb, "p2": wb}}).get_json()
    post(client, "/api/command", {"do": "initiative", "player": "p1", "die": 4})
    post(client, "/api/command", {"do": "initiative", "player": "p2", "die": 2})
    post(client, "/api/games", {"warbands": {"p1": wb, "p2": wb}})
    listed = client.get("/api/games").get_json()
    assert [g["id"] for g in listed][:2] == [first["game_id"] + 1, first["game_id"]]
    r = post(client, f"/api/games/{first['game_id']}/resume", {})
    assert r.status_code == 200
    assert services.session.game_id == first["game_id"]
    assert services.session.state.phase.value == "spawn"
    assert post(client, "/api/games/999/resume", {}).status_code == 400


def test_devices_are_chosen_from_what_the_table_offers(session: Session, tmp_path) -> None:
    class FakeLive:  # the real LiveTable is exercised in tests/test_live_health.py
        def __init__(self) -> None:
            self.used: list[object] = []

        def attach(self, s: Session) -> None:
            pass

        def use_camera(self, src: object) -> None:
            self.used.append(("camera", src))

        def use_box(self, box: object) -> None:
            self.used.append(("box", box))

    live = FakeLive()
    svc = TableServices(session, live, ports=lambda: [{"device": "/dev/ttyACM0"}],
                        open_camera=lambda spec: f"cam:{spec}", open_box=lambda p: f"box:{p}")
    c = create_app(svc, testing=True).test_client()
    for bad in ("/etc/passwd", "../video.mp4", "file:///dev/video0", 7, "0; rm -rf /"):
        r = post(c, "/api/devices", {"camera": bad})
        assert r.status_code == 400 and "device number" in r.get_json()["error"]
    assert post(c, "/api/devices", {"port": "/tmp/evil"}).status_code == 400
    assert post(c, "/api/devices", {"camera": "1", "port": "/dev/ttyACM0"}).status_code == 200
    assert post(c, "/api/devices", {"camera": "rtsp://10.0.0.5/cam"}).status_code == 200
    assert live.used == [("camera", "cam:1"), ("box", "box:/dev/ttyACM0"),
                         ("camera", "cam:rtsp://10.0.0.5/cam")]
    assert c.get("/api/devices").get_json()["camera"] == "rtsp://10.0.0.5/cam"


def test_a_new_game_keeps_the_camera_and_box_health(client, services: TableServices,
                                                    session: Session) -> None:
    session.report_health("box", True, "table box connected")
    session.report_health("camera", False, "camera frozen")
    wb = list(sample_setup().forces["p1"])
    assert post(client, "/api/games", {"warbands": {"p1": wb, "p2": wb}}).status_code == 201
    health = client.get("/api/state").get_json()["health"]
    assert health["box"]["ok"] and health["camera"]["message"] == "camera frozen"


def test_the_box_in_use_stays_listed_and_unchanged_devices_are_kept(session: Session) -> None:
    class Live:
        def attach(self, s: Session) -> None: ...
        def use_camera(self, src: object) -> None:
            raise AssertionError("an unchanged camera is not reopened")
        def use_box(self, box: object) -> None:
            self.box = box

    live = Live()
    svc = TableServices(session, live, ports=lambda: [], open_box=lambda p: f"box:{p}")
    svc.camera_spec = "synthetic"
    svc.use_port("/dev/pts/7", "the demo's simulated table box")
    c = create_app(svc, testing=True).test_client()
    assert [p["device"] for p in c.get("/api/devices").get_json()["ports"]] == ["/dev/pts/7"]
    # The form sent back as it was shown: nothing changes, nothing fails.
    assert post(c, "/api/devices", {"camera": "synthetic", "port": "/dev/pts/7"}).status_code == 200
    # The box taken away and given back from the list.
    assert post(c, "/api/devices", {"port": "none"}).status_code == 200
    assert post(c, "/api/devices", {"port": "/dev/pts/7"}).status_code == 200
    assert live.box == "box:/dev/pts/7"


@pytest.mark.parametrize("game", ["x" * 5000, "\x00", "dreamblade\n", "DREAMBLADE", ""])
def test_an_unknown_game_is_a_short_400(client, game: str) -> None:
    r = client.get("/api/catalog", query_string={"game": game})
    assert r.status_code == 400 and len(r.data) < 200 and "is installed" in r.get_json()["error"]
    r = post(client, "/api/games", {"system": game or None,
                                    "warbands": {"p1": ["Twilight Scout"], "p2": ["Brute"]}})
    assert r.status_code == 400 and len(r.data) < 300, r.data


def test_the_installed_games_and_a_catalog(client) -> None:
    assert [g["name"] for g in client.get("/api/systems").get_json()] == [
        "diskwars", "dreamblade", "warseer"]
    cat = client.get("/api/catalog").get_json()
    assert cat == client.get("/api/catalog?game=dreamblade").get_json()
    assert {"name", "cost", "kind"} <= set(cat[0]) and cat == sorted(
        cat, key=lambda m: (m["cost"], m["name"]))
