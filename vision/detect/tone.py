"""Stage 4 for pieces told apart by tone: black and white pieces.

Stickers tell owners apart by hue, and black or white pieces have none. When the layout
says each player's pieces are "dark" or "light" (``Layout.tones``), the owner is read
from the base itself: its top, between half and nine tenths of its radius (a figure
standing on it hides the middle first), is compared with the markers' own black and
white, printed on every board and lit like the pieces. How light a sample is, on that
scale (0 the markers' black, 1 their white), puts it among the dark, the light or
neither; a base is a player's when most of its samples agree (``tone_share``), and
nobody's otherwise (a shadow over a white piece, a figure covering most of the top).

Such pieces carry no sticker the detector reads, so no id: identical pieces (draughts,
disks of one kind) are told apart by the game's moves, as any unread piece is.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from ..config import VisionConfig
from ..layout import Layout
from .identify import Identity
from .sampling import marker_points, ring_grid, ring_samples, seen_at

ANGLES = 48
RADII = (0.5, 0.6, 0.7, 0.8, 0.9)  # shares of the base's radius sampled


class ToneReader:
    """``identify_many`` as ``Identifier``'s, for a layout whose players have tones."""

    def __init__(self, layout: Layout, config: VisionConfig) -> None:
        self.cfg = config
        self.by_tone = {tone: player for player, tone in layout.tones.items()}
        self.white_mm = marker_points(layout, white=True)
        self.black_mm = marker_points(layout, white=False)
        self.unit = ring_grid(RADII, ANGLES)

    def levels(self, frame: np.ndarray, homography: np.ndarray,
               marker_maps: dict[float, np.ndarray]) -> tuple[float, float] | None:
        """The grey level of the markers' black and of their white in ``frame``, or None
        when too few of them show. The brighter half of the white points and the darker
        half of the black ones: a hand or a shadow over some markers must not set them."""
        if not self.white_mm or not self.black_mm:
            return None
        white = seen_at(frame, homography, self.white_mm, marker_maps).mean(axis=1)
        black = seen_at(frame, homography, self.black_mm, marker_maps).mean(axis=1)
        if len(white) < 20 or len(black) < 20:
            return None
        w = float(np.median(white[white >= np.median(white)]))
        k = float(np.median(black[black <= np.median(black)]))
        if w - k < 40:  # no contrast to judge by (the markers in the dark, or washed out)
            return None
        return k, w

    def identify_many(self, frame: np.ndarray, homography: np.ndarray,
                      discs: list[tuple[float, float, float, float]],
                      marker_maps: dict[float, np.ndarray] | None = None,
                      elsewhere: Collection[int] = ()) -> list[Identity]:
        """Every base's owner by its tone: (x mm, y mm, radius mm, paper brightness)
        each, as ``Identifier.identify_many`` takes them (``elsewhere`` too: pieces
        told by tone carry no sticker)."""
        if not discs:
            return []
        nobody = Identity(None, 0.0, None, "none", 0.0)
        levels = self.levels(frame, homography, marker_maps or {})
        if levels is None:
            return [nobody] * len(discs)
        black, white = levels
        arr = np.array(discs, np.float64)
        n = len(arr)
        samples = ring_samples(frame, homography, arr, self.unit)
        grey = samples.astype(np.float32).mean(axis=2).reshape(n, -1)
        tone = (grey - black) / (white - black)
        dark = (tone < self.cfg.tone_dark_below).mean(axis=1)
        light = (tone > self.cfg.tone_light_above).mean(axis=1)
        out = []
        for d, li in zip(dark, light, strict=True):
            tone_name, share = ("dark", d) if d >= li else ("light", li)
            player = self.by_tone.get(tone_name)
            if player is None or share < self.cfg.tone_share:
                out.append(nobody)
            else:
                out.append(Identity(player, round(float(share), 3), None, "none", 0.0))
        return out
