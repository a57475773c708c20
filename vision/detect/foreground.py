"""Stage 2: the top-down working image and what differs from the empty printed map.

The frame is warped to sheet coordinates at ``px_per_mm``. Brightness is divided by an
illumination estimate (a closing of a small copy: paper is the brightest thing
almost everywhere), so dim light, gradients and soft shadows cancel out. The same is
done to the reference (the map as printed); a pixel is foreground when it is much
darker than the reference there, or much more saturated.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout
from ..printing.mapart import render_reference


def illumination(gray: np.ndarray) -> np.ndarray:
    """Smooth estimate of the paper's brightness everywhere (float32, >= 1)."""
    h, w = gray.shape
    # A closing (max filter, then min filter) a little wider than the largest base (in
    # working pixels) removes bases and figures; unlike a max filter alone it follows a
    # gradient, so the edge of a cast shadow is light, not something on the map. The blur
    # smooths the steps between windows.
    small = cv2.resize(gray, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    small = cv2.morphologyEx(small, cv2.MORPH_CLOSE, np.ones((11, 11), np.uint8))
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return np.maximum(big, 1.0)


def saturation(bgr: np.ndarray) -> np.ndarray:
    """HSV saturation as 0..1 (OpenCV's conversion is far faster than numpy's max/min)."""
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1].astype(np.float32) * (1 / 255)


@dataclass
class Foreground:
    rectified: np.ndarray  # BGR, sheet coordinates
    illum: np.ndarray  # float32 paper brightness
    mask: np.ndarray  # uint8 0/255: bases (strong difference to the map)
    scale: float  # px per mm
    loose: np.ndarray | None = None  # uint8 0/255: any clear difference (hands, arms)


class ForegroundModel:
    def __init__(self, layout: Layout, config: VisionConfig) -> None:
        self.cfg = config
        s = config.px_per_mm
        self.scale = s
        self.size = (int(round(layout.sheet[0] * s)), int(round(layout.sheet[1] * s)))
        ref = render_reference(layout, s)
        ref_gray = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY)
        ref_norm = ref_gray.astype(np.float32) / illumination(ref_gray)
        # The tests of ``extract`` as thresholds per pixel, computed once: a pixel is dark
        # when grey < light x (reference - dark_diff), saturated when its saturation
        # (0-255) exceeds the reference's by sat_diff. Per frame that is one multiply
        # and a compare per test instead of a chain of float images.
        c = config
        self.dark_below = (ref_norm - c.dark_diff).astype(np.float32)
        self.loose_below = (ref_norm - c.hand_dark_diff).astype(np.float32)
        sat255 = saturation(ref) * 255
        self.sat_above = np.clip(sat255 + c.sat_diff * 255, 0, 255).astype(np.uint8)
        self.loose_sat_above = np.clip(sat255 + c.hand_sat_diff * 255, 0, 255).astype(np.uint8)
        # Only cells and zones hold bases; markers and margins are ignored.
        region_mask = np.zeros((self.size[1], self.size[0]), np.uint8)
        for r in layout.regions:
            pts = (np.array(r.polygon) * s).round().astype(np.int32)
            cv2.fillPoly(region_mask, [pts], 255)
        self.region_mask = region_mask
        # Hands are looked for on the sheet, not along its edge, where a blurred frame
        # mixes in the table beyond it (a long thin "change" that would pass for an arm).
        b = int(round(config.sheet_border_mm * s))
        sheet_inner = np.zeros_like(region_mask)
        sheet_inner[b:self.size[1] - b, b:self.size[0] - b] = 255
        self.sheet_inner = sheet_inner
        self.to_sheet = np.diag([1 / s, 1 / s, 1.0])  # working px -> mm
        # Largest area one base (with its dark rim) can cover, in working pixels.
        self.disc_area = float(np.pi * (layout.base_diameters[1] / 2 * 1.2 * s) ** 2)

    def rectify(self, frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
        # Working pixel -> mm -> image pixel: sample the frame there.
        m = homography @ self.to_sheet
        return cv2.warpPerspective(frame, m, self.size,
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)

    def extract(self, frame: np.ndarray, homography: np.ndarray) -> Foreground:
        rect = self.rectify(frame, homography)
        gray = cv2.cvtColor(rect, cv2.COLOR_BGR2GRAY)
        illum = illumination(gray)
        g = gray.astype(np.float32)
        sat = cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)[..., 1]
        dark = g < illum * self.dark_below
        # Saturated, and not black (noise makes black pixels' saturation jump).
        vivid = (sat > self.sat_above) & (g > 0.2 * illum)
        mask = ((dark | vivid).view(np.uint8) * 255) & self.region_mask
        kernel = np.ones((3, 3), np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        # Skin and sleeves differ from paper less than a sticker does: a looser mask,
        # used only to find hands, catches them.
        loose = (g < illum * self.loose_below) | (sat > self.loose_sat_above)
        loose = (loose.view(np.uint8) * 255) & self.sheet_inner
        loose = cv2.morphologyEx(loose, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        return Foreground(rect, illum, fill_holes(mask, self.disc_area), self.scale,
                          fill_holes(loose))


def fill_holes(mask: np.ndarray, disc_area: float = 0.0) -> np.ndarray:
    """A light figure on a base leaves a hole in the mask, or a "C" when it also reaches
    over the rim; a base is a solid disc. Blobs no bigger than one base are filled to
    their convex hull (closing the C), larger ones (touching bases) only inside."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    small = []
    for c in contours:
        if disc_area and len(c) >= 3:
            hull = cv2.convexHull(c)
            if cv2.contourArea(hull) <= disc_area:
                small.append(hull)
                continue
        small.append(c)
    cv2.drawContours(out, small, -1, 255, -1)
    return out
