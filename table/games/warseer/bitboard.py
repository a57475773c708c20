"""Sets of the battlefield's hexes as bits of one integer, for the searches the rules
make after every action (where a creature can move, what stands near a line of sight).

A hex at column ``c``, row ``r`` is bit ``(c + 1) * H + r + 1`` with ``H = rows + 2``:
columns one after another, each with an empty bit above and below and an empty column
on each side, so a neighbour is a fixed shift that never wraps onto another column's
hex. The shifts depend on the column's parity (odd columns stand half a hex higher).
Bits in increasing order are hexes in reading order (column, then row), the rules'
stable order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .hexes import DIRECTIONS, Hex, around, distance, line_of_sight

# Answers of ``sees`` kept per battlefield: a game asks some hundreds; a table playing
# all day on one battlefield keeps about a hundred games' worth (a few MB), not all.
_SIGHT_KEPT = 20_000


@dataclass(slots=True)
class Reach:
    """Where a creature can go (``Bitboard.reach``)."""

    hexes: tuple[Hex, ...]  # the free hexes it can end on, in reading order
    ends: int  # the same, as bits
    fronts: tuple[int, ...]  # index k: the hexes first reached for k points
    region: int  # the hexes whose being taken or free could change this answer: those
    #              it passes and, for a walker, those beside them
    moves: dict[tuple[str, str], tuple[Any, ...]] = field(default_factory=dict)
    """The moves made of it so far, by (player, creature): kept by ``movement``."""
    _costs: dict[Hex, int] | None = None

    def costs(self, bit: dict[Hex, int]) -> dict[Hex, int]:
        """Each hex it can end on, with the points it takes to get there."""
        if self._costs is None:
            self._costs = {h: next(k for k, f in enumerate(self.fronts) if f & bit[h])
                           for h in self.hexes}
        return self._costs


class Bitboard:
    """The bit layout of one battlefield and its fixed sets."""

    def __init__(self, columns: int, rows: int, standable: Iterable[Hex],
                 difficult: Iterable[Hex], sight: Iterable[Hex]) -> None:
        self.columns, self.rows = columns, rows
        self.height = h = rows + 2
        self.hex_at: dict[int, Hex] = {}
        self.bit: dict[Hex, int] = {}
        even = odd = 0
        for c in range(columns):
            for r in range(rows):
                hx = Hex(c, r - c // 2)
                i = (c + 1) * h + r + 1
                self.hex_at[i], self.bit[hx] = hx, 1 << i
                if c % 2:
                    odd |= 1 << i
                else:
                    even |= 1 << i
        self.board = even | odd
        self.even, self.odd = even, odd
        # The index step to each neighbour, for a hex in an even and in an odd column.
        self.even_steps = tuple(dq * h + dr + (0 if dq >= 0 else -1) * (dq != 0)
                                for dq, dr in DIRECTIONS)
        self.odd_steps = tuple(dq * h + dr + (1 if dq > 0 else 0)
                               for dq, dr in DIRECTIONS)
        self.standable = self.mask(standable)
        self.difficult = self.mask(difficult)
        self.sight = self.mask(sight)
        # The hexes of each byte's bits, for each of the layout's bytes.
        self._bytes = ((columns + 2) * h + 7) // 8
        self._by_byte = [[tuple(self.hex_at[8 * j + i] for i in range(8)
                                if byte >> i & 1 and 8 * j + i in self.hex_at)
                          for byte in range(256)] for j in range(self._bytes)]
        self._disks: dict[tuple[Hex, int], int] = {}  # and sight regions
        self._between: dict[tuple[Hex, Hex], int] = {}
        self._sight: dict[tuple[Hex, Hex, int], bool] = {}

    def mask(self, hexes: Iterable[Hex]) -> int:
        """The set of ``hexes`` (those on the battlefield)."""
        bit, m = self.bit, 0
        for hx in hexes:
            m |= bit.get(hx, 0)
        return m

    def hexes(self, m: int) -> Iterator[Hex]:
        """The hexes of ``m``, in reading order."""
        at = self.hex_at
        while m:
            low = m & -m
            yield at[low.bit_length() - 1]
            m ^= low

    def neighbours(self, m: int) -> int:
        """Every hex beside a hex of ``m`` (on the battlefield)."""
        out = 0
        e, o = m & self.even, m & self.odd
        if e:
            for k in self.even_steps:
                out |= e << k if k > 0 else e >> -k
        if o:
            for k in self.odd_steps:
                out |= o << k if k > 0 else o >> -k
        return out & self.board

    def disk(self, centre: Hex, radius: int) -> int:
        """The hexes within ``radius`` of ``centre`` (kept: asked often)."""
        key = (centre, radius)
        found = self._disks.get(key)
        if found is None:
            found = self._disks[key] = self.mask(
                hx for hx in self.bit if distance(hx, centre) <= radius)
        return found

    def reach(self, start: Hex, budget: int, flying: bool, taken: int) -> Reach:
        """Where a creature at ``start`` can go with ``budget`` points. A walker pays
        one a hex and two to enter difficult terrain, and passes neither creatures
        (``taken``) nor impassable hexes; a flyer pays one a hex over anything. Either
        ends on a free hex."""
        first = self.bit[start]
        seen = first
        fronts = [first]  # fronts[k]: the hexes first reached for k points
        neighbours = self.neighbours
        if flying:
            board = self.board
            for _ in range(budget):
                f = neighbours(fronts[-1]) & board & ~seen
                seen |= f
                fronts.append(f)
            region = seen
        else:
            open_ = self.standable & ~taken
            plain, rough = open_ & ~self.difficult, open_ & self.difficult
            beside = [neighbours(first)]  # beside[k]: the hexes next to fronts[k]
            for k in range(1, budget + 1):
                f = beside[k - 1] & plain
                if k >= 2:
                    f |= beside[k - 2] & rough
                f &= ~seen
                seen |= f
                fronts.append(f)
                beside.append(neighbours(f) if f else 0)
            region = seen
            for b in beside:
                region |= b
        ends = seen & self.standable & ~taken & ~first
        return Reach(self.in_order(ends), ends, tuple(fronts), region)

    def in_order(self, m: int) -> tuple[Hex, ...]:
        """The hexes of ``m`` in reading order, a byte of bits at a time."""
        out: list[Hex] = []
        by_byte = self._by_byte
        for j, byte in enumerate(m.to_bytes(self._bytes, "little")):
            if byte:
                out += by_byte[j][byte]
        return tuple(out)

    def sight_region(self, a: Hex, reach: int) -> int:
        """The hexes whose being taken or free could change which hexes within
        ``reach`` of ``a`` it sees: those hexes and every hex near a line to them."""
        key = (a, -reach - 1)  # kept with the disks, apart from them by the sign
        found = self._disks.get(key)
        if found is None:
            found = self.disk(a, reach)
            for b in self.hexes(found):
                if distance(a, b) > 1:
                    found |= self._near_line(a, b)
            self._disks[key] = found
        return found

    def _near_line(self, a: Hex, b: Hex) -> int:
        """The hexes that may stand in the way between ``a`` and ``b``."""
        pair = (a, b)
        near = self._between.get(pair)
        if near is None:
            d = (b[0] - a[0], b[1] - a[1])
            near = self._between[pair] = self.mask(
                Hex(a[0] + q, a[1] + r) for q, r in around(Hex(*d)))
        return near

    def sees(self, a: Hex, b: Hex, blocked: int) -> bool:
        """``hexes.line_of_sight`` from ``a`` to ``b`` past the hexes of ``blocked``.
        Only the blockers near the line between them matter, so answers are kept by
        those: a creature moving elsewhere leaves every other answer standing."""
        near = self._between.get((a, b))
        if near is None:
            near = self._near_line(a, b)
        key = (a, b, blocked & near)
        seen = self._sight.get(key)
        if seen is None:
            if len(self._sight) >= _SIGHT_KEPT:
                self._sight.clear()
            seen = self._sight[key] = line_of_sight(a, b, tuple(self.hexes(key[2])))
        return seen
