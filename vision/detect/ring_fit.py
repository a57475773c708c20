"""Reading a sticker by its own colours.

The first decoder (``votes.py``) sorts each sample into a symbol by fixed thresholds
(``identify.py``): ink is darker than 0.38 of the paper, a colour more saturated than
0.4. A real webcam breaks those: printed black comes out 0.35-0.5 of the paper, the
dark accents lose half their saturation to blur, 4:2:0 chroma and the print, and a ring
of wedges five pixels wide is all mixtures. Yet the pattern is still there: the samples
of one symbol look alike, and unlike the others.

So this decoder fixes no colour. Each pattern at each rotation says which angles show
the same symbol; the colours of those angles are averaged (in CIE Lab, over the outer
band of the sticker, which figures hide least: ``VisionConfig.fit_band``), and the pattern
is scored by how little the samples stray from their symbol's mean (the sum of squared
errors, wedge borders, where blur mixes neighbours, counting a third). The pattern that
fits best wins, if its four mean colours look like the four symbols, judged against one
another on the same ring (how dark or pale they came out does not matter): ink darker
than the owner's colour and the green, and darker or greyer than the magenta; of any
two coloured symbols, each further toward its own printed hue than the other; the
owner's colour nearer the owner's hue than any other player's (``_symbols_apart``,
``_owners_colour``).

Never a guess: a reading needs the best pattern to fit clearly better than every other
(``fit_lead``: the second best's error exceeds the best's by that share) and to explain
most of the band's variation (``fit_explained``; a plain ring or a ring under a figure
explains little), or, on a clean ring (explained ``fit_clean_explained`` or more), a
smaller lead (``fit_clean_lead``); ``identify._refit`` also takes a lead of
``fit_agreed_lead`` where the first decoder's votes favour the same pattern, and confirms
a reading of the first decoder in colours that do not all look right where the owner's
colour does, or where the reading is the best right-looking pattern close behind a best
that looks wrong (``Identifier._confirms``: a figure's paint over a wedge or two). In
the fit's own readings the colours only veto: the best pattern whatever its colours must
be the one whose colours look right. And a reading as one player's sticker stands only
if no other player's reading fits as well (``rivals_beat``).

Fitting again with a run of wedges left out (for a figure leaning over the ring, as the
first decoder does) was built and measured on rendered figures: it read wrong ids at
leads over 1 (each pattern left out what contradicted it). What the fit does instead is
weigh each angle by how much the camera's view believes it (``view.view_weights``: less
on the side a figure leans into, the same for every pattern), and then judge the
colours both weighted and with every angle alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .. import tags

BORDER_WEIGHT = 1 / 3  # a sample at a wedge border counts this much (blur mixes there)
# Lab units by which the owner's colour (less the ink's tint) must lean toward the
# owner's hue rather than another player's (along the line between their directions,
# which is up to 2 long)
OWNER_MARGIN = 4.0


@lru_cache(maxsize=4)
def hypothesis_weights(angles: int) -> np.ndarray:
    """(patterns * angles, angles, symbols): for each pattern turned by each number of
    samples, how much each sample counts toward each symbol's mean (0 where it shows
    another symbol, ``BORDER_WEIGHT`` at a wedge's first and last sample)."""
    per = angles // tags.SECTORS
    rows = tags.templates(angles).reshape(-1, angles, tags.SYMBOLS) > 0
    w = rows.astype(np.float32)
    turn = np.arange(len(rows)) % angles
    pos = (np.arange(angles)[None, :] - turn[:, None]) % per
    border = (pos == 0) | (pos == per - 1)
    w *= np.where(border, BORDER_WEIGHT, 1.0)[:, :, None]
    return w


@lru_cache(maxsize=4)
def _by_symbol(angles: int) -> np.ndarray:
    """``hypothesis_weights`` as one matrix (hypotheses * symbols, angles), so that one product
    gives every symbol's weighted sum under every hypothesis."""
    w = hypothesis_weights(angles)
    return np.ascontiguousarray(w.transpose(0, 2, 1).reshape(-1, angles))


