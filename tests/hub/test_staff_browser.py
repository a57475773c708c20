"""The staff view in Debian's Chromium at a phone, a laptop and a TV size: staff sign in
through the real form, the table that needs a person comes first, nothing is cut off
or scrolls sideways, and the page follows the tables live."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import sync_playwright

from hub.app import create_app
from hub.live import Notifications
from tablesight.server import Server
from tests.web.test_browser import ARTIFACTS, CHROMIUM, FLAGS

from .helpers import batch_of, finished, game_log

SIZES = {"phone": (390, 844), "laptop": (1280, 800), "tv": (1920, 1080)}


@pytest.fixture
def hub(store, tmp_path):
    tables = {
        "Table 1": {"game": "Warseer", "players": ["Ann", "Bob"],
                    "prompt": "Ann: move, attack or play a card"},
        "Table 2": {"game": "Dreamblade", "players": ["Cleo", "Dev"],
                    "prompt": "Dev: roll 3 dice for Iron Thug",
                    "health": {"box": {"ok": False, "message": "the table box is unplugged: "
                                                             "dice are typed in"}},
                    "desync": "put Cleo's Iron Thug back on c3"},
        "Demo table by the window": {"game": "Warhammer Diskwars",
                                     "players": ["Eve", "Finn"],
                                     "prompt": "Eve and Finn: choose a command card in "
                                               "secret, on your own page"},
    }
    from table.session import Session, Setup
    from tablesight.publish import table_status

    for status, game in zip(tables.values(), ("warseer", "dreamblade", "diskwars"),
                            strict=True):
        shown = table_status(Session.new(Setup.sample(game)).snapshot())
        status.update(board=shown["board"], colors=shown["colors"])
    tokens = {}
    for i, (name, status) in enumerate(tables.items()):
        tokens[name] = store.add_table(name)
        log = game_log(tmp_path / f"{i}.db", entries=4)
        batch = batch_of(log, status="over" if i == 0 else None)
        batch["status"] = status
        table = store.table_for_token(tokens[name])
        from hub.batch import parse_batch

        store.store(table, parse_batch(json.loads(json.dumps(batch))))
    league = store.table_for_token(tokens["Table 1"])
    for i, (p1, p2, w, pts) in enumerate([
            ("Ann", "Bob", "p1", {"p1": 6, "p2": 3}), ("Cleo", "Ann", "p2", {"p1": 2, "p2": 5}),
            ("Bob", "Cleo", "draw", {"p1": 4, "p2": 4}), ("Dev", "Bob", "p2", {"p1": 1, "p2": 3}),
            ("Maximilian Featherstonehaugh", "Dev", "p1", {"p1": 7, "p2": 2})]):
        from hub.batch import parse_batch

        store.store(league, parse_batch(batch_of(finished(tmp_path / f"f{i}.db", p1, p2, w,
                                                          pts))))
    store.add_staff("sam", "correct horse battery")
    live = Notifications(store.dsn).start()
    server = Server(create_app(store, live=live), "127.0.0.1", 0).start()
    yield server.url, store, tokens, tmp_path
    server.stop()
    live.stop()


@pytest.mark.parametrize("size", list(SIZES))
def test_staff_see_the_table_that_needs_them_first_at_every_size(hub, size):
    url, store, tokens, tmp_path = hub
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    blocked: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        w, h = SIZES[size]
        page = browser.new_page(viewport={"width": w, "height": h})
        page.on("console", lambda m: "Content Security Policy" in m.text
                and blocked.append(m.text))
        page.goto(url)
        assert page.url.endswith("/login")
        page.fill("input[name=username]", "sam")
        page.fill("input[name=password]", "correct horse battery")
        page.click("button[type=submit]")
        page.wait_for_selector(".tables")
        cards = page.locator(".table h2").all_inner_texts()
        assert cards[0] == "Table 2", cards  # the one that needs a person
        text = page.inner_text("main")
        assert "the table box is unplugged" in text and "put Cleo's Iron Thug back" in text
        for bad in ("p1#", "p2#", "Traceback", "None", "undefined", "NaN"):
            assert bad not in text, bad
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        page.screenshot(path=str(ARTIFACTS / f"hub-tables-{size}.png"), full_page=True)
        # A table publishing turns another's card into an alert, live.
        with page.expect_navigation(timeout=15000):
            batch = batch_of(game_log(tmp_path / "late.db", entries=1))
            batch["status"] = {"game": "Warseer", "prompt": "Bob: roll",
                               "health": {"camera": {"ok": False,
                                                     "message": "the camera stopped"}}}
            from hub.batch import parse_batch

            store.store(store.table_for_token(tokens["Table 1"]), parse_batch(batch))
        page.wait_for_selector(".tables")
        assert "the camera stopped" in page.inner_text("main")
        page.click("text=Table 1")
        page.wait_for_selector("ol.log")
        assert "Ann v Bob" in page.inner_text("main")
        assert page.locator("svg.board polygon").count() > 50  # the hex battlefield
        page.screenshot(path=str(ARTIFACTS / f"hub-table-{size}.png"), full_page=True)
        page.click("header >> text=Standings")
        page.wait_for_selector("table.standings")
        names = page.locator("table.standings td:nth-child(2)").all_inner_texts()
        assert names[0] == "Ann" and "Maximilian Featherstonehaugh" in names
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        page.screenshot(path=str(ARTIFACTS / f"hub-standings-{size}.png"), full_page=True)
        browser.close()
    assert blocked == []
