"""One live table in Debian's Chromium, for the browser tests of any game: the session
served by the real server, pages opened at a screen size, and every Content Security
Policy complaint a page logs collected (a test ends by asserting there was none)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Page, sync_playwright

from table.session import GameLog, Session
from tablesight.server import Server
from web import TableServices, create_app

from .test_browser import ARTIFACTS, CHROMIUM, FLAGS


@contextmanager
def served(session: Session, log: GameLog, size: tuple[int, int], pages: int = 1,
           live: Any | None = None) -> Iterator[tuple[str, list[Page], list[str]]]:
    """The table's URL, ``pages`` fresh pages of ``size`` (none opened yet), and the
    list the pages' CSP complaints go to. ``live``: the running table (camera, box)."""
    server = Server(create_app(TableServices(session, live=live, log=log)), "127.0.0.1",
                    0).start()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    blocked: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            opened = [browser.new_page(viewport={"width": size[0], "height": size[1]})
                      for _ in range(pages)]
            for pg in opened:
                pg.on("console", lambda m: "Content Security Policy" in m.text
                      and blocked.append(m.text))
            yield server.url, opened, blocked
            browser.close()
    finally:
        server.stop()
