"""Stage 4: whose base, and which miniature.

The tag's annulus is sampled in the *original* frame (through the homography), not in
the coarse working image, so every available camera pixel is used. Samples are sorted
into ink (dark), a player's colour (hue near p1's or p2's), or other (the figure, glare,
the white centre). The wedge boundaries are unknown (the sticker lies at any angle), so
six phase offsets are tried and the clearest reading wins. A wedge whose samples
disagree is unreadable, and a reading that does not fit exactly one codeword is
"unreadable" rather than a guess.
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
RADII = (0.62, 0.72, 0.8, 0.87)  # fractions of the radius inside the coded annulus


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

    def sample(self, frame: np.ndarray, homography: np.ndarray, cx_mm: float, cy_mm: float,
               r_mm: float) -> np.ndarray:
        pts = self.unit * r_mm + np.array([cx_mm, cy_mm])
        img = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), homography)
        img = img.reshape(len(RADII), ANGLES, 2).astype(np.float32)
        return cv2.remap(frame, img[..., 0], img[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)

    def classify(self, samples: np.ndarray, paper: float) -> np.ndarray:
        """0: ink, 1..n: player colour, -1: other."""
        s = samples.astype(np.float32)
        mx, mn = s.max(axis=2), s.min(axis=2)
        value = mx / max(paper, 1.0)
        sat = (mx - mn) / (mx + 8.0)
        hsv = cv2.cvtColor(samples, cv2.COLOR_BGR2HSV)
        hue = hsv[..., 0].astype(np.float32) * 2.0
        out = np.full(value.shape, -1, np.int8)
        out[value < self.cfg.black_value] = 0
        colored = (sat > self.cfg.color_saturation) & (value >= self.cfg.black_value * 0.8)
        diff = np.abs((hue[..., None] - self.hues + 180.0) % 360.0 - 180.0)
        best = diff.argmin(axis=-1)
        near = diff.min(axis=-1) <= self.cfg.hue_tolerance_deg
        sel = colored & near
        out[sel] = (best[sel] + 1).astype(np.int8)
        return out

    def identify(self, frame: np.ndarray, homography: np.ndarray, cx_mm: float, cy_mm: float,
                 r_mm: float, paper: float) -> Identity:
        cls = self.classify(self.sample(frame, homography, cx_mm, cy_mm, r_mm), paper)
        counts = [int((cls == k + 1).sum()) for k in range(len(self.players))]
        total_color = sum(counts)
        owner, owner_conf = None, 0.0
        if total_color:
            k = int(np.argmax(counts))
            share = counts[k] / total_color
            if share >= self.cfg.min_owner_share and total_color >= 6:
                owner = self.players[k]
                owner_conf = round(share * min(1.0, total_color / 40), 3)
        if owner is None:
            return Identity(None, 0.0, None, "unreadable", 0.0)
        mine = self.players.index(owner) + 1
        per = ANGLES // tags.SECTORS
        best: tuple[float, np.ndarray] | None = None
        for phase in range(per):
            rolled = np.roll(cls, -phase, axis=1)
            bits = np.full(tags.SECTORS, -1, np.int8)
            score = 0.0
            for k in range(tags.SECTORS):
                wedge = rolled[:, k * per + 1:(k + 1) * per - 1]  # skip wedge borders
                ink = int((wedge == 0).sum())
                col = int((wedge == mine).sum())
                n = wedge.size
                if ink + col < n * 0.5:
                    continue
                if ink >= self.cfg.sector_agreement * (ink + col):
                    bits[k] = 1
                elif col >= self.cfg.sector_agreement * (ink + col):
                    bits[k] = 0
                else:
                    continue
                score += max(ink, col) / n
            if best is None or score > best[0]:
                best = (score, bits)
        assert best is not None
        bits = best[1]
        if not (bits == 1).any() and (bits == 0).sum() >= tags.SECTORS // 2:
            return Identity(owner, owner_conf, None, "none", round(best[0] / tags.SECTORS, 3))
        tag_id, conf = tags.match(bits)
        if tag_id is None:
            return Identity(owner, owner_conf, None, "unreadable", 0.0)
        return Identity(owner, owner_conf, tag_id, "read", conf)
