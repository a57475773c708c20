"""The second source of frames: Blender renders through a webcam model, and
the detector scored on them. The committed frames (tests/data/renders, written by
``tablesight vision render``) need no Blender; one test renders a small scene with the
real Blender, which CI and ``./run tests`` install."""

from __future__ import annotations

import math
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.bench_rendered import COMMITTED_RENDERS
from tablesight.bench_scoring import VisionTally, match_bases
from vision import tags
from vision.config import VisionConfig
from vision.detect import Detector
from vision.detect.locate import MapLocator
from vision.layout import game_layout
from vision.photoreal import frames, spec, webcam

LAYOUT = game_layout()


def _score(frame_list: list[frames.Frame], config: VisionConfig | None = None
           ) -> dict[str, float]:
    tally = VisionTally()
    for f in frame_list:
        tally.add(LAYOUT, f.scene, Detector(LAYOUT, config).detect(f.image))
    return tally.report()


@pytest.fixture(scope="module")
def committed() -> list[frames.Frame]:
    return frames.load(LAYOUT, COMMITTED_RENDERS)


# -- the committed frames --------------------------------------------------------------
def test_committed_frames_are_complete(committed: list[frames.Frame]) -> None:
    assert len(committed) >= 8
    assert {f.figures for f in committed} == {True, False}
    assert {f.quality for f in committed} >= {75, 90}
    for f in committed:
        assert f.image.shape[:2] == (720, 1280)
        assert len(f.scene.bases) >= 15


def test_no_wrong_id_on_rendered_frames(committed: list[frames.Frame]) -> None:
    """Precision: on webcam-like frames, with and without figures, every id read is
    right (the bar the issue sets: never a guess)."""
    report = _score(committed)
    assert report["map_localization_rate"] == 1.0
    assert report["wrong_ids"] == 0
    plain = _score([f for f in committed if not f.figures])
    assert plain["wrong_owners"] == 0
    # Measured when committed: 0.93 at MJPEG 90, 0.83 at 75 (see docs/vision).
    assert plain["identity_accuracy"] >= 0.8
    assert plain["occupancy_accuracy"] >= 0.98


def test_figures_heads_are_few_phantom_bases(committed: list[frames.Frame]) -> None:
    """A tall figure's head leaning away from the camera, or a wide one's arms, is found
    beside its base as a disc of its own. One that overlaps its base further than two
    bases can, or that reads smaller than any base and touches another, is dropped
    (``bases.figure_parts``): on the committed frames with figures, bases found where
    none stands went from 5 to 1. The one left, a figure's shadow between two bases in
    scene-103 at MJPEG 90, is a disc far from filled (distance peak 0.66 of its radius),
    but so are true bases under figures now and then (0.68 on held-out renders): no
    rule on the fill tells them apart."""
    phantoms = bases = 0
    for f in (f for f in committed if f.figures):
        _pairs, extra = match_bases(f.scene.bases, Detector(LAYOUT).detect(f.image).bases)
        phantoms += len(extra)
        bases += len(f.scene.bases)
    assert bases >= 100
    assert phantoms <= 1


def test_the_fit_reads_what_the_thresholds_cannot(committed: list[frames.Frame]) -> None:
    """Without the ring fit (thresholds only), the same frames read fewer stickers,
    and some wrong: the second decoder earns its place."""
    plain = [f for f in committed if not f.figures]
    with_fit = _score(plain)
    without = _score(plain, replace(VisionConfig(), ring_fit=False))
    assert with_fit["identity_accuracy"] > without["identity_accuracy"] + 0.05
    assert with_fit["wrong_ids"] <= without["wrong_ids"]


def test_a_sure_fit_overrules_a_thresholds_misreading(committed: list[frames.Frame]
                                                     ) -> None:
    """A washed-out sticker shows the thresholds' decoder a few wedges, enough to name
    another pattern, while the ring fit reads it clearly: two such rings among the
    committed frames without figures (and 46 on held-out renders, the fit right in
    every one) were left unread as a disagreement. Where the fit is sure
    (``fit_overrule_lead``), its reading stands; never a wrong id either way. (The
    reading against the frame's print reads such rings too, so it is left out here.)"""
    plain = [f for f in committed if not f.figures]
    alone = replace(VisionConfig(), print_lead=0.0)
    sure = _score(plain, alone)
    never = _score(plain, replace(alone, fit_overrule_lead=float("inf")))
    assert sure["wrong_ids"] == never["wrong_ids"] == 0
    assert sure["identity_accuracy"] > never["identity_accuracy"]


