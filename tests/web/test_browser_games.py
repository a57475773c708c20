"""The dashboard draws any installed game from the neutral board model alone: Track
(the example game, ``table/games/track``) is a row of hexes the dashboard has never heard of.
Its board, dice card, score and zones, a full turn played by clicks, and the setup page
offering both games, in Debian's Chromium at a phone, a laptop and a TV size."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from table.games.track.layout import WELL
from table.session import GameLog, Session, Setup

from .browsing import served
from .test_browser import ARTIFACTS


@pytest.mark.parametrize("screen,size", [("phone", (390, 844)), ("laptop", (1280, 800)),
                                         ("tv", (1920, 1080))])
def test_a_hex_game_the_dashboard_never_heard_of(track_installed, tmp_path: Path,
                                                 screen: str, size: tuple[int, int]) -> None:
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.from_dict({
        "system": "track", "names": {"p1": "Ann", "p2": "Bob"},
        "forces": {"p1": ["Pawn", "Pawn"], "p2": ["Pawn", "Pawn"]}}), log)
    with served(session, log, size) as (url, (pg,), blocked):
        pg.goto(url)
        expect(pg.locator("#prompt")).to_contain_text("Ann: roll the die")
        # Six hexes, each an outline of six corners, named as the game names them;
        # below them the meadow, a free area.
        hexes = pg.locator('#board g.cell:not([data-cell="meadow"]) polygon')
        expect(hexes).to_have_count(6)
        expect(pg.locator('#board g.cell[data-cell="meadow"]')).to_contain_text("meadow")
        for i in range(6):
            assert len(hexes.nth(i).get_attribute("points").split()) == 6
        expect(pg.locator('#board g.cell[data-cell="s5"]')).to_contain_text("s5")
        # The dice card offers the die's faces; one tap is the roll (a single die).
        dice = pg.locator("#dice")
        expect(dice).to_contain_text("Ann rolls 1 six-sided die")
        expect(dice.locator("button[data-face]")).to_have_count(6)
        # Off the board: the game's own zone lists the pawns waiting.
        expect(pg.locator("#zones")).to_contain_text("waiting: pawn 0 pawn 1")
        expect(pg.locator("#score")).to_contain_text("Pawns home")
        with pg.expect_response("**/api/command"):
            dice.locator('button[data-face="6"]').click()
        expect(pg.locator("#prompt")).to_contain_text("Ann: move a pawn 6")
        # The choices name the hex they go to: a tap on it filters them.
        pg.click('#board g.cell[data-cell="s0"]')
        expect(pg.locator("#options .options button")).to_have_count(2)
        with pg.expect_response("**/api/command"):
            pg.locator("#options .options button").first.click()
        chip = pg.locator('#board g.cell[data-cell="s0"] g.piece')
        expect(chip).to_have_count(1)
        expect(pg.locator("#prompt")).to_contain_text("Bob: roll the die")
        # The pawn's chip lies inside its hex, and its name reads from arm's length.
        # Measured in one step in the page: the board may be drawn again at any time
        # (the command's answer, then the event stream), and an element replaced
        # between finding it and measuring it has no box.
        box = pg.evaluate("""() => {
          const cell = document.querySelector('#board g.cell[data-cell="s0"]');
          const box = (q) => {
            const el = cell && cell.querySelector(q);
            if (!el) return null;
            const r = el.getBoundingClientRect();
            return {x: r.x, width: r.width, height: r.height};
          };
          return {hex: box("polygon"), chip: box("g.piece rect"), text: box("g.piece text")};
        }""")
        hex_box, chip_box, text = box["hex"], box["chip"], box["text"]
        assert hex_box and chip_box, box
        assert hex_box["x"] < chip_box["x"] and \
            chip_box["x"] + chip_box["width"] < hex_box["x"] + hex_box["width"]
        assert text is not None and text["height"] >= 11, text
        pg.screenshot(path=str(ARTIFACTS / f"hex-game-{screen}.png"), full_page=True)
        assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
        # The setup page offers every installed game, in the chosen game's words.
        pg.click("button.tab[data-tab=setup]")
        expect(pg.locator("#system option")).to_have_count(4)
        expect(pg.locator("#system")).to_have_value("track")
        expect(pg.locator("#catalog")).to_contain_text("Pawn (0)")
        pg.select_option("#system", "dreamblade")
        expect(pg.locator("#setup")).to_contain_text("warband (one per line)")
        expect(pg.locator("#catalog")).to_contain_text("Twilight Scout")
        pg.select_option("#system", "track")
        pg.click("#sample")
        expect(pg.locator('textarea[name="p1wb"]')).to_have_value("Pawn\nPawn")
        pg.once("dialog", lambda d: d.accept())  # yes: set the game being played aside
        with pg.expect_response("**/api/games"):
            pg.click('#setup button[type="submit"]')
        expect(pg.locator("#prompt")).to_contain_text("roll the die")
    assert not blocked, blocked
    assert [g.game for g in log.games()] == ["track", "track"]


@pytest.mark.parametrize("screen,size", [("phone", (390, 844)), ("laptop", (1280, 800)),
                                         ("tv", (1920, 1080))])
def test_a_piece_put_anywhere_by_a_tap_inside_its_shape(track_installed, tmp_path: Path,
                                                        screen: str,
                                                        size: tuple[int, int]) -> None:
    """Free placement on the dashboard: where a pawn may graze is drawn as a dashed
    circle; a tap inside it sends the point tapped, and the pawn is drawn there."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.from_dict({
        "system": "track", "names": {"p1": "Ann", "p2": "Bob"},
        "forces": {"p1": ["Pawn", "Pawn"], "p2": ["Pawn"]}}), log)
    session.command({"do": "correct", "piece": "p1#0", "to": "s5"})
    session.command({"do": "die", "player": "p1", "die": 3})
    with served(session, log, size) as (url, (pg,), blocked):
        pg.goto(url)
        expect(pg.locator("#prompt")).to_contain_text("out to graze")
        shape = pg.locator("#board g.shape circle")
        expect(shape).to_have_count(1)
        expect(pg.locator("#options")).to_contain_text(
            "Ann's pawn 0 may graze here: tap the board inside the dashed circle")
        pg.screenshot(path=str(ARTIFACTS / f"free-placement-{screen}.png"), full_page=True)
        # Measured in one step in the page: the board may be drawn again at any time
        # (the event stream), and a replaced element has no box.
        box = pg.evaluate("""() => {
          const r = document.querySelector('#board g.shape circle').getBoundingClientRect();
          return {x: r.x, y: r.y, width: r.width, height: r.height};
        }""")
        # A tap a quarter of the way in from the circle's right edge.
        with pg.expect_response("**/api/command") as answer:
            pg.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] / 2)
        assert answer.value.status == 200, answer.value.json()
        expect(pg.locator("#prompt")).to_contain_text("Bob: roll the die")
        disc = pg.locator('#board g.piece[data-ref="p1#0"] circle')
        expect(disc).to_have_count(1)
        x, y = session.state.spot("p1#0")
        cx, cy = float(disc.get_attribute("cx")), float(disc.get_attribute("cy"))
        assert (cx, cy) == (x, y)
        wx, wy = WELL
        assert 20 < x - wx < 70 and abs(y - wy) < 5, (x, y)
        expect(pg.locator("#board g.shape")).to_have_count(0)
        pg.screenshot(path=str(ARTIFACTS / f"free-placement-after-{screen}.png"),
                      full_page=True)
        assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not blocked, blocked


