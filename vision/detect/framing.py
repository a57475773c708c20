"""How well the camera frames the map: pixels per base, and what would give more.

Sticker ids need pixels: at 720p a 25 mm base is about 19 px across when the portrait
map fills the picture's height, and a wedge of its sticker about 5 px. Two setups waste
them: a camera turned so that the map's long side runs along the picture's short side,
and a camera too far away. Measured on the vision bench at 720p (12 scenes x 22 bases),
turning the camera a quarter turn lifts blurred stickers from 89 % read to 100 % and
figure-covered ones from 84 % to 86 %. The table says so once the map is found.

And one size is too small whatever the framing: on the Blender renders bases
14-18 px across at the map's centre (720p) gave a few wrong owners and one wrong id
under figures, bases 21-26 px (1080p) none in any set. Below ``MIN_BASE_PX`` the table
asks for more pixels, unless coming closer or turning the camera (advised) gives them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..layout import Layout

TURN_GAIN = 1.15  # advise a quarter turn when it gives at least this many more pixels
MIN_FILL = 0.7  # advise coming closer when the map spans less of the picture than this
MIN_BASE_PX = 20.0  # bases narrower than this (at the map's centre) are misread now and then


@dataclass(frozen=True)
class Framing:
    base_px: float  # the smallest base's diameter in pixels, at the map's centre
    fill: float  # share of the picture's limiting side the map spans
    turn_gain: float  # pixels per base after a quarter turn, relative to now
    advice: str | None

    def to_dict(self) -> dict[str, object]:
        return {"base_px": round(self.base_px, 1), "fill": round(self.fill, 2),
                "advice": self.advice}


def framing(homography: np.ndarray, layout: Layout, size: tuple[int, int]) -> Framing:
    """``size``: the picture's (width, height) in pixels."""
    w_mm, h_mm = layout.sheet
    corners = np.array([[[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]]], np.float64)
    px = cv2.perspectiveTransform(corners, homography)[0]
    span_x, span_y = np.ptp(px[:, 0]), np.ptp(px[:, 1])
    width, height = size
    fill = max(span_x / width, span_y / height)
    # The same map turned a quarter turn, grown until it meets the picture's edge as
    # much as it does now.
    turn_gain = min(width / span_y, height / span_x) / min(width / span_x, height / span_y)
    # Scale at the centre: a 10 mm step each way there.
    cx, cy = w_mm / 2, h_mm / 2
    pts = np.array([[[cx, cy], [cx + 10, cy], [cx, cy + 10]]], np.float64)
    p = cv2.perspectiveTransform(pts, homography)[0]
    per_mm = (np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 20
    base_px = float(per_mm * layout.base_diameters[0])
    advice = []
    far, turn = fill < MIN_FILL, turn_gain >= TURN_GAIN
    if far:
        advice.append(f"the map spans only {round(fill * 100)} % of the picture: bring the "
                      f"camera closer or zoom in (each base is {base_px:.0f} px across)")
    if turn:
        advice.append(f"turn the camera a quarter turn so the map's long side runs along "
                      f"the picture's width: each base would get about "
                      f"{round((turn_gain - 1) * 100)} % more pixels (now {base_px:.0f} px)")
    if base_px < MIN_BASE_PX and not far and not (turn and base_px * turn_gain >= MIN_BASE_PX):
        advice.append(f"each base is only {base_px:.0f} px across: under {MIN_BASE_PX:.0f} px "
                      f"a sticker under a figure is now and then read wrong; choose the "
                      f"camera's 1080p mode")
    return Framing(base_px, float(fill), float(turn_gain), "; ".join(advice) or None)