def lab_of(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of BGR samples of any shape (..., 3), uint8 or 0-255 floats."""
    flat = np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(np.shape(bgr))


def direction(bgr: tuple[int, int, int]) -> np.ndarray:
    """A printed colour's direction in Lab's (a, b) plane, unit length."""
    ab = lab_of(np.array(bgr, np.float32))[1:]
    return ab / (np.linalg.norm(ab) + 1e-9)


@dataclass(frozen=True)
class Fits:
    """One owner's fit of many rings (one entry per ring)."""

    pattern: np.ndarray  # the pattern that fits best, whatever its colours look like
    clear: np.ndarray  # ... and it is a reading: its colours look right, it leads enough
    lead: np.ndarray  # (second best error - best error) / best error
    explained: np.ndarray  # the share of the band's variation the best pattern explains:
    # a plain ring (or a blank) next to none, a printed pattern most
    looks: np.ndarray  # the best pattern's four colours look like the four symbols
    error: np.ndarray  # the least error of any pattern (at its best rotation) whose
    # colours look right (inf: none)
    fitting: np.ndarray  # the pattern whose colours look right (as ``looks`` judges)
    # that fits best (-1: none) ...
    behind: np.ndarray  # ... and how far its error lies behind the best pattern's, as
    # ``lead`` measures (0: it is the best; inf: none)
    owned: np.ndarray  # the best pattern's colour symbol is the owner's colour (the
    # part of ``looks`` that says whose sticker it is)


def rivals_beat(fits: list[Fits], ring: int, owner: int) -> bool:
    """Whether, on ``ring``, another player's reading fits at least as well as
    ``owner``'s: it reads clearly, or its best right-looking pattern errs less. Then the
    ring's owner is not known (a faded blue sticker under a warm cast can read as an
    orange one too)."""
    mine = fits[owner].error[ring]
    return any(f.clear[ring] or f.error[ring] < mine
               for o, f in enumerate(fits) if o != owner)


class RingFitter:
    def __init__(self, owner_dirs: list[np.ndarray], angles: int, lead: float,
                 explained: float, clean_lead: float | None = None,
                 clean_explained: float = 1.0) -> None:
        """A reading is clear at ``lead`` and ``explained``, or on a clean ring (one
        the pattern explains for ``clean_explained`` or more) at ``clean_lead``."""
        self.owner_dirs = owner_dirs
        self.angles = angles
        self.lead = lead
        self.explained = explained
        self.clean_lead = lead if clean_lead is None else clean_lead
        self.clean_explained = clean_explained
        self.accent_dirs = {s: direction(bgr) for s, bgr in tags.ACCENTS.items()}
        w = hypothesis_weights(angles)  # (H, A, S)
        self._w_all = np.ascontiguousarray(w.sum(axis=2))  # (H, A)

    def fit(self, x: np.ndarray, seen: np.ndarray | None = None) -> list[Fits]:
        """Every ring's angle means ``x`` (rings, angles, 3: Lab) fitted as each
        player's sticker in turn: one ``Fits`` per player. ``seen`` (rings, angles,
        over 0): how much each angle counts, less where a figure is expected to hide
        the ring (``view.view_weights``); every angle alike when None."""
        n_rings = len(x)
        by_symbol = _by_symbol(self.angles)
        uniform = seen is None
        seen = np.ones(x.shape[:2], np.float32) if seen is None else \
            np.asarray(seen, np.float32)
        xw = x * seen[:, :, None]
        flat = xw.transpose(1, 2, 0).reshape(self.angles, -1)  # (A, 3 * rings)
        # One product gives every ring's symbol sums under every hypothesis, another
        # each symbol's weight.
        sums = (by_symbol @ flat).reshape(-1, tags.SYMBOLS, 3, n_rings)
        sums = sums.transpose(3, 0, 1, 2)  # (rings, H, S, 3)
        n = (by_symbol @ seen.T).reshape(-1, tags.SYMBOLS, n_rings).transpose(2, 0, 1)
        q = (xw * x).sum(axis=2) @ self._w_all.T  # (rings, H)
        # Error = sum of squares - sum over symbols of |symbol sum|^2 / symbol weight.
        explained_sq = np.einsum("rhsc,rhsc->rhs", sums, sums) / n
        raw = np.maximum(q - explained_sq.sum(axis=2), 1e-6)  # (rings, H)
        mean = xw.sum(axis=1, keepdims=True) / seen.sum(axis=1)[:, None, None]
        total = (((x - mean) ** 2).sum(axis=2) * seen).sum(axis=1)
        per_pattern = raw.reshape(n_rings, len(tags.CODEWORDS), self.angles)
        best_rot = per_pattern.argmin(axis=2)  # (rings, patterns)
        row = np.take_along_axis(per_pattern, best_rot[..., None], axis=2)[..., 0]
        order = np.argsort(row, axis=1)
        idx = np.arange(n_rings)
        pattern = order[:, 0]
        first, second = row[idx, pattern], row[idx, order[:, 1]]
        lead = (second - first) / first
        explained = 1.0 - first / np.maximum(total, 1e-6)
        # Only each pattern's best rotation is judged by its colours (16 a ring, not
        # 960). A reading's colours must look right with the angles weighted as the fit
        # weighs them and alike, against the light's tint and as they are
        # (``_symbols_apart``, ``_owners_colour``). Paint where the ring is believed
        # less sets the symbols' colours when every angle counts alike (orange paint
        # over a faded blue sticker's colour wedge made it orange's), and paint
        # elsewhere when the rest counts less (blue paint over its ink made the ink
        # bluer than the faded blue, and the sticker orange's).
        best_h = np.arange(len(tags.CODEWORDS))[None, :] * self.angles + best_rot
        weighted = np.take_along_axis(sums, best_h[:, :, None, None], axis=1) / \
            np.take_along_axis(n, best_h[:, :, None], axis=1)[..., None]
        w = hypothesis_weights(self.angles)[best_h]  # (rings, patterns, A, S)
        alike = np.einsum("rpas,rac->rpsc", w, x) / w.sum(axis=2)[..., None]
        tint = self._light_tint(x, best_rot)  # (rings, patterns, 2)
        out = []
        for owner in range(len(self.owner_dirs)):
            # Whose sticker the colours could be (the rivals' test, ``rivals_beat``):
            # every angle alike, the ink's mean tint the light's.
            could = self._symbols_apart(alike, owner) & self._owners_colour(
                alike, alike[..., tags.INK, 1:], owner)
            # The owner's colour alone (``Fits.owned``), then all four symbols.
            owned = self._owners_colour(alike, tint, owner, as_they_are=True)
            if not uniform:
                owned &= self._owners_colour(weighted, tint, owner, as_they_are=True)
            valid = could & owned
            if not uniform:
                valid &= self._symbols_apart(weighted, owner)
            looks = valid[idx, pattern]
            clear = looks & (((lead >= self.lead) & (explained >= self.explained))
                             | ((lead >= self.clean_lead)
                                & (explained >= self.clean_explained)))
            error = np.where(could, row, np.inf).min(axis=1)
            ranked = np.where(valid, row, np.inf)
            least = ranked.min(axis=1)
            fitting = np.where(np.isfinite(least), ranked.argmin(axis=1), -1)
            behind = (least - first) / first
            out.append(Fits(pattern, clear, lead, explained, looks, error, fitting, behind,
                            owned[idx, pattern]))
        return out

    def _light_tint(self, x: np.ndarray, turn: np.ndarray) -> np.ndarray:
        """The light's tint on each ring read as each pattern (turned by ``turn``:
        rings, patterns), from its ink: (rings, patterns, 2), Lab's (a, b). Ink prints
        neutral, so its tint is the light's, but paint over an ink wedge tints it too
        (blue paint over a faded blue sticker's ink made the blue look orange against
        it): each ink wedge's tint is the median of the samples inside its borders, and
        the least coloured of the pattern's ink wedges (every pattern has two or more)
        is the light's."""
        per = self.angles // tags.SECTORS
        at = (turn[..., None] + np.arange(self.angles)) % self.angles  # (rings, P, A)
        xs = x[np.arange(len(x))[:, None, None], at, 1:]  # (rings, P, A, 2)
        xs = xs.reshape(*turn.shape, tags.SECTORS, per, 2)[..., 1:per - 1, :]
        wedge = np.median(xs, axis=-2)  # (rings, P, wedges, 2)
        is_ink = np.array(tags.CODEWORDS) == tags.INK  # (P, wedges)
        chroma = np.where(is_ink, np.linalg.norm(wedge, axis=-1), np.inf)
        least = chroma.argmin(axis=-1)
        return np.take_along_axis(wedge, least[..., None, None], axis=-2)[..., 0, :]

    def _owners_colour(self, means: np.ndarray, tint: np.ndarray, owner: int,
                       as_they_are: bool = False) -> np.ndarray:
        """Whether each explanation's colour symbol (means: ..., S, 3) lies nearer the
        owner's hue than any other player's, by a margin, seen from the light's tint
        (``tint``, from the ink: a faded blue under a warm light comes out a warm grey,
        and read as an orange sticker when judged on its own). ``as_they_are``: and,
        without the tint taken out, leans no less toward the owner's hue than toward
        another's (a tint strong enough to turn that is paint)."""
        ab = means[..., 1:]
        own = ab[..., tags.COLOUR, :] - tint
        ok = np.ones(means.shape[:-2], bool)
        for other, d in enumerate(self.owner_dirs):
            if other != owner:
                ok &= (own @ (self.owner_dirs[owner] - d)) > OWNER_MARGIN
                if as_they_are:
                    ok &= (ab[..., tags.COLOUR, :] @ (self.owner_dirs[owner] - d)) > 0
        return ok

    def _symbols_apart(self, means: np.ndarray, owner: int) -> np.ndarray:
        """Whether each explanation's symbol means (..., S, 3) look like the symbols,
        compared only with one another on the same ring (blur, chroma subsampling, the
        print and the light move all four together). Ink is darker than the owner's
        colour and the green, and darker or greyer than the magenta (a dark print).
        Of any two coloured symbols, each lies further toward its own printed hue than
        the other does (blue and magenta are 40 degrees apart: the pair's own
        direction tells them apart where "most blue" would not)."""
        lum = means[..., 0]
        ab = means[..., 1:]
        ink, col = tags.INK, tags.COLOUR
        acc, acc2 = tags.ACCENT, tags.ACCENT2
        ok = (lum[..., ink] < lum[..., col]) & (lum[..., ink] < lum[..., acc])
        chroma = np.linalg.norm(ab, axis=-1)
        ok &= (lum[..., ink] < lum[..., acc2]) | (chroma[..., ink] < chroma[..., acc2])
        dirs = {col: self.owner_dirs[owner], **self.accent_dirs}
        keys = sorted(dirs)
        for a_i, a in enumerate(keys):
            for b in keys[a_i + 1:]:
                ok &= ((ab[..., a, :] - ab[..., b, :]) @ (dirs[a] - dirs[b])) > 0
        return ok
