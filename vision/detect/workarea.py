"""The top-down working image: which part of the sheet it shows, and at what scale.

Only cells and zones hold bases, so the working image covers their bounding box (plus a
small margin), not the whole sheet: on a map like the grid games' that leaves out the marker
strips along the sides, a quarter of the pixels every later stage would otherwise pay
for. Every stage converts between working pixels and sheet millimetres here.

Its sides are whole multiples of ``ALIGN`` pixels, and a ``Box`` (a part of it redone
when only part of a frame changed) starts on such a multiple: then the 4x-averaged copies
the stages make of a box are exactly the same pixels as of the whole image, and a part
redone gives the same answer as the whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..layout import Layout

ALIGN = 16  # working pixels: box corners and the area's sides are multiples of this


@dataclass(frozen=True)
class Box:
    """A rectangle of working pixels: columns x0..x1 and rows y0..y1 (ends excluded)."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def slices(self) -> tuple[slice, slice]:
        """numpy's index of this box (rows, columns)."""
        return np.s_[self.y0:self.y1, self.x0:self.x1]

    @property
    def pixels(self) -> int:
        return (self.x1 - self.x0) * (self.y1 - self.y0)

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x < self.x1 and self.y0 <= y < self.y1

    def halved(self) -> Box:
        """This box in an image of half the size (its corners are even)."""
        return Box(self.x0 // 2, self.y0 // 2, self.x1 // 2, self.y1 // 2)

    def grown(self, by: int, within: Box) -> Box:
        """This box grown by ``by`` pixels on every side, rounded out to ``ALIGN`` and
        kept inside ``within``."""
        def down(v: int) -> int:
            return v // ALIGN * ALIGN

        def up(v: int) -> int:
            return -(-v // ALIGN) * ALIGN

        return Box(max(within.x0, down(self.x0 - by)), max(within.y0, down(self.y0 - by)),
                   min(within.x1, up(self.x1 + by)), min(within.y1, up(self.y1 + by)))


@dataclass(frozen=True)
class WorkArea:
    origin: tuple[float, float]  # sheet mm at working pixel (0, 0)
    scale: float  # working px per mm
    size: tuple[int, int]  # width, height in working px

    @classmethod
    def for_layout(cls, layout: Layout, px_per_mm: float, margin_mm: float) -> WorkArea:
        pts = np.concatenate([np.asarray(r.polygon, np.float64) for r in layout.regions])
        w, h = layout.sheet
        x0 = max(0.0, float(np.floor(pts[:, 0].min() - margin_mm)))
        y0 = max(0.0, float(np.floor(pts[:, 1].min() - margin_mm)))
        x1 = min(float(w), float(np.ceil(pts[:, 0].max() + margin_mm)))
        y1 = min(float(h), float(np.ceil(pts[:, 1].max() + margin_mm)))
        size = [int(round((x1 - x0) * px_per_mm)), int(round((y1 - y0) * px_per_mm))]
        # Round the sides up to whole multiples of ALIGN, growing into the sheet's far
        # side, or its near side where the far one has no room.
        origin = [x0, y0]
        for k, sheet_mm in enumerate((w, h)):
            extra_px = -size[k] % ALIGN
            size[k] += extra_px
            over = origin[k] + size[k] / px_per_mm - sheet_mm
            if over > 0:
                origin[k] = max(0.0, origin[k] - float(np.ceil(over)))
        return cls((origin[0], origin[1]), px_per_mm, (size[0], size[1]))

    @property
    def box(self) -> Box:
        """The whole area as a box."""
        return Box(0, 0, self.size[0], self.size[1])

    def sub(self, box: Box) -> WorkArea:
        """The part of this area inside ``box``, as an area of its own."""
        return WorkArea((self.origin[0] + box.x0 / self.scale,
                         self.origin[1] + box.y0 / self.scale), self.scale,
                        (box.x1 - box.x0, box.y1 - box.y0))

    @property
    def shape(self) -> tuple[int, int]:
        """numpy's (rows, columns)."""
        return self.size[1], self.size[0]

    def to_px(self, points_mm: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Sheet mm -> working px, rounded (for drawing polygons)."""
        p = (np.asarray(points_mm, np.float64) - self.origin) * self.scale
        return p.round().astype(np.int32)

    def to_mm(self, x_px: float, y_px: float) -> tuple[float, float]:
        return x_px / self.scale + self.origin[0], y_px / self.scale + self.origin[1]

    def px_to_sheet(self) -> np.ndarray:
        """3x3 matrix: working px -> sheet mm."""
        s = self.scale
        return np.array([[1 / s, 0, self.origin[0]], [0, 1 / s, self.origin[1]], [0, 0, 1.0]])

    def region_labels(self, layout: Layout) -> np.ndarray:
        """The layout's regions drawn in this area: pixel value k + 1 where region k is,
        0 outside every region (int16)."""
        labels = np.zeros(self.shape, np.int16)
        for k, r in enumerate(layout.regions, start=1):
            cv2.fillPoly(labels, [self.to_px(r.polygon)], k)
        return labels

    def crop(self, sheet_image: np.ndarray) -> np.ndarray:
        """This area of an image of the whole sheet drawn at the same scale."""
        x0, y0 = (int(round(v * self.scale)) for v in self.origin)
        out = sheet_image[y0:y0 + self.size[1], x0:x0 + self.size[0]]
        assert out.shape[:2] == self.shape, "the sheet image is smaller than the work area"
        return out
