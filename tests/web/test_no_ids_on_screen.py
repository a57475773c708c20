"""What players and staff read never shows an internal id (``p1#3``, ``p2:20``) or raw
error text (``Errno``, a traceback, OpenCV's warnings): every tab of the dashboard and
the private pages, for every installed game, mid-game and at its end, in Chromium."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from table import registry
from table.errors import ActionRefused
from table.session import GameLog, Session, Setup

from .browsing import served
from .test_browser import ARTIFACTS

LEAKS = re.compile(r"\bp[12]#\d|\bp[12]:\d|Errno|Traceback|cap_v4l|\bNone\b|undefined|NaN"
                   r"|\[object ")


def played(game: str, steps: int, tmp_path: Path) -> tuple[Session, GameLog]:
    """A game of ``game`` with ``steps`` random steps played through the session, as the
    table plays them (the log and history have them), or to its end."""
    system = registry.get(game)
    log = GameLog(tmp_path / f"{game}-{steps}.db")
    session = Session.new(Setup.sample(game), log)
    ref, rng = session.referee, random.Random(5)
    for _ in range(steps):
        if ref.is_over(session.state):
            break
        action = ref.chance(session.state, rng)
        if action is None:
            action = rng.choice(list(ref.legal_actions(session.state)))
            session.command({"do": "action", "action": str(action)})
        else:  # the dice: as the box's roll would be played
            try:
                session.play(action, "box", [])
            except ActionRefused:
                continue  # a roll the rules refuse (a tied roll-off) is rolled again
    assert system.name == session.setup.system
    return session, log


def read_every_tab(pg: Page, url: str, where: str) -> None:
    pg.goto(url)
    expect(pg.locator("#prompt")).not_to_be_empty()
    for tab in ("table", "history", "camera", "setup"):
        pg.click(f"button.tab[data-tab={tab}]")
        pg.wait_for_timeout(400)  # the setup tab loads the catalog and the log's games
        text = pg.locator("body").inner_text()
        found = LEAKS.findall(text)
        assert not found, f"{where}, {tab} tab: {sorted(set(found))}"
        for attr in ("title", "aria-label", "placeholder"):
            said = " ".join(pg.eval_on_selector_all(
                f"[{attr}]", f"els => els.map(e => e.getAttribute('{attr}'))"))
            leaks = LEAKS.findall(said)
            assert not leaks, f"{where}, {tab} tab, {attr}: {sorted(set(leaks))}"


@pytest.mark.parametrize("game", sorted(registry.systems()))  # every game installed
def test_no_id_or_raw_error_on_any_tab(game: str, tmp_path: Path) -> None:
    for steps in (25, 4000):  # mid-game, then to its end
        session, log = played(game, steps, tmp_path)
        keys = {p: session.issue_seat_key(p) for p in ("p1", "p2")}
        with served(session, log, (1280, 800)) as (url, (pg,), blocked):
            read_every_tab(pg, url, f"{game} after {steps} steps")
            proposal = session.prompt().proposal
            if proposal:  # what Ready does is its button, not a second one beside it
                pg.click("button.tab[data-tab=table]")
                expect(pg.locator("#options button[data-ready]")).to_have_count(1)
                expect(pg.locator(f'#options button[data-action="{proposal}"]')
                       ).to_have_count(0)
            for p, key in keys.items():
                pg.goto(f"{url}seat/{key}")
                expect(pg.locator("#who")).to_contain_text("private page")
                found = LEAKS.findall(pg.locator("body").inner_text())
                assert not found, f"{game}, {p}'s private page: {sorted(set(found))}"
        assert not blocked, blocked


@pytest.mark.parametrize("game", sorted(registry.systems()))
def test_a_camera_that_is_not_there_is_said_in_words_on_every_tab(game: str,
                                                                  tmp_path: Path) -> None:
    """``run --camera 99`` on a machine with no camera 99: every tab reads without ids
    or OpenCV's words, the health pill says which camera is missing, and the Camera tab
    says it in words instead of showing an empty black picture."""
    from tablesight.live import LiveTable
    from vision.camera import open_source
    from vision.layout import game_layout

    session, log = played(game, 10, tmp_path)
    live = LiveTable(session, game_layout(game), open_source("99")).start()
    try:
        with served(session, log, (1280, 800), live=live) as (url, (pg,), blocked):
            read_every_tab(pg, url, f"{game} with camera 99")
            expect(pg.locator("#health")).to_contain_text("camera 99 not found")
            pg.click("button.tab[data-tab=camera]")
            expect(pg.locator("#camera-stats")).to_contain_text(
                "camera 99 not found: is it plugged in")
            assert pg.locator("#camera-view").evaluate("el => el.hidden")  # no black box
            pg.screenshot(path=str(ARTIFACTS / f"camera-99-{game}.png"))
    finally:
        live.stop()
    assert not blocked, blocked
