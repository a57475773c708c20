"""Players at a synthetic table, for ``tablesight demo`` and the end-to-end tests.

The players decide with ``table.dreamblade.referee.autoplay.plan`` and act physically:
a hand reaches over the map, a base appears in its new cell, the hand leaves; dice and the
ready/strike buttons are pressed on the table box; choices that need the dashboard
are sent as dashboard commands. Nothing is handed to the session directly: it learns
every move from the camera and every die from the box, as at a real table.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from table.dreamblade import actions as A
from table.dreamblade.playout import table_policy
from table.dreamblade.referee.autoplay import Intent, plan
from table.dreamblade.state import State, Zone
from table.session import CommandError, Session
from vision.layout import Layout
from vision.synth.camera import SyntheticCamera
from vision.synth.scene import Base, Hand, Scene

SLOT_MM = 34.0
MAX_PER_CELL = 8  # what fits in a 110 mm cell with room between bases for the camera
CELL_SLOTS = [(0, 0), (-1, -1), (1, 1), (1, -1), (-1, 1), (0, -1), (0, 1), (-1, 0), (1, 0)]
BASE_MM = 26.0


@dataclass
class TableStats:
    acts: int = 0
    board_acts: int = 0
    removals: int = 0
    desyncs: int = 0
    overrules: int = 0
    confirms: int = 0
    refused: int = 0
    timeouts: int = 0
    log: list[str] = field(default_factory=list)


class ScriptedTable:
    def __init__(self, session: Session, camera: SyntheticCamera, layout: Layout,
                 press: Callable[[str, str], None], rng: random.Random | None = None,
                 pace: float = 0.0, hand_s: float = 0.0, timeout: float = 10.0,
                 figures: float = 0.35,
                 armed: Callable[[str, int, int], bool] | None = None) -> None:
        self.session = session
        self.camera = camera
        self.layout = layout
        self.press = press
        self.rng = rng or random.Random(0)
        self.pace = pace
        self.hand_s = hand_s
        self.timeout = timeout
        self.figures = figures
        self.armed = armed  # is the box ready to roll that player's n dice of s sides?
        self.where: dict[str, tuple[str, float, float]] = {}  # ref -> region, x, y
        self.stats = TableStats()
        self.intended: list[A.Action] = []  # every spawn, move and placement done by hand
        self.stop = threading.Event()
        self._ids = session.referee.reconciler.stickers.ref_of
        self._sticker = {ref: sid for sid, ref in self._ids.items()}
        minis = session.referee.game.minis
        self._angles = {m.ref: self.rng.uniform(0, 360) for m in minis}
        self._figure = {m.ref: figures * self.rng.uniform(0.8, 1.2) for m in minis}

    # -- the physical board -------------------------------------------------------------
    def _slot(self, region_name: str, ref: str) -> tuple[float, float] | None:
        region = next(r for r in self.layout.regions if r.name == region_name)
        taken = [(x, y) for r, (reg, x, y) in self.where.items() if reg == region_name
                 and r != ref]
        cx, cy = region.center
        if region.role == "cell":
            spots = [(cx + dx * SLOT_MM, cy + dy * SLOT_MM) for dx, dy in CELL_SLOTS]
        else:
            x0, y0, x1, y1 = region.bbox
            spots = [(x0 + 22 + i * 32, y) for y in (y0 + 24, y1 - 24)
                     for i in range(int((x1 - x0 - 30) // 32))]
        for s in spots:
            if all((s[0] - x) ** 2 + (s[1] - y) ** 2 > 30 ** 2 for x, y in taken):
                return s
        return None

    def scene(self, hands: list[Hand] | None = None) -> Scene:
        bases = [Base(x, y, ref[:2], self._sticker.get(ref), BASE_MM, self._angles[ref],
                      self._figure[ref], ref) for ref, (_, x, y) in sorted(self.where.items())]
        return Scene(self.layout, bases, hands or [])

    def _show(self, hands: list[Hand] | None = None, frames: int = 2) -> None:
        self.camera.show(self.scene(hands))
        v = self.camera.version
        self.camera.wait_served(v, timeout=5.0)
        if self.hand_s:
            time.sleep(self.hand_s)
        elif frames > 1:
            # Let the camera take a few pictures of this moment.
            want = self.camera.frames + frames - 1
            end = time.monotonic() + 2.0
            while self.camera.frames < want and time.monotonic() < end:
                time.sleep(0.002)

    def _hand_to(self, ref: str, x: float, y: float) -> Hand:
        return Hand(x, y, "bottom" if ref.startswith("p1") else "top", 80.0)

    def put(self, ref: str, region: str | None) -> None:
        """A hand moves ``ref`` to ``region`` (None: off the table) and withdraws."""
        spot = self._slot(region, ref) if region else None
        if spot is None:
            old = self.where.get(ref)
            if old is None:
                return
            hand = self._hand_to(ref, old[1], old[2])
            self._show([hand])
            del self.where[ref]
        else:
            hand = self._hand_to(ref, *spot)
            self._show([hand])
            self.where[ref] = (region or "", *spot)
        self._show([hand])
        self._show([], frames=1)

    def sync_from(self, state: State) -> None:
        """Put the physical board where the rules say (start, and after a desync)."""
        names = state.game.board.cell_names
        self.where.clear()
        for m in state.game.minis:
            if state.zone[m.gid] is Zone.DREAMSCAPE:
                self.where[m.ref] = (names[state.cell[m.gid]],
                                     *(self._slot(names[state.cell[m.gid]], m.ref) or (0, 0)))
        self._show([], frames=1)

    def _kind(self, ref: str) -> tuple[str, str]:
        game = self.session.referee.game
        return ref[:2], game.minis[game.by_ref[ref]].d.name

    def physical(self, ref: str) -> str:
        """The base a player picks up for the session's ``ref``: copies of one miniature
        are interchangeable, so the session may call p1#6's base p1#5. Players take a
        copy standing where the session says ``ref`` is (or one still off the table)."""
        s = self.session.state
        g = s.game.by_ref[ref]
        names = s.game.board.cell_names
        want = names[s.cell[g]] if s.cell[g] >= 0 else None
        here = self.where.get(ref)
        if (here[0] if here else None) == want:
            return ref
        kind = self._kind(ref)
        for m in s.game.minis:
            if m.ref != ref and self._kind(m.ref) == kind:
                spot = self.where.get(m.ref)
                if (spot[0] if spot else None) == want:
                    return m.ref
        return ref

    def tidy(self) -> None:
        """Make the map what the rules say after a typed action: a base an ability moved
        (Advance, Lure, Swap...) goes to its new cell; a miniature the rules removed is
        taken off (destroyed ones to the graveyard strip). Bases are matched by kind per
        cell, as the session treats copies as interchangeable."""
        s = self.session.state
        names = s.game.board.cell_names
        want: dict[tuple[str, tuple[str, str]], int] = {}
        for m in s.game.minis:
            if s.zone[m.gid] is Zone.DREAMSCAPE:
                key = (names[s.cell[m.gid]], self._kind(m.ref))
                want[key] = want.get(key, 0) + 1
        have: dict[tuple[str, tuple[str, str]], list[str]] = {}
        for ref, (region, _, _) in sorted(self.where.items()):
            if region in names:
                have.setdefault((region, self._kind(ref)), []).append(ref)
        surplus = [(key, ref) for key, refs in have.items()
                   for ref in refs[want.get(key, 0):]]
        # Moved by an ability: a surplus base of a kind another cell lacks goes there.
        moved = False
        for (cell, kind), n in sorted(want.items()):
            lack = n - len(have.get((cell, kind), []))
            for _ in range(max(0, lack)):
                k = next((i for i, (key, _) in enumerate(surplus) if key[1] == kind), None)
                if k is None:
                    break
                (old, _), ref = surplus.pop(k)
                self.stats.log.append(f"tidy: {ref} {old} -> {cell} (moved by the rules)")
                self.put(ref, cell)
                moved = True
        if moved:
            # Until the camera has seen the base in its new cell, the table rightly says
            # it is misplaced: the players wait for that before their next act.
            self._wait(lambda: not self.session.desync, 3.0)
        for _, ref in surplus:
            self.stats.removals += 1
            g = s.game.by_ref[ref]
            dest = f"{ref[:2]}.graveyard" if s.zone[g] is Zone.GRAVEYARD else None
            self.put(ref, dest)
            self._wait(lambda: not self.session.referee.lingering, 3.0)

    # -- acting ------------------------------------------------------------------------
    def _wait(self, done: Callable[[], bool], timeout: float | None = None,
              what: str = "") -> bool:
        """Wait for the table to react; ``what`` names a reaction that must come (its
        absence is counted and logged), otherwise waiting is just patience."""
        end = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < end and not self.stop.is_set():
            if done():
                return True
            time.sleep(0.005)
        if what:
            self.stats.timeouts += 1
            self.stats.log.append(f"timeout: {what}")
        return False

    def act(self, it: Intent) -> None:
        s = self.session
        self.stats.acts += 1
        self.stats.log.append(str(it))
        ops = len(s.ops)
        if it.kind == "roll":
            assert it.player is not None
            seq0 = s.history[-1]["seq"] if s.history else 0
            if self.armed is not None:
                # As a player waits for the box to light up before rolling.
                self._wait(lambda: self.armed(it.player, it.sides, it.n), 3.0)
            self.press(it.player, "roll")
            # Done when the session took the die (or refused it with a warning).
            self._wait(lambda: any(h["seq"] > seq0 and h["kind"] in ("die", "action", "warning")
                                   for h in s.history[-8:]), what=f"{it.player}'s roll")
        elif it.kind == "button":
            assert it.player is not None and it.button is not None
            self.press(it.player, it.button)
            self._wait(lambda: len(s.ops) > ops, what=f"{it.player} pressing {it.button}")
        elif it.kind == "type":
            try:
                s.command({"do": "action", "action": str(it.action)}, source="dashboard")
            except CommandError:
                self.stats.refused += 1
        else:
            self._board(it)
        self.tidy()

    def _board(self, it: Intent) -> None:
        s = self.session
        a = it.action
        assert isinstance(a, A.Spawn | A.Move | A.Place)
        ref = self.physical(a.target if isinstance(a, A.Place) else a.mini)
        self.stats.board_acts += 1
        self.intended.append(a)
        ops = len(s.ops)
        self.put(ref, a.cell)
        self._wait(lambda: len(s.ops) > ops or bool(s.desync) or bool(s.confirm),
                   what=f"the camera seeing {a}")
        if s.confirm:
            # A person would look again first: a sticker read a moment later settles it.
            self._wait(lambda: not s.confirm, 1.5)
        if s.confirm:
            self.stats.confirms += 1
            want = self._what(a)
            # The reading that is just this act; failing that, the shortest one with it.
            fits = sorted((len(e.actions), i) for i, e in enumerate(s.confirm)
                          if any(self._what(x) == want for x in e.actions))
            pick = fits[0][1] if fits else None
            try:  # a person at the dashboard picks what really happened
                if pick is not None:
                    s.command({"do": "choose", "option": pick}, source="dashboard")
            except CommandError:
                self.stats.refused += 1
        if len(s.ops) == ops:
            self.intended.pop()  # not taken: the players will put the board back
        if s.desync or s.confirm:
            self.stats.desyncs += 1
            self.stats.log.append(f"desync: {s.desync or s.confirm}")
            self.sync_from(s.state)  # the players put the board back as told
            if not self._wait(lambda: not s.desync, 3.0) and s.desync:
                # The board is right and the camera still disagrees: staff overrule it.
                self.stats.overrules += 1
                try:
                    s.command({"do": "board_ok"}, source="dashboard")
                except CommandError:
                    self.stats.refused += 1

    def _what(self, a: A.Action) -> tuple[str, str, str, str]:
        """What a person sees of a placement: who, which miniature (not which copy),
        what kind of act, where."""
        ref = a.target if isinstance(a, A.Place) else getattr(a, "mini", "")
        player, name = self._kind(ref)
        return type(a).__name__, player, name, getattr(a, "cell", "")

    def run(self, max_acts: int = 5000, max_seconds: float | None = None) -> TableStats:
        end = None if max_seconds is None else time.monotonic() + max_seconds
        self.sync_from(self.session.state)
        self._wait(lambda: self.session.last_obs is not None, 15.0)
        while not self.stop.is_set() and self.stats.acts < max_acts:
            s = self.session
            if s.state.is_over():
                break
            if end is not None and time.monotonic() > end:
                self.stats.log.append(f"stopped: {max_seconds:.0f} s without the game ending")
                break
            it = plan(s.state, s.referee.init_dice, self.rng, policy=roomy_policy)
            if it is None:
                break
            self.act(it)
            if self.pace:
                self.stop.wait(self.pace)
        return self.stats


def roomy_policy(state: State, legal, rng: random.Random) -> A.Action:
    """The table policy, but never a ninth base in one cell: real players keep bases
    apart (a portal has no stacking limit, the paper has)."""
    names = state.game.board.cell_names
    count: dict[str, int] = {}
    for c in state.cell:
        if c >= 0:
            count[names[c]] = count.get(names[c], 0) + 1
    roomy = [a for a in legal if not (isinstance(a, A.Spawn | A.Move | A.Place)
                                      and count.get(a.cell, 0) >= MAX_PER_CELL)]
    return table_policy(state, roomy or legal, rng)
