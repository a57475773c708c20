"""Reconciliation: the board the camera settled on against the board the rules expect.

Camera output is evidence, not truth. A stable observation is accepted only when it is
*explained*: the last confirmed rules state fits it, or a short sequence of legal
physical actions (spawns, shift moves, placements of disrupted creatures) from that
state does. Bases whose sticker could not be read fit any miniature of their owner (or
anyone's, without a colour): the legal actions settle who they are. When nothing
explains the board, ``diagnose`` says what to put back where.

This module knows Dreamblade's physical actions; another game brings its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from table.games.dreamblade import actions as A
from table.games.dreamblade.engine import apply, legal_actions
from table.games.dreamblade.errors import RulesError
from table.games.dreamblade.state import State, Zone
from table.observation import Observation, ObservedBase
from table.stickers import Stickers
from table.system import Explanation, Reconciliation

MAX_STEPS = 4  # physical actions one observation may explain (two hands, quick players)
MAX_NODES = 4000  # search budget per observation: a bound, never reached in play
MAX_STRAY_LINES = 4  # more bases that should not be there are said in one line
MAX_LINES = 8  # a desync banner a person can read
# gid -> (the cells it may still stand in: where it stood before the rules moved it, and
# where an earlier such move put it; the cell the rules put it in)
Awaited = Mapping[int, tuple[tuple[str, ...], str]]
NONE_AWAITED: Awaited = MappingProxyType({})


@dataclass
class CellFit:
    """How one cell's observed bases pair with the miniatures expected there."""

    cell: str
    bases: tuple[ObservedBase, ...]
    pairs: dict[int, int]  # base index -> gid
    missing: tuple[int, ...]  # expected gids with no base
    extra: tuple[int, ...]  # base indexes with no miniature
    lingering: int = 0  # bases paired with a miniature that may have been taken off

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra


