"""Stage 3b: disks lying on one another (a pile, a disk resting on another's edge).

**Finding them.** Two overlapping disks make one blob in the foreground, and the
distance transform (``bases.py``) then sees one peak, or a wrong size (two 64 mm disks
read as one of 90). But each disk still shows part of its own outline on the blob's
border, an arc of its circle. So a blob the found discs do not explain, or where two of
them clearly overlap, is taken apart by fitting circles of base size to its border
(RANSAC: the circle through three border points that most border points lie on, then
the next on what is left), each fit refined by least squares. A blob the circles do
not explain either (a hand, a sleeve) keeps what the distance transform found.

**Which lies on top.** The top disk's whole outline is visible: where it crosses the
disk below, its dark rim stands against the lower disk's face, a step from dark inside
to light outside, in line with its circle. The lower disk's outline is hidden there: on
both sides lies the top disk's face, with no step in line with it. Each outline is
scored by the step across it (the image gradient along its outward normal, the best
within a few pixels of the fitted circle, as the rim and the shadow make the outline
a little wide) along the arc that runs over the other disk; the median over that arc.
A disk is called on top only when its score is clearly the larger (``TOP_RATIO`` times
and ``TOP_MARGIN`` grey levels a pixel more); otherwise the pair is left undecided, never
guessed. Measured on rendered piles of mixed sizes: ``tests/vision/test_piles.py``.

**A disk lying within a pile's outline** (a small disk flipped onto a large one) adds
no arc of its own to the border, or too short a one. Its sticker still shows: every
sticker's centre is white (``tags.INNER`` of its radius), a round patch as bright as the
paper inside the foreground. A round white patch ringed by the sticker's colours that no
disk found explains is the centre of one more disk, its size in proportion
(``centres``). The white centre of a disk partly under another is cut by the disk on
it, so it is no round patch and adds nothing.

``layer`` is how many disks lie under a disk (0: on the table). A disk seen lying wholly
within another's outline is on top of it: under it, it could not be seen at all. So is
one whose white centre shows whole within the other's outline: under it, that centre
would be covered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from .. import tags
from ..shrink import halve
from .bases import BaseCandidate
from .circles import fitted, through_three

TOP_RATIO = 1.8
TOP_MARGIN = 6.0  # grey levels per pixel
OVERLAP_PX_MM = 4.0  # outlines overlapping by less are touching, side by side
INSIDE_MM = 6.0  # an outline is scored where it runs this far inside the other disk
MIN_ARC = 12  # of 72 points around the outline (60 degrees): shorter arcs decide nothing
HYPOTHESES = 256  # circles tried per disk found in a blob
MAX_DISKS = 6  # per blob
MAX_BORDER = 3000  # border points: a blob with more is no pile of disks (an arm)


def _overlap(a: BaseCandidate, b: BaseCandidate, margin: float) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) < a.radius + b.radius - margin


def _any_overlap(discs: Sequence[BaseCandidate], px_per_mm: float) -> bool:
    """Two of the discs clearly overlap (not merely touching side by side)."""
    return any(_overlap(a, b, OVERLAP_PX_MM * px_per_mm)
               for i, a in enumerate(discs) for b in discs[i + 1:])


def circles_on(border: np.ndarray, r_min: float, r_max: float,
             rng: np.random.Generator, most: int = MAX_DISKS,
             known: Sequence[BaseCandidate] = ()) -> list[tuple[float, float, float]]:
    """Circles of base size that the border's points lie on, most points first (at most
    ``most``). ``known``: disks already found by their centres, first in the answer; the
    border points near each tell its radius more closely than the centre's size did,
    and are no evidence for another circle."""
    pts = border.astype(np.float64)
    left = np.ones(len(pts), bool)
    out: list[tuple[float, float, float]] = []
    tol = 1.5
    for k in known:
        # Its outline: the distance from its centre at which most border points lie
        # (another disk's outline crosses at varying distances), then the circle fitted
        # to the points there, if it keeps the centre. The centre's size is only a
        # first guess: the outline reads wider (the rim, the shadow).
        cx, cy, rad = k.x, k.y, k.radius
        d = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
        window = (d > KNOWN_SIZES[0] * rad) & (d < KNOWN_SIZES[1] * rad)
        if window.sum() >= 0.25 * 2 * math.pi * rad:  # as a circle found on it
            hist, edges = np.histogram(d[window], bins=np.arange(
                KNOWN_SIZES[0] * rad, KNOWN_SIZES[1] * rad + tol, tol))
            peak = float(edges[int(np.argmax(hist))]) + tol / 2
            on = np.abs(d - peak) < 2 * tol
            if on.sum() >= 0.25 * 2 * math.pi * peak:
                fx, fy, fr = fitted(pts[on, 0], pts[on, 1])
                if math.hypot(fx - cx, fy - cy) < 2 * tol:  # else another disk's outline
                    cx, cy, rad = float(fx), float(fy), float(fr)
        out.append((cx, cy, rad))
        left &= np.abs(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - rad) >= 2 * tol
    for _ in range(most - len(out)):
        idx = np.flatnonzero(left)
        if len(idx) < 12:
            break
        tri = pts[idx[rng.integers(0, len(idx), (HYPOTHESES, 3))]]  # (H, 3, 2)
        ux, uy, r, ok = through_three(tri[:, 0], tri[:, 1], tri[:, 2])
        ok &= (r >= r_min) & (r <= r_max)
        if not ok.any():
            break
        ux, uy, r = ux[ok], uy[ok], r[ok]
        p = pts[idx]
        dist = np.abs(np.hypot(p[None, :, 0] - ux[:, None], p[None, :, 1] - uy[:, None])
                      - r[:, None])
        counts = (dist < tol).sum(axis=1)
        best = int(np.argmax(counts))
        # A disk shows at least a quarter of its outline on the border.
        if counts[best] < 0.25 * 2 * math.pi * r[best]:
            break
        inl = idx[dist[best] < tol]
        cx, cy, rad = fitted(pts[inl, 0], pts[inl, 1])
        if not r_min <= rad <= r_max:
            break
        out.append((float(cx), float(cy), rad))
        left &= np.abs(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - rad) >= 2 * tol
    return out


def split(mask: np.ndarray, cands: list[BaseCandidate], r_min: float, r_max: float,
          px_per_mm: float, hand: np.ndarray | None = None,
          seeds: Sequence[BaseCandidate] = ()) -> list[BaseCandidate]:
    """The candidates, with each pile of disks taken apart into its disks. ``hand``
    (half resolution, as the occlusion stage gives it): blobs touching it are left as
    they are (a hand's fingers are no pile; the candidates under it are dropped later).
    ``seeds``: disks found by their stickers' white centres (``centres``); each is one
    disk of its blob, whatever the outline says."""
    cands, unexplained = _seeded(cands, seeds)
    return _split(mask, cands, r_min, r_max, px_per_mm, hand, unexplained, seeds)


def _matches(c: BaseCandidate, s: BaseCandidate) -> bool:
    """``s`` (a white centre's disk) is ``c``'s own centre."""
    return (math.hypot(c.x - s.x, c.y - s.y) < SAME_CENTRE * c.radius
            and abs(c.radius - s.radius) < SAME_SIZE * c.radius)


def _seeded(cands: list[BaseCandidate], seeds: Sequence[BaseCandidate]
            ) -> tuple[list[BaseCandidate], list[BaseCandidate]]:
    """(the candidates, those whose white centres were seen marked so; the seeds no
    candidate explains: a disk within a blob's outline, or one the outline's fit placed
    wrong, whose blob is then taken apart with the seeds as known disks)."""
    out, used = [], set()
    for c in cands:
        own = next((i for i, sd in enumerate(seeds) if _matches(c, sd)), None)
        if own is not None:
            used.add(own)
            c = replace(c, centre_seen=True)
        out.append(c)
    return out, [sd for i, sd in enumerate(seeds) if i not in used]


def _split(mask: np.ndarray, cands: list[BaseCandidate], r_min: float, r_max: float,
           px_per_mm: float, hand: np.ndarray | None, unexplained: list[BaseCandidate],
           seeds: Sequence[BaseCandidate]) -> list[BaseCandidate]:
    if not cands and not unexplained:
        return cands
    # Nothing to take apart when every disc is round and none overlaps another: the
    # common case (every frame of a grid game), decided without looking at the mask.
    # Discs under a hand do not count (its fingers are dropped later).
    if hand is not None:
        rows, cols = hand.shape
        free = [c for c in cands
                if not hand[min(rows - 1, int(c.y) // 2), min(cols - 1, int(c.x) // 2)]]
    else:
        free = cands
    if not unexplained and all(c.round for c in free) and not _any_overlap(free, px_per_mm):
        return cands
    # Blobs are labelled at half resolution (a quarter of the pixels: this runs on every
    # frame); only a blob that needs taking apart is read at full resolution.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(halve(mask), connectivity=8)
    by_blob: dict[int, list[BaseCandidate]] = {}
    for c in cands:
        by_blob.setdefault(_label_of(labels, c), []).append(c)
    centred: dict[int, list[BaseCandidate]] = {}
    for sd in seeds:
        centred.setdefault(_label_of(labels, sd), []).append(sd)
    odd = {_label_of(labels, sd) for sd in unexplained}
    rng = np.random.default_rng(7)  # the same frame gives the same answer
    out: list[BaseCandidate] = []
    # (in the candidates' order: the stages after read them in it)
    for lab in [*by_blob, *(lab for lab in odd if lab not in by_blob)]:
        members = by_blob.get(lab, [])
        overlapping = _any_overlap(members, px_per_mm)
        sx, sy, sw, sh = (int(v) for v in stats[lab, :4])  # half resolution
        x, y, bw, bh = 2 * sx, 2 * sy, 2 * sw, 2 * sh
        if lab == 0 or (lab not in odd and not overlapping
                        and _fits_box(stats[lab], (x, y, bw, bh), members)):
            out += members  # separate discs, alone or side by side: nothing to take apart
            continue
        if hand is not None and hand[sy:sy + sh, sx:sx + sw].any():
            out += members  # under a hand: the occlusion stage's
            continue
        known = [replace(sd, centre_seen=True) for sd in centred.get(lab, [])]
        x0, y0 = max(0, x - 2), max(0, y - 2)
        crop = mask[y0:y + bh + 2, x0:x + bw + 2]
        blob, border = _blob_at(crop, [(c.x - x0, c.y - y0) for c in members + known])
        if blob is None or len(border) > MAX_BORDER:
            out += members
            continue
        if lab not in odd and not overlapping and _explains(blob, (x0, y0), members):
            out += members
            continue
        circles = circles_on(border + np.array([x0, y0]), r_min, r_max, rng, known=known)
        fitted = [replace(k, x=cx, y=cy, radius=r)
                  for k, (cx, cy, r) in zip(known, circles, strict=False)]
        fitted += _own_part([BaseCandidate(cx, cy, r, r) for cx, cy, r in
                             circles[len(known):]], blob, (x0, y0), fitted)
        if fitted and (_explains(blob, (x0, y0), fitted) or (
                len(fitted) == len(known) and _explains(blob, (x0, y0), fitted, SEEDED))):
            out += fitted
        else:
            # Not a pile of disks: what the distance transform found, and the disks
            # whose centres were seen where it found none.
            out += members + [k for k in known if not any(_matches(c, k) for c in members)]
    return out


WHITE = 0.75  # of the paper's brightness: a sticker's white centre (its colours are darker)
ROUND = 0.8  # a white patch fills this much of its enclosing circle: a centre, not a cut one
RINGED = 0.8  # of the points round a white centre that must be the sticker's colours
HOLE_OF = tags.INNER  # a sticker's white centre, of its disk's radius (the sticker's
# own margin makes it a little smaller: this is the cautious side)
KNOWN_SIZES = (0.85, 1.3)  # of the size its white centre says: where its outline may lie
# A white centre this near a disk's centre and of a size this near its own is that
# disk's (the outline reads a little wider than the disk: its rim and shadow).
SAME_CENTRE, SAME_SIZE = 0.12, 0.2  # of its radius
# Disks found by their centres, each: they explain their blob when they cover this much
# of it. The foreground bridges two disks lying a few millimetres apart (a web between
# them, 15 % of the blob for two 64 mm disks 3 mm apart), which no disk covers.
SEEDED = 0.75


def centres(gray: np.ndarray, illum: np.ndarray, mask: np.ndarray, r_min: float,
            r_max: float, sticker_fraction: float) -> list[BaseCandidate]:
    """The disks whose stickers' white centres show whole: round patches as bright as
    the paper inside the foreground, ringed by the sticker's colours, each the centre of
    a disk of proportionate size lying wholly in the foreground (see the module's
    note)."""
    hole = tags.INNER * sticker_fraction  # the white centre's radius over the disk's
    bright = ((gray >= WHITE * illum) & (mask > 0)).astype(np.uint8)
    n, labels, stats, middles = cv2.connectedComponentsWithStats(bright, connectivity=8)
    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    out = []
    for k in range(1, n):
        area = float(stats[k, cv2.CC_STAT_AREA])
        radius = math.sqrt(area / math.pi) / hole
        if not r_min * 0.85 <= radius <= r_max:
            continue
        x, y, bw, bh = (int(v) for v in stats[k, :4])
        pts = cv2.findNonZero((labels[y:y + bh, x:x + bw] == k).astype(np.uint8))
        _, enclosing = cv2.minEnclosingCircle(pts)
        if area < ROUND * math.pi * max(enclosing, 1.0) ** 2:
            continue  # cut by a disk lying on it, or no centre at all
        cx, cy = float(middles[k][0]), float(middles[k][1])
        # Ringed by the sticker's colours (inside its coded annulus), and the whole disk
        # in the foreground.
        ring = _circle_at(cx, cy, 0.65 * radius, ang, gray.shape)
        if np.mean(gray[ring] < WHITE * illum[ring]) < RINGED:
            continue
        if not (mask[_circle_at(cx, cy, 0.9 * radius, ang, gray.shape)] > 0).all():
            continue
        out.append(BaseCandidate(cx, cy, radius, radius))
    return out


def _circle_at(cx: float, cy: float, r: float, ang: np.ndarray, shape: tuple[int, ...]
               ) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (rows, columns) at ``ang`` on the circle of ``r`` about ``cx``, ``cy``,
    kept inside an image of ``shape``."""
    h, w = shape[:2]
    xs = np.clip(np.round(cx + r * np.cos(ang)), 0, w - 1).astype(int)
    ys = np.clip(np.round(cy + r * np.sin(ang)), 0, h - 1).astype(int)
    return ys, xs


def _label_of(labels: np.ndarray, c: BaseCandidate) -> int:
    """The blob (label at half resolution) a disc belongs to: the one at its centre, or,
    where the centre is bare (a base found by its outline round a light figure:
    ``BaseFinder._traced``), the one most of its ring lies on."""
    h, w = labels.shape
    lab = int(labels[min(h - 1, max(0, int(c.y) // 2)), min(w - 1, max(0, int(c.x) // 2))])
    if lab:
        return lab
    a = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    xs = np.clip(((c.x + 0.8 * c.radius * np.cos(a)) // 2).astype(int), 0, w - 1)
    ys = np.clip(((c.y + 0.8 * c.radius * np.sin(a)) // 2).astype(int), 0, h - 1)
    ring = labels[ys, xs]
    ring = ring[ring > 0]
    return int(np.bincount(ring).argmax()) if len(ring) else 0


def _fits_box(stat: np.ndarray, box: tuple[int, int, int, int],
              members: Sequence[BaseCandidate]) -> bool:
    """The discs account for the blob at a glance: their area adds up to its area and
    their extent is its bounding box (a pile read as one big disc has the area but not
    the shape)."""
    area = 4.0 * float(stat[cv2.CC_STAT_AREA])
    if abs(area - sum(math.pi * c.radius ** 2 for c in members)) > 0.15 * area:
        return False
    x, y, bw, bh = box
    ext = (min(c.x - c.radius for c in members), min(c.y - c.radius for c in members),
           max(c.x + c.radius for c in members), max(c.y + c.radius for c in members))
    slack = max(4.0, 0.08 * max(bw, bh))
    return all(abs(a - b) <= slack for a, b in zip(ext, (x, y, x + bw, y + bh), strict=True))


def _blob_at(crop: np.ndarray, centres: Sequence[tuple[float, float]]
             ) -> tuple[np.ndarray | None, np.ndarray]:
    """The blob of ``crop`` holding the first centre (filled, 0/1) and its border."""
    contours, _ = cv2.findContours((crop > 0).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    cx, cy = centres[0]
    for cnt in contours:
        if cv2.pointPolygonTest(cnt, (float(cx), float(cy)), False) >= 0:
            blob = np.zeros(crop.shape, np.uint8)
            cv2.drawContours(blob, [cnt], -1, 1, -1)
            return blob, cnt.reshape(-1, 2)
    return None, np.zeros((0, 2), int)


def _own_part(disks: list[BaseCandidate], blob: np.ndarray, at: tuple[int, int],
              kept: Sequence[BaseCandidate] = ()) -> list[BaseCandidate]:
    """The disks that each account for a part of the blob no other covers (a tenth of
    their own area): a circle fitted to what other disks' borders left over is not a
    disk of its own. ``kept``: disks known to be there (found by their centres), which
    cover their part but are never dropped."""
    disks = list(disks)
    while len(disks) > (0 if kept else 1):
        drawn = []
        for d in [*disks, *kept]:
            m = np.zeros_like(blob)
            cv2.circle(m, (int(round(d.x - at[0])), int(round(d.y - at[1]))),
                       int(round(d.radius)), 1, -1)
            drawn.append(m & blob)
        total = np.sum(drawn, axis=0)
        own = [float(((m > 0) & (total == 1)).sum()) / (math.pi * d.radius ** 2)
               for m, d in zip(drawn, disks, strict=False)]
        worst = int(np.argmin(own))
        if own[worst] >= 0.1:
            break
        del disks[worst]
    return disks


def _explains(blob: np.ndarray, at: tuple[int, int], disks: Sequence[BaseCandidate],
              share: float = 0.88) -> bool:
    """The disks cover the blob (88 % of it: contact shadows widen a blob, more under a
    tilted camera) and little beyond it."""
    inside, outside = coverage(blob, at, [(d.x, d.y, d.radius) for d in disks])
    return inside >= share and outside <= 0.12


def coverage(blob: np.ndarray, at: tuple[int, int],
             discs: Sequence[tuple[float, float, float]]) -> tuple[float, float]:
    """The share of ``blob`` (0/1, its corner at ``at``) inside the discs (x, y, radius),
    and the share of the discs outside it."""
    drawn = np.zeros_like(blob)
    for x, y, r in discs:
        cv2.circle(drawn, (int(round(x - at[0])), int(round(y - at[1]))), int(round(r)), 1, -1)
    inside = int((drawn & blob).sum())
    total = int(drawn.sum())
    return inside / max(1, int(blob.sum())), (total - inside) / max(1, total)


def _score(gx: np.ndarray, gy: np.ndarray, a: BaseCandidate, b: BaseCandidate,
           px_per_mm: float) -> float | None:
    """The median step across ``a``'s outline along the arc over ``b`` (None: too short)."""
    ang = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    px, py = a.x + a.radius * np.cos(ang), a.y + a.radius * np.sin(ang)
    # Only well inside b's face: its own rim and contact shadow (the outer 6 mm of its
    # fitted outline) make steps of their own.
    over = np.hypot(px - b.x, py - b.y) < b.radius - INSIDE_MM * px_per_mm
    if over.sum() < MIN_ARC:
        return None  # too short an arc to tell an outline from the other disk's face
    nx, ny = np.cos(ang[over]), np.sin(ang[over])
    h, w = gx.shape
    best = -np.inf
    # A real outline is one circle: the step lies at one distance from the fitted circle
    # all along the arc (up to 4 mm inside it: the fit includes the rim and the shadow).
    # Edges of the other disk's own face (its centre, its ring) cross the arc at varying
    # distances, so no single distance gives them a high median.
    for step in np.arange(-4, 3) * px_per_mm:
        xs = np.clip(np.round(px[over] + step * nx), 0, w - 1).astype(int)
        ys = np.clip(np.round(py[over] + step * ny), 0, h - 1).astype(int)
        best = max(best, float(np.median(gx[ys, xs] * nx + gy[ys, xs] * ny)))
    return best


def layers(gray: np.ndarray, cands: Sequence[BaseCandidate], px_per_mm: float) -> list[int]:
    """How many disks lie under each candidate (see the module's note)."""
    n = len(cands)
    under: list[set[int]] = [set() for _ in range(n)]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)
             if _overlap(cands[i], cands[j], OVERLAP_PX_MM * px_per_mm)]
    if pairs:
        g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), px_per_mm)
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
        for i, j in pairs:
            a, b = cands[i], cands[j]
            apart = math.hypot(a.x - b.x, a.y - b.y)
            if b.radius - a.radius - apart > 2 * px_per_mm:  # a wholly within b: on top
                under[i].add(j)
                continue
            if a.radius - b.radius - apart > 2 * px_per_mm:
                under[j].add(i)
                continue
            # A disk whose white centre shows whole, that centre within the other's
            # outline: were it under the other, its centre would be covered.
            if a.centre_seen and apart < b.radius - HOLE_OF * a.radius:
                under[i].add(j)
                continue
            if b.centre_seen and apart < a.radius - HOLE_OF * b.radius:
                under[j].add(i)
                continue
            si = _score(gx, gy, cands[i], cands[j], px_per_mm)
            sj = _score(gx, gy, cands[j], cands[i], px_per_mm)
            if si is None or sj is None:
                continue
            if si >= TOP_RATIO * max(sj, 0.0) and si - sj >= TOP_MARGIN:
                under[i].add(j)
            elif sj >= TOP_RATIO * max(si, 0.0) and sj - si >= TOP_MARGIN:
                under[j].add(i)
    memo: dict[int, int] = {}

    def depth(i: int, path: frozenset[int]) -> int:
        if i not in memo:
            below = [k for k in under[i] if k not in path]  # a cycle: a misreading
            memo[i] = 0 if not below else 1 + max(depth(k, path | {i}) for k in below)
        return memo[i]

    return [depth(i, frozenset()) for i in range(n)]
