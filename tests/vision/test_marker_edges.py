"""Marker corners at the printed squares' true edges, at any resolution up to 12 MP
(``vision/detect/marker_edges.py``), and a reprojection limit that scales with the
image."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.detect.locate import MapLocator
from vision.detect.marker_edges import refine
from vision.printing.sheets import render_sheet
from vision.synth.scene import Conditions, SceneRenderer, _distort


@pytest.mark.parametrize("blur", [0.7, 2.0, 5.0])
def test_a_blurred_squares_corners_are_found_at_its_edges(blur: float) -> None:
    g = np.full((200, 200), 200, np.uint8)
    g[50:150, 50:150] = 50  # edges at 49.5 and 149.5 (pixel centres at whole numbers)
    g = cv2.GaussianBlur(g, (0, 0), blur)
    guess = np.array([[52, 53], [147, 52], [148, 148], [51, 147]], np.float32)  # inside
    truth = np.array([[49.5, 49.5], [149.5, 49.5], [149.5, 149.5], [49.5, 149.5]])
    assert np.abs(refine(g, guess) - truth).max() < 0.1


def test_what_cannot_be_measured_is_left_as_it_was() -> None:
    flat = np.full((100, 100), 128, np.uint8)  # no edge at all
    guess = np.array([[30, 30], [70, 30], [70, 70], [30, 70]], np.float32)
    assert (refine(flat, guess) == guess).all()
    assert (refine(flat, guess + 80) == guess + 80).all()  # reaching off the image


def frame(layout, size: tuple[int, int], blur: float, tilt: float) -> tuple[np.ndarray,
                                                                          np.ndarray]:
    """The printed sheet (black printed as a 25 % grey) seen by a camera: perspective,
    lens blur, sensor noise, JPEG 75. Returns the grey frame and the true homography."""
    s = 5.0  # art px per mm, finer than the frame's ~3.4 at 12 MP
    art = render_sheet(layout, s).astype(np.float32)
    art = (art * 0.75 + 255 * 0.25 * (art < 128)).clip(0, 255).astype(np.uint8)
    h = SceneRenderer(layout).homography(Conditions(tilt_deg=tilt), size)
    index_to_mm = np.array([[1 / s, 0, 0.5 / s], [0, 1 / s, 0.5 / s], [0, 0, 1]])
    f = cv2.warpPerspective(art, h @ index_to_mm, size, flags=cv2.INTER_AREA,
                            borderValue=(40, 50, 60))
    if blur:
        f = cv2.GaussianBlur(f, (0, 0), blur)
    f = (f + np.random.default_rng(0).normal(0, 3, f.shape)).clip(0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 75])
    assert ok
    return cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY), h


def worst_error(layout, h_found: np.ndarray, h_true: np.ndarray) -> float:
    pts = np.concatenate(list(layout.marker_points().values())).reshape(-1, 1, 2)
    a = cv2.perspectiveTransform(pts.astype(np.float64), h_found)
    b = cv2.perspectiveTransform(pts.astype(np.float64), h_true)
    return float(np.linalg.norm(a - b, axis=2).max())


@pytest.mark.parametrize("tilt", [0, 30])
def test_a_soft_12_megapixel_photo_is_located_to_a_pixel_or_two(layout, tilt) -> None:
    """ArUco's corners land 4-9 px inside the printed squares here (the issue saw a
    12 MP photo refused); measured at the edges, the map is found within 2 px."""
    gray, truth = frame(layout, (4000, 3000), blur=5.0, tilt=tilt)
    locator = MapLocator(layout, VisionConfig())
    raw = locator._detect(gray)
    assert len(raw) >= 16
    raw_err = max(np.linalg.norm(c - cv2.perspectiveTransform(
        layout.marker_points()[i].reshape(-1, 1, 2).astype(np.float64), truth).reshape(4, 2),
        axis=1).max() for i, c in raw.items())
    fix = locator.locate(gray)
    assert fix.found and fix.reprojection_px is not None and fix.reprojection_px < 2.0
    err = worst_error(layout, fix.homography, truth)
    print(f"tilt {tilt}: ArUco corners up to {raw_err:.1f} px off; map within {err:.2f} px")
    assert raw_err > 3.0  # the case the refinement is for (the test would show nothing)
    assert err < 2.0


def test_a_sharp_720p_frame_is_not_made_worse(layout) -> None:
    gray, truth = frame(layout, (1280, 720), blur=0.0, tilt=20)
    fix = MapLocator(layout, VisionConfig()).locate(gray)
    assert fix.found and worst_error(layout, fix.homography, truth) < 1.0


def test_the_reprojection_limit_grows_with_the_image(layout) -> None:
    """A strongly barrel-distorted 12 MP photo: a homography cannot follow the lens, and
    leaves 7 px of residue there, as little an angle as 2 px at 720p. A fixed 6 px limit
    refuses the map; one that scales with the image (20 px at 12 MP) takes it."""
    gray, _ = frame(layout, (4000, 3000), blur=5.0, tilt=10)
    bgr = _distort(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), -0.1)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    fixed = replace(VisionConfig(), max_reprojection_share=0.0)
    assert not MapLocator(layout, fixed).locate(gray).found
    fix = MapLocator(layout, VisionConfig()).locate(gray)
    assert fix.found and 6.0 < fix.reprojection_px < 20.0
