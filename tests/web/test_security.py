"""The dashboard against a hostile browser or LAN peer: stored XSS, PIN guessing, huge or
deep bodies, malformed fields, foreign Host headers, too many live streams. Each case
was first reproduced against the old app (a 500, a script run, 10,000 PINs tried)."""

from __future__ import annotations

import json

import pytest

from table.session import GameLog, Session
from web import TableServices, create_app
from web.events import Broker
from web.security import MAX_BODY, PinError, check_pin_strength

from ..session.helpers import sample_setup, seen
from .test_api import post, token

XSS = '"/><image href=x onerror=alert(1)>'


@pytest.fixture
def services(tmp_path) -> TableServices:
    log = GameLog(tmp_path / "games.db")
    s = Session.new(sample_setup(), log)
    s.observe(seen(s.state))
    return TableServices(s, log=log)


@pytest.fixture
def client(services: TableServices):
    return create_app(services, testing=True).test_client()


def _setup(**over: object) -> dict:
    wb = list(sample_setup().forces["p1"])
    body: dict = {"warbands": {"p1": wb, "p2": wb}, "names": {"p1": "Ann", "p2": "Bob"},
                  "colors": {"p1": "#f0780a", "p2": "#1a78e0"}}
    body.update(over)
    return body


@pytest.mark.parametrize("colors", [
    {"p1": XSS, "p2": "#1a78e0"},
    {"p1": "red", "p2": "#1a78e0"},
    {"p1": "#f0780a55", "p2": "#1a78e0"},
    {"p1": "#f0780a"},
    {"p1": 7, "p2": "#1a78e0"},
])
def test_colours_are_exactly_hex_or_refused(client, services: TableServices, colors) -> None:
    game = services.session.game_id
    r = post(client, "/api/games", _setup(colors=colors))
    assert r.status_code == 400 and "colo" in r.get_json()["error"]
    assert services.session.game_id == game and len(services.log.games()) == 1


@pytest.mark.parametrize("name", ["", "   ", "a" * 41, "Ann\x00", "Ann\nBob", "\u202eevil", 5])
def test_player_names_are_printable_text(client, name) -> None:
    r = post(client, "/api/games", _setup(names={"p1": name, "p2": "Bob"}))
    assert r.status_code == 400 and "names.p1" in r.get_json()["error"]


def test_markup_in_a_name_is_stored_as_text(client, services: TableServices) -> None:
    r = post(client, "/api/games", _setup(names={"p1": "<b>Ann</b>", "p2": "Bob"}))
    assert r.status_code == 201  # a name is text; every page draws it escaped
    assert services.session.setup.names["p1"] == "<b>Ann</b>"


def test_headers_forbid_inline_script_and_frames(client) -> None:
    r = client.get("/")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert "<script>" not in r.get_data(as_text=True)  # the page itself has none inline


def test_a_foreign_host_header_is_refused(client) -> None:
    assert client.get("/", headers={"Host": "attacker.example"}).status_code == 400
    assert client.get("/api/state", headers={"Host": "attacker.example:8765"}).status_code == 400
    assert client.get("/", headers={"Host": "127.0.0.1:8765"}).status_code == 200


def test_lan_names_are_served_when_allowed(services: TableServices) -> None:
    c = create_app(services, admin_pin="730519", allowed_hosts=["192.168.1.20"],
                   testing=True).test_client()
    assert c.get("/", headers={"Host": "192.168.1.20:8765"}).status_code == 200
    assert c.get("/", headers={"Host": "192.168.1.21:8765"}).status_code == 400


@pytest.mark.parametrize("pin", ["1234", "12345", "000000", "123456", "987654", "aaaaaaa"])
def test_weak_pins_are_refused(services: TableServices, pin: str) -> None:
    with pytest.raises(PinError):
        check_pin_strength(pin)
    with pytest.raises(PinError):
        create_app(services, admin_pin=pin, testing=True)