@pytest.mark.parametrize("screen,size", [("phone", (390, 844)), ("laptop", (1280, 800)),
                                         ("tv", (1920, 1080))])
def test_a_hidden_card_on_the_players_own_page(track_installed, tmp_path: Path, screen: str,
                                               size: tuple[int, int]) -> None:
    """A luck card drawn by hand is entered on the player's own page, which shows it;
    the table's screen says only that she holds one; she plays it from her page."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.from_dict({
        "system": "track", "names": {"p1": "Ann", "p2": "Bob"},
        "forces": {"p1": ["Pawn"], "p2": ["Pawn"]}}), log)
    session.command({"do": "die", "player": "p1", "die": 1})
    session.command({"do": "action", "action": "p1 draw"})
    key = session.issue_seat_key("p1")
    with served(session, log, size, pages=2) as (url, (shared, mine), blocked):
        shared.goto(url)
        expect(shared.locator("#dice")).to_contain_text(
            "Ann draws a luck card: enter it on Ann's own page")
        expect(shared.locator("#dice button")).to_have_count(0)
        mine.goto(f"{url}seat/{key}")
        expect(mine.locator("#who")).to_have_text("Ann's private page")
        faces = mine.locator("#mine button[data-face]")
        expect(faces).to_have_count(3)  # +1, +2, +3: cards of one value are alike
        with mine.expect_response("**/command"):
            mine.locator('#mine button[data-face="L2a"]').click()
        expect(mine.locator("#mine")).to_contain_text("Your luck card: +2")
        expect(mine.locator("#mine .hand")).to_contain_text("luck +2")
        mine.screenshot(path=str(ARTIFACTS / f"private-page-{screen}.png"), full_page=True)
        expect(shared.locator("#score")).to_contain_text("Ann holds a luck card")
        assert "+2" not in shared.locator("body").inner_text()
        shared.screenshot(path=str(ARTIFACTS / f"private-shared-{screen}.png"),
                          full_page=True)
        session.command({"do": "die", "player": "p2", "die": 3})
        session.command({"do": "action", "action": "p2 pass"})
        session.command({"do": "die", "player": "p1", "die": 4})
        play = mine.locator("#mine button[data-action]")
        expect(play).to_have_text("Play your luck card (+2)")
        with mine.expect_response("**/command"):
            play.click()
        expect(mine.locator("#mine")).to_contain_text("You hold no luck card")
        expect(shared.locator("#prompt")).to_contain_text("Ann: move a pawn 6")
        for pg in (shared, mine):
            assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not blocked, blocked


def test_a_tap_survives_the_screen_refreshing_under_the_finger(track_installed,
                                                                tmp_path: Path) -> None:
    """A snapshot arriving between a finger's press and release (a health tick, the
    private page's own refresh) leaves the pressed button in place, so the tap counts."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.from_dict({
        "system": "track", "names": {"p1": "Ann", "p2": "Bob"},
        "forces": {"p1": ["Pawn"], "p2": ["Pawn"]}}), log)
    key = session.issue_seat_key("p1")

    def press_through_refresh(pg, button, refresh: str, answer: str) -> None:
        box = button.bounding_box()
        assert box is not None
        pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        pg.mouse.down()
        pg.evaluate(refresh)  # draws the page again from a fresh snapshot
        with pg.expect_response(answer, timeout=5_000):
            pg.mouse.up()

    with served(session, log, (1280, 800), pages=2) as (url, (shared, mine), blocked):
        shared.goto(url)
        expect(shared.locator("#dice button[data-face]")).to_have_count(6)
        press_through_refresh(shared, shared.locator('#dice button[data-face="1"]'),
                              "refresh()", "**/api/command")
        expect(shared.locator("#prompt")).to_contain_text("Ann: move a pawn 1")
        session.command({"do": "action", "action": "p1 draw"})
        mine.goto(f"{url}seat/{key}")
        expect(mine.locator("#mine button[data-face]")).to_have_count(3)
        press_through_refresh(mine, mine.locator('#mine button[data-face="L2a"]'),
                              "load()", "**/command")
        expect(mine.locator("#mine")).to_contain_text("Your luck card: +2")
    assert not blocked, blocked
