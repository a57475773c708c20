"""Diskwars on the dashboard, in Chromium at a phone, a laptop and a TV size: the
battlefield with its zones, terrain and disks by name; a command card chosen on the
player's own page while the table's screen says only that one was chosen; the reach of
each disk that may flip drawn as a circle to tap."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from table.session import GameLog, Session, Setup
from tests.web.browsing import served
from tests.web.test_browser import ARTIFACTS

SIZES = [("phone", (390, 844)), ("laptop", (1280, 800)), ("tv", (1920, 1080))]
OPENING = [
    {"do": "d6", "player": "p1", "die": 6}, {"do": "d6", "player": "p2", "die": 1},
    {"do": "action", "action": "p1 first p1"},
    *({"do": "action", "action": a} for a in (
        "p2 deploy p2#0 300.0,940.0", "p2 deploy p2#1 420.0,950.0",
        "p2 deploy p2#2 500.0,950.0", "p2 deploy p2#3 640.0,940.0", "p2 deployed",
        "p1 deploy p1#0 300.0,150.0", "p1 deploy p1#1 420.0,150.0",
        "p1 deploy p1#2 490.0,150.0", "p1 deploy p1#3 560.0,150.0",
        "p1 deploy p1#4 680.0,160.0", "p1 deployed")),
]


def table(tmp_path: Path) -> tuple[Session, GameLog]:
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.from_dict({
        "system": "diskwars", "names": {"p1": "Ann", "p2": "Bob"},
        "forces": {"p1": ["Tyrion", "High Elf Spearmen", "High Elf Spearmen",
                          "High Elf Archers", "Silver Helms"],
                   "p2": ["Kairos Fateweaver", "Plaguebearers", "Plaguebearers",
                          "Hellcannon"]}}), log)
    for cmd in OPENING:
        session.command(cmd)
    return session, log


@pytest.mark.parametrize("screen,size", SIZES)
def test_a_round_of_diskwars_at_the_table(tmp_path: Path, screen: str,
                                          size: tuple[int, int]) -> None:
    session, log = table(tmp_path)
    key = session.issue_seat_key("p1")
    with served(session, log, size, pages=2) as (url, (shared, mine), blocked):
        shared.goto(url)
        expect(shared.locator("#prompt")).to_contain_text(
            "Ann and Bob: choose a command card in secret, on your own page")
        expect(shared.locator("#board g.piece")).to_have_count(9)
        mine.goto(f"{url}seat/{key}")
        cards = mine.locator("#mine button[data-action]")
        expect(cards).to_have_count(4)
        expect(cards.first).to_have_text("Play Forward (bold, 3 activations)")
        mine.screenshot(path=str(ARTIFACTS / f"diskwars-own-page-{screen}.png"),
                        full_page=True)
        with mine.expect_response("**/command"):
            mine.locator("#mine button[data-action]", has_text="Charge").click()
        expect(mine.locator("#mine")).to_contain_text("You chose Charge")
        expect(shared.locator("#history")).to_contain_text("Ann chose a command card")
        assert "Charge" not in shared.locator("body").inner_text()
        session.command({"do": "action", "action": "p2 command hold-fast"})
        # Charge (bold) before Hold Fast (steady): Ann resolves first.
        expect(shared.locator("#prompt")).to_contain_text("Ann resolves Charge: "
                                                          "2 activations left")
        # Five disks may flip: their reach circles overlap, so none is drawn until a
        # disk is picked (a tap must not move the wrong one).
        expect(shared.locator("#board g.shape circle")).to_have_count(0)
        expect(shared.locator("#options")).to_contain_text(
            "To move Tyrion, High Elf Spearmen 1, High Elf Spearmen 2, High Elf Archers, "
            "Silver Helms: tap it on the board")
        text = shared.locator("body").inner_text()
        assert "p1#" not in text and "p2#" not in text
        shared.screenshot(path=str(ARTIFACTS / f"diskwars-resolve-{screen}.png"),
                          full_page=True)
        expect(shared.locator("#board g.ring")).to_have_count(0)
        shared.locator('#board g.piece[data-ref="p1#4"]').click()
        expect(shared.locator("#board g.shape circle")).to_have_count(1)
        # The picked disk's range bands as rings: short, medium, long.
        expect(shared.locator("#board g.ring text")).to_have_text(["short", "medium", "long"])
        expect(shared.locator("#options")).to_contain_text("Silver Helms may flip to here")
        shared.screenshot(path=str(ARTIFACTS / f"diskwars-reach-{screen}.png"),
                          full_page=True)
        # A tap inside the circle, straight down the board from the disk, well within
        # its reach of two flips.
        box = shared.evaluate("""() => {
          const c = document.querySelector('#board g.shape circle');
          const r = c.getBoundingClientRect();
          return {x: r.x, y: r.y, width: r.width, height: r.height};
        }""")
        with shared.expect_response("**/api/command") as answer:
            shared.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
        assert answer.value.status == 200, answer.value.json()
        helms = session.state.disks["p1#4"]
        assert helms.activated and helms.y > 200  # flipped toward the enemy
        session.command({"do": "action", "action": "p1 hold p1#0"})
        session.command({"do": "action", "action": "p1 empower p1#4"})
        expect(shared.locator("#prompt")).to_contain_text("Bob resolves Hold Fast")
        shared.screenshot(path=str(ARTIFACTS / f"diskwars-bob-{screen}.png"),
                          full_page=True)
        for pg in (shared, mine):
            assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not blocked, blocked
