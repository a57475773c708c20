"""A fuzz test of the whole API: hostile JSON (and not JSON) at every endpoint and method.

Whatever is sent, the answer is a result or a 4xx JSON error, never a 500; and a refused
request changes nothing: not the rules state, not the history, not the game log."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.session import GameLog, Session
from web import TableServices, create_app

from ..session.helpers import sample_setup, seen
from .test_api import token

KEYS = ["do", "action", "player", "faces", "die", "mini", "piece", "to", "damage", "option",
        "on", "cell", "pin", "warbands", "forces", "names", "colors", "stickers", "camera",
        "port", "format", "system", "p1", "p2"]
COMMANDS = ["action", "roll", "initiative", "ready", "strike", "undo", "choose", "correct",
            "follow_camera", "board_ok"]
TEXTS = ["p1", "p2", "p1#0", "p2#3", "c3", "e1", "reserves", "graveyard", "removed",
         "p1 spawn p1#0 e1", "p1 end", "blade", "miss", "3", "#f0780a", "none", "0",
         "rtsp://127.0.0.1/x", "Iron Thug", "<script>x</script>", "\x00", "²", "9" * 400]

scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
           | st.floats(allow_nan=True) | st.sampled_from(TEXTS + COMMANDS)
           | st.text(max_size=30))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), inner, max_size=6),
    max_leaves=20)
# Near-valid bodies reach past the first checks: accepted commands and new games too.
plausible = st.fixed_dictionaries(
    {"do": st.sampled_from(COMMANDS)},
    optional={"player": st.sampled_from(["p1", "p2"]), "die": st.integers(0, 7),
              "faces": st.lists(st.sampled_from(["1", "2", "3", "miss", "blade", 2]),
                                max_size=6),
              "action": st.sampled_from(TEXTS), "mini": st.sampled_from(TEXTS),
              "piece": st.sampled_from(TEXTS),
              "to": st.sampled_from(TEXTS), "damage": st.integers(-1, 9),
              "option": st.integers(-1, 2), "on": st.booleans()})
setups = st.fixed_dictionaries(
    {"warbands": st.fixed_dictionaries(
        {"p1": st.lists(st.sampled_from(["Iron Thug", "Nobody", "Hoard Bloat"]), max_size=4),
         "p2": st.lists(st.sampled_from(["Iron Thug", "Twilight Scout"]), max_size=4)})},
    optional={"names": st.fixed_dictionaries({"p1": st.sampled_from(TEXTS),
                                              "p2": st.text(max_size=45)}),
              "colors": st.fixed_dictionaries({"p1": st.sampled_from(TEXTS),
                                               "p2": st.sampled_from(["#1a78e0", "blue"])})})
bodies = st.one_of(
    st.fixed_dictionaries({"do": st.sampled_from(COMMANDS)},
                          optional={k: json_values for k in KEYS[1:12]}),
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=8),
    json_values)
ENDPOINTS = [("POST", "/api/command")] * 4 + [("POST", "/api/games"), ("POST", "/api/login"),
             ("POST", "/api/logout"), ("POST", "/api/devices"), ("POST", "/api/games/1/resume"),
             ("GET", "/api/state"), ("GET", "/api/history"), ("GET", "/api/games"),
             ("GET", "/api/devices"), ("GET", "/api/health"), ("DELETE", "/api/command"),
             ("PUT", "/api/games")]


class FakeStats:
    def to_dict(self) -> dict:
        return {"frames": 0, "commits": 0}


class FakeLive:
    """Stands in for the camera and box (the real LiveTable: tests/test_live_health.py)."""

    camera = None
    stats = FakeStats()

    def attach(self, s: Session) -> None: ...
    def use_camera(self, src: object) -> None: ...
    def use_box(self, box: object) -> None: ...


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    log = GameLog(tmp_path_factory.mktemp("fuzz") / "games.db")
    s = Session.new(sample_setup(), log)
    s.observe(seen(s.state))
    for p, die in (("p1", 5), ("p2", 2)):
        s.command({"do": "initiative", "player": p, "die": die})
    svc = TableServices(s, FakeLive(), log, ports=lambda: [{"device": "/dev/ttyACM0"}],
                        open_camera=lambda spec: None, open_box=lambda port: None)
    client = create_app(svc, testing=True).test_client()
    return svc, client, token(client)


def _fingerprint(svc: TableServices) -> tuple:
    s = svc.session
    entries = sum(g.entries for g in svc.log.games())
    return (s.game_id, s.state.key(), len(s.ops), len(s.history), entries,
            len(svc.log.games()))


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(endpoint=st.sampled_from(ENDPOINTS),
       data=st.one_of(plausible.map(json.dumps), plausible.map(json.dumps),
                      setups.map(json.dumps), bodies.map(json.dumps),
                      st.binary(max_size=64), st.sampled_from([b"{", b"[" * 5000, b"\xff\xfe"])),
       after=st.text(max_size=20))
def test_no_request_gets_a_500_and_a_refused_one_changes_nothing(table, endpoint, data,
                                                                  after) -> None:
    svc, client, csrf = table
    method, path = endpoint
    before = _fingerprint(svc)
    r = client.open(path, method=method, data=data, content_type="application/json",
                    headers={"X-CSRF-Token": csrf}, query_string={"after": after})
    assert r.status_code < 500, (method, path, data[:200], r.data[:300])
    if r.status_code >= 400:
        assert r.is_json and isinstance(r.get_json().get("error"), str)
        assert len(r.get_json()["error"]) <= 300
        assert _fingerprint(svc) == before, (method, path, data[:200], r.get_json())


@pytest.fixture(scope="module")
def seat_table(tmp_path_factory, track_installed_module):
    """A game with a hidden hand, Ann's private page open by its key."""
    from table.session import Setup

    log = GameLog(tmp_path_factory.mktemp("seats") / "games.db")
    s = Session.new(Setup.from_dict({"system": "track", "names": {"p1": "Ann", "p2": "Bob"},
                                     "forces": {"p1": ["Pawn"], "p2": ["Pawn"]}}), log)
    s.command({"do": "die", "player": "p1", "die": 1})
    s.command({"do": "action", "action": "p1 draw"})
    key = s.issue_seat_key("p1")
    svc = TableServices(s, FakeLive(), log, ports=lambda: [],
                        open_camera=lambda spec: None, open_box=lambda port: None)
    client = create_app(svc, testing=True).test_client()
    return svc, client, token(client), key


