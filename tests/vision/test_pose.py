"""Markers off the board's plane: a thick board with its markers on the
table beside it. The camera is solved from the markers at their stated heights, and
the board's homography from it."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.detect import pose
from vision.detect.locate import MapLocator
from vision.layout import Layout, game_layout

SIZE = (1280, 720)


def _camera(layout: Layout, tilt_deg: float, hfov_deg: float, distance: float = 1500.0):
    """A pinhole camera ``distance`` mm from the sheet's centre, moved toward p1's edge
    by the tilt and looking at the centre: (K, rvec, tvec)."""
    k = np.array([[pose.focal_px(hfov_deg, SIZE[0]), 0, (SIZE[0] - 1) / 2],
                  [0, pose.focal_px(hfov_deg, SIZE[0]), (SIZE[1] - 1) / 2], [0, 0, 1]])
    a = -math.radians(tilt_deg)  # the optical axis turns back toward the centre
    r = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    centre = np.array([layout.sheet[0] / 2, layout.sheet[1] / 2 - distance * math.sin(a),
                       -distance * math.cos(a)])
    return k, cv2.Rodrigues(r)[0], (-r @ centre).reshape(3, 1)


def _board_map(k, rvec, tvec, height=0.0) -> np.ndarray:
    r, _ = cv2.Rodrigues(rvec)
    h = k @ np.column_stack([r[:, 0], r[:, 1], -height * r[:, 2] + tvec.ravel()])
    return h / h[2, 2]


def _worst_mm(a: np.ndarray, b: np.ndarray, layout: Layout) -> float:
    """The largest difference between two board homographies over the play area, in
    board mm (at ``b``'s scale in the middle of the frame)."""
    per_mm = math.sqrt(abs(np.linalg.det(b[:2, :2] / b[2, 2])))
    return _worst_px(a, b, layout) / per_mm


def _worst_px(a: np.ndarray, b: np.ndarray, layout: Layout) -> float:
    """The largest difference between two board homographies over the play area."""
    xs = [x for r in layout.regions for x, _ in r.polygon]
    ys = [y for r in layout.regions for _, y in r.polygon]
    grid = np.array([[x, y] for x in np.linspace(min(xs), max(xs), 9)
                     for y in np.linspace(min(ys), max(ys), 9)], np.float64).reshape(-1, 1, 2)
    return float(np.abs(cv2.perspectiveTransform(grid, a)
                        - cv2.perspectiveTransform(grid, b)).max())


def _lowered(layout: Layout, height: float, first: int = 0) -> Layout:
    """The layout with its markers from index ``first`` on at ``height``."""
    return replace(layout, markers=tuple(replace(m, height=height if i >= first else 0.0)
                                         for i, m in enumerate(layout.markers)))


@pytest.mark.parametrize("tilt, hfov, first", [(0, 60, 5), (0, 78, 0), (20, 60, 0),
                                               (20, 78, 5), (35, 70, 0)])
def test_the_board_is_mapped_through_the_camera(tilt, hfov, first):
    """Markers 20 mm below the board (on the table beside it), all or most of them:
    the pose's board map lies within 1.5 mm of the truth; a homography through the
    markers as if they lay on the board is 4 mm off or more."""
    layout = _lowered(game_layout(), -20.0, first)
    k, rvec, tvec = _camera(layout, tilt, hfov)
    rng = np.random.default_rng(tilt * 100 + hfov)
    points = layout.marker_points()
    heights = {m.id: m.height for m in layout.markers}
    seen = {}
    for i, corners in points.items():
        obj = np.column_stack([corners, np.full(4, -heights[i])]).astype(np.float64)
        img, _ = cv2.projectPoints(obj, rvec, tvec, k, None)
        seen[i] = img.reshape(4, 2) + rng.normal(0, 0.3, (4, 2))  # corner noise
    found = pose.solve(points, heights, seen, SIZE, 70.0)
    assert found is not None and found.rms_px < 1.0
    truth = _board_map(k, rvec, tvec)
    assert _worst_mm(found.plane_map(0.0), truth, layout) < 1.5
    flat, _ = cv2.findHomography(np.concatenate(list(points.values())).astype(np.float64),
                                 np.concatenate(list(seen.values())))
    assert _worst_mm(flat, truth, layout) > 4.0
    # Where the view tells the focal length (tilted, or markers at two heights), it is
    # found; straight down at one height, the stated 70 degrees stands in.
    if tilt or first:
        assert abs(found.hfov_deg - hfov) < 3.0


def test_a_marker_that_moved_is_left_out():
    layout = _lowered(game_layout(), -20.0)
    k, rvec, tvec = _camera(layout, 20, 70)
    points = layout.marker_points()
    seen = {i: cv2.projectPoints(np.column_stack([c, np.full(4, 20.0)]), rvec, tvec, k,
                                 None)[0].reshape(4, 2) for i, c in points.items()}
    seen[3] = seen[3] + 40.0  # a label knocked 3 cm aside
    fit = MapLocator(layout, VisionConfig())._fit(seen, 10.0, SIZE)
    assert fit.homography is not None
    assert _worst_mm(fit.homography, _board_map(k, rvec, tvec), layout) < 1.5


def _picture(layout: Layout, k, rvec, tvec, heights: dict[int, float]) -> np.ndarray:
    """A grey frame with each marker (on a white label) drawn where the camera sees it
    at its height."""
    aruco = cv2.aruco
    dictionary = aruco.getPredefinedDictionary(getattr(aruco, layout.dictionary))
    img = np.full((SIZE[1], SIZE[0]), 120, np.uint8)
    for m in layout.markers:
        tile = aruco.generateImageMarker(dictionary, m.id, 120)
        tile = cv2.copyMakeBorder(tile, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=235)
        (x0, y0), (x1, y1) = np.min(m.corners, axis=0), np.max(m.corners, axis=0)
        pad = (x1 - x0) * 12 / 120
        src = np.float32([[0, 0], [144, 0], [144, 144], [0, 144]])
        dst_mm = np.float64([[x0 - pad, y0 - pad], [x1 + pad, y0 - pad], [x1 + pad, y1 + pad],
                             [x0 - pad, y1 + pad]])
        plane = _board_map(k, rvec, tvec, heights.get(m.id, 0.0))
        dst = cv2.perspectiveTransform(dst_mm.reshape(-1, 1, 2), plane).astype(np.float32)
        warp = cv2.getPerspectiveTransform(src, dst.reshape(4, 2))
        drawn = cv2.warpPerspective(tile, warp, SIZE, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full_like(tile, 255), warp, SIZE)
        img[mask > 127] = drawn[mask > 127]
    return img


def test_the_locator_finds_and_tracks_a_board_over_its_markers():
    """Real ArUco detection on a frame whose markers lie 20 mm below the board: the
    locator's homography maps the board, not the markers' plane, found and tracked."""
    layout = _lowered(game_layout(), -20.0)
    k, rvec, tvec = _camera(layout, 25, 70)
    frame = _picture(layout, k, rvec, tvec, {m.id: m.height for m in layout.markers})
    truth = _board_map(k, rvec, tvec)
    locator = MapLocator(layout, VisionConfig())
    first = locator.locate(frame)
    assert first.found and first.marker_maps is not None
    assert _worst_mm(first.homography, truth, layout) < 1.5
    # The markers' own plane: where the tracking windows and the white balance look.
    assert _worst_mm(first.marker_map(-20.0), _board_map(k, rvec, tvec, -20.0), layout) < 1.5
    dimmer = (frame * 0.75).astype(np.uint8)  # a cloud: the frame is not "still"
    second = locator.locate(dimmer)
    assert second.found and second.mode == "track"
    assert _worst_mm(second.homography, truth, layout) < 1.5
    # Told the markers lie on the board, the same frame maps the board 4 mm off or more.
    flat = MapLocator(game_layout(), VisionConfig()).locate(frame)
    assert flat.found and _worst_mm(flat.homography, truth, layout) > 4.0


@pytest.mark.parametrize("tilt, hfov", [(20, 60), (35, 70), (35, 78)])
def test_the_camera_is_found_from_the_board_alone(tilt, hfov):
    """Markers on the board (one homography): under a tilt the view tells the focal
    length, and the camera's foot and height follow within a few mm."""
    layout = game_layout()
    k, rvec, tvec = _camera(layout, tilt, hfov)
    r, _ = cv2.Rodrigues(rvec)
    at = (-r.T @ tvec).ravel()
    found = pose.camera_over_board(_board_map(k, rvec, tvec), SIZE, 70.0)
    assert found is not None
    assert math.hypot(*(found[:2] - at[:2])) < 5.0
    assert found[2] == pytest.approx(abs(at[2]), rel=0.01)


@pytest.mark.parametrize("hfov", [60, 78])
def test_straight_down_the_foot_is_under_the_middle(hfov):
    """Looking straight down the view does not tell the focal length: the foot is still
    found (under the image's middle); the height follows the stated field of view."""
    layout = game_layout()
    k, rvec, tvec = _camera(layout, 0, hfov)
    found = pose.camera_over_board(_board_map(k, rvec, tvec), SIZE, 70.0)
    assert found is not None
    assert math.hypot(found[0] - layout.sheet[0] / 2, found[1] - layout.sheet[1] / 2) < 2.0
    stated = pose.focal_px(70.0, SIZE[0]) / pose.focal_px(hfov, SIZE[0])
    assert found[2] == pytest.approx(1500.0 * stated, rel=0.01)


def test_no_camera_makes_a_broken_homography():
    assert pose.camera_over_board(np.zeros((3, 3)), SIZE, 70.0) is None
    assert pose.camera_over_board(np.full((3, 3), np.nan), SIZE, 70.0) is None
