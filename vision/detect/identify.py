"""Stage 4: whose base, and which miniature.

The tag's annulus is sampled in the *original* frame (through the homography), not in
the coarse working image, so every available camera pixel is used. Samples are sorted
into ink (dark), a player's colour (hue near p1's or p2's), one of the tags' accent
colours, or other (the figure, glare, the white centre). Two decoders read the ring:
the colour votes of those classes (``votes.py``) and a fit of the ring's own colours
(``ring_fit.py``). A reading stands where they agree (``Identifier._confirms``); where
only one reads, it must be clear on its own; an owner on colour alone must show that
colour where a sticker would and a figure's paint would not.
"""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

from .. import tags
from ..config import VisionConfig
from ..layout import Layout
from .pose import camera_over_board
from .print_pass import PrintPass
from .ring_bands import (
    ANGLES,
    CENTRE_ANGLES,
    CENTRE_RADII,
    CODED_BAND,
    OWNER_BAND,
    RADII,
    colour_angles,
    colour_arc,
    colour_in_view,
    edges,
    radii_within,
)
from .ring_fit import Fits, RingFitter, direction, lab_of, rivals_beat
from .sampling import marker_points, pixel_radii, ring_grid, ring_samples, seen_at
from .view import on_top, view_weights
from .votes import Identity, VoteDecoder


