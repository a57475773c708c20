"""The dashboard in a real browser (Playwright driving Debian's Chromium) while a live
table runs: synthetic camera, the simulated table box, the session and its log.

Screenshots are kept in ``$TABLESIGHT_ARTIFACTS`` (default ``test-artifacts/``)."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from firmware_bridge.bridge import TableBox
from firmware_bridge.simulator import BoxSimulator
from table.games.dreamblade import actions as A
from table.session import GameLog, Session, Setup
from tablesight.live import LiveTable
from tablesight.scripted import ScriptedTable
from tablesight.server import Server
from vision.layout import game_layout
from vision.synth.camera import SyntheticCamera
from vision.synth.scene import Conditions, SceneRenderer
from web import TableServices, create_app

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("TABLESIGHT_ARTIFACTS", ROOT / "test-artifacts"))
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def table(tmp_path: Path):
    layout = game_layout()
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.sample(), log)
    camera = SyntheticCamera(SceneRenderer(layout), Conditions(tilt_deg=12.0, noise=1.5),
                             fps=30.0, seed=4)
    sim = BoxSimulator().start()
    live = LiveTable(session, layout, camera, TableBox(sim.port))
    server = Server(create_app(TableServices(session, live, log)), "127.0.0.1", 0).start()
    players = ScriptedTable(session, camera, layout, sim.press, random.Random(3))
    live.start()
    players.sync_from(session.state)
    yield session, players, sim, server
    server.stop()
    live.stop()
    sim.stop()


@pytest.fixture
def page():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        # The page must work inside its own Content-Security-Policy: any violation
        # (an inline script or style the policy blocks) fails the test.
        blocked: list[str] = []
        pg.on("console", lambda m: "Content Security Policy" in m.text and blocked.append(m.text))
        yield pg
        browser.close()
        assert not blocked, blocked


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_a_short_game_through_the_dashboard(table, page: Page) -> None:
    session, players, sim, server = table
    page.goto(server.url)
    prompt = page.locator("#prompt")
    expect(prompt).to_contain_text("turn 1: roll initiative")
    expect(page.locator("#health")).to_contain_text("box: ok")
    # Initiative: p1 on the box, p2 typed in on the dashboard (manual entry). A first
    # turn 1 or a tie is rolled again, as the prompt then says.
    for _ in range(10):
        if session.state.phase.value != "initiative":
            break
        sim.press("p1", "roll")
        end = time.monotonic() + 10
        while "p1" not in session.referee.init_dice and time.monotonic() < end:
            time.sleep(0.02)
        p1_die = session.referee.init_dice["p1"]
        expect(prompt).to_contain_text(f"Ann rolled {p1_die}")
        p2_die = 6 if p1_die != 6 else 5
        with page.expect_response("**/api/command"):
            page.click(f'button[data-die-for="p2"][data-face="{p2_die}"]')
    expect(prompt).to_contain_text("spawn phase")
    shot(page, "01-spawn-prompt")
    first = session.state.active
    assert first is not None
    # The first player spawns by putting a base on the map: the board updates live.
    spawn, label = next((c["action"], c["label"]) for c in session.prompt().choices
                        if " spawn " in c["action"])
    action = A.Spawn(*spawn.split()[0:1], *spawn.split()[2:4])  # type: ignore[call-arg]
    players.put(players.physical(action.mini), action.cell)
    expect(page.locator(f'#board g.piece[data-ref="{action.mini}"]')).to_have_count(1)
    expect(page.locator("#history")).to_contain_text(label)  # with the cost it had
    shot(page, "02-board-after-spawn")
    # Ready on the dashboard (the Enter key) ends the phase.
    page.keyboard.press("Enter")
    expect(prompt).to_contain_text(f"{'Bob' if first == 'p1' else 'Ann'}: spawn phase")
    # History tab: the camera's move and its source are listed; undo is offered.
    page.click("button.tab[data-tab=history]")
    expect(page.locator("#history li[data-kind=action]").first).to_contain_text("done")
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#undo")).to_contain_text("Undo: ")
    shot(page, "03-history")
    # A move against the rules puts up the desync banner with what to put back.
    page.click("button.tab[data-tab=table]")
    players.put(players.physical(action.mini), "c3")
    banner = page.locator("#desync")
    expect(banner).to_be_visible(timeout=10_000)
    expect(banner).to_contain_text(f"put it back on {action.cell}")
    expect(banner.locator("button[data-board-ok]")).to_be_visible()
    shot(page, "04-desync")
    players.sync_from(session.state)
    expect(banner).to_be_hidden(timeout=10_000)
    # The camera view streams annotated frames.
    page.click("button.tab[data-tab=camera]")
    end = time.monotonic() + 10
    while page.locator("#camera-view").evaluate("e => e.naturalWidth") == 0:
        assert time.monotonic() < end, "no camera picture in 10 s"
        time.sleep(0.1)
    # Under the picture: the camera's health line (with any tip on framing the map).
    expect(page.locator("#camera-stats")).to_contain_text(
        session.health["camera"]["message"])
    expect(page.locator("#camera-stats")).to_contain_text("frames seen")
    shot(page, "05-camera")
    # Setup: the game in the log, the devices in use.
    page.click("button.tab[data-tab=setup]")
    expect(page.locator("#games")).to_contain_text(f"game {session.game_id}")
    expect(page.locator("#games")).to_contain_text("(on the table)")
    expect(page.locator("#port")).to_contain_text("none")
    # Unplugging the box shows on the dashboard; dice can still be typed in.
    sim.stop()
    expect(page.locator("#health")).to_contain_text("table box lost", timeout=10_000)
    time.sleep(0.2)
    shot(page, "06-box-lost")


def test_the_combat_helper_shows_what_damage_would_do(tmp_path: Path, page: Page) -> None:
    from table.games.dreamblade import Phase
    from table.session import Setup
    from tests.rules.helpers import catalog, position

    wb = {"p1": ["Brute", "Brute"], "p2": ["Scout"]}
    session = Session.new(Setup({p: tuple(w) for p, w in wb.items()}), catalog=catalog())
    session.start_from(position(wb, {"p1#0": "c3", "p1#1": "c3", "p2#0": "c3"},
                                phase=Phase.ACTION, active="p1"))
    server = Server(create_app(TableServices(session)), "127.0.0.1", 0).start()
    try:
        page.goto(server.url)
        expect(page.locator("#prompt")).to_contain_text("strike in c3")
        page.click('button[data-action="p1 attack c3 p1#0 p1#1"]')
        expect(page.locator("#dice")).to_contain_text("rolls 4 attack dice")
        for f in ("1", "1", "M", "M"):
            page.click(f'button[data-face="{f}"]')
        page.click('button[data-roll="p1"]')
        helper = page.locator("#combat")
        expect(helper).to_contain_text("2 damage to assign")
        expect(helper.locator("button", has_text="2: disrupts")).to_have_count(1)
        expect(helper.locator("button", has_text="1: it holds (1 more disrupts it)")
               ).to_have_count(1)  # short of it, the button says how far
        shot(page, "07-combat-helper")
        helper.locator("button", has_text="2: disrupts").click()
        expect(page.locator("#prompt")).to_contain_text(
            "Player 1: put disrupted Player 2's Scout in an empty cell (tap one on the board)")
        # The board is clickable: a cell picks the choices that involve it.
        page.click('#board g.cell[data-cell="b2"]')
        options = page.locator("#options .options button")
        expect(options).to_have_count(1)
        expect(options).to_have_text("Player 1: put Player 2's Scout in b2")
        expect(page.locator("#cell-info")).to_contain_text("In b2")
        shot(page, "07b-placing-by-tapping-a-cell")
        options.click()
        expect(page.locator('#board g.cell[data-cell="b2"] g.piece')).to_have_count(1)
        game = session.referee.game
        assert session.state.cell[game.gid("p2#0")] == game.board.index("b2")
    finally:
        server.stop()


def midgame(tmp_path: Path) -> Session:
    """The rulebook's warbands mid-game: a fight in c3 with five long-named miniatures,
    a damaged creature, locations and creatures elsewhere."""
    from table.games.dreamblade import Phase
    from tests.rules.helpers import position

    setup = Setup.sample()
    state = position(setup.forces, {"p1#15": "c3", "p1#14": "c3", "p1#7": "c3",
                                      "p2#9": "c3", "p2#13": "c3", "p1#4": "b2", "p1#1": "e1",
                                      "p2#8": "d4", "p2#5": "a5", "p2#3": "b4"},
                     phase=Phase.ACTION, active="p1", turn=3, turns_won=(1, 1))
    state.damage[state.game.gid("p1#4")] = 1
    state.damage[state.game.gid("p2#9")] = 2
    session = Session.new(setup, GameLog(tmp_path / "games.db"))
    session.start_from(state)
    return session


@pytest.mark.parametrize("screen,size", [("phone", (390, 844)), ("laptop", (1280, 800)),
                                         ("tablet", (820, 1180)), ("tv", (1920, 1080))])
def test_the_dashboard_fits_phones_tablets_and_tvs(tmp_path: Path, screen: str,
                                                   size: tuple[int, int]) -> None:
    session = midgame(tmp_path)
    server = Server(create_app(TableServices(session)), "127.0.0.1", 0).start()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            pg = browser.new_page(viewport={"width": size[0], "height": size[1]})
            pg.goto(server.url)
            expect(pg.locator("#prompt")).to_contain_text("Ann: action phase 1")
            # What can be done is on the first screen, or (one column) right under the
            # board, which is: the prompt and the board come first.
            options = pg.locator("#options").bounding_box()
            board_box = pg.locator("#board").bounding_box()
            assert options is not None and board_box is not None
            assert options["y"] < size[1] * 0.75 or \
                0 <= options["y"] - (board_box["y"] + board_box["height"]) < 20, options
            assert board_box["y"] + board_box["height"] <= size[1] + 1, board_box
            # Names on the board read from arm's length: chip text at least 12 px tall
            # on a phone (it was 7 px), a damage badge, the engaged cell said in words.
            chip = pg.locator('#board g.cell[data-cell="c3"] g.piece text').first.bounding_box()
            assert chip is not None and chip["height"] >= (12 if screen == "phone" else 11)
            expect(pg.locator('#board g.piece[data-ref="p1#4"] circle')).to_have_count(1)
            expect(pg.locator('#board g.cell[data-cell="c3"]')).to_contain_text("engaged")
            # Full names on demand: a tap on the cell lists them.
            pg.click('#board g.cell[data-cell="c3"]')
            expect(pg.locator("#cell-info")).to_contain_text("Ann's Windborne Blademaster")
            expect(pg.locator("#cell-info")).to_contain_text("Bob's Faceless Stalker — 2 damage")
            pg.click('#board g.cell[data-cell="c3"]')  # tap again: closed
            expect(pg.locator("#cell-info")).to_be_hidden()
            # Nothing sticks out sideways (a page that scrolls sideways hides the tabs).
            width = pg.evaluate("document.documentElement.scrollWidth")
            assert width <= size[0], f"{screen}: the page is {width} px wide"
            # The prompt is large type wherever it is shown.
            px = pg.evaluate("parseFloat(getComputedStyle(document.getElementById('prompt'))"
                             ".fontSize)")
            assert px >= 26
            board = pg.locator("#board").bounding_box()
            assert board is not None
            if screen == "tv":  # across the table, the board takes the screen's height
                assert board["height"] >= 0.75 * size[1], f"board {board['height']:.0f} px high"
            pg.screenshot(path=str(ARTIFACTS / f"screen-{screen}.png"), full_page=True)
            browser.close()
    finally:
        server.stop()


def test_a_new_game_from_the_setup_page_with_catalog_picks(tmp_path: Path, page: Page) -> None:
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.sample(), log)
    services = TableServices(session, log=log)
    server = Server(create_app(services), "127.0.0.1", 0).start()
    try:
        page.goto(server.url)
        expect(page.locator("#prompt")).to_contain_text("roll initiative")
        page.keyboard.press("s")  # the Setup tab's key
        expect(page.locator("#catalog button").first).to_be_visible()
        # The form starts as the game on the table: its players and their warbands.
        expect(page.locator('input[name="p1name"]')).to_have_value("Ann")
        expect(page.locator('textarea[name="p2wb"]')).to_have_value(
            "\n".join(session.setup.forces["p2"]))
        # A misspelt name is refused with a suggestion, in the error's colour.
        page.fill('textarea[name="p1wb"]', "Spellbound Sciss0rs")

        def yes(d) -> None:  # set the game aside; uneven warbands: start anyway
            d.accept()

        page.on("dialog", yes)
        page.click('#setup button[type="submit"]')
        expect(page.locator("#setup-msg.bad")).to_contain_text(
            "did you mean 'Spellbound Scissors'?")
        page.remove_listener("dialog", yes)
        assert services.session.game_id == session.game_id
        page.fill('input[name="p1name"]', "Cleo")
        page.fill('input[name="p2name"]', "Dev")
        page.click("#sample")  # the rulebook's warband for both...
        page.check('input[name="pickfor"][value="p2"]')
        page.fill('textarea[name="p2wb"]', "")  # ...then player 2 picks from the catalog
        for name in ("Spellbound Scissors", "Runetagged Brawler", "Pearlthorn Castle"):
            page.click(f'#catalog button[data-add="{name}"]')
        expect(page.locator('textarea[name="p2wb"]')).to_have_value(
            "Spellbound Scissors\nRunetagged Brawler\nPearlthorn Castle")
        asked: list[str] = []
        answers = [False, True, True]  # no; then yes, and yes to the uneven warbands

        def answer(d) -> None:
            asked.append(d.message)
            d.accept() if answers.pop(0) else d.dismiss()

        # Setting aside a game still played is asked first: "no" keeps it.
        page.on("dialog", answer)
        page.click('#setup button[type="submit"]')
        page.wait_for_timeout(300)
        assert services.session.game_id == session.game_id
        assert asked == [asked[0]] and "still being played" in asked[0], asked
        page.click('#setup button[type="submit"]')
        expect(page.locator("#prompt")).to_contain_text("roll initiative")
        assert "still being played" in asked[1] and "uneven" in asked[2], asked
        assert "Dev 3" in asked[2]
        expect(page.locator("#zones")).to_contain_text("Dev")
        assert services.session.game_id != session.game_id
        assert services.session.setup.names == {"p1": "Cleo", "p2": "Dev"}
        assert services.session.setup.forces["p2"] == (
            "Spellbound Scissors", "Runetagged Brawler", "Pearlthorn Castle")
        shot(page, "08-new-game")
    finally:
        server.stop()


def test_a_hostile_setup_from_an_old_log_runs_no_script(tmp_path: Path, page: Page) -> None:
    """A colour and a name written before they were validated (an old log, a script
    writing the database) are drawn as text and a neutral grey: no script runs."""
    from table.session import Setup

    xss = '"/><image href=x onerror="window.pwned=1">'
    wb = Setup.sample().forces
    setup = Setup(wb, {"p1": '<img src=x onerror="window.pwned=2">', "p2": "Bob"},
                  {"p1": xss, "p2": "#1a78e0"})
    session = Session.new(setup, GameLog(tmp_path / "games.db"))
    session.command({"do": "initiative", "player": "p1", "die": 5})
    session.command({"do": "initiative", "player": "p2", "die": 2})
    session.command({"do": "action", "action": "p1 spawn p1#0 e1"})
    server = Server(create_app(TableServices(session)), "127.0.0.1", 0).start()
    try:
        page.goto(server.url)
        expect(page.locator('#board g.piece[data-ref="p1#0"]')).to_have_count(1)
        expect(page.locator("#score")).to_contain_text('<img src=x onerror="window.pwned=2">')
        time.sleep(0.5)
        assert page.evaluate("() => window.pwned === undefined")
        assert page.locator("#board image, #score img, #zones img").count() == 0
        assert page.locator('#board g.piece[data-ref="p1#0"] rect').get_attribute(
            "fill") == "#888888"
    finally:
        server.stop()
