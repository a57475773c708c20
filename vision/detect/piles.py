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

``layer`` is how many disks lie under a disk (0: on the table).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

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
             rng: np.random.Generator, most: int = MAX_DISKS
             ) -> list[tuple[float, float, float]]:
    """Circles of base size that the border's points lie on, most points first (at most
    ``most``)."""
    pts = border.astype(np.float64)
    left = np.ones(len(pts), bool)
    out: list[tuple[float, float, float]] = []
    tol = 1.5
    for _ in range(most):
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
          px_per_mm: float, hand: np.ndarray | None = None) -> list[BaseCandidate]:
    """The candidates, with each pile of disks taken apart into its disks. ``hand``
    (half resolution, as the occlusion stage gives it): blobs touching it are left as
    they are (a hand's fingers are no pile; the candidates under it are dropped later)."""
    if not cands:
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
    if all(c.round for c in free) and not _any_overlap(free, px_per_mm):
        return cands
    # Blobs are labelled at half resolution (a quarter of the pixels: this runs on every
    # frame); only a blob that needs taking apart is read at full resolution.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(halve(mask), connectivity=8)
    by_blob: dict[int, list[BaseCandidate]] = {}
    for c in cands:
        by_blob.setdefault(_label_of(labels, c), []).append(c)
    rng = np.random.default_rng(7)  # the same frame gives the same answer
    out: list[BaseCandidate] = []
    for lab, members in by_blob.items():
        overlapping = _any_overlap(members, px_per_mm)
        sx, sy, sw, sh = (int(v) for v in stats[lab, :4])  # half resolution
        x, y, bw, bh = 2 * sx, 2 * sy, 2 * sw, 2 * sh
        if lab == 0 or (not overlapping and _fits_box(stats[lab], (x, y, bw, bh), members)):
            out += members  # separate discs, alone or side by side: nothing to take apart
            continue
        if hand is not None and hand[sy:sy + sh, sx:sx + sw].any():
            out += members  # under a hand: the occlusion stage's
            continue
        x0, y0 = max(0, x - 2), max(0, y - 2)
        crop = mask[y0:y + bh + 2, x0:x + bw + 2]
        blob, border = _blob_at(crop, [(c.x - x0, c.y - y0) for c in members])
        if blob is None or len(border) > MAX_BORDER:
            out += members
            continue
        if not overlapping and _explains(blob, (x0, y0), members):
            out += members
            continue
        circles = circles_on(border + np.array([x0, y0]), r_min, r_max, rng)
        fitted = _own_part([BaseCandidate(cx, cy, r, r) for cx, cy, r in circles], blob,
                           (x0, y0))
        if fitted and _explains(blob, (x0, y0), fitted):
            out += fitted
        else:
            out += members  # not a pile of disks: what the distance transform found
    return out


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


def _own_part(disks: list[BaseCandidate], blob: np.ndarray,
              at: tuple[int, int]) -> list[BaseCandidate]:
    """The disks that each account for a part of the blob no other covers (a tenth of
    their own area): a circle fitted to what other disks' borders left over is not a
    disk of its own."""
    disks = list(disks)
    while len(disks) > 1:
        drawn = []
        for d in disks:
            m = np.zeros_like(blob)
            cv2.circle(m, (int(round(d.x - at[0])), int(round(d.y - at[1]))),
                       int(round(d.radius)), 1, -1)
            drawn.append(m & blob)
        total = np.sum(drawn, axis=0)
        own = [float(((m > 0) & (total == 1)).sum()) / (math.pi * d.radius ** 2)
               for m, d in zip(drawn, disks, strict=True)]
        worst = int(np.argmin(own))
        if own[worst] >= 0.1:
            break
        del disks[worst]
    return disks


def _explains(blob: np.ndarray, at: tuple[int, int], disks: Sequence[BaseCandidate]) -> bool:
    """The disks cover the blob (88 % of it: contact shadows widen a blob, more under a
    tilted camera) and little beyond it."""
    inside, outside = coverage(blob, at, [(d.x, d.y, d.radius) for d in disks])
    return inside >= 0.88 and outside <= 0.12


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
