"""Warseer's dashboard in Debian's Chromium at a phone, a laptop and a TV size: the
opening confirmed with the Ready button, the hex battlefield with its terrain and
deployment zones, an attack's dice entered on the dice
card one colour at a time, the modification round answered by each player on its card,
the push picked on the board, wounds on the creature's chip, and the score with hands,
relics, the Hall of Fame and the feats left."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from table.session import GameLog, Session, Setup

from ..web.browsing import served
from ..web.test_browser import ARTIFACTS
from .test_session import WARBANDS

SCREENS = [("phone", (390, 844)), ("laptop", (1280, 800)), ("tv", (1920, 1080))]


@contextmanager
def _dashboard(tmp_path: Path, size: tuple[int, int], *actions: str
               ) -> Iterator[tuple[Session, Page, list[str]]]:
    """A new game between Ann and Bob after ``actions``, its dashboard open in Chromium
    at ``size``; and the Content Security Policy complaints the page logged."""
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.from_dict({"system": "warseer", "warbands": WARBANDS,
                                           "names": {"p1": "Ann", "p2": "Bob"}}), log)
    for a in actions:
        session.command({"do": "action", "action": a})
    with served(session, log, size) as (url, (pg,), blocked):
        pg.goto(url)
        yield session, pg, blocked


POSITION = ("p1 draw", "p1 return", "p2 draw", "p2 return",
            "p1 deploy p1#0 d2", "p2 deploy p2#0 d7", "p1 summon p1#1 f2",
            "p1 move p1#1 f5", "p1 play tower-shield", "p1 end", "p2 move p2#0 d5",
            "p2 attack p2#0 p1#1")


@pytest.mark.parametrize("screen,size", SCREENS)
def test_an_attack_played_on_the_dashboard(tmp_path: Path, screen: str,
                                           size: tuple[int, int]) -> None:
    with _dashboard(tmp_path, size, *POSITION) as (session, pg, blocked):
        expect(pg.locator("#board g.cell polygon")).to_have_count(72)
        expect(pg.locator('#board g.cell[data-cell="c4"]')).to_contain_text("F")
        prompt = pg.locator("#prompt")
        expect(prompt).to_contain_text("Kaitlynn attacks Ann's Gil-Talas")
        # The attack is an arrow from the attacker to its target that covers no name: it
        # runs between the chips, from edge to edge.
        crossed = pg.evaluate("""() => {
          const ln = document.querySelector('#board line');
          const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((a) => +ln.getAttribute(a));
          const hit = [];
          for (const r of document.querySelectorAll('#board g.piece rect')) {
            const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => +r.getAttribute(a));
            for (let i = 1; i < 20; i++) {
              const px = x1 + (x2 - x1) * i / 20, py = y1 + (y2 - y1) * i / 20;
              if (px > x + 1 && px < x + w - 1 && py > y + 1 && py < y + h - 1) {
                hit.push(r.parentNode.textContent); break;
              }
            }
          }
          return {hit, long: Math.hypot(x2 - x1, y2 - y1)};
        }""")
        assert crossed["hit"] == [] and crossed["long"] > 0, crossed
        expect(pg.locator("#board polygon[fill='#ff5050']")).to_have_count(1)  # its head
        pg.locator("#board").screenshot(path=str(ARTIFACTS / f"warseer-attack-{screen}.png"))
        dice = pg.locator("#dice")
        expect(dice).to_contain_text("Bob rolls 2 silver dice")
        expect(dice.locator("button[data-face]")).to_have_count(5)  # distinct faces
        dice.locator('button[data-face="D"]').click()
        dice.locator('button[data-face="S"]').click()
        with pg.expect_response("**/api/command"):
            dice.locator("button[data-roll]").click()
        # The modification round: each player answers on the attack's card.
        card = pg.locator("#combat")
        expect(card).to_contain_text("shows 1 sword, 1 dragon")
        expect(card.locator("button")).to_contain_text(["Bob: pass"])
        pg.screenshot(path=str(ARTIFACTS / f"warseer-modify-{screen}.png"), full_page=True)
        with pg.expect_response("**/api/command"):
            card.locator("button", has_text="Bob: pass").click()
        expect(card).to_contain_text("Ann to act")
        with pg.expect_response("**/api/command"):
            card.locator("button", has_text="Ann: pass").click()
        # The push: the free hexes beside Gil-Talas light up; a tap picks one.
        expect(prompt).to_contain_text("Bob pushes Gil-Talas (2 damage so far)")
        pg.click('#board g.cell[data-cell="f6"]')
        expect(pg.locator("#options .options button")).to_have_count(1)
        with pg.expect_response("**/api/command"):
            pg.locator("#options .options button").first.click()
        chip = pg.locator('#board g.cell[data-cell="f6"] g.piece')
        expect(chip).to_have_count(1)
        expect(chip).to_contain_text("2")  # two wounds on Gil-Talas's chip
        score = pg.locator("#score")
        expect(score).to_contain_text("Victory points")
        expect(score).to_contain_text("Feats left in the Feats deck")
        expect(score).to_contain_text("relics: Tower Shield (2 armour)")
        expect(score).to_contain_text("Hall of Fame 0")
        expect(pg.locator("#zones")).to_contain_text("War Camp")
        expect(prompt).to_contain_text("Bob's turn 2")
        pg.screenshot(path=str(ARTIFACTS / f"warseer-after-{screen}.png"), full_page=True)
        assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not blocked, blocked
    assert session.state.units["p1#1"].wounds == 2


@pytest.mark.parametrize("screen,size", SCREENS)
def test_the_opening_is_confirmed_with_the_ready_button(tmp_path: Path, screen: str,
                                                        size: tuple[int, int]) -> None:
    with _dashboard(tmp_path, size) as (session, pg, blocked):
        prompt = pg.locator("#prompt")
        expect(prompt).to_contain_text("Ann: shuffle your battle deck and draw seven cards")
        ready = pg.locator("button[data-ready]")
        expect(ready).to_have_text("Ready: seven cards drawn")
        expect(pg.locator("#options button[data-action]")).to_have_count(0)
        pg.screenshot(path=str(ARTIFACTS / f"warseer-opening-{screen}.png"))
        with pg.expect_response("**/api/command"):
            ready.click()
        expect(prompt).to_contain_text("Ann: put three of your seven cards back")
        with pg.expect_response("**/api/command"):
            pg.keyboard.press("Enter")  # the same button from the keyboard
        expect(prompt).to_contain_text("Bob: shuffle your battle deck")
        assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not blocked, blocked
    assert (session.state.sides["p1"].hand, session.state.active) == (4, "p2")


def test_a_creature_corrected_from_the_history_tab(tmp_path: Path) -> None:
    """The correction form (a piece picked by name, the place typed in) puts a Warseer
    creature where it stands on the table: the form speaks the seam's neutral ``piece``
    and the game reads it as its ``unit``."""
    with _dashboard(tmp_path, (1280, 800), *POSITION[:7]) as (session, pg, blocked):
        pg.click('button.tab[data-tab="history"]')
        expect(pg.locator("#correct-to")).to_have_attribute("placeholder",
                                                            "a hex like e5, or off")
        pg.select_option("#correct-piece", label="Ann's Gil-Talas (f2)")
        pg.fill("#correct-to", "e4")
        with pg.expect_response("**/api/command") as answer:
            pg.click('#correct button[type="submit"]')
        assert answer.value.status == 200, answer.value.json()
        expect(pg.locator("#history li").first).to_contain_text("Gil-Talas put on e4")
        pg.click('button.tab[data-tab="table"]')
        expect(pg.locator('#board g.cell[data-cell="e4"] g.piece')).to_have_count(1)
    assert not blocked, blocked
    assert session.state.units["p1#1"].hex is not None
    assert str(session.state.units["p1#1"].hex) == "e4"


@pytest.mark.parametrize("screen,size", SCREENS)
def test_many_like_choices_are_one_button_then_a_tap_on_the_board(
        tmp_path: Path, screen: str, size: tuple[int, int]) -> None:
    """Eighteen 'Diodor deploys on ...' choices are one button; pressed, it marks the
    eighteen hexes on the board and a tap on one deploys there."""
    with _dashboard(tmp_path, size, *POSITION[:4]) as (session, pg, blocked):
        expect(pg.locator("#prompt")).to_contain_text("Ann")
        places = {c["regions"][0] for c in session.prompt().choices
                  if " deploys on " in c["label"]}
        assert len(places) >= 6 and "d2" in places
        group = pg.locator("#options button[data-group]")
        expect(group).to_have_count(1)
        expect(group).to_contain_text(f"Diodor deploys… (pick one of {len(places)} places")
        expect(pg.locator("#options button[data-action*=' deploy ']")).to_have_count(0)
        group.click()
        expect(pg.locator("#board g.cell.target")).to_have_count(len(places))
        expect(pg.locator("#options")).to_contain_text("tap one of the")
        pg.screenshot(path=str(ARTIFACTS / f"warseer-pick-a-place-{screen}.png"))
        assert "e5" not in places
        pg.click('#board g.cell[data-cell="e5"]')  # not one of them: nothing happens
        pg.wait_for_timeout(300)
        assert session.state.units["p1#0"].place != "field"
        with pg.expect_response("**/api/command"):
            pg.click('#board g.cell[data-cell="d2"]')
        expect(pg.locator("#prompt")).to_contain_text("Bob")
        hero = session.state.units["p1#0"]
        assert hero.place == "field" and str(hero.hex) == "d2"
        expect(pg.locator("#board g.cell.target")).to_have_count(0)
    assert not blocked, blocked
