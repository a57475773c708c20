"""The first screen at a phone, a laptop and a TV size, for every installed game mid-game:
the prompt and the whole board (its last row too) inside the window without scrolling,
nothing sideways. Screenshots go to the test artifacts for a person to judge."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from table import registry

from .browsing import served
from .test_browser import ARTIFACTS
from .test_no_ids_on_screen import played

SIZES = [("phone", (390, 844)), ("laptop", (1280, 800)), ("tv", (1920, 1080))]


@pytest.mark.parametrize("screen,size", SIZES)
@pytest.mark.parametrize("game", sorted(registry.systems()))
def test_the_prompt_and_the_whole_board_on_the_first_screen(
        game: str, screen: str, size: tuple[int, int], tmp_path: Path) -> None:
    session, log = played(game, 25, tmp_path)
    with served(session, log, size) as (url, (pg,), blocked):
        pg.goto(url)
        expect(pg.locator("#prompt")).not_to_be_empty()
        pg.wait_for_timeout(300)
        boxes = pg.evaluate("""() => {
          const r = (id) => document.getElementById(id).getBoundingClientRect();
          // The board's drawing: the map's frame scaled into the svg box (centred).
          const svg = document.getElementById('board');
          const vb = svg.viewBox.baseVal, b = r('board');
          const k = Math.min(b.width / vb.width, b.height / vb.height);
          return {prompt: r('prompt').bottom, board: b.top + (b.height + vb.height * k) / 2,
                  boardH: vb.height * k, window: window.innerHeight,
                  wide: document.documentElement.scrollWidth};
        }""")
        pg.screenshot(path=str(ARTIFACTS / f"first-screen-{game}-{screen}.png"))
        # The legend names the board's markings, one tap away (closed at first).
        legend = session.referee.view(session.state)["board"].get("legend", [])
        if legend:
            pg.locator("#legend summary").click()
            expect(pg.locator("#legend li")).to_have_count(len(legend))
            expect(pg.locator("#legend")).to_contain_text(legend[0]["means"])
            pg.locator("#legend").screenshot(
                path=str(ARTIFACTS / f"legend-{game}-{screen}.png"))
        # How to play this step: one tap opens a few sentences, in sight, and it stays
        # open while the steps change.
        how = pg.locator("#how")
        expect(how).to_be_visible()
        how.locator("summary").click()
        expect(pg.locator("#how-text")).to_have_text(session.prompt().how)
        how.scroll_into_view_if_needed()
        how.screenshot(path=str(ARTIFACTS / f"how-{game}-{screen}.png"))
        pg.evaluate("() => { snap.prompt.how = 'changed'; renderPrompt(); }")
        expect(pg.locator("#how-text")).to_have_text("changed")
        assert how.evaluate("el => el.open")
        assert boxes["prompt"] <= size[1], boxes
        assert boxes["board"] <= size[1] + 1, f"the board's last row is below the fold: {boxes}"
        assert boxes["wide"] <= size[0], boxes
        if screen != "phone":  # the board is not shrunk to a stamp to fit
            assert boxes["boardH"] >= 0.45 * size[1], boxes
    assert not blocked, blocked
