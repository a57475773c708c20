"""Reading a figure-covered sticker by how this frame's print looks.

The ring fit (``ring_fit.py``) learns each symbol's colour from the ring it reads: four
free colours a ring. Under a figure, with two or three wedges hidden and others in its
shadow, a wrong pattern can then explain what is left as well as the right one: on the
held-out renders at 1080p (seed 1, MJPEG 75-95) the fit's best pattern was the true one
on 0.84 of figure-covered stickers, and it leads clearly on fewer.

Yet every sticker in a frame came out of one printer, lies under one light and is
filmed by one camera. The stickers both decoders read surely therefore tell what ink,
the green, the magenta and each player's colour look like in this very frame: the
*print* (``FramePrint``), each symbol's median colour over those readings and how far
its samples stray from it. A ring left unread is then scored against the print instead
of against colours of its own (``PrintReader.read``): each angle costs its distance from
the colour the pattern puts there, in units of that symbol's spread, capped (a figure's
paint far from every symbol costs every pattern alike), with one lightness shift for the
whole ring (a figure's shadow darkens all its symbols). On the same stickers the print's
best pattern was the true one on 0.99.

A reading by the print needs its pattern to cost clearly less than any other pattern of
the same owner (``print_lead``), and its owner either to be the owner the colour votes
gave or, where the ring has none, to cost clearly less than any other player's sticker
(``print_owner_lead``); where the frame's stickers are small in the picture (720p) both
must lead by more (``print_small_lead``, ``print_small_owner_lead``). Without enough sure
readings to know the print
(``print_min_rings``, with every player's colour among them), nothing is read this way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import tags
from .ring_fit import hypothesis_weights

# The symbols in the order the costs are kept (``tags``' numbers: colour, ink, accents)
_SYMBOLS = (tags.COLOUR, tags.INK, tags.ACCENT, tags.ACCENT2)


@lru_cache(maxsize=4)
def _one_hot(angles: int) -> np.ndarray:
    """(patterns, turns, angles, symbols): 1 where a pattern turned by that many samples
    shows that symbol at that angle (``tags.templates``' rows, as 0 and 1)."""
    rows = tags.templates(angles) > 0
    return rows.reshape(len(tags.CODEWORDS), angles, angles, tags.SYMBOLS).astype(np.float32)


@lru_cache(maxsize=4)
def _inner(angles: int) -> np.ndarray:
    """(turns, angles): True at the samples inside a wedge's borders, per turn (blur
    mixes two symbols at a wedge's first and last sample)."""
    per = angles // tags.SECTORS
    pos = (np.arange(angles)[None, :] - np.arange(angles)[:, None]) % per
    return (pos != 0) & (pos != per - 1)


@lru_cache(maxsize=64)
def _by_turn(angles: int, pattern: int) -> tuple[np.ndarray, np.ndarray]:
    """``pattern``'s one-hot rows as one matrix (turns x symbols, angles), and how many
    samples each (turn, symbol) has: one product sums every symbol at every turn."""
    hot = _one_hot(angles)[pattern].transpose(0, 2, 1)  # (turns, symbols, angles)
    return (np.ascontiguousarray(hot.reshape(-1, angles)),
            np.maximum(hot.sum(axis=2), 1.0))


def turn_of(x: np.ndarray, pattern: int) -> int:
    """How far ``pattern`` is turned on a ring whose angle means are ``x`` (angles, 3):
    the turn whose symbols' samples stray least from their own means."""
    rows, counts = _by_turn(len(x), pattern)
    sums = (rows @ x).reshape(counts.shape[0], tags.SYMBOLS, -1)  # (turns, symbols, 3)
    explained = ((sums * sums).sum(axis=2) / counts).sum(axis=1)
    return int(explained.argmax())  # least error: the total sum of squares is the same


@dataclass(frozen=True)
class Print:
    """How each symbol looks in the frames: ``colour[s]``/``spread[s]`` (Lab) for the
    symbols ink, accent and accent2 (by their ``tags`` numbers) and for each player's
    colour (``owners[q]``), the spread floored (``floor``)."""

    colour: dict[int, np.ndarray]
    spread: dict[int, np.ndarray]
    owners: list[tuple[np.ndarray, np.ndarray]]  # per player: (colour, spread)


class FramePrint:
    """What the last ``memory`` surely read rings showed of each symbol: the print is
    the median of their colours and the spread of their samples (``current``). Kept
    across frames, since a stream redoes only the rings that changed, and a few rings
    of a frame tell little."""

    def __init__(self, players: int, memory: int, min_rings: int, floor: float) -> None:
        self.players = players
        self.min_rings = min_rings
        self.floor = floor
        # Per ring: its owner, and per symbol (rows in ``tags`` order) the median of its
        # samples inside the wedges, their count, sum and sum of squares (per channel).
        self._rings: deque[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = \
            deque(maxlen=memory)
        self._found: Print | None = None
        self._stale = True

    def learn(self, x: np.ndarray, owner: int, pattern: int) -> None:
        """A surely read ring (angle means ``x``: angles, 3, Lab), its owner's index and
        pattern."""
        turn = turn_of(x, pattern)
        hot = _one_hot(len(x))[pattern, turn] > 0  # (angles, symbols)
        inner = _inner(len(x))[turn]
        median = np.zeros((tags.SYMBOLS, 3), np.float64)
        count = np.zeros(tags.SYMBOLS)
        total = np.zeros((tags.SYMBOLS, 3))
        squares = np.zeros((tags.SYMBOLS, 3))
        for s in range(tags.SYMBOLS):
            part = x[hot[:, s] & inner].astype(np.float64)
            if len(part):
                median[s] = np.median(part, axis=0)
                count[s] = len(part)
                total[s] = part.sum(axis=0)
                squares[s] = (part * part).sum(axis=0)
        self._rings.append((owner, median, count, total, squares))
        self._stale = True

    def current(self) -> Print | None:
        """The print as the remembered rings show it; None with fewer than
        ``min_rings`` of them, or no ring of some player."""
        if not self._stale:
            return self._found
        self._stale = False
        self._found = None
        if len(self._rings) < self.min_rings:
            return None
        owners_of = np.array([r[0] for r in self._rings])
        median, count, total, squares = (np.array([r[k] for r in self._rings])
                                         for k in (1, 2, 3, 4))
        colour, spread = {}, {}
        for s in (tags.INK, tags.ACCENT, tags.ACCENT2):
            got = self._summary(median[:, s], count[:, s], total[:, s], squares[:, s])
            if got is None:
                return None
            colour[s], spread[s] = got
        owners = []
        for q in range(self.players):
            mine = owners_of == q
            got = self._summary(median[mine, tags.COLOUR], count[mine, tags.COLOUR],
                                total[mine, tags.COLOUR], squares[mine, tags.COLOUR])
            if got is None:
                return None
            owners.append(got)
        self._found = Print(colour, spread, owners)
        return self._found

    def _summary(self, median: np.ndarray, count: np.ndarray, total: np.ndarray,
                 squares: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The median over the rings of each ring's median colour of a symbol, and the
        root mean square distance of all its samples from that, per channel (floored):
        from the rings' counts, sums and sums of squares."""
        has = count > 0
        if not has.any():
            return None
        centre = np.median(median[has], axis=0)
        n = count[has].sum()
        mean_sq = (squares[has].sum(axis=0) - 2 * centre * total[has].sum(axis=0)) / n \
            + centre * centre
        rms = np.sqrt(np.maximum(mean_sq, 0.0))
        return centre.astype(np.float32), np.maximum(rms, self.floor).astype(np.float32)


@dataclass(frozen=True)
class PrintReading:
    owner: int  # the player whose sticker it fits best
    pattern: int
    lead: float  # the next pattern's cost (same owner), or a plain ring's where less,
    # minus the best's, per angle (stickers read elsewhere in the frame are no rivals)
    owner_lead: float  # the best other player's cost minus the best's, per angle
    whole: bool  # every symbol the pattern prints where the ring is seen fits somewhere
    elsewhere: bool = False  # the best sticker is one read surely on another base


@dataclass(frozen=True)
class _Owner:
    """Rings scored as one player's stickers."""

    d: np.ndarray  # each angle's cost per symbol (rings, shifts, angles, symbols)
    hyp: np.ndarray  # each hypothesis's cost (rings, shifts, patterns x turns)
    plain: np.ndarray  # a plain ring of the player's colour: its least cost (rings,)
    costs: np.ndarray  # each pattern's least cost over shifts and turns (rings, patterns)


@dataclass(frozen=True)
class Scored:
    """Rings scored against a print (``PrintReader.score``)."""

    seen: np.ndarray  # (rings, angles): how much the view believes each angle
    per_owner: list[_Owner]


class PrintReader:
    def __init__(self, angles: int, cap: float, shifts: tuple[float, ...]) -> None:
        """``cap``: the most an angle can cost (in squared spreads, per channel);
        ``shifts``: the lightness shifts (Lab L) a ring is tried at."""
        self.angles = angles
        self.cap = cap
        self.shifts = shifts
        w = hypothesis_weights(angles)  # (hypotheses, angles, symbols), wedge borders a third
        # (angles x symbols, hypotheses): one product scores every hypothesis
        self._w_t = np.ascontiguousarray(w.reshape(len(w), -1).T)
        self._w_angle = np.ascontiguousarray(w.sum(axis=2))  # (hypotheses, angles)

    def read(self, x: np.ndarray, seen: np.ndarray | None, found: Print) -> PrintReading:
        """Ring ``x`` (angles, 3: Lab means) read against the print ``found``, each angle
        weighed by ``seen`` (how much the view believes it; None: alike)."""
        return self.read_many(x[None], None if seen is None else seen[None], found)[0]

    def read_many(self, x: np.ndarray, seen: np.ndarray | None, found: Print,
                  taken: np.ndarray | None = None) -> list[PrintReading]:
        """``read`` for many rings at once (``x``: rings, angles, 3; ``seen``: rings,
        angles, or None); ``taken`` as for ``readings``."""
        scored = self.score(x, seen, found)
        return self.readings(scored, range(len(x)), taken)

    def score(self, x: np.ndarray, seen: np.ndarray | None, found: Print) -> Scored:
        """Rings ``x`` (rings, angles, 3) scored against the print ``found``, every
        player's every pattern and turn at every lightness shift: one matrix product
        for all of them, for ``readings`` and ``prefer_other`` to share."""
        n, shifts = len(x), len(self.shifts)
        seen = np.ones(x.shape[:2], np.float32) if seen is None else \
            np.asarray(seen, np.float32)
        weight = np.maximum(seen @ self._w_angle.T, 1e-6)  # (rings, hypotheses)
        lift = np.zeros((shifts, 1, 3), np.float32)
        lift[:, 0, 0] = self.shifts
        per_owner = []
        for owner in found.owners:
            colour = np.stack([owner[0] if s == tags.COLOUR else found.colour[s]
                               for s in _SYMBOLS])
            spread = np.stack([owner[1] if s == tags.COLOUR else found.spread[s]
                               for s in _SYMBOLS])
            moved = x[:, None] + lift[None]  # (rings, shifts, angles, 3)
            d = np.minimum((((moved[..., None, :] - colour) / spread) ** 2).mean(axis=-1),
                           self.cap)
            weighed = (d * seen[:, None, :, None]).reshape(n * shifts, -1)
            hyp = (weighed @ self._w_t).reshape(n, shifts, -1) / weight[:, None, :]
            # A plain ring of the player's colour (no sticker) is one more explanation
            # every reading must beat: under a figure, the patterns with the most
            # colour wedges fit a plain ring best.
            plain = np.einsum("rsa,ra->rs", d[..., tags.COLOUR], seen).min(axis=1) / \
                np.maximum(seen.sum(axis=1), 1e-6)
            costs = hyp.min(axis=1).reshape(n, len(tags.CODEWORDS), self.angles).min(axis=2)
            per_owner.append(_Owner(d, hyp, plain, costs))
        return Scored(seen, per_owner)

    def readings(self, scored: Scored, rings: Iterable[int],
                 taken: np.ndarray | None = None) -> list[PrintReading]:
        """The best reading of each of the scored ``rings`` (indices into ``scored``).

        ``taken`` (players, patterns): True for each sticker read surely on another
        base of the frame. Every sticker is printed once, so a taken one is no rival
        explanation: the leads are measured over the others. Under a figure the
        costs lie close together, and the next pattern, or the other player's
        sticker of the same pattern where the colour wedges are hidden, is often a
        sticker standing in plain view elsewhere. A ring whose best fit is a taken
        sticker is ``elsewhere``: the print explains it best as a sticker that is
        not there, so its reading is in doubt and it is not moved to the next one.
        (What leaving rivals out can cost: on one held-out 1080p ring the print's
        best was wrong, the true sticker third behind a taken one, and the wrong
        one then led by 0.34; that disc's outline was no circle, which keeps no
        reading by the print.)"""
        per_owner, seen = scored.per_owner, scored.seen
        if taken is None:
            taken = np.zeros((len(per_owner), len(tags.CODEWORDS)), bool)
        out = []
        for k in rings:
            patterns = [o.costs[k] for o in per_owner]
            owner = int(np.argmin([c.min() for c in patterns]))
            pattern = int(patterns[owner].argmin())
            best = float(patterns[owner][pattern])
            elsewhere = bool(taken[owner, pattern])
            free = [np.sort(c[~t]) for c, t in zip(patterns, taken, strict=True)]
            rivals = free[owner] if elsewhere else free[owner][1:]  # the best is no rival
            rival = float(rivals[0]) if len(rivals) else float("inf")
            others = [float(f[0]) for q, f in enumerate(free) if q != owner and len(f)]
            mine = per_owner[owner]
            rows = mine.hyp[k, :, pattern * self.angles:(pattern + 1) * self.angles]
            shift, turn = np.unravel_index(int(rows.argmin()), rows.shape)
            out.append(PrintReading(
                owner, pattern, float(min(rival, mine.plain[k]) - best),
                min(others) - best if others else float("inf"),
                self._every_symbol_seen(mine.d[k, shift], seen[k], pattern, int(turn)),
                elsewhere))
        return out

    def prefer_other(self, scored: Scored, rings: list[int], owners: list[int],
                     patterns: list[int]) -> np.ndarray:
        """How much better the print fits each of the scored ``rings`` as another of
        its owner's patterns than as the one it was read as (``owners[k]``'s
        ``patterns[k]``): that pattern's cost minus the least other's, per angle
        (above 0: the print prefers another)."""
        out = np.empty(len(rings))
        for j, (k, q, p) in enumerate(zip(rings, owners, patterns, strict=True)):
            costs = scored.per_owner[q].costs[k]
            out[j] = costs[p] - np.delete(costs, p).min()
        return out

    def _every_symbol_seen(self, d: np.ndarray, seen: np.ndarray, pattern: int,
                           turn: int) -> bool:
        """Whether the symbols the reading prints where the view believes the ring
        (``seen`` half or more) show there, each in one of its wedges at least (the
        wedge's inner samples nearer that symbol's print than any other's), all but one
        at most. A pattern may win by its other wedges alone: paint as dark as ink over
        half a plain ring fitted a pattern of five ink wedges better than a plain ring,
        though its one green and one magenta wedge showed the player's colour. One
        symbol may be missing: a figure the view did not expect may hide a pattern's
        only wedge of a symbol (on the held-out renders at 1080p, asking for all four
        left 1-2 % more stickers under figures unread)."""
        per = self.angles // tags.SECTORS
        inner = _inner(self.angles)[turn]
        shows = _one_hot(self.angles)[pattern, turn] > 0  # (angles, symbols)
        believed = seen >= 0.5
        firsts = (turn + np.arange(tags.SECTORS) * per) % self.angles
        missing = 0
        for s in range(tags.SYMBOLS):
            nearest = []
            for k in firsts:  # each wedge's first sample
                if not shows[k, s]:
                    continue
                idx = (k + np.arange(per)) % self.angles
                idx = idx[inner[idx]]
                if believed[idx].all():
                    nearest.append(int(d[idx].mean(axis=0).argmin()))
            missing += bool(nearest) and s not in nearest
        return missing <= 1