def test_wrong_pins_lock_a_client_out_and_not_the_others(services: TableServices) -> None:
    app = create_app(services, admin_pin="730519", testing=True)
    attacker = app.test_client()
    attacker.environ_base["REMOTE_ADDR"] = "10.9.9.9"
    codes = [post(attacker, "/api/login", {"pin": f"{n:06d}"}).status_code for n in range(8)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3
    # Locked out: even the right PIN is not tried now.
    r = post(attacker, "/api/login", {"pin": "730519"})
    assert r.status_code == 429 and "too many wrong PINs" in r.get_json()["error"]
    staff = app.test_client()
    staff.environ_base["REMOTE_ADDR"] = "10.9.9.10"
    assert post(staff, "/api/login", {"pin": "730519"}).status_code == 200
    # Right PINs do not count against a client.
    for _ in range(8):
        assert post(staff, "/api/login", {"pin": "730519"}).status_code == 200


def test_a_huge_body_is_refused_unread_and_not_echoed(client, services: TableServices) -> None:
    body = json.dumps({"do": "action", "action": "x" * (MAX_BODY * 3)})
    r = client.post("/api/command", data=body, content_type="application/json",
                    headers={"X-CSRF-Token": token(client)})
    assert r.status_code == 413 and len(r.data) < 200


@pytest.mark.parametrize("body", [
    {"do": {}}, {"do": ["x"]}, {"do": None}, {"do": "x" * 5000},
    {"do": "action", "action": {"a": 1}}, {"do": "action", "action": "p1 " + "y" * 5000},
    {"do": "correct", "mini": "p1#0", "to": {"a": 1}},
    {"do": "correct", "mini": ["p1#0"], "to": "c3"},
    {"do": "correct", "mini": "p1#0", "to": "c3", "damage": True},
    {"do": "roll", "player": "p1", "faces": [[1], {"x": 2}]},
    {"do": "roll", "player": {"p": 1}, "faces": [1]},
    {"do": "strike", "player": "p1", "cell": ["c3"]},
    {"do": "initiative", "player": "p1", "die": 1e300},
])
def test_malformed_fields_are_400_with_a_short_reason(client, services: TableServices,
                                                      body: dict) -> None:
    before = (services.session.state.key(), len(services.session.history))
    r = post(client, "/api/command", body)
    assert r.status_code == 400, r.data
    assert len(r.get_json()["error"]) <= 300
    assert (services.session.state.key(), len(services.session.history)) == before


def test_json_nested_deeper_than_python_recurses_is_a_400(client) -> None:
    body = "[" * 30000 + "]" * 30000
    r = client.post("/api/command", data=body, content_type="application/json",
                    headers={"X-CSRF-Token": token(client)})
    assert r.status_code == 400 and "JSON object" in r.get_json()["error"]


@pytest.mark.parametrize("after", ["9" * 5000, "²", "١٢", "-1", "1.5", ""])
def test_history_takes_ascii_sequence_numbers_only(client, after: str) -> None:
    assert client.get(f"/api/history?after={after}").status_code == 400


def test_devices_port_must_be_text(services: TableServices) -> None:
    class Live:
        def attach(self, s: object) -> None: ...
        def use_box(self, box: object) -> None: ...

    svc = TableServices(services.session, Live(), ports=lambda: [{"device": "/dev/ttyACM0"}])
    c = create_app(svc, testing=True).test_client()
    for port in (["/dev/ttyACM0"], {"a": 1}, 3, None):
        r = post(c, "/api/devices", {"port": port})
        assert r.status_code == 400 and "port" in r.get_json()["error"]


def test_errors_name_no_server_paths(client, services: TableServices, tmp_path) -> None:
    broken = services.log.new_game({"warbands": "not a setup"})
    r = post(client, f"/api/games/{broken}/resume", {})
    assert r.status_code == 400
    assert str(tmp_path) not in r.get_json()["error"]


def test_live_streams_are_capped(services: TableServices) -> None:
    services.broker = Broker(max_subscribers=2)
    c = create_app(services, testing=True).test_client()
    open_ = [c.get("/api/events", buffered=False) for _ in range(2)]
    assert all(r.status_code == 200 for r in open_)
    r = c.get("/api/events")
    assert r.status_code == 503 and "too many screens" in r.get_json()["error"]
    for resp in open_:
        resp.close()  # a closed stream gives its place back, read or not
    assert services.broker.subscribers == 0
    assert c.get("/api/events", buffered=False).status_code == 200