SEAT_TEXTS = ["p1 luck", "p2 pass", "p1 drew L2a", "p1 draw", "L1a", "L2a", "x" * 300]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.one_of(
    st.fixed_dictionaries({"do": st.sampled_from(["action", "card", "undo", "correct", "x"])},
                          optional={"action": st.sampled_from(SEAT_TEXTS) | json_values,
                                    "player": st.sampled_from(["p1", "p2", None, 1]),
                                    "faces": st.lists(st.sampled_from(SEAT_TEXTS), max_size=3)
                                    | json_values}).map(json.dumps),
    bodies.map(json.dumps), st.binary(max_size=64)),
       own=st.booleans(), path_key=st.text(max_size=70))
def test_a_private_page_takes_no_request_it_should_not(seat_table, body, own, path_key) -> None:
    """Hostile bodies and keys at a seat's page: never a 500, a refusal changes nothing,
    and an accepted command was that seat's to send."""
    svc, client, csrf, key = seat_table
    use = key if own else path_key
    before = (len(svc.session.ops), len(svc.session.history))
    r = client.post(f"/api/seat/{use}/command", data=body, content_type="application/json",
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code < 500, (use, body[:200], r.data[:300])
    if r.status_code >= 400:
        assert r.is_json and isinstance(r.get_json().get("error"), str)
        assert (len(svc.session.ops), len(svc.session.history)) == before
    elif r.status_code >= 300:  # a path with "//" is sent to its merged form, unrun
        assert (len(svc.session.ops), len(svc.session.history)) == before
    else:
        assert own and all(op.body.get("action", "p1").startswith("p1")
                           for op in svc.session.ops[before[0]:])
    assert client.get(f"/api/seat/{use}").status_code in ((200,) if own else (200, 308, 404))
