"""What the camera's steady board means for Warseer (one creature per hex).

Each base is read as a creature by its sticker; a base whose sticker cannot be read is
"some creature". The board **fits** the rules state when every creature on the
battlefield is seen on its hex (or an unread base stands there, or the hex is hidden
by a hand), and nothing stands where the rules have nothing: except a creature the
rules eliminated that the players have not taken off yet ("lingering": on its hex,
or on the hex a push put it on when the wound that difficult terrain costs there
eliminated it), and except a creature the rules put or moved on the battlefield at
the dashboard (a card's summon, a push's hex picked there) that the players have not
placed yet ("awaited": the prompt asks for it; the board cannot show the miniature there
before a hand puts it there; with no camera watching, nothing is awaited). Otherwise the
board is explained by one board action the rules allow now (a deployment, a summon, a move, a
push, an advance) whose result fits; or it is a desync, and ``diagnose`` says what to
put back where.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from table.observation import Observation
from table.stickers import Stickers
from table.system import Explanation, Reconciliation

from .. import engine
from ..actions import Advance, Deploy, Move, Push, Summon
from ..game import Game
from ..hexes import Hex
from ..state import FIELD, State


@dataclass
class Seen:
    at: dict[str, Hex]  # creature -> the hex its sticker was read in
    unread: Counter[Hex]  # bases whose sticker could not be read, per hex
    hidden: frozenset[Hex]  # hexes a hand covers
    # the owners the camera gave those bases (None: no colour read), per hex
    unread_owners: dict[Hex, list[str | None]] = field(default_factory=dict)

    def holds(self, h: Hex) -> bool:
        return h in self.hidden or self.unread[h] > 0 or h in self.at.values()


class Camera:
    def __init__(self, game: Game, stickers: Stickers) -> None:
        self.game = game
        self.stickers = stickers
        self.ref_of = dict(stickers.ref_of)
        self.lingering: dict[str, Hex] = {}  # eliminated, maybe still on the table
        self.awaited: dict[str, Hex] = {}  # put on the battlefield, maybe not placed yet
        # Whether a camera's boards are being judged: without one (a table played on
        # the dashboard alone) nothing is awaited, since nothing would ever see it placed
        self.watching = False

    def seen(self, obs: Observation) -> Seen:
        bf = self.game.battlefield
        at: dict[str, Hex] = {}
        owners: dict[Hex, list[str | None]] = {}
        for name, bases in obs.regions.items():
            try:
                h = bf.hex_named(name)
            except ValueError:
                continue  # another region of the printed sheet
            for b in bases:
                ref = self.ref_of.get(b.sticker) if b.sticker is not None else None
                if ref is not None and ref not in at:
                    at[ref] = h
                else:
                    owners.setdefault(h, []).append(b.owner)
        hidden = set()
        for name in obs.occluded:
            try:
                hidden.add(bf.hex_named(name))
            except ValueError:
                continue
        unread = Counter({h: len(o) for h, o in owners.items()})
        return Seen(at, unread, frozenset(hidden), owners)

    def _problems(self, state: State, seen: Seen,
                  lingering: dict[str, Hex] | None = None) -> list[str]:
        """What does not match, one line each (empty: the board fits); ``lingering``
        instead of the camera's own (a candidate action's)."""
        if lingering is None:
            lingering = self.lingering
        out = []
        expected = {u.ref: u.hex for u in state.units.values() if u.place == FIELD and u.hex}
        explained: Counter[Hex] = Counter()
        for ref, h in expected.items():
            if h in seen.hidden:
                continue
            at = seen.at.get(ref)
            if at == h:
                continue
            if at is None and seen.unread[h] > explained[h]:
                explained[h] += 1
                continue
            if self.awaited.get(ref) == h:
                continue  # not placed (or moved) there yet: the prompt asks for it
            out.append(f"put {ref} on {h}" + (f" (seen on {at})" if at else ""))
        where_ok = set(expected.values()) | set(lingering.values())
        for ref, h in seen.at.items():
            if h in seen.hidden or expected.get(ref) == h or lingering.get(ref) == h:
                continue
            if ref not in state.units:
                # A sticker printed for a minion not summoned yet (or a misread one):
                # the players cannot know a creature by a name it does not have.
                sticker = self.stickers.sticker_of(ref)
                out.append(f"take the base with sticker {sticker} off {h}: no creature "
                           "wears it yet (if one stands there, turn its sticker to the "
                           "camera)")
            elif ref not in expected:
                out.append(f"take {ref} off {h}: it is not on the battlefield")
        for h, n in seen.unread.items():
            if h not in where_ok and n > explained[h]:
                out.append(f"a creature whose sticker cannot be read stands on {h}: "
                           "take it off or turn its sticker to the camera")
        return out

    def fits(self, state: State, obs: Observation) -> bool:
        # (the last board, judged after a person's change: a reading chosen at the
        # dashboard plays moves the board already shows)
        seen = self.seen(obs)
        self._arrived(seen)
        return not self._problems(state, seen)

    def _arrived(self, seen: Seen) -> None:
        """A creature placed where the rules put it is awaited no more: from now on its
        absence is a desync like any other's. (Changed when a board is judged, not in
        ``settle``: the same observation judged again must see it placed.)"""
        for r, h in list(self.awaited.items()):
            if seen.at.get(r) == h or (r not in seen.at and seen.unread[h] > 0):
                del self.awaited[r]

    def reconcile(self, state: State, obs: Observation) -> Reconciliation:
        self.watching = True
        seen = self.seen(obs)
        gone = tuple(r for r, h in self.lingering.items()
                     if seen.at.get(r) != h and not seen.holds(h))
        self._arrived(seen)
        if not self._problems(state, seen):
            return Reconciliation(True, gone=gone)
        found = []
        # The opening's cards stay in the players' hands: a hero put down during it says
        # the opening is done, and the deployment follows its steps.
        base, opening = engine.after_opening(state)
        for a in self._candidates(base, seen):
            try:
                new, _ = engine.apply(base, a)
            except ValueError:
                continue
            if not self._problems(new, seen, {**self.lingering, **_left(base, new, a)}):
                found.append(Explanation((*opening, a), new))
        return Reconciliation(False, found, gone=gone)

    def _candidates(self, state: State, seen: Seen) -> list:
        """Board actions that could explain what is seen: a creature seen somewhere new
        (or an unread base appearing while a creature went missing from its hex, or
        while the player has creatures off the battlefield)."""
        p = state.active
        moved: list[tuple[str, Hex]] = []
        for ref, h in seen.at.items():
            u = state.units.get(ref)
            if u is not None and u.hex != h:
                moved.append((ref, h))
        vanished = [u.ref for u in state.units.values() if u.place == FIELD and u.hex
                    and u.ref not in seen.at and not seen.holds(u.hex)]
        occupied = state.occupied()
        fresh = [h for h, n in seen.unread.items() if n and h not in occupied]
        moved += [(ref, h) for ref in vanished for h in fresh]
        # An unread base on a free hex may be a creature coming onto the battlefield
        # (deployed, or summoned from the War Camp) whose sticker the camera did not
        # read: any of the player's creatures off the battlefield, if the base's colour
        # does not say it is another player's; the rules settle which can come there.
        if state.attack is None:
            waiting = [u.ref for u in state.units.values()
                       if u.player == p and u.place != FIELD and u.ref not in seen.at]
            moved += [(ref, h) for h in fresh for ref in waiting
                      if any(o in (None, p) for o in seen.unread_owners.get(h, [None]))]
        out: list = []
        at = state.attack
        for ref, h in moved:
            if at is not None:
                out += [Push(at.to_act, ref, h), Advance(at.to_act, True)]
            else:
                out += [Move(p, ref, h), Summon(p, ref, h), Deploy(p, ref, h)]
        return out

    def diagnose(self, state: State, obs: Observation) -> list[str]:
        return self._problems(state, self.seen(obs)) or ["the board and the rules agree"]

    def played(self, before: State, after: State, seen_by_camera: bool = False,
               action: object = None) -> None:
        """Keep track of what the table has yet to show after ``before`` -> ``after``
        (by ``action``, when one action did it): creatures taken off the battlefield
        (lingering until the camera sees them gone) and, unless the camera saw the
        change itself, creatures put on it or moved on it (a push whose hex was picked
        at the dashboard): awaited there."""
        # (a push the camera did not see leaves the miniature on its own hex)
        self.lingering.update(_left(before, after, action if seen_by_camera else None))
        for ref, u in after.units.items():
            b = before.units.get(ref)
            was = b.hex if b is not None and b.place == FIELD else None
            if u.place == FIELD:
                self.lingering.pop(ref, None)
            if u.place != FIELD or not u.hex:
                self.awaited.pop(ref, None)
            elif u.hex != was:
                if seen_by_camera:  # the board shows it there already
                    self.awaited.pop(ref, None)
                elif self.watching:
                    self.awaited[ref] = u.hex

    def settle(self, verdict: Reconciliation) -> None:
        for r in verdict.gone:
            self.lingering.pop(r, None)


def _left(before: State, after: State, action: object = None) -> dict[str, Hex]:
    """The creatures ``before`` -> ``after`` took off the battlefield, each on the hex
    its miniature may still stand on: its own, or the hex ``action`` pushed it to (a
    push into difficult terrain costs a wound, which can eliminate the creature: the
    camera saw it put there, and it is taken off from there)."""
    out = {}
    for ref, u in after.units.items():
        b = before.units.get(ref)
        if b is not None and b.place == FIELD and b.hex and u.place != FIELD:
            pushed = action.hex if isinstance(action, Push) and action.unit == ref else None
            out[ref] = b.hex if pushed is None else pushed
    return out
