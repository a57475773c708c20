"""Stage 4: whose base, and which miniature.

The tag's annulus is sampled in the *original* frame (through the homography), not in
the coarse working image, so every available camera pixel is used. Samples are sorted
into ink (dark), a player's colour (hue near p1's or p2's), or other (the figure, glare,
the white centre). The owner is the colour that dominates the outer band. The id is
decoded softly: every classified sample votes (outer ones, less often hidden by the
figure, with more weight) and the codeword and rotation that explain the votes best win,
among that player's ids only, if they beat every other id by ``tag_margin``; otherwise
the sticker is "unreadable" rather than a guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .. import tags
from ..config import VisionConfig
from ..layout import Layout

ANGLES = 60  # samples around the ring (6 per wedge)
# Radii sampled, as fractions of the estimated radius: wide enough to find the sticker's
# true edge (where the owner colour stops), fine enough to read the wedges inside it.
RADII = tuple(np.round(np.arange(0.5, 1.251, 0.05), 3))
_RADII = np.array(RADII, np.float32)
# Paper this bright (0-255) is in a glare spot: the camera clips, black prints grey.
GLARE_PAPER = 245.0


@dataclass
class Identity:
    owner: str | None
    owner_confidence: float
    sticker: int | None
    tag: str  # "read", "none" (plain ring) or "unreadable"
    tag_confidence: float


class Identifier:
    def __init__(self, layout: Layout, config: VisionConfig) -> None:
        self.cfg = config
        self.players = list(layout.players)
        hues = []
        for p in self.players:
            b, g, r = layout.player_bgr(p)
            hsv = cv2.cvtColor(np.uint8([[[b, g, r]]]), cv2.COLOR_BGR2HSV)[0, 0]
            hues.append(float(hsv[0]) * 2.0)
        self.hues = np.array(hues)
        a = np.linspace(0, 2 * math.pi, ANGLES, endpoint=False)
        rr = np.array(RADII)
        self.unit = np.stack([np.cos(a)[None, :] * rr[:, None],
                              np.sin(a)[None, :] * rr[:, None]], axis=-1)  # (R, A, 2)

    def classify(self, samples: np.ndarray, paper: float | np.ndarray) -> np.ndarray:
        """0: ink, 1..n: player colour, -1: other. ``paper``: brightness of the paper
        around the sample (a number, or one per row of ``samples``)."""
        # One HSV conversion gives all three (numpy reductions over a 3-wide axis are slow).
        hsv = cv2.cvtColor(samples, cv2.COLOR_BGR2HSV).astype(np.float32)
        paper = np.maximum(np.asarray(paper, np.float32), 1.0)
        value = hsv[..., 2] / (paper[:, None] if paper.ndim else paper)
        sat = hsv[..., 1] * (1 / 255)
        hue = hsv[..., 0] * 2.0
        out = np.full(value.shape, -1, np.int8)
        # Ink is dark *and* neutral: dark painted figures are usually tinted.
        out[(value < self.cfg.black_value) & (sat < self.cfg.ink_saturation)] = 0
        colored = (sat > self.cfg.color_saturation) & (value >= self.cfg.black_value * 0.8)
        diff = np.abs((hue[..., None] - self.hues + 180.0) % 360.0 - 180.0)
        best = diff.argmin(axis=-1)
        near = diff.min(axis=-1) <= self.cfg.hue_tolerance_deg
        sel = colored & near
        out[sel] = (best[sel] + 1).astype(np.int8)
        return out

    def identify_many(self, frame: np.ndarray, homography: np.ndarray,
                      discs: list[tuple[float, float, float, float]]) -> list[Identity]:
        """Every base at once: (x mm, y mm, radius mm, paper brightness) each. One
        projection and one remap for all of them keeps this stage cheap."""
        if not discs:
            return []
        n = len(discs)
        arr = np.array(discs, np.float64)
        pts = self.unit[None] * arr[:, 2, None, None, None] + arr[:, None, None, :2]
        img = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), homography)
        img = img.reshape(n * len(RADII), ANGLES, 2).astype(np.float32)
        samples = cv2.remap(frame, img[..., 0], img[..., 1], cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
        papers = np.repeat(arr[:, 3], len(RADII))
        dense = self.classify(samples, papers).reshape(n, len(RADII), ANGLES)
        return [self._decide(dense[k], glare=arr[k, 3] >= GLARE_PAPER) for k in range(n)]

    def identify(self, frame: np.ndarray, homography: np.ndarray, cx_mm: float, cy_mm: float,
                 r_mm: float, paper: float) -> Identity:
        return self.identify_many(frame, homography, [(cx_mm, cy_mm, r_mm, paper)])[0]

    def _decide(self, dense: np.ndarray, glare: bool = False) -> Identity:
        colored = (dense > 0).mean(axis=1)
        edge = float(RADII[-1])
        if colored.max() > 0:
            # The sticker ends where its colour stops; beyond is the base's dark rim.
            outer = np.nonzero(colored >= 0.5 * colored.max())[0]
            edge = float(RADII[outer[-1]]) + 0.025
        # Figures stand in the middle and hide the tag from the inside out, so the outer
        # band is believed first; the inner band only speaks where the outer is hidden
        # and does not contradict it.
        outer_rows = (0.78 * edge <= _RADII) & (0.93 * edge >= _RADII)
        band = dense[outer_rows] if outer_rows.any() else dense
        counts = np.bincount(band[band > 0].ravel(), minlength=len(self.players) + 1)[1:]
        counts = [int(c) for c in counts]
        total_color = sum(counts)
        owner, owner_conf = None, 0.0
        if total_color:
            k = int(np.argmax(counts))
            share = counts[k] / total_color
            if share >= self.cfg.min_owner_share and total_color >= 4:
                owner = self.players[k]
                owner_conf = round(share * min(1.0, total_color / 25), 3)
        if owner is None:
            return Identity(None, 0.0, None, "unreadable", 0.0)
        mine = self.players.index(owner) + 1
        # Soft decoding: every classified sample votes, outer ones (less often hidden by
        # the figure) with more weight; the codeword and rotation that explain the votes
        # best win, if they beat every other codeword by a clear margin.
        weights = np.clip((_RADII / edge - 0.5) * 2.5, 0.0, 1.0)
        weights[0.95 * edge < _RADII] = 0.0  # the blurred edge itself
        ink = ((dense == 0) * weights[:, None]).sum(axis=0)
        col = ((dense == mine) * weights[:, None]).sum(axis=0)
        if col.sum() > 0 and ink.sum() < 0.05 * col.sum():
            if glare:
                # Under a glare spot black wedges wash out to grey: no ink seen is not
                # "no sticker".
                return Identity(owner, owner_conf, None, "unreadable", 0.0)
            return Identity(owner, owner_conf, None, "none", round(owner_conf, 3))
        # The colour says whose sticker it is, so only that player's ids compete.
        tag_id, margin, agreement = tags.decode_soft((ink - col).astype(np.float32),
                                                     tags.player_ids(mine - 1))
        if (tag_id is None or margin < self.cfg.tag_margin
                or agreement < self.cfg.tag_agreement):
            return Identity(owner, owner_conf, None, "unreadable", 0.0)
        conf = min(1.0, margin / max(1e-6, 2 * self.cfg.tag_margin)) * agreement
        return Identity(owner, owner_conf, tag_id, "read", round(conf, 3))