class Identifier:
    def __init__(self, layout: Layout, config: VisionConfig) -> None:
        self.cfg = config
        self.players = list(layout.players)
        hues = []
        for p in self.players:
            b, g, r = layout.player_bgr(p)
            hsv = cv2.cvtColor(np.uint8([[[b, g, r]]]), cv2.COLOR_BGR2HSV)[0, 0]
            hues.append(float(hsv[0]) * 2.0)
        # Sample classes: 0 ink, 1..n the players' colours, then the accents in symbol
        # order (``symbol_class``: a tag symbol's class; the owner's colour depends on
        # the ring). ``hue_class``: OpenCV's hue (0-179, two degrees a step) -> the
        # class of the nearest colour within tolerance, else 0: one table lookup per
        # sample instead of a distance to every colour.
        self.symbol_class = {tags.INK: 0}
        for symbol, bgr in tags.ACCENTS.items():
            self.symbol_class[symbol] = len(hues) + 1
            hues.append(float(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0, 0]) * 2)
        steps = np.arange(180, dtype=np.float64)[:, None] * 2.0
        diff = np.abs((steps - np.array(hues) + 180.0) % 360.0 - 180.0)
        self.hue_class = np.where(diff.min(axis=1) <= config.hue_tolerance_deg,
                                  diff.argmin(axis=1) + 1, 0).astype(np.int8)
        self.fitter = RingFitter([direction(layout.player_bgr(p)) for p in self.players],
                                 ANGLES, config.fit_lead, config.fit_explained,
                                 config.fit_clean_lead, config.fit_clean_explained)
        self.votes = VoteDecoder(config, self.players, self.symbol_class)
        # How the stickers print in this camera's frames, from the rings read surely
        # (``print_pass.py``): kept for the Identifier's life, one camera's frames.
        self.print_pass = PrintPass(self.players, config, ANGLES)
        self.white_mm = marker_points(layout)
        self.unit = ring_grid(RADII, ANGLES)
        self.centre_unit = ring_grid(CENTRE_RADII, CENTRE_ANGLES)

    def classify(self, samples: np.ndarray, paper: float | np.ndarray) -> np.ndarray:
        """0: ink, 1..n: player colour, then the accents (``symbol_class``), -1: other.
        ``paper``: brightness of the paper around the sample (a number, or one per row
        of ``samples``)."""
        return self._classes(*self._measure(samples, paper))

    def _measure(self, samples: np.ndarray,
                 paper: float | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Value relative to the paper, saturation (0-1) and OpenCV's hue (0-179) per
        sample."""
        # One HSV conversion gives all three (numpy reductions over a 3-wide axis are slow).
        hsv = cv2.cvtColor(samples, cv2.COLOR_BGR2HSV)
        paper = np.maximum(np.asarray(paper, np.float32), 1.0)
        value = hsv[..., 2].astype(np.float32) / (paper[:, None] if paper.ndim else paper)
        return value, hsv[..., 1].astype(np.float32) * (1 / 255), hsv[..., 0]

    def _classes(self, value: np.ndarray, sat: np.ndarray, hue: np.ndarray,
                 glare: np.ndarray | None = None) -> np.ndarray:
        """Sample classes; ``glare``: per ring (the first axis), whether its paper is
        clipped: there glare adds light, so ink prints grey and colours pale, and the
        thresholds for both are the glare ones."""
        cfg = self.cfg
        black, colour = cfg.black_value, cfg.color_saturation
        if glare is not None and glare.any():
            shape = (-1,) + (1,) * (value.ndim - 1)
            black = np.where(glare, cfg.glare_black_value, black).reshape(shape)
            colour = np.where(glare, cfg.glare_color_saturation, colour).reshape(shape)
        out = np.full(value.shape, -1, np.int8)
        # Ink is dark *and* neutral: dark painted figures are usually tinted.
        out[(value < black) & (sat < cfg.ink_saturation)] = 0
        colored = (sat > colour) & (value >= cfg.black_value * 0.8)
        kind = self.hue_class[hue]
        sel = colored & (kind > 0)
        # A player's colour is printed bright; dark paint of its hue is a figure's.
        sel &= (kind > len(self.players)) | (value >= cfg.player_min_value)
        out[sel] = kind[sel]
        return out

    def identify_many(self, frame: np.ndarray, homography: np.ndarray,
                      discs: list[tuple[float, float, float, float]],
                      marker_maps: dict[float, np.ndarray] | None = None,
                      elsewhere: Collection[int] = ()) -> list[Identity]:
        """Every base at once: (x mm, y mm, radius mm, paper brightness) each. One
        projection and one remap for all of them keeps this stage cheap.
        ``marker_maps``: the homographies of markers off the board (``MapFix``);
        ``elsewhere``: the stickers read surely on the frame's other bases (a stream
        reads again only the bases where the picture changed)."""
        if not discs:
            return []
        n = len(discs)
        h, w = frame.shape[:2]
        camera = camera_over_board(homography, (w, h), self.cfg.camera_hfov_deg)
        arr = on_top(np.array(discs, np.float64), camera, self.cfg.base_height_mm)
        samples = ring_samples(frame, homography, arr, self.unit)
        centre = ring_samples(frame, homography, arr, self.centre_unit)
        samples, centre = self._balanced(frame, homography, (samples, centre),
                                         marker_maps or {})
        papers = np.repeat(arr[:, 3], len(RADII))
        shape = (n, len(RADII), ANGLES)
        value, sat, hue = (m.reshape(shape) for m in self._measure(samples, papers))
        glare = arr[:, 3] >= self.cfg.clipped_paper
        dense = self._classes(value, sat, hue, glare)
        seen = None
        if self.cfg.figure_view_mm > 0:
            seen = view_weights(arr, camera, self.cfg.figure_view_mm,
                                self.cfg.figure_view_spread_deg, ANGLES)
        first = self.votes.decide_many(dense, glare, tuple(self.cfg.hidden_wedges), seen)
        if not self.cfg.ring_fit:
            return first
        centre_shape = (n, len(CENTRE_RADII) * CENTRE_ANGLES)
        centre_classes = self._classes(*(m.reshape(centre_shape) for m in self._measure(
            centre, np.repeat(arr[:, 3], len(CENTRE_RADII)))), glare)
        return self._refit(samples.reshape(n, len(RADII), ANGLES, 3), dense, first, seen,
                           pixel_radii(homography, arr), centre_classes, elsewhere)

    def _balanced(self, frame: np.ndarray, homography: np.ndarray,
                  samples: tuple[np.ndarray, ...],
                  marker_maps: dict[float, np.ndarray]) -> tuple[np.ndarray, ...]:
        """``samples`` white-balanced by the markers' white (their white cells and the
        white margin round them are printed white on any board): a camera's white
        balance misses on a board of one strong colour (an orange wooden board turned
        orange stickers green), and the players' colours are told by hue."""
        if not self.white_mm:
            return samples
        seen = seen_at(frame, homography, self.white_mm, marker_maps)
        if len(seen) < 20:
            return samples
        # The brighter half: a hand or a shadow over some markers must not set it.
        lum = seen.sum(axis=1)
        white = np.median(seen[lum >= np.median(lum)], axis=0)
        if white.min() < 30:
            return samples
        gains = np.clip(white.mean() / white, 0.6, 1.7)
        if np.abs(gains - 1).max() < 0.03:
            return samples
        return tuple(np.clip(s * gains.astype(np.float32), 0, 255).astype(np.uint8)
                     for s in samples)

    def fit_band(self, edge: np.ndarray, pixels: np.ndarray | None = None) -> np.ndarray:
        """(rings, radii): the radii the ring fit averages each ring over, as shares of
        the sticker's edge (``edges``): ``cfg.fit_band`` where the sticker's radius in pixels
        (``pixels``; unknown: this band) is at most the first of ``cfg.fit_band_fine_px``,
        ``cfg.fit_band_fine`` from the second on, and in proportion between them."""
        lo, hi = (np.full((len(edge), 1), v, np.float32) for v in self.cfg.fit_band)
        if pixels is not None:
            small, large = self.cfg.fit_band_fine_px
            share = np.clip((np.asarray(pixels, np.float32) - small) / (large - small),
                            0, 1)[:, None]
            fine_lo, fine_hi = self.cfg.fit_band_fine
            lo, hi = lo + share * (fine_lo - lo), hi + share * (fine_hi - hi)
        return radii_within(lo, hi, edge)

    def _refit(self, samples: np.ndarray, dense: np.ndarray, first: list[Identity],
               seen: np.ndarray | None = None, pixels: np.ndarray | None = None,
               centre: np.ndarray | None = None,
               elsewhere: Collection[int] = ()) -> list[Identity]:
        """Every ring with an owner read again by its own colours (``ring_fit.py``), as
        each player's sticker. The owner the colour votes gave must fit best (paint in
        a player's hue on the other player's base once took it at full confidence);
        a ring the thresholds could not read is read when the fit is clear; a reading
        the fit contradicts is dropped (two decoders that disagree: not guessed); a
        "plain" ring whose band shows a printed pattern is unreadable, not plain."""
        edge = edges(dense)
        band = self.fit_band(edge, pixels)
        lab = lab_of(samples)
        x = (lab * band[:, :, None, None]).sum(axis=1) / np.maximum(
            band.sum(axis=1), 1)[:, None, None]
        fits = self.fitter.fit(x, seen)
        # Whose sticker the ring could be is also asked of the fit with every angle
        # alike: believing the arc under a figure less must not let that figure's paint
        # elsewhere on the ring make it look like nobody else's (an orange figure over
        # a blue sticker whose blue came out purple).
        alike = fits if seen is None else self.fitter.fit(x)
        small = None if pixels is None else np.asarray(pixels) < self.cfg.fit_contested_px
        outer_band = radii_within(*OWNER_BAND, edge)
        out = []
        for k, ident in enumerate(first):
            if ident.owner is None:
                out.append(self._fit_alone(fits, alike, k, dense[k]) or ident)
                continue
            q = self.players.index(ident.owner)
            mine = fits[q]
            first_id = tags.player_ids(q).start
            pattern = int(mine.pattern[k])
            # Two decoders: a reading stands only if the fit confirms it (``_confirms``).
            # This costs readings the thresholds made with wedges left out under a
            # figure, which the whole ring's fit cannot confirm; sparing those brought
            # wrong ids back on rendered figures (precision 0.964 at MJPEG 90), so they
            # are not spared.
            confirmed = ident.tag == "read" and self._confirms(mine, k, ident.sticker - first_id)
            # The owner: no other player's reading may fit better, and an owner on
            # little colour evidence (a few samples of a washed-out ring) with no id
            # that both decoders read is a guess: none.
            if rivals_beat(fits, k, q) or rivals_beat(alike, k, q) or (
                    ident.owner_confidence < self.cfg.min_owner_evidence
                    and not (mine.clear[k] or confirmed)):
                out.append(self._fit_alone(fits, alike, k, dense[k])
                           or Identity(None, 0.0, None, "unreadable", 0.0))
                continue
            unread = Identity(ident.owner, ident.owner_confidence, None, "unreadable", 0.0)
            by_fit = Identity(ident.owner, ident.owner_confidence, first_id + pattern, "read",
                              self._fit_confidence(mine, k))
            if ident.tag == "read":
                # Two decoders that disagree: unread, unless the fit is sure enough to
                # overrule the thresholds (``fit_overrule_lead``): a washed-out sticker
                # gives them a few wedges, enough to name another pattern.
                overruled = (bool(mine.clear[k]) and mine.lead[k] >= self.cfg.fit_overrule_lead
                             and mine.explained[k] >= self.cfg.fit_unlike_explained)
                out.append(ident if confirmed else by_fit if overruled else unread)
            elif ident.tag == "none":
                # The thresholds saw no ink and no accent anywhere: a plain ring, or a
                # sticker whose print they missed. The fit reads it alone, so it must
                # lead as a fit alone must (``fit_alone_lead``): clean plain rings it
                # called sticker 6 led 0.25-0.27, stickers the thresholds missed 0.3-4.9
                # (held-out renders, most over 1). Structure short of that: unread.
                if mine.clear[k] and mine.lead[k] >= self.cfg.fit_alone_lead:
                    out.append(by_fit)
                else:
                    out.append(unread if mine.clear[k] or (
                        mine.looks[k] and mine.explained[k] >= self.cfg.fit_plain_structure)
                        else ident)
            elif (mine.clear[k] and not (
                    small is not None and small[k] and mine.lead[k] < self.cfg.fit_lead
                    and ident.votes_pattern not in (None, pattern))) or (
                    ident.votes_pattern == pattern and bool(mine.looks[k])
                    and mine.lead[k] >= self.cfg.fit_agreed_lead):
                # Read by the fit when clear; or when it leads less but the colour votes
                # favour the same pattern (the two decoders agree, neither sure alone).
                # On a small sticker (``fit_contested_px``: a wedge two chroma pixels
                # wide in 4:2:0 MJPEG), a clean ring's smaller lead (``fit_clean_lead``)
                # does not do where the votes favour another pattern: a glare-washed
                # sticker 7 px in radius was read wrong so, at a lead of 0.36 (720p
                # held-out renders; one right reading there is left unread too, 0.37).
                # On larger stickers the same rule cost right readings in streams and
                # removed no wrong one.
                out.append(by_fit)
            else:
                out.append(ident)
            # No id read: the owner rests on colour alone. A sticker's colour wedges
            # spread round the ring; paint on a figure in one player's colour lies on
            # one side of it. An owner colour seen only over a short arc is not
            # believed (on rendered figures: wrong owners 29 -> 9, a fifth of the
            # right ones lost with them).
            # A pale owner's colour (under a glare spot the colour threshold is low,
            # and a beige figure's shading passed it) with the other player's colour
            # on the same ring is no evidence either way.
            last = out[-1]
            if last.owner is not None and last.tag != "read" and (
                    colour_arc(dense[k], outer_band[k], q + 1) < self.cfg.owner_min_arc
                    or not colour_in_view(dense[k], outer_band[k], q + 1,
                                           None if seen is None else seen[k],
                                           self.cfg.owner_in_view)
                    or self._pale_and_contested(samples[k], dense[k], outer_band[k], q)
                    or (centre is not None and self._figure_wears(
                        centre[k], dense[k], outer_band[k], q))):
                out[-1] = Identity(None, 0.0, None, "unreadable", 0.0)
        if centre is not None:
            self._drop_painted(out, lab, dense, centre, edge, outer_band)
        if self.cfg.print_lead > 0:
            self.print_pass.run(out, x, seen, pixels, centre, elsewhere)
        return out

    def _drop_painted(self, out: list[Identity], lab: np.ndarray, dense: np.ndarray,
                      centre: np.ndarray, edge: np.ndarray, band: np.ndarray) -> None:
        """Readings whose owner's colour is a figure's paint, made unread with no owner
        (in place). A figure wearing the owner's colour (its middle, printed white,
        shows it: ``owner_figure_share``) may stand over another player's sticker and
        cover just its colour wedges: both decoders then read the other player's
        sticker of the same pattern (ink and accents print alike for both). Two things
        tell paint from print. A printed colour wedge in view fills most of the owner's
        band with its colour; paint over it fills it in part, the rest blurred toward
        the colour beneath (``paint_fill``). And the print looks alike on every sticker
        of one owner in a frame, while paint does not: copper, bronze or skin, and paint
        in the figure's shadow, come out duller (``paint_duller``: chroma against the
        median of this frame's readings of that owner, each over ``paint_samples``
        samples). With fewer than ``paint_reference_rings`` readings to compare with,
        or too few samples of the colour on the ring itself, the fill decides alone.

        Measured on held-out renders with figures (1080p seeds 2-3, 720p seed 3, and
        seed 3's copper figure streamed at MJPEG 75 and 90), it drops that copper
        figure over a blue sticker in the 17 of 40 frames that read it wrong (chroma
        0.48-0.68 of the print's; one frame on the fill alone, 7 samples), and three
        right readings of one base in the stream at 90, its colour in 4-5 samples. No
        right reading in a single frame: under figures wearing their owner's colour,
        with the colour wedges part filled, none was duller than 0.77 of the print."""
        cfg = self.cfg
        coded = radii_within(*CODED_BAND, edge)
        symbols = [self.symbol_class[s] for s in (tags.INK, tags.ACCENT, tags.ACCENT2)]
        printed: dict[int, list[np.ndarray]] = {}
        suspects = []
        for k, ident in enumerate(out):
            if ident.tag != "read" or ident.owner is None or ident.sticker is None:
                continue
            q = self.players.index(ident.owner)
            rows = dense[k][coded[k]]
            votes = np.stack([(rows == c).sum(axis=0) for c in (q + 1, *symbols)], axis=1)
            at = colour_angles(votes, ident.sticker - tags.player_ids(q).start)
            own = dense[k][band[k]][:, at] == q + 1
            colour = np.median(lab[k][band[k]][:, at][own], axis=0) \
                if own.sum() >= cfg.paint_samples else None
            if colour is not None:
                printed.setdefault(q, []).append(colour)
            if (centre[k] == q + 1).mean() >= cfg.owner_figure_share and \
                    own.mean() < cfg.paint_fill:
                suspects.append((k, q, colour))
        for k, q, colour in suspects:
            ref = printed.get(q, [])
            if len(ref) >= cfg.paint_reference_rings and colour is not None:
                _, ref_a, ref_b = np.median(np.array(ref), axis=0)
                if np.hypot(colour[1], colour[2]) > cfg.paint_duller * np.hypot(ref_a, ref_b):
                    continue  # as vivid as this frame's print: the sticker's own colour
            out[k] = Identity(None, 0.0, None, "unreadable", 0.0)

    def _confirms(self, fit: Fits, k: int, pattern: int) -> bool:
        """Whether the fit of ring ``k`` (as the reading's owner's sticker) confirms the
        thresholds' reading ``pattern``. The fit must find that pattern best, in colours
        that look like the four symbols' (a figure's paint can pass for a pattern); or
        best by ``fit_unlike_lead`` where they do not; or best by ``fit_agreed_lead``
        where only its colour symbol looks right, the owner's (paint over a wedge or
        two spoils the others' means); or, where the pattern it finds best has colours
        unlike the symbols, it must find ``pattern`` the best of those that look right,
        close behind. Each way was measured on renders (``VisionConfig``)."""
        cfg = self.cfg
        if int(fit.pattern[k]) == pattern:
            return bool(fit.looks[k]) or (
                fit.lead[k] >= cfg.fit_unlike_lead
                and fit.explained[k] >= cfg.fit_unlike_explained) or (
                bool(fit.owned[k]) and fit.lead[k] >= cfg.fit_agreed_lead
                and fit.explained[k] >= cfg.fit_confirm_explained)
        return (not fit.looks[k] and int(fit.fitting[k]) == pattern
                and fit.behind[k] <= cfg.fit_looking_behind
                and fit.explained[k] >= cfg.fit_confirm_explained)

    def _figure_wears(self, centre: np.ndarray, dense: np.ndarray, band: np.ndarray,
                      q: int) -> bool:
        """Whether player ``q``'s colour round one unread ring may be its figure's paint
        with another player's sticker under it: the sticker's middle, printed white,
        shows that colour (``owner_figure_share`` of its samples: a figure wearing it),
        and another player's colour shows in the ring's outer ``band`` (a sample in
        some wedge: the sticker peeking out). A blue figure over an orange sticker made
        it blue's; figures in their owner's colour over their owner's sticker seldom
        show the other colour (held-out renders at 1080p: on the set it was made on, 2
        right owners of 83 unread rings lost with the 2 wrong ones; on a fresh set, 4
        lost with 3 wrong ones)."""
        if (centre == q + 1).mean() < self.cfg.owner_figure_share:
            return False
        ring = dense[band]
        return any(bool((ring == other + 1).any())
                   for other in range(len(self.players)) if other != q)

    def _fit_alone(self, fits: list[Fits], alike: list[Fits], k: int,
                   dense: np.ndarray) -> Identity | None:
        """Ring ``k`` (its sample classes ``dense``) read by the fit alone, when the
        colour votes named no owner (a washed-out sticker, or a figure's paint splitting
        them): the one player whose reading is clear and leads by ``fit_alone_lead``
        (one decoder alone is asked for more than two that agree), with no other
        player's as good by either fit; and not where the thresholds' hue finds
        another player's colour on the ring and none of this one's
        (``fit_alone_owner_samples``: the fit only asks which player's colour a ring's
        is nearer, and a violet figure is nearer blue than orange; a sticker too faded
        for any sample to pass for a colour is read); else None."""
        mine = [q for q in range(len(self.players)) if fits[q].clear[k]
                and fits[q].lead[k] >= self.cfg.fit_alone_lead
                and not rivals_beat(fits, k, q) and not rivals_beat(alike, k, q)]
        if len(mine) != 1:
            return None
        q = mine[0]
        least = self.cfg.fit_alone_owner_samples
        if int((dense == q + 1).sum()) < least and any(
                int((dense == other + 1).sum()) >= least
                for other in range(len(self.players)) if other != q):
            return None
        conf = self._fit_confidence(fits[q], k)
        return Identity(self.players[q], conf,
                        tags.player_ids(q).start + int(fits[q].pattern[k]), "read", conf)

    def _fit_confidence(self, fit: Fits, k: int) -> float:
        """How sure the fit's reading of ring ``k`` is: its lead over twice the lead
        needed, at most 1, times the share of the band it explains."""
        return round(min(1.0, float(fit.lead[k]) / (2 * self.cfg.fit_lead))
                     * float(fit.explained[k]), 3)

    def _pale_and_contested(self, samples: np.ndarray, dense: np.ndarray, band: np.ndarray,
                            owner: int) -> bool:
        """Whether the owner's colour samples in ``band`` (a mask over the radii) are
        pale (``pale_owner_saturation``) while another player's colour shows there."""
        seen = dense[band]
        players = (seen >= 1) & (seen <= len(self.players))
        mine = seen == owner + 1
        if not (players & ~mine).any() or not mine.any():
            return False
        hsv = cv2.cvtColor(np.ascontiguousarray(samples[band]), cv2.COLOR_BGR2HSV)
        return float(np.median(hsv[..., 1][mine])) < self.cfg.pale_owner_saturation * 255
