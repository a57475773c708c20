"""The hub's HTTP side: tables publish with their token and nothing else gets in;
staff sign in, with CSRF on every form; hostile input is refused, never a 500."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.app import create_app
from hub.live import Notifications

from .helpers import batch_of, finished, game_log


@pytest.fixture
def app(store):
    app = create_app(store, live=Notifications(store.dsn), testing=True)
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def token(store):
    return store.add_table("Table 1")


def _post(client, batch, token):
    return client.post("/api/v1/batches", data=json.dumps(batch),
                       headers={"Authorization": f"Bearer {token}",
                                "Content-Type": "application/json"})


def test_a_table_publishes_and_resumes_from_what_the_hub_has(client, token, store, tmp_path):
    log = game_log(tmp_path / "t.db", entries=4)
    r = client.get(f"/api/v1/progress?log={log.log_id()}",
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json == {"have": {}}
    r = _post(client, batch_of(log), token)
    assert r.status_code == 200 and r.json == {"stored": 4, "have": {"1": 4}}
    assert _post(client, batch_of(log), token).json == {"stored": 0, "have": {"1": 4}}
    assert client.get(f"/api/v1/progress?log={log.log_id()}",
                      headers={"Authorization": f"Bearer {token}"}).json == {"have": {"1": 4}}


@pytest.mark.parametrize("auth", ["", "Bearer ", "Bearer forged-token-123456",
                                  "Basic dXNlcjpwYXNz", "Bearer " + "x" * 5000])
def test_a_forged_or_missing_token_stores_nothing(client, store, tmp_path, auth):
    log = game_log(tmp_path / "t.db", entries=2)
    r = client.post("/api/v1/batches", data=json.dumps(batch_of(log)),
                    headers={"Authorization": auth, "Content-Type": "application/json"})
    assert r.status_code == 401 and "token" in r.json["error"]
    assert store.count_entries() == 0


def test_a_revoked_table_stores_nothing_more(client, token, store, tmp_path):
    log = game_log(tmp_path / "t.db", entries=2)
    assert _post(client, batch_of(log), token).status_code == 200
    store.revoke_table("Table 1")
    log.append(1, "note", {"text": "after"}, "dashboard")
    assert _post(client, batch_of(log), token).status_code == 401
    assert store.count_entries() == 2


def test_another_tables_log_is_refused(client, token, store, tmp_path):
    log = game_log(tmp_path / "t.db", entries=2)
    _post(client, batch_of(log), token)
    other = store.add_table("Table 2")
    r = _post(client, batch_of(log), other)
    assert r.status_code == 403 and "another table" in r.json["error"]


def test_malformed_and_oversized_batches_are_refused(client, token, store):
    for body, code in ((b"{not json", 400), (b"[]", 400), (b"null", 400),
                       (json.dumps({"format": "tablesight-batch/1", "log": "0" * 32,
                                    "games": "x"}).encode(), 400),
                       (b"{" + b" " * (3 * 1024 * 1024) + b"}", 413)):
        r = client.post("/api/v1/batches", data=body,
                        headers={"Authorization": f"Bearer {token}",
                                 "Content-Type": "application/json"})
        assert r.status_code == code, body[:40]
        assert "error" in r.json
    assert store.count_entries() == 0


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(), c,
                                                                       max_size=3),
                    max_leaves=12))
def test_any_json_from_a_table_gets_an_answer_not_a_500(client, token, data):
    r = _post(client, data, token)
    assert r.status_code in (200, 400), r.json


def _csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def _sign_in(client, store):
    store.add_staff("sam", "correct horse battery")
    page = client.get("/login").get_data(as_text=True)
    return client.post("/login", data={"username": "sam", "password": "correct horse battery",
                                       "csrf_token": _csrf(page)})


def test_staff_pages_need_signing_in(client):
    for path in ("/", "/tables/1"):
        r = client.get(path)
        assert r.status_code == 302 and r.headers["Location"].endswith("/login")


def test_signing_in_needs_the_forms_token_and_the_password(client, store):
    store.add_staff("sam", "correct horse battery")
    no_token = client.post("/login", data={"username": "sam",
                                          "password": "correct horse battery"})
    assert no_token.status_code == 400
    page = client.get("/login").get_data(as_text=True)
    wrong = client.post("/login", data={"username": "sam", "password": "wrong password!",
                                       "csrf_token": _csrf(page)})
    assert wrong.status_code == 401 and "wrong name or password" in wrong.get_data(True)
    assert _sign_in(client, store).status_code == 302
    assert client.get("/").status_code == 200


def test_the_overview_puts_the_table_that_needs_a_person_first(client, store, tmp_path):
    calm, troubled = store.add_table("A calm table"), store.add_table("B troubled table")
    for name, token, status in (
            ("calm", calm, {"game": "Warseer", "prompt": "Ann: your turn"}),
            ("troubled", troubled, {"game": "Warseer", "prompt": "Bob: roll",
                                    "health": {"box": {"ok": False,
                                                       "message": "the table box is unplugged"}},
                                    "desync": "<b>the board moved</b>"})):
        batch = batch_of(game_log(tmp_path / f"{name}.db", entries=1))
        batch["status"] = status
        assert _post(client, batch, token).status_code == 200
    _sign_in(client, store)
    html = client.get("/").get_data(as_text=True)
    assert html.index("B troubled table") < html.index("A calm table")
    assert "the table box is unplugged" in html
    assert "&lt;b&gt;the board moved&lt;/b&gt;" in html and "<b>the board" not in html
    assert "Ann: your turn" in html


def test_a_tables_page_shows_its_game_read_only(client, store, token, tmp_path):
    log = game_log(tmp_path / "t.db", entries=3)
    _post(client, batch_of(log), token)
    _sign_in(client, store)
    [t] = store.tables()
    html = client.get(f"/tables/{t['id']}").get_data(as_text=True)
    assert "Ann v Bob" in html and "step 3" in html
    assert client.get("/tables/999").status_code == 404
    assert client.post(f"/tables/{t['id']}").status_code in (400, 405)


def test_signing_out_needs_the_forms_token(client, store):
    _sign_in(client, store)
    assert client.post("/logout").status_code == 400  # another site's form cannot
    page = client.get("/").get_data(as_text=True)
    assert client.post("/logout", data={"csrf_token": _csrf(page)}).status_code == 302
    assert client.get("/").status_code == 302


def test_standings_and_the_results_export(client, store, token, tmp_path):
    for i, (p1, p2, w, pts) in enumerate([("Ann", "Bob", "p1", {"p1": 5, "p2": 3}),
                                         ("Bob", "<i>Cleo</i>", "p2", {"p1": 1, "p2": 4}),
                                         ("Ann", "Cleo", "draw", {"p1": 2, "p2": 2})]):
        assert _post(client, batch_of(finished(tmp_path / f"{i}.db", p1, p2, w, pts)),
                     token).status_code == 200
    playing = game_log(tmp_path / "playing.db", entries=2)  # not finished: not counted
    _post(client, batch_of(playing), token)
    _sign_in(client, store)
    html = client.get("/standings?game=warseer&by=wins,sos,vp").get_data(as_text=True)
    order = [html.index(n) for n in ("Ann", "&lt;i&gt;Cleo&lt;/i&gt;", "Bob")]
    assert order == sorted(order) and "<i>Cleo" not in html
    assert "3 finished games" in html
    assert client.get("/standings?game=nonsense&by=luck").status_code == 200
    csv_text = client.get("/results.csv").get_data(as_text=True)
    assert csv_text.splitlines()[0].startswith("finished_utc,table,system")
    assert len(csv_text.splitlines()) == 4


def test_a_tables_page_draws_its_board_as_the_table_shows_it(client, store, token, tmp_path):
    from table.session import Session, Setup
    from tablesight.publish import table_status

    status = table_status(Session.new(Setup.sample("warseer")).snapshot())
    status["board"]["pieces"].append({"player": "p1", "label": "<script>x</script>",
                                      "at": [10, 10], "diameter": 25})
    batch = batch_of(game_log(tmp_path / "t.db", entries=1))
    batch["status"] = status
    assert _post(client, batch, token).status_code == 200
    later = batch_of(game_log(tmp_path / "t.db", entries=0))  # no board: the last stays
    later["status"] = {"prompt": "Bob: your turn"}
    assert _post(client, later, token).status_code == 200
    _sign_in(client, store)
    [t] = store.tables()
    html = client.get(f"/tables/{t['id']}").get_data(as_text=True)
    assert html.count("<polygon") == len(status["board"]["regions"])
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "<script>x" not in html
    assert "Bob: your turn" in html


def test_wrong_passwords_are_throttled_per_device(client, store):
    store.add_staff("sam", "correct horse battery")
    page = client.get("/login").get_data(as_text=True)
    for _ in range(5):
        r = client.post("/login", data={"username": "sam", "password": "guess",
                                        "csrf_token": _csrf(page)})
        assert r.status_code == 401
    right = client.post("/login", data={"username": "sam", "password": "correct horse battery",
                                        "csrf_token": _csrf(page)})
    assert right.status_code == 429 and "wait a few minutes" in right.get_data(True)


def test_staff_revoke_a_tables_token_from_its_page(client, store, token, tmp_path):
    log = game_log(tmp_path / "t.db", entries=1)
    _post(client, batch_of(log), token)
    _sign_in(client, store)
    [t] = store.tables()
    page = client.get(f"/tables/{t['id']}").get_data(as_text=True)
    not_sure = client.post(f"/tables/{t['id']}/revoke", data={"csrf_token": _csrf(page)})
    assert not_sure.status_code == 302 and store.table_for_token(token) is not None
    assert client.post(f"/tables/{t['id']}/revoke", data={"sure": "yes"}).status_code == 400
    client.post(f"/tables/{t['id']}/revoke", data={"sure": "yes", "csrf_token": _csrf(page)})
    assert store.table_for_token(token) is None
    assert _post(client, batch_of(log), token).status_code == 401
    assert client.post("/tables/999/revoke", data={"sure": "yes",
                                                   "csrf_token": _csrf(page)}).status_code == 404


_text = st.text(max_size=60)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/", "/login", "/standings", "/results.csv", "/tables/1",
                             "/tables/0", "/tables/99999999999", "/logout", "/stream-x",
                             "/tables/1/revoke"]),
       query=st.dictionaries(st.sampled_from(["game", "by", "x", "log"]), _text, max_size=3),
       form=st.dictionaries(st.sampled_from(["username", "password", "csrf_token", "sure"]),
                            _text, max_size=4),
       method=st.sampled_from(["GET", "POST"]), signed_in=st.booleans())
def test_staff_pages_fuzzed_answer_without_a_500(app, store, path, query, form, method,
                                                 signed_in):
    client = app.test_client()
    if signed_in:
        store.add_staff("sam", "correct horse battery")
        page = client.get("/login").get_data(as_text=True)
        client.post("/login", data={"username": "sam", "password": "correct horse battery",
                                    "csrf_token": _csrf(page)})
    r = client.open(path, method=method, query_string=query, data=form)
    assert r.status_code < 500, (path, r.status_code)
