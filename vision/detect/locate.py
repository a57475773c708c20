"""Stage 1: find the map. ArUco markers -> homography from sheet millimetres to image
pixels.

Full-frame marker search costs most of a frame's budget, so once the map is found the
locator tracks it: it looks for markers only in small windows around where they were,
packed into one mosaic image, and searches the whole frame again every
``full_detect_every`` frames or when tracking loses too many markers. A homography
that moves the markers by more than ``bump_px`` means the map (or the camera) moved.
Markers the layout puts off the board's plane (on the table beside a thick board) are
fitted through the camera's pose instead (``pose.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout
from ..shrink import shrink
from . import marker_edges, pose


@dataclass
class MapFix:
    found: bool
    homography: np.ndarray | None  # sheet mm -> image px
    markers_seen: list[int]
    reprojection_px: float | None
    moved: bool = False  # differs from the previous fix: bumped map or camera
    from_memory: bool = False  # too few markers this frame; last good fix reused
    mode: str = "full"  # "full" or "track"
    # Markers off the board's plane: height (mm) -> that plane's homography; None when
    # every marker lies on the board (``homography`` maps them too).
    marker_maps: dict[float, np.ndarray] | None = None

    def marker_map(self, height: float) -> np.ndarray | None:
        """The homography that maps a marker ``height`` mm over the board."""
        if self.marker_maps is None or not height:
            return self.homography
        return self.marker_maps.get(height, self.homography)


class _Fit(NamedTuple):
    homography: np.ndarray | None  # board mm -> image px
    err: float | None  # RMS corner error, px
    maps: dict[float, np.ndarray] | None = None  # MapFix.marker_maps


_SUBPIX_STOP = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)


class MapLocator:
    def __init__(self, layout: Layout, config: VisionConfig) -> None:
        self.layout = layout
        self.cfg = config
        aruco = cv2.aruco
        dictionary = aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary))
        params = self._parameters()
        params.cornerRefinementMethod = aruco.CORNER_REFINE_SUBPIX
        self.detector = aruco.ArucoDetector(dictionary, params)
        # One adaptive-threshold pass (window 13 px) finds the markers in almost every
        # frame at half the cost of the default three; the full search runs only when it
        # finds too few.
        fast = self._parameters()
        fast.cornerRefinementMethod = aruco.CORNER_REFINE_SUBPIX
        fast.adaptiveThreshWinSizeMin = fast.adaptiveThreshWinSizeMax = 13
        self.fast_detector = aruco.ArucoDetector(dictionary, fast)
        # On a half-size copy: a quarter of the pixels, and markers still 15+ px wide
        # at 720p; their corners are then refined on the full image. The window is
        # halved with the image, and sub-pixel refinement waits for the full image.
        half = self._parameters()
        half.adaptiveThreshWinSizeMin = half.adaptiveThreshWinSizeMax = 7
        self.half_detector = aruco.ArucoDetector(dictionary, half)
        self.points = layout.marker_points()
        self.heights = {m.id: m.height for m in layout.markers}
        self._focal: float | None = None  # px, once a pose has been solved
        self.last: MapFix | None = None
        self.since_full = 0
        self._patches: list[tuple[int, int, int, int, np.ndarray]] = []
        self._patch_source: tuple[np.ndarray, MapFix, list[int]] | None = None

    def _parameters(self) -> cv2.aruco.DetectorParameters:
        params = cv2.aruco.DetectorParameters()
        params.perspectiveRemovePixelPerCell = self.cfg.marker_pixels_per_cell
        params.perspectiveRemoveIgnoredMarginPerCell = self.cfg.marker_cell_margin
        return params

    # -- marker search ----------------------------------------------------------------
    def _detect(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        """Cheapest search first: half size, then one pass at full size, then the full
        three-pass search, each only when the one before found too few markers."""
        enough = max(self.cfg.min_markers, len(self.points) // 2)
        out: dict[int, np.ndarray] = {}
        if min(gray.shape) >= self.cfg.half_search_min_px:
            out = self._search_half(gray)
        for detector in (self.fast_detector, self.detector):
            if len(out) >= enough:
                break
            more = self._search(detector, gray)
            if len(more) > len(out):
                out = more
        return out

    def _search_half(self, gray: np.ndarray) -> dict[int, np.ndarray]:
        small = shrink(gray, 2)
        found = self._search(self.half_detector, small)
        if not found:
            return {}
        ids = list(found)
        # A half-size pixel (i, j) covers full-size pixels 2i..2i+1: centre 2i + 0.5.
        corners = np.concatenate([found[i] for i in ids]).astype(np.float32) * 2 + 0.5
        corners = corners.reshape(-1, 1, 2)
        cv2.cornerSubPix(gray, corners, (3, 3), (-1, -1), _SUBPIX_STOP)
        corners = corners.reshape(-1, 4, 2)
        return {i: corners[k] for k, i in enumerate(ids)}

    def _search(self, detector: cv2.aruco.ArucoDetector,
                gray: np.ndarray) -> dict[int, np.ndarray]:
        corners, ids, _ = detector.detectMarkers(gray)
        out: dict[int, np.ndarray] = {}
        if ids is not None:
            for c, i in zip(corners, ids.ravel(), strict=True):
                if int(i) in self.points:
                    out[int(i)] = c.reshape(4, 2)
        return out

    def _project(self, mid: int, fix: MapFix) -> np.ndarray:
        """Where marker ``mid``'s corners fall in the image under ``fix`` (4 x 2)."""
        h = fix.marker_map(self.heights.get(mid, 0.0))
        return cv2.perspectiveTransform(
            self.points[mid].reshape(-1, 1, 2).astype(np.float64), h).reshape(4, 2)

    def _track(self, gray: np.ndarray, last: MapFix) -> dict[int, np.ndarray]:
        """Search windows around each marker's last position, as one mosaic image."""
        boxes = []
        for mid in self.points:
            proj = self._project(mid, last)
            x0, y0 = proj.min(axis=0)
            x1, y1 = proj.max(axis=0)
            pad = max(x1 - x0, y1 - y0) * 0.6 + 4
            bx0, by0 = int(max(0, x0 - pad)), int(max(0, y0 - pad))
            bx1, by1 = int(min(gray.shape[1], x1 + pad)), int(min(gray.shape[0], y1 + pad))
            if bx1 - bx0 > 8 and by1 - by0 > 8:
                boxes.append((mid, bx0, by0, bx1, by1))
        if not boxes:
            return {}
        cell = max(max(b[3] - b[1], b[4] - b[2]) for b in boxes) + 8
        cols = int(np.ceil(np.sqrt(len(boxes))))
        rows = int(np.ceil(len(boxes) / cols))
        mosaic = np.full((rows * cell, cols * cell), 255, np.uint8)
        offsets = []
        for k, (_, x0, y0, x1, y1) in enumerate(boxes):
            r, c = divmod(k, cols)
            ox, oy = c * cell + 4, r * cell + 4
            mosaic[oy:oy + y1 - y0, ox:ox + x1 - x0] = gray[y0:y1, x0:x1]
            offsets.append((ox - x0, oy - y0, ox, oy, ox + x1 - x0, oy + y1 - y0))
        found = self._detect(mosaic)
        out: dict[int, np.ndarray] = {}
        for mid, pts in found.items():
            cx, cy = pts.mean(axis=0)
            for (dx, dy, ox0, oy0, ox1, oy1) in offsets:
                if ox0 <= cx < ox1 and oy0 <= cy < oy1:
                    out[mid] = pts - np.array([dx, dy], np.float32)
                    break
        return out

    # -- homography -------------------------------------------------------------------
    def _spread(self, seen: dict[int, np.ndarray]) -> float:
        """Area of the hull of the seen markers' centres, as a share of the sheet: a
        homography from markers bunched in one corner extrapolates badly elsewhere."""
        centres = np.array([self.points[i].mean(axis=0) for i in seen], np.float32)
        if len(centres) < 3:
            return 0.0
        hull = cv2.convexHull(centres)
        w, h = self.layout.sheet
        return float(cv2.contourArea(hull)) / (w * h)

    def _fit_measured(self, gray: np.ndarray, seen: dict[int, np.ndarray], search: bool
                      ) -> tuple[_Fit, dict[int, np.ndarray]]:
        """The homography from the markers' corners; when it fits loosely (a blurred or
        very large frame, where ArUco's thresholded corners sit inside the printed
        squares), the corners are measured again at the squares' edges and it is fitted
        anew. Sharp frames fit well at once and pay nothing for this. ``search``: a
        camera pose (markers off the board) looks for its focal length again."""
        limit = max(self.cfg.max_reprojection_px,
                    self.cfg.max_reprojection_share * float(np.hypot(*gray.shape[:2])))
        size = (gray.shape[1], gray.shape[0])
        fit = self._fit(seen, limit, size, search)
        if fit.err is not None and fit.err > self.cfg.refine_corners_above_px:
            better = {i: marker_edges.refine(gray, c) for i, c in seen.items()}
            fit2 = self._fit(better, limit, size, search)
            if fit2.err is not None and fit2.err < fit.err:
                return fit2, better
        return fit, seen

    def _fit(self, seen: dict[int, np.ndarray], limit: float, size: tuple[int, int],
             search: bool = True) -> _Fit:
        if len(seen) < self.cfg.min_markers or self._spread(seen) < self.cfg.min_marker_spread:
            return _Fit(None, None)
        if not self.layout.markers_on_board:
            return self._fit_pose(seen, limit, size, search)
        src = np.concatenate([self.points[i] for i in seen]).astype(np.float64)
        dst = np.concatenate([seen[i] for i in seen]).astype(np.float64)
        h, _ = cv2.findHomography(src, dst, cv2.RANSAC, self.cfg.ransac_px)
        if h is None:
            return _Fit(None, None)
        proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
        err = float(np.sqrt(np.mean(np.sum((proj - dst) ** 2, axis=1))))
        if err > limit:
            return _Fit(None, err)
        return _Fit(h, err)

    def _fit_pose(self, seen: dict[int, np.ndarray], limit: float, size: tuple[int, int],
                  search: bool) -> _Fit:
        """The board's homography through the camera's pose (markers off its plane). A
        marker that fits far worse than the others (found wrong, or moved) is left out
        once, as RANSAC leaves out stray corners on a flat board."""
        focal = None if search or self._focal is None else self._focal
        found = pose.solve(self.points, self.heights, seen, size, self.cfg.camera_hfov_deg,
                           focal)
        if found is None:
            return _Fit(None, None)
        errs = pose.marker_errors(found, self.points, self.heights, seen)
        worst = max(errs, key=lambda i: errs[i])
        typical = float(np.median(list(errs.values())))
        if len(seen) > self.cfg.min_markers and errs[worst] > max(3 * typical,
                                                                  self.cfg.ransac_px):
            rest = {i: c for i, c in seen.items() if i != worst}
            again = pose.solve(self.points, self.heights, rest, size,
                               self.cfg.camera_hfov_deg, focal)
            if again is not None:
                found = again
        if found.rms_px > limit:
            return _Fit(None, found.rms_px)
        self._focal = float(found.k[0, 0])
        maps = {z: found.plane_map(z) for z in set(self.heights.values())}
        return _Fit(maps[0.0] if 0.0 in maps else found.plane_map(0.0), found.rms_px, maps)

    def _displacement(self, a: np.ndarray, b: np.ndarray) -> float:
        pts = np.concatenate(list(self.points.values())).reshape(-1, 1, 2).astype(np.float64)
        pa = cv2.perspectiveTransform(pts, a)
        pb = cv2.perspectiveTransform(pts, b)
        return float(np.max(np.linalg.norm(pa - pb, axis=2)))

    def _remember_patches(self, gray: np.ndarray, fix: MapFix, seen: dict) -> None:
        """Keep the pixels of each seen marker, to check cheaply that nothing moved. They
        are cut out when the next frame asks (a single image never does): until then
        the frame's grey image is kept, which nothing writes to."""
        self._patch_source = (gray, fix, list(seen))
        self._patches = []

    def _cut_patches(self) -> list[tuple[int, int, int, int, np.ndarray]]:
        if self._patch_source is not None:
            gray, fix, seen = self._patch_source
            self._patch_source = None
            for mid in seen:
                proj = self._project(mid, fix)
                x0, y0 = np.floor(proj.min(axis=0)).astype(int)
                x1, y1 = np.ceil(proj.max(axis=0)).astype(int)
                x0, y0 = max(0, x0), max(0, y0)
                x1, y1 = min(gray.shape[1], x1), min(gray.shape[0], y1)
                if x1 - x0 > 4 and y1 - y0 > 4:
                    self._patches.append((x0, y0, x1, y1, gray[y0:y1, x0:x1].astype(np.int16)))
        return self._patches

    def _still(self, gray: np.ndarray) -> bool:
        """Most markers look exactly as they did: the map has not moved."""
        patches = self._cut_patches()
        if not patches:
            return False
        same = 0
        for x0, y0, x1, y1, patch in patches:
            diff = np.abs(gray[y0:y1, x0:x1].astype(np.int16) - patch).mean()
            same += diff < self.cfg.still_marker_diff
        return same >= 0.75 * len(patches)

    def locate(self, gray: np.ndarray) -> MapFix:
        last = self.last if self.last is not None and self.last.found else None
        seen: dict[int, np.ndarray] = {}
        mode = "full"
        tracking = last is not None and self.since_full < self.cfg.full_detect_every
        if tracking and last is not None and not last.from_memory and self._still(gray):
            self.since_full += 1
            return MapFix(True, last.homography, last.markers_seen, last.reprojection_px,
                          mode="still", marker_maps=last.marker_maps)
        if last is not None and self.since_full < self.cfg.full_detect_every:
            seen = self._track(gray, last)
            mode = "track"
            if len(seen) < max(self.cfg.min_markers, len(last.markers_seen) // 2):
                seen, mode = self._detect(gray), "full"
        else:
            seen = self._detect(gray)
        self.since_full = 0 if mode == "full" else self.since_full + 1
        fit, seen = self._fit_measured(gray, seen, search=mode == "full")
        h, err, maps = fit
        if h is None:
            if last is not None:
                # Markers covered (hands) or a bad frame: keep the last good fix.
                fix = MapFix(True, last.homography, sorted(seen), last.reprojection_px,
                             from_memory=True, mode=mode, marker_maps=last.marker_maps)
                return fix
            fix = MapFix(False, None, sorted(seen), err, mode=mode)
            self.last = fix
            return fix
        moved = last is not None and self._displacement(h, last.homography) > self.cfg.bump_px
        if last is not None and not moved:
            # Small jitter: keep the old homography so the rectified image stays still.
            h, maps = last.homography, last.marker_maps
        fix = MapFix(True, h, sorted(seen), err, moved=moved, mode=mode, marker_maps=maps)
        self.last = fix
        self._remember_patches(gray, fix, seen)
        return fix

    def reset(self) -> None:
        self.last = None
        self.since_full = 0
        self._focal = None
