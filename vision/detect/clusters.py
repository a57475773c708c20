"""Stage 3c: pieces touching one another, taken apart before anything is called a hand.

A row of touching pieces, or a block of Go stones, is one blob in the foreground, wider
than any base: the distance transform (``bases.py``) finds a peak too large for a base
in its middle, and the occlusion stage, seeing a wide blob the found discs do not
explain, called it a hand (on photographs of a Go board, 10 to 12 of 19 stones lost in
one frame). But such a blob is made of base-sized discs, and shows it: its border is
arcs of base-sized circles, and those discs, with the ones inside that touch no border,
fill it. A hand's border is not (fingers narrower than a base, the straight sides of a
palm and an arm), nor is a cup's (one circle, larger than any base).

So a blob wider than a base and not explained by the discs found in it is fitted with
circles of base size to its border (``piles.circles_on``), then with discs where what
is left is still a base wide; when the circles lie along most of its border and the
discs cover most of it and little besides (``BORDER_ON``, ``COVERED``, ``OUTSIDE``), the
discs are its bases. Otherwise it stays as it was, for the occlusion stage to judge.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .bases import BaseCandidate
from .piles import circles_on, coverage

GROUP_MOST = 16  # discs in one blob: a 4 x 4 block of pieces
BORDER_ON = 0.7  # share of the blob's border within BORDER_TOL px of a disc's outline
BORDER_TOL = 2.5
COVERED = 0.8  # share of the blob inside the discs (a block of discs leaves its gaps)
OUTSIDE = 0.12  # share of the discs outside the blob
INNER_PEAK = 0.75  # a disc inside: what is left is this share of the least radius wide
EXPLAINED = 0.85  # a blob this much inside the discs found in it needs nothing more


def take_apart(mask: np.ndarray, cands: list[BaseCandidate], r_min: float,
               r_max: float, disc_fill: float, loose: np.ndarray,
               sheet_inner: np.ndarray) -> list[BaseCandidate]:
    """``cands`` (found in ``mask``, working px) with each blob of touching pieces
    replaced by the discs it is made of. Discs are filled discs (``peak`` = radius).

    ``loose`` and ``sheet_inner`` (half resolution, ``Foreground.loose`` and where hands
    are looked for): a blob whose looser outline reaches the edge of the sheet is left
    alone. Pieces lie on the map; a hand reaches in over the edge, and one whose palm
    is off the map shows a few fingers there, round as pieces."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    disc = math.pi * r_max ** 2
    out = list(cands)
    rng = np.random.default_rng(11)  # the same frame gives the same answer
    reaching: np.ndarray | None = None
    for cnt in contours:
        area = cv2.contourArea(cnt)
        x, y, w, h = cv2.boundingRect(cnt)
        if area < 1.8 * disc or area > GROUP_MOST * disc or max(w, h) < 3.2 * r_min:
            continue  # one base (with its shadow), or more than a group of pieces
        if reaching is None:
            reaching = _reaching_in(loose, sheet_inner)
        if reaching[y // 2:(y + h) // 2 + 1, x // 2:(x + w) // 2 + 1].any():
            continue
        blob = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(blob, [cnt - np.array([x - 1, y - 1])], -1, 1, -1)
        at = (x - 1, y - 1)
        members = [c for c in out if _inside(blob, at, c)]
        filled = [c for c in members if c.peak >= disc_fill * c.radius]
        if coverage(blob, at, [(c.x, c.y, c.radius) for c in filled])[0] >= EXPLAINED:
            continue
        discs = _discs(blob, cnt.reshape(-1, 2) - np.array(at), r_min, r_max, rng)
        if not discs:
            continue
        covered, outside = coverage(blob, (0, 0), discs)
        if covered < COVERED or outside > OUTSIDE or \
                _on_border(cnt.reshape(-1, 2) - np.array(at), discs) < BORDER_ON:
            continue
        out = [c for c in out if c not in members]
        out += [BaseCandidate(cx + at[0], cy + at[1], r, r, grouped=True)
                for cx, cy, r in discs]
    return out


def _reaching_in(loose: np.ndarray, sheet_inner: np.ndarray) -> np.ndarray:
    """The blobs of ``loose`` that touch the edge of ``sheet_inner`` or of the work area
    (half resolution, True there): what reaches in over the sheet's edge."""
    inner = cv2.copyMakeBorder(sheet_inner, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    edge = cv2.bitwise_and(inner, cv2.bitwise_not(
        cv2.erode(inner, np.ones((5, 5), np.uint8))))[1:-1, 1:-1]
    _, labels = cv2.connectedComponents(loose, connectivity=8)
    touching = np.unique(labels[(edge > 0) & (loose > 0)])
    touching = touching[touching > 0]
    return np.isin(labels, touching) if len(touching) else np.zeros(loose.shape, bool)


def _discs(blob: np.ndarray, border: np.ndarray, r_min: float, r_max: float,
           rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """Discs of base size making up ``blob``: the circles its border lies on, then, one
    at a time, a disc where what they leave is widest, while that is a base wide."""
    discs = circles_on(border, r_min, r_max, rng, GROUP_MOST)
    if not discs:
        return []
    radius = float(np.median([r for _, _, r in discs]))
    drawn = np.zeros_like(blob)
    for cx, cy, r in discs:
        cv2.circle(drawn, (int(round(cx)), int(round(cy))), int(round(r)), 1, -1)
    while len(discs) < GROUP_MOST:
        left = (blob & (1 - drawn)).astype(np.uint8)
        dist = cv2.distanceTransform(left, cv2.DIST_L2, 5)
        _, peak, _, (px, py) = cv2.minMaxLoc(dist)
        if peak < INNER_PEAK * r_min:
            break
        discs.append((float(px), float(py), radius))
        cv2.circle(drawn, (px, py), int(round(radius)), 1, -1)
    return discs


def _inside(blob: np.ndarray, at: tuple[int, int], c: BaseCandidate) -> bool:
    ix, iy = int(round(c.x)) - at[0], int(round(c.y)) - at[1]
    return 0 <= iy < blob.shape[0] and 0 <= ix < blob.shape[1] and bool(blob[iy, ix])


def _on_border(border: np.ndarray, discs: list[tuple[float, float, float]]) -> float:
    """The share of the border's points within ``BORDER_TOL`` of a disc's outline."""
    pts = border.astype(np.float64)
    near = np.zeros(len(pts), bool)
    for cx, cy, r in discs:
        near |= np.abs(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - r) < BORDER_TOL
    return float(near.mean()) if len(pts) else 0.0
