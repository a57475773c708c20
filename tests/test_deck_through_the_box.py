"""A deck drawn through the table box, end to end (the seam's decks, protocol 3): a
test game (High Card, ``tests/highcard.py``) whose every draw is the box rolling a
die with as many sides as cards are left, armed afresh before each draw by the live
table. The box reboots mid-game (it forgets what it was armed with) and the host
crashes: the deck's state is the log's, resumed exactly, and the game goes on to its
end with no card drawn twice between shuffles. On both boxes: the Python simulator and
the real firmware in simavr."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge.bridge import TableBox
from firmware_bridge.emulator import Emulator
from firmware_bridge.simulator import BoxSimulator
from table import registry
from table.session import GameLog, Session, Setup
from tablesight.live import LiveTable
from vision.layout import Layout

from .highcard import CARDS, ROUNDS


def wait(done: Callable[[], bool], seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


class Box:
    """The physical box the players press: the simulator or the firmware in simavr."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        if kind == "simulator":
            self.sim = BoxSimulator().start()
            self.port = self.sim.port
        else:
            self.emu = Emulator()
            self.emu.run()
            self.port = self.emu.port

    def press(self, player: str, button: str) -> None:
        if self.kind == "simulator":
            self.sim.press(player, button)
        else:
            self.emu.tap(player, button, 20, 20)

    def reboot(self) -> None:
        self.sim.reboot() if self.kind == "simulator" else self.emu.reset()

    def stop(self) -> None:
        self.sim.stop() if self.kind == "simulator" else self.emu.close()


@pytest.fixture(params=["simulator", "firmware"])
def box(request: pytest.FixtureRequest) -> Iterator[Box]:
    b = Box(request.param)
    try:
        yield b
    finally:
        b.stop()


def draw_one(box: Box, live: LiveTable, session: Session) -> int:
    """One draw as a player makes it; returns how many presses it took (a roll the table
    refused, a box that had just lost its arming, is rolled again, as a player would)."""
    s = session.state
    player, left = s.active, s.deck.left
    for presses in (1, 2, 3):
        # As a player waits for the box to light up: armed with a die of `left` sides.
        wait(lambda: live.ready_to_roll(player, left, 1), 10, f"the box armed with d{left}")
        seen = len(session.history)
        box.press(player, "roll")
        wait(lambda seen=seen: session.state.draws == s.draws + 1 or any(
            h["kind"] == "warning" for h in session.history[seen:]), 10, f"{player}'s draw")
        if session.state.draws == s.draws + 1:
            return presses
    raise AssertionError(f"{player}'s draw refused three times")


def test_a_deck_through_the_box_survives_a_box_reboot_and_a_host_crash(
        cards_installed, tmp_path, box: Box) -> None:
    log = GameLog(tmp_path / "games.db")
    session = Session.new(Setup.from_dict({"system": "highcard",
                                           "warbands": {"p1": ["Player"], "p2": ["Player"]}}),
                          log)
    layout = Layout.from_dict(registry.get("highcard").layout())
    live = LiveTable(session, layout, None,
                     TableBox(box.port, reconnect_interval=0.05)).start()
    presses = [draw_one(box, live, session) for _ in range(6)]
    host = live.box
    assert host is not None
    reboots = host.stats["reboots"]
    box.reboot()  # RAM lost: the queue, what it was armed with
    wait(lambda: host.stats["reboots"] > reboots, 10, "the host to see the reboot")
    presses += [draw_one(box, live, session) for _ in range(6)]
    live.stop()  # the host dies here
    before = session.state
    assert before.draws == 12
    again = Session.resume(GameLog(tmp_path / "games.db"))
    assert again.state == before  # the deck's piles exactly as they were
    live = LiveTable(again, layout, None,
                     TableBox(box.port, reconnect_interval=0.05,
                              resume=again.box_resume())).start()
    while again.state.winner is None:
        presses.append(draw_one(box, live, again))
    live.stop()
    assert again.state.draws == 2 * ROUNDS
    assert sum(presses) <= len(presses) + 1, presses  # at most one roll again, in all
    # Every draw came from the box; no card twice between two shuffles.
    actions = [e.to_dict() for e in log.entries(again.game_id, ("action",))]
    assert len(actions) == 2 * ROUNDS and {a["source"] for a in actions} == {"box"}
    since: set[str] = set()
    for a in actions:
        card = a["action"].split()[2]
        assert card not in since, card
        since.add(card)
        if any(ev["kind"] == "reshuffled" for ev in a["events"]):
            since = set()  # the discards, this joker included, are back in the deck
    deck = again.state.deck
    assert sorted(deck.draw_pile + deck.discard + deck.out) == sorted(c.code for c in CARDS)
