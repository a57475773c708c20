"""Drawing what the detector saw on the frame (for `vision live` and the dashboard)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .detect.pipeline import Detection, SeenBase

COLORS = {"p1": (0, 140, 255), "p2": (255, 120, 0), None: (200, 200, 200)}


def reading(b: SeenBase) -> str:
    """What the detector read, for people who debug it: owner and sticker ("p2:20")."""
    return f"{b.owner or '?'}:{b.sticker if b.sticker is not None else b.tag[0]}"


def annotate(frame: np.ndarray, det: Detection,
             label: Callable[[SeenBase], str] = reading) -> np.ndarray:
    """The frame with the map's regions and each base seen drawn on it, in its owner's
    colour, labelled by ``label`` (a screen players read gives the piece's name)."""
    out = frame.copy()
    layout = det.layout
    if not det.fix.found or layout is None:
        cv2.putText(out, "map not found", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    (0, 0, 255), 2, cv2.LINE_AA)
        return out
    h = det.fix.homography

    def proj(pts) -> np.ndarray:
        arr = np.array(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(arr, h).reshape(-1, 2)

    overlay = out.copy()
    for r in layout.regions:
        poly = proj(r.polygon).round().astype(np.int32)
        if r.name in det.occluded:
            cv2.fillPoly(overlay, [poly], (0, 0, 255))
        cv2.polylines(out, [poly], True, (90, 200, 90), 1, cv2.LINE_AA)
    out = cv2.addWeighted(overlay, 0.25, out, 0.75, 0)
    for b in det.bases:
        c = proj([(b.x_mm, b.y_mm)])[0]
        edge = proj([(b.x_mm + b.diameter_mm / 2, b.y_mm)])[0]
        rad = max(3, int(np.linalg.norm(edge - c)))
        color = COLORS.get(b.owner, COLORS[None])
        cv2.circle(out, (int(c[0]), int(c[1])), rad + 2, color, 2, cv2.LINE_AA)
        cv2.putText(out, label(b), (int(c[0]) + rad, int(c[1]) - rad), cv2.FONT_HERSHEY_SIMPLEX,
                    0.4, color, 1, cv2.LINE_AA)
    status = (f"markers {len(det.fix.markers_seen)}  reproj "
              f"{det.fix.reprojection_px or 0:.2f}px  {det.timing_ms.get('total', 0):.0f} ms"
              + ("  MOVED" if det.fix.moved else "")
              + ("  (memory)" if det.fix.from_memory else ""))
    cv2.putText(out, status, (10, out.shape[0] - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                (255, 255, 255), 1, cv2.LINE_AA)
    return out