class Reconciler:
    def __init__(self, stickers: Stickers) -> None:
        self.stickers = stickers

    # -- one cell -----------------------------------------------------------------------
    def _compatible(self, state: State, base: ObservedBase, g: int) -> bool:
        game = state.game
        m = game.minis[g]
        if base.tag == "read" and base.sticker is not None:
            seen = game.by_ref.get(self.stickers.ref_of.get(base.sticker, ""))
            if seen is not None:
                # Copies of one miniature are interchangeable on the table: the rules
                # treat them alike, so a swapped pair is not worth a desync.
                d = game.minis[seen]
                return d.player == m.player and d.d.name == m.d.name
        return base.owner is None or base.owner == m.player

    def fit_cell(self, state: State, cell: str, bases: Sequence[ObservedBase],
                 required: Sequence[int], optional: Sequence[int] = ()) -> CellFit:
        """Pair bases with miniatures: every required one must be there; optional ones
        (just destroyed, not yet taken off) may be. Kuhn's augmenting paths, required
        miniatures first, so an optional one never takes a required one's base."""
        owner_of_base: dict[int, int] = {}

        def augment(g: int, seen: set[int]) -> bool:
            for bi, b in enumerate(bases):
                if bi in seen or not self._compatible(state, b, g):
                    continue
                seen.add(bi)
                if bi not in owner_of_base or augment(owner_of_base[bi], seen):
                    owner_of_base[bi] = g
                    return True
            return False

        missing = [g for g in required if not augment(g, set())]
        for g in optional:
            augment(g, set())
        extra = tuple(bi for bi in range(len(bases)) if bi not in owner_of_base)
        opt = set(optional)
        used = sum(1 for g in owner_of_base.values() if g in opt)
        return CellFit(cell, tuple(bases), owner_of_base, tuple(missing), extra, used)

    # -- the whole board ------------------------------------------------------------------
    @staticmethod
    def expected(state: State) -> dict[str, list[int]]:
        names = state.game.board.cell_names
        out: dict[str, list[int]] = {n: [] for n in names}
        for g, c in enumerate(state.cell):
            if c >= 0 and state.zone[g] is Zone.DREAMSCAPE:
                out[names[c]].append(g)
        return out

    def fit(self, state: State, obs: Observation, lingering: Mapping[int, str],
            awaited: Awaited = NONE_AWAITED) -> list[CellFit]:
        """Every cell's fit; ``lingering``: gid -> the cell a miniature that left the
        dreamscape may still stand in until someone takes it off; ``awaited``: gid ->
        (cells, to), a miniature the rules moved at the dashboard (a card's or a blade's
        move, perhaps twice), which the players may not have moved yet: it may stand in
        any of those cells or in ``to``."""
        exp = self.expected(state)
        optional: dict[str, list[int]] = {}
        for g, cell in lingering.items():
            if state.cell[g] < 0:
                optional.setdefault(cell, []).append(g)
        names = state.game.board.cell_names
        for g, (cells, to) in awaited.items():
            c = state.cell[g]
            if c < 0 or names[c] != to or g not in exp[to]:
                continue  # taken back (undo) or moved on since: not awaited as it was
            exp[to].remove(g)
            for cell in (to, *cells):
                optional.setdefault(cell, []).append(g)
        return [self.fit_cell(state, name, obs.regions.get(name, ()), gids,
                              optional.get(name, ()))
                for name, gids in exp.items()]

    def fits(self, state: State, obs: Observation, lingering: Mapping[int, str],
             awaited: Awaited = NONE_AWAITED) -> bool:
        return all(f.ok for f in self.fit(state, obs, lingering, awaited))

    def arrived(self, state: State, obs: Observation, lingering: Mapping[int, str],
                awaited: Awaited) -> list[int]:
        """The awaited miniatures the board shows where the rules put them, and no
        longer where they stood."""
        if not awaited:  # the usual case: no fit to compute for every board
            return []
        fits = {f.cell: f for f in self.fit(state, obs, lingering, awaited)}
        out = []
        for g, (cells, to) in awaited.items():
            if g in fits[to].pairs.values() and \
                    not any(g in fits[c].pairs.values() for c in cells):
                out.append(g)
        return out

    # -- explaining a change -----------------------------------------------------------------
    def _physical(self, state: State, fits: list[CellFit]) -> list[A.Action]:
        """Legal physical actions that could move the board toward the observation: a
        miniature that could be one of a cell's unexplained bases goes there."""
        # Any base of such a cell may be the newcomer: which one the pairing left over
        # is arbitrary when stickers are unread.
        # A base paired with a miniature that was just destroyed may be a newcomer too.
        wanted: dict[str, tuple[ObservedBase, ...]] = {
            f.cell: f.bases for f in fits if f.extra or f.lingering}
        if not wanted:
            return []
        out = []
        for a in legal_actions(state):
            if isinstance(a, A.Spawn | A.Move | A.Place):
                mini = a.mini if not isinstance(a, A.Place) else a.target
                bases = wanted.get(a.cell)
                if bases and any(self._compatible(state, b, state.game.by_ref[mini])
                                 for b in bases):
                    out.append(a)
        return out

    def reconcile(self, state: State, obs: Observation, lingering: Mapping[int, str],
                  awaited: Awaited = NONE_AWAITED) -> Reconciliation:
        """Strictly first. If nothing explains the board, once more for each base of a
        cell that does not fit, with that one base's reading set aside (its sticker; its
        colour when no sticker was read). Accepted when those trials agree on one
        outcome: a single misreading happens (a worn sticker, a figure painted in the
        other player's colour); two contradicting readings are a real swap. Only one
        base is ever set aside, so every other reading keeps settling who moved."""
        strict = self._reconcile(state, obs, lingering, awaited)
        if strict.explained:
            return strict
        outcomes: dict[object, tuple[Reconciliation, str, ObservedBase]] = {}
        for f in self.fit(state, obs, lingering, awaited):
            if f.ok:
                continue
            for i, b in enumerate(f.bases):
                doubted = _set_aside(b)
                if doubted is None:
                    continue
                bases = (*f.bases[:i], doubted, *f.bases[i + 1:])
                trial = Observation(obs.time, obs.frame, {**obs.regions, f.cell: bases},
                                    obs.occluded)
                r = self._reconcile(state, trial, lingering, awaited)
                if r.explained:
                    key = "fits" if r.fits else frozenset(
                        (tuple(e.state.zone), tuple(e.state.cell)) for e in r.explanations)
                    outcomes.setdefault(key, (r, f.cell, b))
        if len(outcomes) != 1:
            return strict
        r, cell, b = next(iter(outcomes.values()))
        what = (f"sticker {b.sticker}" if b.tag == "read" and b.sticker is not None
                else f"a ring in {b.owner}'s colour")
        r.misread = (f"the camera read {what} in {cell}, which the rules rule out: "
                     "taken as a misread",)
        return r

    def _reconcile(self, state: State, obs: Observation, lingering: Mapping[int, str],
                   awaited: Awaited) -> Reconciliation:
        fits = self.fit(state, obs, lingering, awaited)
        gone = self._gone(fits, lingering)
        if all(f.ok for f in fits):
            return Reconciliation(True, gone=gone)
        found: dict[tuple, Explanation] = {}
        budget = [MAX_NODES]

        def search(s: State, path: tuple[A.Action, ...], fs: list[CellFit]) -> None:
            if budget[0] <= 0 or len(path) >= MAX_STEPS:
                return
            for a in self._physical(s, fs):
                budget[0] -= 1
                try:
                    new, _ = apply(s, a)
                except RulesError:  # pragma: no cover - legal_actions said it was legal
                    continue
                nfs = self.fit(new, obs, lingering, awaited)
                if all(f.ok for f in nfs):
                    key = (tuple(new.zone), tuple(new.cell))
                    if key not in found or len(path) + 1 < len(found[key].actions):
                        found[key] = Explanation((*path, a), new)
                elif _mismatch(nfs) <= _mismatch(fs):
                    # A step may leave the count unchanged (one creature steps into the
                    # cell another left), never worse: that prunes the wrong branches.
                    search(new, (*path, a), nfs)

        search(state, (), fits)
        return Reconciliation(False, list(found.values()), gone)

    @staticmethod
    def _gone(fits: Iterable[CellFit], lingering: Mapping[int, str]) -> tuple[int, ...]:
        present = {g for f in fits for g in f.pairs.values()}
        return tuple(g for g in lingering if g not in present)

    # -- telling people what is wrong ---------------------------------------------------------
    def diagnose(self, state: State, obs: Observation, lingering: Mapping[int, str],
                 awaited: Awaited = NONE_AWAITED) -> list[str]:
        """What to put back where, in plain words, one line per problem; a likely move
        that the rules refuse is named with the rules' reason."""
        fits = self.fit(state, obs, lingering, awaited)
        game = state.game
        lines: list[str] = []
        missing = [(f.cell, g) for f in fits for g in f.missing]
        extra = [(f.cell, f.bases[i]) for f in fits for i in f.extra]
        used_extra: set[int] = set()
        for cell, g in missing:
            ref = game.ref(g)
            # A base of the same owner that appeared elsewhere: probably this miniature.
            guess = next((k for k, (c, b) in enumerate(extra) if k not in used_extra
                          and self._compatible(state, b, g)), None)
            if guess is not None:
                used_extra.add(guess)
                dest = extra[guess][0]
                why = self._refusal(state, ref, dest)
                lines.append(f"{ref} cannot go to {dest}{': ' + why if why else ''}; "
                             f"put it back on {cell}")
            else:
                lines.append(f"{ref} is missing from {cell}; put it back on {cell}")
        strays = [(cell, b) for k, (cell, b) in enumerate(extra) if k not in used_extra]
        if len(strays) > MAX_STRAY_LINES:
            # A map not cleared for a new game, a board knocked over: one line, not twenty.
            cells = " ".join(sorted({cell for cell, _ in strays}))
            lines.append(f"{len(strays)} bases on the map should not be there; take them off "
                         f"{cells}")
        else:
            lines += [f"{self._describe(b)} in {cell} should not be there; take it off {cell}"
                      for cell, b in strays]
        if len(lines) > MAX_LINES:
            lines = [*lines[:MAX_LINES - 1],
                     f"and {len(lines) - MAX_LINES + 1} more: put the map back as the game "
                     "has it (the dashboard's board)"]
        return lines

    def _describe(self, b: ObservedBase) -> str:
        if b.tag == "read" and b.sticker is not None:
            ref = self.stickers.ref_of.get(b.sticker)
            if ref:
                return ref
            return f"a base with unknown sticker {b.sticker}"
        return f"one of {b.owner}'s bases" if b.owner else "a base"

    @staticmethod
    def _refusal(state: State, ref: str, dest: str) -> str:
        player = ref.split("#")[0]
        tries: list[A.Action] = [A.Move(player, ref, dest), A.Spawn(player, ref, dest)]
        c = state.combat
        if c is not None:
            tries.insert(0, A.Place(c.attack.player, ref, dest))
        reason = ""
        for a in tries:
            try:
                apply(state, a)
                return ""
            except RulesError as e:
                reason = reason or str(e)
        return reason


def _set_aside(b: ObservedBase) -> ObservedBase | None:
    """The base with its most specific reading set aside (None: nothing to set aside)."""
    if b.tag == "read" and b.sticker is not None:
        return replace(b, sticker=None, tag="unreadable")  # the colour still says whose
    if b.owner is not None:
        return replace(b, owner=None)
    return None


def _mismatch(fits: Iterable[CellFit]) -> int:
    return sum(len(f.missing) + len(f.extra) for f in fits)
