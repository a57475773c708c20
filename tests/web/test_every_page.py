"""Every page of every installed game at a phone, a laptop and a TV size, mid-game: the
dashboard's four tabs and a player's private page. Each is drawn in Chromium, checked
to fit the window's width (nothing scrolls sideways, which hides the tabs) and kept as a
picture in the test artifacts (``pages/<game>-<page>-<size>.jpg``) for a person to
judge; ``docs/screenshots/pages/`` holds the set from the last time they were judged."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from table import registry

from .browsing import served
from .test_browser import ARTIFACTS
from .test_layout import SIZES
from .test_no_ids_on_screen import played

PAGES = ARTIFACTS / "pages"
TABS = ("table", "history", "camera", "setup")


@pytest.mark.parametrize("screen,size", SIZES)
@pytest.mark.parametrize("game", sorted(registry.systems()))
def test_every_page_fits_and_is_kept_as_a_picture(game: str, screen: str,
                                                  size: tuple[int, int],
                                                  tmp_path: Path) -> None:
    PAGES.mkdir(parents=True, exist_ok=True)
    session, log = played(game, 40, tmp_path)
    key = session.issue_seat_key(session.referee.prompt(session.state).player or "p1")
    with served(session, log, size) as (url, (pg,), blocked):
        pg.goto(url)
        expect(pg.locator("#prompt")).not_to_be_empty()
        for tab in TABS:
            pg.click(f"button.tab[data-tab={tab}]")
            pg.wait_for_timeout(500)  # the setup tab loads the catalog and the games
            wide = pg.evaluate("document.documentElement.scrollWidth")
            assert wide <= size[0], f"{game}, {tab} tab at {screen}: {wide} px wide"
            pg.screenshot(path=str(PAGES / f"{game}-{tab}-{screen}.jpg"), type="jpeg",
                          quality=70)
        pg.goto(f"{url}seat/{key}")
        expect(pg.locator("#who")).to_contain_text("private page")
        pg.wait_for_timeout(300)
        wide = pg.evaluate("document.documentElement.scrollWidth")
        assert wide <= size[0], f"{game}, private page at {screen}: {wide} px wide"
        pg.screenshot(path=str(PAGES / f"{game}-private-{screen}.jpg"), type="jpeg",
                      quality=70)
    assert not blocked, blocked
