"""The top-down working image: which part of the sheet it shows, and at what scale.

Only cells and zones hold bases, so the working image covers their bounding box (plus a
small margin), not the whole sheet: on the Dreamblade map that leaves out the marker
strips along the sides, a quarter of the pixels every later stage would otherwise pay
for. Every stage converts between working pixels and sheet millimetres here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..layout import Layout


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
        size = (int(round((x1 - x0) * px_per_mm)), int(round((y1 - y0) * px_per_mm)))
        return cls((x0, y0), px_per_mm, size)

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
