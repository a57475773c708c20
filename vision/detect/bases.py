"""Stage 3: bases are discs of a known size in the foreground.

The distance transform of the foreground peaks at a disc's centre with the disc's
radius, and two touching discs keep two separate peaks, so crowded cells split cleanly
(found at half resolution, then measured on the full mask).
Peaks far wider than any base belong to hands and arms (the occlusion stage's job).
A base whose mask a light figure opened into a "C" against a touching base has no peak
of a base's size: its outline still traces most of its circle (``_traced``).
A peak beside a base that overlaps it further than a base can is that base's figure
(``figure_parts``, once the stickers are read).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout
from ..shrink import halve
from .circles import fitted, through_three

# A base's outline reads wider than the base (its dark rim, its shadow): the largest
# disc one base can cover has this much of the largest base's radius.
RIM_SPREAD = 1.2


def disc_radius(layout: Layout, px_per_mm: float) -> float:
    """The radius of the largest disc one base's outline can cover, in working pixels
    (a blob larger is more than one base; a change reaches this far from a base's
    centre)."""
    return layout.base_diameters[1] / 2 * RIM_SPREAD * px_per_mm


@dataclass
class BaseCandidate:
    x: float  # working px
    y: float
    radius: float  # working px
    peak: float  # distance-transform value at the centre
    # Its outline is a circle: most opposite rays agree on the centre, or most rays end
    # on one circle (a pile of disks read as one is elongated, and its rays disagree).
    round: bool = True
    # One of a blob of touching pieces taken apart into discs (``clusters.py``).
    grouped: bool = False
    # Found by its sticker's white centre, seen whole (``piles.within``): nothing lies
    # on its centre.
    centre_seen: bool = False


class BaseFinder:
    def __init__(self, layout: Layout, config: VisionConfig) -> None:
        self.cfg = config
        s = config.px_per_mm
        self.r_min = layout.base_diameters[0] / 2 * s
        self.r_max = layout.base_diameters[1] / 2 * s
        self.disc_area = float(np.pi * disc_radius(layout, s) ** 2)
        # Where pieces pile, a disc whose rays disagree may be a pile (the lower disk
        # peeking out on one side): ``piles.split`` takes it apart, not a circle fit.
        self.centre_on_circle = not layout.piles

    def find(self, mask: np.ndarray) -> list[BaseCandidate]:
        """Bases in a foreground mask (of the work area, or of a box of it: then in that
        box's pixels)."""
        # Peaks are looked for at half resolution (a quarter of the pixels; a base is
        # still 12+ pixels across there): the distance transform of the halved mask,
        # in full-resolution pixels. ``_fit_discs`` then measures each disc on the
        # full mask.
        dt = cv2.distanceTransform(halve(mask), cv2.DIST_L2, 3) * 2.0
        k = max(3, int(self.r_min * 0.45) | 1)
        # A local maximum equals the dilation there (dilation copies the largest value).
        local_max = cv2.compare(dt, cv2.dilate(dt, np.ones((k, k), np.uint8)), cv2.CMP_GE)
        # Base-sized peaks only: wider ones are palms and arms (the occlusion stage's).
        sized = cv2.inRange(dt, self.cfg.min_radius_fraction * self.r_min,
                            self.cfg.max_radius_fraction * self.r_max)
        # Peak pixels are few (a handful per base): grouping them is far cheaper than
        # labelling the whole image.
        where = cv2.findNonZero(cv2.bitwise_and(local_max, sized))
        if where is None:
            return []
        xy = where.reshape(-1, 2)
        values = dt[xy[:, 1], xy[:, 0]]
        xy = xy * 2  # half-resolution pixel (i, j) is pixel (2i, 2j)
        order = np.argsort(-values, kind="stable")
        xy, values = xy[order].astype(np.float32), values[order]
        peaks_xy, peaks_v = xy, values
        # A hand's fingers leave ridges of equal peaks: keep the strongest in each
        # square of 0.6 small-base radii (any two in one square are too close to be two
        # bases), so the suppression below compares tens of peaks, not thousands.
        g = self.r_min * 0.6
        cell = (xy[:, 1] // g).astype(np.int64) * 100_000 + (xy[:, 0] // g).astype(np.int64)
        _, first = np.unique(cell, return_index=True)
        first.sort()
        xy, values = xy[first], values[first]
        # Non-maximum suppression, strongest first: two peaks closer than a small base
        # are one base.
        near = ((xy[:, None, :] - xy[None, :, :]) ** 2).sum(axis=2) <= (self.r_min * 1.2) ** 2
        alive = np.ones(len(xy), bool)
        chosen = []
        for i in range(len(xy)):
            if alive[i]:
                chosen.append(i)
                alive &= ~near[i]
        # The top of a disc's distance transform is a small plateau of nearly equal
        # values (within half a pixel at half resolution): its centre, not its first
        # pixel, is the disc's centre.
        top = ((((peaks_xy[None] - xy[chosen][:, None]) ** 2).sum(axis=2) <= g * g)
               & (peaks_v[None] >= values[chosen][:, None] - 1.0))
        centres = (top[..., None] * peaks_xy[None]).sum(axis=1) / top.sum(axis=1)[:, None]
        kept = [BaseCandidate(float(cx), float(cy), 0.0, float(values[i]))
                for (cx, cy), i in zip(centres, chosen, strict=True)]
        if kept:
            self._fit_discs(mask, kept)
        return kept + self._traced(mask, kept)

    def _traced(self, mask: np.ndarray, kept: list[BaseCandidate]) -> list[BaseCandidate]:
        """Bases found by their outlines where the distance transform found none.

        A figure painted lighter than the paper (white, bone, pale flesh) does not pass
        the foreground tests: its base's mask is a ring with the figure's part cut out.
        Alone, such a "C" is closed to its hull (``foreground.fill_holes``); touching
        another base it is part of a larger blob, which is only filled inside, and its
        distance-transform peak is narrower than a base's: the base was lost (the only
        bases lost on the rendered frames with figures, 2026-11-25). Its outer edge
        still follows the base's circle, so circles of a base's size are looked for
        along the outlines of blobs larger than a base (the gradient Hough transform),
        and one is a base if the outline traces ``traced_arc_deg`` of it, away from
        every base found already. A figure's head or shading traces no such arc, and
        ``figure_parts`` still judges what overlaps a base."""
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        # Blobs that ``fill_holes`` did not close to their hulls: larger than one base
        # with its rim can be (the same bound).
        blobs = [c for c in contours
                 if len(c) >= 3 and cv2.contourArea(cv2.convexHull(c)) > self.disc_area]
        if not blobs:
            return []
        h, w = mask.shape
        pad = int(np.ceil(self.r_max))
        tolerance = self.cfg.traced_tolerance_mm * self.cfg.px_per_mm
        found: list[BaseCandidate] = []
        for outline in blobs:
            bx, by, bw, bh = cv2.boundingRect(outline)
            x0, y0 = max(0, bx - pad), max(0, by - pad)
            blob = np.zeros((min(h, by + bh + pad) - y0, min(w, bx + bw + pad) - x0),
                            np.uint8)
            cv2.drawContours(blob, [outline - np.array([x0, y0])], -1, 255, -1)
            # (the blob alone: a neighbour's edge in the same window would vote too; few
            # votes asked and proposals a quarter of a base apart, since a "C" is a short
            # outline beside its figure's own circle: the trace below decides)
            circles = cv2.HoughCircles(cv2.GaussianBlur(blob, (5, 5), 1.5),
                                       cv2.HOUGH_GRADIENT, 1, self.r_min / 4, param1=100,
                                       param2=12, minRadius=int(self.r_min * 0.9),
                                       maxRadius=int(np.ceil(self.r_max * 1.1)))
            if circles is None:
                continue
            edge = outline[:, 0, :].astype(np.float64)
            traced = [_trace(edge, float(cx + x0), float(cy + y0), float(r), tolerance)
                      for cx, cy, r in circles[0]]
            # Best traced first: of two circles round one base, the one its outline follows.
            for cx, cy, r, arc in sorted(traced, key=lambda t: -t[3]):
                if arc < self.cfg.traced_arc_deg or not (
                        self.r_min * 0.9 <= r <= self.r_max * 1.1):
                    continue
                if any(np.hypot(cx - c.x, cy - c.y) < self.r_min * 1.2
                       for c in (*kept, *found)):
                    continue
                # A base's ring lies inside its circle; a light figure's outline is a
                # circle too, with the ring outside it and its own inside bare.
                if _inside(mask, cx, cy, r) < INSIDE:
                    continue
                # (the outline runs through the edge pixels' centres, half a pixel in)
                found.append(BaseCandidate(cx, cy, r + 0.5, 0.0))
        return found

    def _fit_discs(self, mask: np.ndarray, cands: list[BaseCandidate]) -> None:
        """Each candidate's radius (the median extent of the foreground along 16 rays,
        clamped to base sizes) and its centre, corrected by opposite rays."""
        h, w = mask.shape
        steps = np.arange(1, int(self.r_max * 1.4) + 2, 0.5, dtype=np.float32)
        ang = np.linspace(0, 2 * np.pi, 16, endpoint=False, dtype=np.float32)
        cx = np.array([c.x for c in cands], np.float32)[:, None, None]
        cy = np.array([c.y for c in cands], np.float32)[:, None, None]
        xs = np.clip((cx + np.cos(ang)[None, :, None] * steps).round(), 0, w - 1).astype(int)
        ys = np.clip((cy + np.sin(ang)[None, :, None] * steps).round(), 0, h - 1).astype(int)
        inside = mask[ys, xs] > 0  # (N, rays, steps)
        inside[..., -1] = False
        # The edge lies between the last step inside and the first outside: their
        # midpoint (half a step back), not the first outside, which reads every disc
        # a quarter pixel too wide.
        first_out = steps[np.argmax(~inside, axis=2)] - 0.25
        r = np.median(first_out, axis=1)
        # Opposite rays of equal plausible length agree on the centre; their difference
        # says how far it is off along that direction.
        a, b = first_out[:, :8], first_out[:, 8:]
        ok = (np.abs(a - r[:, None]) < 0.25 * r[:, None]) & \
            (np.abs(b - r[:, None]) < 0.25 * r[:, None])
        d = np.where(ok, (a - b) / 2, 0.0)
        n_ok = ok.sum(axis=1)
        # A disc's radius is kept within base sizes; its outline may read up to 4 mm
        # wider than the base (its rim and shadow) and still be a base's.
        r_lo, r_top, r_hi = self.r_min * 0.9, self.r_max * 1.05, \
            self.r_max + 4.0 * self.cfg.px_per_mm
        radii = np.clip(r, r_lo, r_top)
        for k, c in enumerate(cands):
            c.radius = float(radii[k])
            c.round = bool(n_ok[k] >= 6) and r_lo < r[k] < r_hi
            if not c.round and self.centre_on_circle:
                # Opposite rays disagree: a figure leaning past its base, or a pale part
                # of the sticker lost, moves the rays' ends there, but the rest still end
                # on the base's edge: the circle they fit, most of them on it, is the
                # base's.
                ends = np.stack([c.x + np.cos(ang) * first_out[k],
                                 c.y + np.sin(ang) * first_out[k]], axis=1)
                circle = _circle_of_most(ends, r_lo, r_hi,
                                         ROUND_TOLERANCE * self.cfg.px_per_mm, ROUND_ENDS)
                if circle is not None:
                    c.x, c.y, radius = circle
                    c.radius = float(np.clip(radius, r_lo, r_top))
                    c.round = True
                    continue
            if n_ok[k] >= 5:
                c.x += float((d[k] * np.cos(ang[:8])).sum() * 2 / n_ok[k])
                c.y += float((d[k] * np.sin(ang[:8])).sum() * 2 / n_ok[k])


INSIDE = 0.5  # share of a traced circle's ring (0.7-0.9 of its radius) in the mask
ROUND_TOLERANCE = 1.0  # mm: a ray's end this near a circle lies on it
ROUND_ENDS = 11  # of the 16 rays' ends on one circle: the base's edge, most of the way round


def _circle_of_most(ends: np.ndarray, r_lo: float, r_hi: float, tolerance: float,
                    least: int) -> tuple[float, float, float] | None:
    """The circle (x, y, radius) of radius ``r_lo``-``r_hi`` that ``ends`` (points,
    (n, 2)) fit best, where at least ``least`` lie on it within ``tolerance``: tried
    through every three of them, then fitted to those on it (least squares); else None.
    (Sixteen ends give 560 circles: cheap, and only discs whose rays disagree ask.)"""
    i, j, k = _triples(len(ends)).T
    ux, uy, rad, ok = through_three(ends[i], ends[j], ends[k])
    ok &= (rad >= r_lo) & (rad <= r_hi)
    if not ok.any():
        return None
    off = np.abs(np.hypot(ends[None, :, 0] - ux[:, None], ends[None, :, 1] - uy[:, None])
                 - rad[:, None])
    # Of the circles enough ends lie on, the one they fit best, each end costing at
    # most as much as one off it (MSAC): the most ends within the tolerance alone
    # preferred a wider circle shifted toward a figure's overhang, which passes near
    # both the overhang and the far side.
    enough = ok & ((off < tolerance).sum(axis=1) >= least)
    if not enough.any():
        return None
    cost = np.where(enough, (np.minimum(off, tolerance) ** 2).sum(axis=1), np.inf)
    on = off[int(np.argmin(cost))] < tolerance
    cx, cy, r = fitted(ends[on, 0], ends[on, 1])
    if not r_lo <= r <= r_hi:
        return None
    return cx, cy, r


@lru_cache(maxsize=4)
def _triples(n: int) -> np.ndarray:
    """Every three of ``n`` indices, (n choose 3, 3), read only (cached)."""
    out = np.array(list(itertools.combinations(range(n), 3)), np.intp)
    out.flags.writeable = False
    return out


def _inside(mask: np.ndarray, cx: float, cy: float, r: float) -> float:
    """The share of the ring at 0.7-0.9 of ``r`` round (cx, cy) that is foreground."""
    a = np.linspace(0, 2 * np.pi, 36, endpoint=False)[None, :]
    k = np.array([0.7, 0.8, 0.9])[:, None] * r
    h, w = mask.shape
    xs = np.clip(np.round(cx + k * np.cos(a)), 0, w - 1).astype(int)
    ys = np.clip(np.round(cy + k * np.sin(a)), 0, h - 1).astype(int)
    return float((mask[ys, xs] > 0).mean())


def _trace(edge: np.ndarray, cx: float, cy: float, r: float, tolerance: float
           ) -> tuple[float, float, float, float]:
    """A circle the Hough transform proposed, fitted again to the outline's points near
    it (least squares, twice: the transform's centre is a pixel's, its radius a
    guess), and how much of it the outline traces, in degrees (10-degree steps)."""
    for _ in range(2):
        near = np.abs(np.hypot(edge[:, 0] - cx, edge[:, 1] - cy) - r) < 2 * tolerance
        if near.sum() < 8:
            break
        cx, cy, r = fitted(edge[near, 0], edge[near, 1])
    on = np.abs(np.hypot(edge[:, 0] - cx, edge[:, 1] - cy) - r) < tolerance
    angles = np.degrees(np.arctan2(edge[on, 1] - cy, edge[on, 0] - cx))
    return float(cx), float(cy), r, 10.0 * len(np.unique(np.floor(angles / 10)))


# Bases stand side by side: two that touch are their radii apart (measured as 0.83 of
# the sum or more with figures on both, whose outlines widen the discs). A disc whose
# centre lies nearer another's than this share of their radii is no base of its own.
APART = 0.75


def figure_parts(cands: list[BaseCandidate], read: list[bool],
                 smallest: float = 0.0) -> list[bool]:
    """Which candidates are part of another base's figure, not bases: a tall figure seen
    under a tilt (its head leaning away from the camera by parallax) or a wide one (arms,
    a weapon) makes a second peak in the foreground beside its base, found as a disc
    that overlaps that base further than two bases can, or a disc smaller than the
    smallest base (``smallest``, its radius) overlapping another at all (a base's
    outline reads wider than the base with its rim and shadow; on rendered frames the
    few read narrower stood alone, 1.5 of the two radii or more from any other disc,
    and the figures' heads at 0.76-1.07). Of two such discs, the one with
    less evidence goes: a sticker read wins, then the wider peak (a base with its
    figure's foot is wider than the figure's head; an owner is no evidence: the ring
    sampled round a head passes over its base's sticker). Only for pieces that stand
    side by side: disks that may lie on one another (``Layout.piles``) carry no figure,
    and the circles ``piles.split`` fits to a base and its figure's head are no pile.
    ``read``: per candidate, whether its sticker was read (``pipeline`` first takes a
    reading against the frame's print alone from every disc this could weigh)."""
    n = len(cands)
    out = [False] * n
    if n < 2:
        return out
    close = _too_close(cands, smallest)
    if not close.any():
        return out
    # (ties, as distance-transform values often are, go by place: the same answer in
    # any order)
    rank = [(read[i], cands[i].peak, cands[i].radius, cands[i].x, cands[i].y)
            for i in range(n)]
    # Strongest first, so that a figure's part never removes its own base.
    for i in sorted(range(n), key=lambda i: rank[i], reverse=True):
        if out[i]:
            continue
        for j in np.flatnonzero(close[i]):
            if not read[j] and rank[j] < rank[i]:
                out[int(j)] = True
    return out


def crowded(cands: list[BaseCandidate], smallest: float = 0.0) -> list[bool]:
    """Which candidates lie nearer another than two bases can (``figure_parts``' rule,
    either way round): a figure's part and the base it stands beside. Such a disc's ring
    may be sampled over the other's sticker."""
    if len(cands) < 2:
        return [False] * len(cands)
    close = _too_close(cands, smallest)
    return [bool(v) for v in (close | close.T).any(axis=1)]


def _too_close(cands: list[BaseCandidate], smallest: float) -> np.ndarray:
    """(n, n): [i, j] True where j may be part of i's figure (``figure_parts``)."""
    xy = np.array([(c.x, c.y) for c in cands], np.float64)
    r = np.array([c.radius for c in cands], np.float64)
    dist = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(axis=2))
    reach = r[:, None] + r[None]
    close = (dist < APART * reach) | ((r < smallest)[None, :] & (dist < reach))
    np.fill_diagonal(close, False)
    return close