# -- the webcam model ------------------------------------------------------------------
def _deliver(linear: np.ndarray, **kw: float | int | str) -> np.ndarray:
    cam = replace(webcam.Webcam(), exposure_drift=0.0, wb_error=0.0, wb_drift=0.0, **kw)
    return webcam.deliver(linear.astype(np.float32), cam, np.random.default_rng(0))


def test_markers_are_read_on_the_committed_frames(committed: list[frames.Frame]) -> None:
    """Markers 35-45 px wide, blurred and compressed: ArUco reads the cells' middles
    (``marker_pixels_per_cell``, ``marker_cell_margin``). With OpenCV's defaults it read
    164 of the 240 markers these frames show (7 of 20 on one)."""
    locator = MapLocator(LAYOUT, VisionConfig())
    known = {m.id for m in LAYOUT.markers}
    counts = []
    for f in committed:
        _corners, ids, _ = locator.detector.detectMarkers(
            cv2.cvtColor(f.image, cv2.COLOR_BGR2GRAY))
        found = [] if ids is None else ids.ravel().tolist()
        assert set(found) <= known and len(set(found)) == len(found)
        counts.append(len(found))
    assert sum(counts) >= 0.95 * len(known) * len(committed), counts
    assert min(counts) >= 15, counts


def test_barrel_distortion_bows_lines_outward() -> None:
    h, w = 360, 640
    img = np.full((h, w, 3), 0.5, np.float32)
    img[70:74, :] = 0.02  # a straight dark line across the top
    out = _deliver(img, k1=-0.12, vignette=0.0, softness=0.0, shot=0.0, read=0.0,
                   rows=0.0, sharpen=0.0, quality=95)
    grey = out.mean(axis=2)

    def line_y(x: int) -> float:
        return float(np.argmin(grey[:180, x]))

    # Barrel: the middle of the line lies further from the centre than its ends.
    assert line_y(w // 2) < line_y(60) - 2
    assert line_y(w // 2) < line_y(w - 60) - 2


def test_auto_exposure_and_white_balance() -> None:
    """A dim and a bright render come out alike; a warm cast is balanced away."""
    rng = np.random.default_rng(1)
    scene = rng.uniform(0.2, 1.0, (120, 160, 3)).astype(np.float32)
    dim = _deliver(scene * 0.02)
    bright = _deliver(scene * 3.0)
    assert abs(float(dim.mean()) - float(bright.mean())) < 0.1 * float(bright.mean())
    warm = _deliver(np.full((120, 160, 3), (0.3, 0.6, 0.9), np.float32))  # BGR: orange
    b, g, r = (float(warm[..., i].mean()) for i in range(3))
    assert max(b, g, r) - min(b, g, r) < 12


def test_read_render_refuses_a_damaged_file(tmp_path: Path) -> None:
    bad = tmp_path / "x.lin"
    bad.write_bytes(b"not zlib")
    (tmp_path / "x.lin.json").write_text('{"width": 2, "height": 2, "scale": 1}')
    with pytest.raises(OSError, match=r"x\.lin"):
        webcam.read_render(bad)


@pytest.mark.parametrize("text", ["{", "[]", '{"bases": [{"x": 1}]}', '{"bases": 3}'])
def test_a_damaged_frame_set_is_refused_by_name(tmp_path: Path, text: str) -> None:
    (tmp_path / "scene-1.json").write_text(text)
    with pytest.raises(OSError, match=r"scene-1\.json"):
        frames.load(LAYOUT, tmp_path)


# -- the scene ---------------------------------------------------------------------------
@pytest.mark.parametrize("tilt", [0.0, 20.0, 35.0])
def test_camera_frames_the_sheet(tilt: float) -> None:
    look = spec.Look(tilt_deg=tilt, fill=0.9, hfov_deg=70.0)
    cam = spec._camera(LAYOUT, look)
    m = np.array(cam["matrix"])
    right, up, back, pos = m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3]
    f_px = cam["lens_mm"] / cam["sensor_mm"] * look.size[0]
    w, h = LAYOUT.sheet[0] / 1000, LAYOUT.sheet[1] / 1000
    us, vs = [], []
    for x in (-w / 2, w / 2):
        for y in (-h / 2, h / 2):
            rel = np.array([x, y, 0.0]) - pos
            z = -(rel @ back)
            assert z > 0  # in front of the camera
            us.append(f_px * (rel @ right) / z)
            vs.append(f_px * (rel @ up) / z)
    span_u, span_v = np.ptp(us), np.ptp(vs)
    assert max(np.abs(us)) <= look.size[0] / 2 + 1
    assert max(np.abs(vs)) <= look.size[1] / 2 + 1
    # The sheet fills the asked share of the frame's height (or its width's limit).
    assert math.isclose(2 * max(np.abs(vs)), look.size[1] * look.fill, rel_tol=0.02) or \
        math.isclose(2 * max(np.abs(us)), look.size[0] * 0.97, rel_tol=0.02)
    assert span_u > 0 and span_v > 0
    # The p1 side (the layout's bottom, Blender's -y) is nearer a tilted camera.
    assert pos[1] <= 1e-9 if tilt else abs(pos[1]) < 1e-9


def test_figures_are_tall_and_varied() -> None:
    rng = np.random.default_rng(3)
    heights, paints = [], set()
    for _ in range(40):
        parts = spec.random_figure(rng, 12.5)
        heights.append(max(p["top_mm"] for p in parts))
        paints.update(p["paint"] for p in parts)
    assert min(heights) >= 18 and max(heights) <= 45
    assert {"gold", "p1 hue", "p2 hue"} <= paints  # metallic and player-hued paint


# -- the real Blender ------------------------------------------------------------------
def test_blender_renders_a_scene_the_detector_reads(tmp_path: Path) -> None:
    """A small scene through the real Blender (Cycles on the CPU) and the webcam: the
    map is found and the bases where they stand, with their owners."""
    assert shutil.which("blender"), "Blender is missing: ./run tests installs it"
    scene = spec.random_render_scene(LAYOUT, 7, figures=False, n_bases=6, max_tilt=10)
    scene.look = replace(scene.look, samples=8, curl_mm=1.0, paper_roughness=0.5)
    renders = frames.render(LAYOUT, [scene], tmp_path / "job", timeout=600)
    (frame,) = frames.film(LAYOUT, [scene], renders, [90])
    d = Detector(LAYOUT).detect(frame.image)
    assert d.fix.found
    pairs, extra = match_bases(scene.scene.bases, d.bases)
    found = [(b, s) for b, s in pairs if s is not None]
    assert len(found) >= 5 and not extra
    assert all(s.owner in (None, b.owner) for b, s in found)
    assert all(s.sticker in (None, b.tag) for b, s in found if s.tag == "read")
    # Streamed (what the bench's "streamed" figures film): the first frame is the one
    # filmed above, the next ones the same camera with new noise and drift.
    first, second = frames.stream(scene, renders[0], 90, 2)
    assert first.jpeg == frame.jpeg and first.truth["webcam"] == frame.truth["webcam"]
    assert second.jpeg != first.jpeg and second.truth["webcam"] == first.truth["webcam"]
    assert float(np.abs(second.image.astype(float) - first.image).mean()) < 8
    # The id pass: with no figure every sticker shows whole, and it is read the right
    # way round. Its ink wedges are the darkest of its ink and colour wedges in the
    # picture itself, which they would not be if the pass's wedges were turned.
    assert [b["wedges_seen"] for b in frame.truth["bases"]] == [10] * 6
    ids = frames.read_ids(renders[0])
    assert ids is not None
    linear = webcam.read_render(renders[0]).sum(axis=2)
    which = np.rint(ids[..., 0]).astype(int)
    for i, b in enumerate(frame.truth["bases"]):
        on = which == i + 1
        r, wedge = frames.wedge_at(ids[on, 1], ids[on, 2], b["angle"])
        lum = linear[on][(r > 0.6) & (r < 0.9)]
        wedge = wedge[(r > 0.6) & (r < 0.9)]
        means = {k: float(lum[wedge == k].mean()) for k in range(tags.SECTORS)}
        word = tags.symbols_of(b["tag"])
        ink = [means[k] for k in range(tags.SECTORS) if word[k] == tags.INK]
        colour = [means[k] for k in range(tags.SECTORS) if word[k] == tags.COLOUR]
        assert max(ink) < min(colour), (i, word, means)


def test_the_renders_say_how_much_of_each_sticker_the_figures_hide(tmp_path: Path) -> None:
    """The truth of what a camera could see: figures under a tilted camera hide part
    of some stickers, and the bench scores identity by how many wedges show."""
    assert shutil.which("blender"), "Blender is missing: ./run tests installs it"
    scene = spec.random_render_scene(LAYOUT, 505, figures=True, n_bases=8, max_tilt=35)
    scene.look = replace(scene.look, samples=4)
    renders = frames.render(LAYOUT, [scene], tmp_path / "job", timeout=600)
    seen = frames.visibility(renders[0], scene.truth()["bases"])
    assert seen is not None and len(seen) == 8
    assert all(0 <= n <= tags.SECTORS for n in seen)
    assert min(seen) < tags.SECTORS, seen  # some figure hides some of its sticker
    # Hiding the figures shows every sticker whole again.
    bare = frames.read_ids(renders[0], bare=True)
    shown = frames.read_ids(renders[0])
    assert bare is not None and shown is not None
    assert ((np.rint(shown[..., 0]) > 0) & (np.rint(bare[..., 0]) == 0)).sum() == 0
    assert (np.rint(bare[..., 0]) > 0).sum() > (np.rint(shown[..., 0]) > 0).sum()
    (frame,) = frames.film(LAYOUT, [scene], renders, [90])
    tally = VisionTally()
    tally.add(LAYOUT, frame.scene, Detector(LAYOUT).detect(frame.image), seen)
    by_view = tally.report()["identity_by_wedges_in_view"]
    assert sum(v["bases"] for v in by_view.values()) >= 6


def test_the_render_cache_tells_stickers_drawn_apart(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache names a job by everything it is drawn from, the pictures too: the same
    scenes give the same name, and stickers printed with other patterns (the job's
    text unchanged) another one, so a changed sticker is rendered, not served stale."""
    scene = spec.random_render_scene(LAYOUT, 77, figures=False, n_bases=3, size=(320, 180))
    spec.write_job(LAYOUT, [scene], tmp_path / "a")
    spec.write_job(LAYOUT, [scene], tmp_path / "b")
    assert frames.job_digest(tmp_path / "a") == frames.job_digest(tmp_path / "b")
    turned = tuple(word[1:] + word[:1] for word in tags.CODEWORDS)
    monkeypatch.setattr(tags, "CODEWORDS", turned)
    spec.write_job(LAYOUT, [scene], tmp_path / "c")
    assert ((tmp_path / "c" / "job.json").read_bytes() ==
            (tmp_path / "a" / "job.json").read_bytes())
    assert frames.job_digest(tmp_path / "c") != frames.job_digest(tmp_path / "a")


def test_an_id_pass_that_is_damaged_is_refused_by_name(tmp_path: Path) -> None:
    lin = tmp_path / "scene-1.lin"
    (tmp_path / "scene-1.ids.json").write_text('{"width": 4, "height": 2, '
                                               '"byteorder": "little"}')
    (tmp_path / "scene-1.ids").write_bytes(b"not zlib")
    with pytest.raises(OSError, match=r"scene-1\.ids"):
        frames.read_ids(lin)
    assert frames.read_ids(tmp_path / "scene-2.lin") is None  # none: an older render


# -- a board the project did not print ---------------------------------------------------
def test_a_wooden_board_is_learned_empty_and_then_read(tmp_path: Path) -> None:
    """A wooden board with burnt-in lines, its markers on white labels (Blender), shown
    empty once: the detector learns its look. Against the printed map it called most
    of the board a hand; against the learned board every base is found, where it
    stands, and nothing is read wrong."""
    from vision.photoreal import boards
    from vision.synth.scene import Scene

    board = boards.wooden_board(LAYOUT, spec.SHEET_PX_PER_MM, 1)
    full = spec.random_render_scene(LAYOUT, 21, figures=False, n_bases=12, max_tilt=15)
    full.board = board
    full.look = replace(full.look, samples=12, curl_mm=0.0)
    empty = spec.RenderScene(full.name + "-empty", full.seed, Scene(LAYOUT, []),
                             full.look, {}, board)
    renders = frames.render(LAYOUT, [empty, full], tmp_path / "job", timeout=900)
    seen_empty, seen_full = frames.film(LAYOUT, [empty, full], renders, [90])

    printed = VisionTally()
    printed.add(LAYOUT, full.scene, Detector(LAYOUT).detect(seen_full.image))
    assert printed.report()["false_occlusion_rate"] > 0.5  # the wood is "a hand"

    det = Detector(LAYOUT)
    learned = det.learn_board(seen_empty.image)
    assert learned.shape[:2] == det.foreground.area.shape
    tally = VisionTally()
    tally.add(LAYOUT, full.scene, det.detect(seen_full.image))
    r = tally.report()
    assert r["false_occlusion_rate"] == 0.0
    # Measured: 11 or 12 of 12 bases found (Cycles at 12 or 16 samples), one region
    # of 31 miscounted at most.
    assert r["base_recall"] >= 0.9 and r["occupancy_accuracy"] >= 0.96
    assert r["wrong_ids"] == 0 and r["wrong_owners"] == 0

    # The learned picture, saved and given again, reads the same.
    again = Detector(LAYOUT)
    again.use_board(learned)
    assert len(again.detect(seen_full.image).bases) == len(det.detect(seen_full.image).bases)


def test_learning_a_board_needs_its_markers() -> None:
    det = Detector(LAYOUT)
    with pytest.raises(ValueError, match="markers were not found"):
        det.learn_board(np.full((720, 1280, 3), 128, np.uint8))
    with pytest.raises(ValueError, match="empty board's picture"):
        det.use_board(np.zeros((10, 10, 3), np.uint8))


def _learned_run(layout, board: np.ndarray, seed: int, tmp_path: Path, *,
                 thickness: float = 0.0, tilt: float = 15.0, n_bases: int = 12,
                 roughness: float | None = None, locked_exposure: float | None = None):
    """A board rendered empty and then with ``n_bases`` bases (Blender, 12 samples, no
    curl, MJPEG 90): the two frames and the scene."""
    from vision.synth.scene import Scene

    full = spec.random_render_scene(layout, seed, figures=False, n_bases=n_bases,
                                    max_tilt=tilt)
    full.board, full.thickness_mm, full.board_roughness = board, thickness, roughness
    full.look = replace(full.look, samples=12, curl_mm=0.0, tilt_deg=tilt)
    empty = spec.RenderScene(full.name + "-empty", full.seed, Scene(layout, []), full.look,
                             {}, board, thickness, roughness)
    renders = frames.render(layout, [empty, full], tmp_path / "job", timeout=900)
    seen_empty, seen_full = frames.film(layout, [empty, full], renders, [90],
                                        locked_exposure=locked_exposure)
    return seen_empty, seen_full


def _position_errors(scene, detection) -> list[float]:
    pairs, _ = match_bases(scene.bases, detection.bases)
    return [math.hypot(b.x - s.x_mm, b.y - s.y_mm) for b, s in pairs if s is not None]


def test_a_thick_hex_board_with_its_markers_on_the_table(tmp_path: Path) -> None:
    """A hex map coloured by terrain on a 20 mm board, its markers on labels on the
    table beside it, the camera tilted 25 degrees (Blender). Told the markers' height
    (-20 mm), the detector solves the camera and puts every base where it stands; taken
    as lying on the board, the markers put the bases 5-15 mm off."""
    from table import maps
    from vision.layout import Layout
    from vision.photoreal import boards

    flat = Layout.from_dict(maps.layout_document(
        "hex-board", "", maps.hex_grid(8, 7, 40.0), (25, 35),
        {"p1": "#F0780A", "p2": "#1A78E0"}, margin_mm=25))
    board = boards.hex_terrain(flat, spec.SHEET_PX_PER_MM, 2, markers=False)
    empty, full = _learned_run(flat, board, 31, tmp_path, thickness=20.0, tilt=25.0)
    lifted = replace(flat, markers=tuple(replace(m, height=-20.0) for m in flat.markers))
    results, warned = {}, {}
    for name, layout in (("stated", lifted), ("on the board", flat)):
        det = Detector(layout)
        det.learn_board(empty.image)
        warned[name] = [w for w in det.board_warnings if "own lines" in w]
        d = det.detect(full.image)
        tally = VisionTally()
        tally.add(layout, full.scene, d)
        results[name] = (tally.report(), _position_errors(full.scene, d))
    # The markers fit either height alike; the board's own lines tell the wrong one
    # (measured: 0-2 mm off with the right height, 8-13 mm with 0).
    assert warned["stated"] == []
    assert len(warned["on the board"]) == 1 and "--marker-height" in warned["on the board"][0]
    report, errors = results["stated"]
    # Measured: 12 of 12 found, median 1.5 mm off (at most 2.9), identity 0.75.
    assert len(errors) >= 11 and float(np.median(errors)) < 3.0 and max(errors) < 6.0
    assert report["wrong_ids"] == 0 and report["wrong_owners"] == 0
    assert report["false_occlusion_rate"] == 0.0 and report["identity_accuracy"] >= 0.5
    # Measured: 10 of 12 found, 2 false bases, median 9.6 mm off.
    _, naive = results["on the board"]
    assert float(np.median(naive)) > 5.0


def test_a_dark_battle_mat_is_learned(tmp_path: Path) -> None:
    """A dark, mottled, matte battle mat (no lines, about a fifth of white), its markers
    on white labels, the camera's exposure locked for the labels' white (over a dark mat
    an auto exposure clips them, and the markers are lost: docs/vision/webcam.md):
    learned empty, then every base found where it stands, nothing read wrong, no region
    taken for a hand."""
    from vision.photoreal import boards

    board = boards.battle_mat(LAYOUT, spec.SHEET_PX_PER_MM, 5)
    empty, full = _learned_run(LAYOUT, board, 41, tmp_path, roughness=0.85,
                               locked_exposure=0.85)
    printed = VisionTally()
    printed.add(LAYOUT, full.scene, Detector(LAYOUT).detect(full.image))
    det = Detector(LAYOUT)
    det.learn_board(empty.image)
    assert not any("own lines" in w for w in det.board_warnings)  # no lines to judge by
    d = det.detect(full.image)
    tally = VisionTally()
    tally.add(LAYOUT, full.scene, d)
    r = tally.report()
    errors = _position_errors(full.scene, d)
    assert len(errors) >= 11 and float(np.median(errors)) < 3.0
    assert r["wrong_ids"] == 0 and r["wrong_owners"] == 0
    assert r["false_occlusion_rate"] == 0.0
    assert printed.report()["false_occlusion_rate"] > 0.5  # the printed map's idea of it


def test_black_and_white_pieces_on_a_wooden_board(tmp_path: Path) -> None:
    """Black and bone-white pieces with no sticker on an oak board (Blender, camera
    tilted 15 degrees, MJPEG 90): the black ones darker than the wood, the white
    ones lighter. With the layout saying whose pieces are dark (``pieces``), every
    piece found has its owner, none a wrong one. Read by stickers' hue instead, as
    before, they have no owner at all."""
    from vision.photoreal import boards

    toned = replace(LAYOUT, players={"p1": "#161616", "p2": "#DCD4C8"},
                    tones={"p1": "dark", "p2": "light"})
    board = boards.wooden_board(toned, spec.SHEET_PX_PER_MM, 1)
    empty, full = _learned_run(toned, board, 21, tmp_path)
    assert {b.owner for b in full.scene.bases} == {"p1", "p2"}
    results = {}
    for name, layout in (("tone", toned), ("hue", LAYOUT)):
        det = Detector(layout)
        det.learn_board(empty.image)
        tally = VisionTally()
        tally.add(layout, full.scene, det.detect(full.image))
        results[name] = tally.report()
    r = results["tone"]
    # Measured: 11 of 12 found (one white piece missed),
    # every owner right, at MJPEG 75 and 90; another scene (seed 61, tilt up to 20
    # degrees): 14 of 14, every owner right.
    assert r["base_recall"] >= 0.9 and r["false_occlusion_rate"] == 0.0
    assert r["wrong_owners"] == 0 and r["owner_accuracy"] >= 0.9
    assert results["hue"]["owner_accuracy"] == 0.0


# The light of a room: an evening lamp above, morning daylight from a window on the
# other side, a reading lamp switched on beside the table, the sun through a window
# making a sharp-edged patch on the board.
LAMP = {"kind": "AREA", "at": [0.1, -0.2, 1.7], "size": [0.6, 0.6], "power": 350,
        "kelvin": 3000}
DAYLIGHT = {"kind": "AREA", "at": [-1.2, 0.3, 1.2], "size": [1.0, 1.0], "power": 700,
            "kelvin": 6500}
SIDE_LAMP = {"kind": "POINT", "at": [0.9, 0.5, 0.7], "size": [0.1, 0.1], "power": 150,
             "kelvin": 2700}
SUN = {"kind": "SPOT", "at": [-1.5, 0.8, 1.3], "aim": [0.03, -0.04], "size": [0.005, 0.005],
       "power": 6000, "kelvin": 5200, "spot_deg": 7, "blend": 0.02}


def test_the_light_changes_between_the_empty_board_and_play(tmp_path: Path) -> None:
    """Black and white pieces with no sticker on an oak board (Blender), the board
    learned empty in one light and played in another: daylight from the other side
    (bluer, and uneven), a lamp switched on, a sun patch appearing or going, a dim room
    then a bright one (the exposure fixed). No piece gets the wrong owner, the cells
    are read right, and light is hardly ever taken for a hand.

    Measured before the light's gain followed each colour channel and kept a sun
    patch's edge sharp: daylight made 24 of 31 regions "a hand", a sun patch 16 to 17,
    either way. Now daylight 2 of 31 (where the board shows too little grain to tell
    its tint from a sleeve's), the others none, in the first frame after the change,
    except a sun patch that has gone: where the empty photo was white-out, nothing
    tells light from a hand, and 16-17 regions stay "a hand" (``learn-board`` warns of
    that photo; learn the board again, or from several photos). Left too: a piece in
    the sun patch (a black top lit so brightly it shines like the wood) is missed, 13
    of 14 found; and learned in a dim room, a glossy black top under the bright lamp
    is about as bright as the wood and, the dim board's colour being mostly noise, 8
    of 14 are found (no hand, no wrong owner): learn in the light of play."""
    from vision.photoreal import boards
    from vision.synth.scene import Scene

    toned = replace(LAYOUT, players={"p1": "#161616", "p2": "#DCD4C8"},
                    tones={"p1": "dark", "p2": "light"})
    board = boards.wooden_board(toned, spec.SHEET_PX_PER_MM, 1)
    full = spec.random_render_scene(toned, 21, figures=False, n_bases=14, max_tilt=15)
    assert {b.owner for b in full.scene.bases} == {"p1", "p2"}

    def scene(name: str, lights: list, pieces: bool) -> spec.RenderScene:
        look = replace(full.look, samples=12, curl_mm=0.0, lights=lights, ambient=0.08)
        return spec.RenderScene(name, full.seed, full.scene if pieces else Scene(toned, []),
                                look, {}, board, 0.0, 0.6)  # a satin oak board

    scenes = [scene("empty", [LAMP], False), scene("empty-sun", [LAMP, SUN], False),
              scene("play", [LAMP], True), scene("daylight", [DAYLIGHT], True),
              scene("lamp-on", [LAMP, SIDE_LAMP], True),
              scene("sun", [LAMP, SUN], True)]
    renders = frames.render(toned, scenes, tmp_path / "job", timeout=1800)
    seen = {f.name[:-4]: f.image for f in frames.film(toned, scenes, renders, [90])}
    # The same lamp, a dim room and then a bright one: the exposure set once (a webcam's
    # longest exposure in a dim room), the light 4.7 times as strong.
    dim, bright = (next(frames.film(toned, [scenes[k]], [renders[k]], [90], fixed_gain=g)).image
                   for k, g in ((0, 0.6), (2, 2.8)))

    def run(empty: np.ndarray, play: np.ndarray) -> tuple[dict, list[str]]:
        det = Detector(toned)
        det.learn_board(empty)
        tally = VisionTally()
        tally.add(toned, full.scene, det.detect(play))
        return tally.report(), det.board_warnings

    for name, empty, play, least, hands in (
            ("same light", seen["empty"], seen["play"], 14, 0.0),
            ("daylight", seen["empty"], seen["daylight"], 14, 0.1),
            ("a lamp switched on", seen["empty"], seen["lamp-on"], 14, 0.0),
            ("a sun patch appears", seen["empty"], seen["sun"], 13, 0.0),
            ("the sun patch goes", seen["empty-sun"], seen["play"], 14, 1.0),
            ("dim, then bright", dim, bright, 6, 0.0)):
        r, _ = run(empty, play)
        assert r["false_occlusion_rate"] <= hands, name
        assert r["wrong_owners"] == 0, name
        assert r["base_recall"] * 14 >= least - 0.01, (name, r["base_recall"])
        if least == 14:
            assert r["occupancy_accuracy"] == 1.0 and r["owner_accuracy"] == 1.0, name
    # The sun patch in the empty photo is clipped white: learn-board says so.
    _, warnings = run(seen["empty-sun"], seen["play"])
    assert any("white-out" in w for w in warnings)
    assert run(seen["empty"], seen["play"])[1] == []


def test_touching_pieces_on_a_learned_board(tmp_path: Path) -> None:
    """Black and white pieces touching on the oak board (Blender): a 2 x 2 block, a row
    of four, a 3 x 3 block and a triangle, 20 pieces. The light's gain is a median over
    36 mm, and a group covers more than half of it: measured as light, the groups'
    middles were lost, and the 3 x 3 block was called a hand (9 of 20 found). Now the
    gain is carried over each group's outline from the board around
    (``board_light.LearnedBoard``) and the blobs are taken apart into their discs
    (``clusters.py``): 19 of 20, no hand, no wrong owner."""
    from vision.photoreal import boards
    from vision.synth.scene import Base, Scene

    toned = replace(LAYOUT, players={"p1": "#161616", "p2": "#DCD4C8"},
                    tones={"p1": "dark", "p2": "light"})
    board = boards.wooden_board(toned, spec.SHEET_PX_PER_MM, 1)
    rng = np.random.default_rng(3)
    step = 25.6  # 25 mm pieces, touching
    spots = ([(131 + (i - 0.5) * step, 656 + (j - 0.5) * step) for i in range(2)
              for j in range(2)]
             + [(300 + i * step, 420) for i in range(4)]
             + [(450 + i * step, 250 + j * step) for i in range(3) for j in range(3)]
             + [(200, 250), (200 + step, 250), (200 + step / 2, 250 + step * 0.87)])
    pieces = Scene(toned, [Base(float(x), float(y), "p1" if rng.random() < 0.5 else "p2",
                                None, 25.0, 0.0, 0.0) for x, y in spots])
    look = replace(spec.random_render_scene(toned, 21, figures=False, n_bases=4,
                                            max_tilt=15).look,
                   samples=12, curl_mm=0.0, lights=[LAMP], ambient=0.08)
    scenes = [spec.RenderScene(name, 21, scene, look, {}, board, 0.0, 0.6)
              for name, scene in (("empty", Scene(toned, [])), ("touching", pieces))]
    renders = frames.render(toned, scenes, tmp_path / "job", timeout=900)
    empty, play = (f.image for f in frames.film(toned, scenes, renders, [90]))
    det = Detector(toned)
    det.learn_board(empty)
    d = det.detect(play)
    pairs, extra = match_bases(pieces.bases, d.bases)
    tally = VisionTally()
    tally.add(toned, pieces, d)
    assert not d.occluded and tally.report()["wrong_owners"] == 0
    assert sum(got is not None for _, got in pairs) >= 18 and len(extra) <= 1


@pytest.mark.parametrize("axis", [0, 1])
def test_a_base_stands_on_the_curling_paper(axis: int) -> None:
    """A rolled print lifts its edges: a base near one stands on the paper, not in it
    (within the paper mesh's chord over its curve, 0.2 mm). Put at the table's height,
    bases by a curled edge sank out of the camera's sight while their truth still had
    them there (held-out renders without figures: 6 bases no reader could find)."""
    from vision.photoreal.spec import Look, _curl, _standing

    layout = game_layout()
    look = Look(curl_mm=8.0, curl_axis=axis)
    nx, ny = 48, 60
    grid = np.array(_curl(look, nx, ny))  # metres, rows along y
    w, h = layout.sheet
    profile = grid[0] if axis == 0 else grid[:, 0]  # the lift along the curling axis
    at = np.linspace(0, w if axis == 0 else h, len(profile))
    for x, y in [(12.0, h / 2), (w - 15.0, 40.0), (w / 2, 14.0), (w / 2, h - 20.0),
                 (100.0, 100.0)]:
        r = 14.0
        stand = _standing(layout, look, x, y, r)
        c = x if axis == 0 else y
        under = np.interp(np.linspace(c - r, c + r, 29), at, profile)
        assert stand >= under.max() - 0.0002, (x, y)
        assert stand <= look.curl_mm / 1000 + 1e-9
    assert _standing(layout, look, w / 2, h / 2, 14.0) == 0.0  # the middle lies flat


def test_the_frames_print_reads_stickers_under_figures(committed: list[frames.Frame]
                                                       ) -> None:
    """Read against how the frame's sure readings print (``frame_print.py``), stickers
    a figure partly hides are read that neither decoder could read alone: on the
    committed frames with figures (720p, where the print's reading must lead by
    ``print_small_lead``) 0.295 -> 0.348 of the bases, and without figures the last
    unread ones (0.977 -> 1.000); never a wrong id or owner either way."""
    for with_figures, gain in ((True, 0.04), (False, 0.01)):
        chosen = [f for f in committed if f.figures is with_figures]
        by_print = _score(chosen)
        without = _score(chosen, replace(VisionConfig(), print_lead=0.0))
        assert by_print["wrong_ids"] == without["wrong_ids"] == 0
        assert by_print["wrong_owners"] == without["wrong_owners"] == 0
        assert by_print["identity_accuracy"] >= without["identity_accuracy"] + gain
