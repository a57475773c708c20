"""Players at a synthetic table, for ``tablesight demo`` and the end-to-end tests, for
any game whose referee has scripted players (``Referee.autoplay``).

The players decide with the game's ``autoplay`` and act physically: a hand reaches over
the map, a base appears in its new region, the hand leaves; dice and buttons are pressed
on the table box; choices that need the dashboard are sent as dashboard commands.
Nothing is handed to the session directly: it learns every move from the camera and
every die from the box, as at a real table. Where pieces stand comes from the game's
board model (``Referee.view``), so this module knows no game.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from table.errors import CommandRefused
from table.session import Session
from table.system import Intent
from vision.layout import Layout, Region
from vision.synth.camera import SyntheticCamera
from vision.synth.scene import Base, Hand, Scene

SPOT_GAP_MM = 8.0  # room between two bases in one region, for fingers and the camera


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


def _spots(region: Region, base_mm: float) -> list[tuple[float, float]]:
    """Where bases can stand in a region: a lattice of base-sized spots whose discs lie
    inside the outline, nearest the centre first (cells, hexes and zones alike)."""
    pitch = base_mm + SPOT_GAP_MM
    x0, y0, x1, y1 = region.bbox
    cx, cy = region.center
    r = base_mm / 2 + 1.0
    out = []
    for i in range(-int((cx - x0) // pitch) - 1, int((x1 - cx) // pitch) + 2):
        for j in range(-int((cy - y0) // pitch) - 1, int((y1 - cy) // pitch) + 2):
            x, y = cx + i * pitch, cy + j * pitch
            rim = [(x + r * math.cos(a * math.pi / 4), y + r * math.sin(a * math.pi / 4))
                   for a in range(8)]
            if region.contains(x, y) and all(region.contains(*p) for p in rim):
                out.append((x, y))
    return sorted(out, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)


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
        self.intended: list[Any] = []  # every action done by hand on the board
        self.stop = threading.Event()
        # The referee's numbering, which covers pieces that join later (summoned
        # pieces wear the stickers after the force's), not only the starting forces.
        self._sticker = {ref: sid for sid, ref in session.referee.stickers.ref_of.items()}
        refs = [p["ref"] for p in self._pieces(session.state)]
        self._angles = {r: self.rng.uniform(0, 360) for r in refs}
        self._figure = {r: figures * self.rng.uniform(0.8, 1.2) for r in refs}
        self._base_mm = layout.base_diameters[0] + 1.0
        # Pieces the rules place at a point come in their own sizes (the board says each
        # one's diameter) and lie on one another: the one put down last is on top.
        self._size: dict[str, float] = {}
        self._put_order: dict[str, int] = {}
        self._regions = {r.name: r for r in layout.regions}
        self._spots = {r.name: _spots(r, self._base_mm) for r in layout.regions}

    # -- what the rules say is on the table ------------------------------------------------
    def _pieces(self, state: Any) -> list[dict[str, Any]]:
        return self.session.referee.view(state)["board"]["pieces"]

    def _rules_board(self, state: Any) -> dict[str, Any]:
        return self.session.referee.view(state)["board"]

    def _wanted(self, board: dict[str, Any]) -> dict[str, str]:
        """Where each piece should physically be: its region, or its player's printed
        strip for a zone kept on the map (a graveyard), when the map has one."""
        on_map = {z["id"] for z in board["zones"] if z["on_map"]}
        out = {}
        for p in board["pieces"]:
            strip = f"{p['player']}.{p['zone']}"
            if p["region"]:
                out[p["ref"]] = p["region"]
            elif p["zone"] in on_map and strip in self._regions:
                out[p["ref"]] = strip
        return out

    @staticmethod
    def _kinds(board: dict[str, Any]) -> dict[str, str]:
        return {p["ref"]: p["kind"] for p in board["pieces"]}

    # -- the physical board -------------------------------------------------------------
    def _slot(self, region_name: str, ref: str) -> tuple[float, float] | None:
        taken = [(x, y) for r, (reg, x, y) in self.where.items() if reg == region_name
                 and r != ref]
        for s in self._spots.get(region_name, []):
            if all(math.dist(s, t) >= self._base_mm + 4 for t in taken):
                return s
        return None

    def _dress(self, ref: str) -> None:
        """A piece's sticker angle and figure, drawn once (a piece summoned during the
        game gets them when it first reaches the board)."""
        if ref not in self._angles:
            self._angles[ref] = self.rng.uniform(0, 360)
            self._figure[ref] = self.figures * self.rng.uniform(0.8, 1.2)

    def scene(self, hands: list[Hand] | None = None) -> Scene:
        for ref in self.where:
            self._dress(ref)
        # Flat disks that may lie on one another (``Layout.piles``) carry no figure.
        bases = [Base(x, y, ref[:2], self._sticker.get(ref),
                      self._size.get(ref, self._base_mm - 1.0), self._angles[ref],
                      0.0 if self.layout.piles else self._figure[ref], ref)
                 for ref, (_, x, y) in sorted(self.where.items(),
                                              key=lambda kv: (self._put_order.get(kv[0], 0),
                                                              kv[0]))]
        return Scene(self.layout, bases, hands or [])

    def _placed(self, board: dict[str, Any]) -> dict[str, tuple[float, float, float, int]]:
        """Pieces the rules have at a point: (x, y, diameter, layer) by ref."""
        return {p["ref"]: (p["at"][0], p["at"][1], p["diameter"], p.get("layer", 0))
                for p in board["pieces"] if p.get("at") and p.get("diameter")}

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

    def put(self, ref: str, region: str | None,
            at: tuple[float, float] | None = None) -> None:
        """A hand moves ``ref`` to ``region`` (None: off the table), at the point ``at``
        if the place is a point (free placement), and withdraws."""
        if at is not None and ref not in self._size:
            size = next((p.get("diameter") for p in self._pieces(self.session.state)
                         if p["ref"] == ref), None)
            if size:
                self._size[ref] = size
        spot = at if region and at else self._slot(region, ref) if region else None
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
            self._put_order[ref] = max(self._put_order.values(), default=0) + 1
        self._show([hand])
        self._show([], frames=1)

    def sync_from(self, state: Any) -> None:
        """Put the physical board where the rules say (start, and after a desync)."""
        self.where.clear()
        board = self._rules_board(state)
        placed = self._placed(board)
        for ref, (_, _, size, layer) in placed.items():
            self._size[ref] = size
            self._put_order[ref] = layer
        for ref, region in self._wanted(board).items():
            at = placed.get(ref)
            self.where[ref] = (region, *(at[:2] if at else
                                         self._slot(region, ref) or (0.0, 0.0)))
        self._show([], frames=1)

    def physical(self, ref: str) -> str:
        """The base a player picks up for the session's ``ref``: copies of one kind are
        interchangeable, so the session may call p1#6's base p1#5. Players take a copy
        standing where the session says ``ref`` is (or one still off the table)."""
        board = self._rules_board(self.session.state)
        want = self._wanted(board).get(ref)
        here = self.where.get(ref)
        if (here[0] if here else None) == want:
            return ref
        kinds = self._kinds(board)
        for other, kind in kinds.items():
            if other != ref and kind == kinds.get(ref):
                spot = self.where.get(other)
                if (spot[0] if spot else None) == want:
                    return other
        return ref

    def tidy(self) -> None:
        """Make the map what the rules say after a typed action: a base the rules moved
        goes to its new region; one the rules removed is taken off (or to its printed
        zone). Bases are matched by kind per region, as copies are interchangeable."""
        s = self.session
        board = self._rules_board(s.state)  # one view of the rules' board for the whole tidy
        kinds = self._kinds(board)
        board_regions = {r["id"] for r in board["regions"]}
        want: dict[tuple[str, str], int] = {}
        for ref, region in self._wanted(board).items():
            key = (region, kinds[ref])
            want[key] = want.get(key, 0) + 1
        have: dict[tuple[str, str], list[str]] = {}
        for ref, (region, _, _) in sorted(self.where.items()):
            have.setdefault((region, kinds.get(ref, ref)), []).append(ref)
        surplus = [(key, ref) for key, refs in have.items()
                   for ref in refs[want.get(key, 0):]]
        moved = False
        for (region, kind), n in sorted(want.items()):
            lack = n - len(have.get((region, kind), []))
            for _ in range(max(0, lack)):
                k = next((i for i, (key, _) in enumerate(surplus) if key[1] == kind), None)
                if k is None:
                    # A piece the rules put on the table that no hand has placed yet.
                    ref = next((r for r, kd in kinds.items() if kd == kind
                                and r not in self.where), None)
                    if ref is None:
                        break
                else:
                    (old, _), ref = surplus.pop(k)
                    self.stats.log.append(f"tidy: {ref} {old} -> {region} (moved by the rules)")
                    if region not in board_regions:  # to a printed strip: off the board
                        self.stats.removals += 1
                self.put(ref, region)
                moved = True
        if moved:
            # Until the camera has seen the base in its new place, the table rightly says
            # it is misplaced: the players wait for that before their next act.
            self._wait(lambda: not s.desync, 3.0)
        for _, ref in surplus:
            self.stats.removals += 1
            seen = s.last_obs.frame if s.last_obs is not None else -1
            self.put(ref, None)
            # The table learns the base is gone from a new steady board.
            self._wait(lambda seen=seen: s.last_obs is not None and s.last_obs.frame > seen,
                       3.0)

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
            assert it.player is not None and it.dice is not None
            seq0 = s.history[-1]["seq"] if s.history else 0
            wanted = s.dice_needed()
            if self.armed is not None and it.dice.die is not None:
                # As a player waits for the box to light up before rolling.
                self._wait(lambda: self.armed(it.player, it.dice.die.sides, it.dice.n), 3.0)
            self.press(it.player, "roll")
            # Done when the session took the dice (the dice it asks for changed: part of
            # a roll is in, or the roll was played) or refused them with a warning.
            self._wait(lambda: s.dice_needed() != wanted or any(
                h["seq"] > seq0 and h["kind"] in ("action", "warning")
                for h in s.history[-8:]), what=f"{it.player}'s roll")
        elif it.kind == "button":
            assert it.player is not None and it.button is not None
            self.press(it.player, it.button)
            self._wait(lambda: len(s.ops) > ops, what=f"{it.player} pressing {it.button}")
        elif it.kind == "type":
            try:
                s.command({"do": "action", "action": str(it.action)}, source="dashboard")
            except CommandRefused:
                self.stats.refused += 1
        else:
            self._board(it)
        self.tidy()

    def _signature(self, state: Any) -> list[tuple[str, str]]:
        """What a person sees of a board: how many of each kind stand in each region."""
        return sorted((p["region"], p["kind"]) for p in self._pieces(state) if p["region"])

    def _board(self, it: Intent) -> None:
        s = self.session
        self.stats.board_acts += 1
        self.intended.append(it.action)
        before = s.state
        ops = len(s.ops)
        points = {ref: (x, y) for ref, x, y in it.points}
        for ref, region in it.moves:
            self.put(self.physical(ref), region, points.get(ref))
        self._wait(lambda: len(s.ops) > ops or bool(s.desync) or bool(s.confirm),
                   what=f"the camera seeing {it.action}")
        if s.confirm:
            # A person would look again first: a sticker read a moment later settles it.
            # (Settled means played, too: the session clears the question before it
            # plays the answer, and a board tidied in between loses the piece.)
            self._wait(lambda: not s.confirm and (len(s.ops) > ops or bool(s.desync)), 1.5)
        if s.confirm:
            self.stats.confirms += 1
            # The reading that leaves the board as this act does; of those, the shortest.
            want = self._signature(s.referee.apply(before, it.action)[0])
            fits = sorted((len(e.actions), i) for i, e in enumerate(s.confirm)
                          if self._signature(e.state) == want)
            try:  # a person at the dashboard picks what really happened
                if fits:
                    s.command({"do": "choose", "option": fits[0][1]}, source="dashboard")
            except CommandRefused:
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
                except CommandRefused:
                    self.stats.refused += 1

    def run(self, max_acts: int = 5000, max_seconds: float | None = None) -> TableStats:
        end = None if max_seconds is None else time.monotonic() + max_seconds
        self.sync_from(self.session.state)
        self._wait(lambda: self.session.last_obs is not None, 15.0)
        referee = self.session.referee
        while not self.stop.is_set() and self.stats.acts < max_acts:
            s = self.session
            if referee.is_over(s.state):
                break
            if end is not None and time.monotonic() > end:
                self.stats.log.append(f"stopped: {max_seconds:.0f} s without the game ending")
                break
            it = referee.autoplay(s.state, self.rng)
            if it is None:
                break
            self.act(it)
            if self.pace:
                self.stop.wait(self.pace)
        return self.stats
