"""The real detector (OpenCV) on realistic synthetic frames, and its bad-input paths."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import Detector
from vision.synth import Conditions, Hand, Scene, random_scene
from vision.synth.scene import SKIN, Base

ROOT = Path(__file__).resolve().parents[2]


def score(scene, det):
    truth = scene.truth()
    seen: dict[str, list] = {}
    for b in det.bases:
        seen.setdefault(b.region, []).append(b)
    regions = [r.name for r in scene.layout.regions if r.name not in det.occluded]
    occupancy = sum(len(seen.get(r, [])) == len(truth.get(r, [])) for r in regions) / len(regions)
    owners = wrong_ids = read = total = 0
    for b in scene.bases:
        near = [s for s in det.bases if np.hypot(s.x_mm - b.x, s.y_mm - b.y) < b.diameter / 2]
        total += 1
        if near:
            owners += near[0].owner == b.owner
            if near[0].tag == "read":
                read += 1
                wrong_ids += near[0].sticker != b.tag
    return occupancy, owners / total, read / total, wrong_ids


@pytest.mark.parametrize("cond", [Conditions(), Conditions(tilt_deg=35, yaw_deg=6),
                                  Conditions(light=0.45, noise=5), Conditions(shadow=0.5)],
                         ids=["clean", "tilt", "dim", "shadow"])
def test_detects_every_base_and_owner_and_never_a_wrong_id(layout, renderer, cond):
    for seed in (1, 2):
        scene = random_scene(layout, np.random.default_rng(seed), 22, figures=False)
        frame = renderer.render(scene, cond, (1280, 720), seed=seed)
        det = Detector(layout).detect(frame)
        assert det.fix.found and det.fix.reprojection_px < 3
        # No hand in these scenes: the edge of a cast shadow is not one either.
        assert det.occluded == set()
        occupancy, owners, read, wrong = score(scene, det)
        assert occupancy == 1.0
        assert owners >= 0.95
        assert wrong == 0
        assert read >= 0.95  # the rest is "unreadable", never guessed


@pytest.mark.parametrize("cond,figures,seeds,off,min_gain,min_read", [
    # Glare clips the camera: ink prints grey and colours pale, and a ring in the spot
    # differed too little from the white paper to be found, its colours too pale to
    # say whose it is. Where the paper is clipped, smaller differences count, grey is
    # ink and a pale colour a colour.
    (Conditions(glare=150), False, (12, 45, 50),
     {"glare_dark_diff": 0.28, "glare_sat_diff": 0.30, "glare_black_value": 0.38,
      "glare_color_saturation": 0.40}, 4, 0.95),
    # A figure leaning over the ring looks like some symbol where it hides wedges;
    # decoding again with the worst-fitting run of two (then three) wedges left out,
    # and the ring fit reading the outer band by its own colours, read them. (0.85
    # read before the ring fit's veto, which drops readings the whole ring's fit
    # cannot confirm: see docs/vision/detector.md.)
    (Conditions(tilt_deg=15), True, (4, 6, 11), {"hidden_wedges": (), "ring_fit": False},
     4, 0.8),
], ids=["glare-pale-rings", "figures-hidden-wedges"])
def test_hard_stickers_get_another_look_and_never_a_wrong_id(layout, renderer, cond, figures,
                                                              seeds, off, min_gain, min_read):
    from dataclasses import replace

    from vision.config import VisionConfig

    without = replace(VisionConfig(), **off)
    gained = 0
    for seed in seeds:
        scene = random_scene(layout, np.random.default_rng(seed), 22, figures=figures)
        frame = renderer.render(scene, cond, (1280, 720), seed=seed)
        occupancy, owners, read, wrong = score(scene, Detector(layout).detect(frame))
        assert occupancy == 1.0 and owners >= 0.95 and wrong == 0
        assert read >= min_read
        _, _, read_before, wrong_before = score(scene,
                                                Detector(layout, without).detect(frame))
        assert wrong_before == 0
        gained += round((read - read_before) * len(scene.bases))
    assert gained >= min_gain


def test_1080p_frame(layout, renderer):
    scene = random_scene(layout, np.random.default_rng(7), 22, figures=False)
    det = Detector(layout).detect(renderer.render(scene, Conditions(), (1920, 1080), seed=7))
    occupancy, owners, _read, wrong = score(scene, det)
    assert occupancy == 1.0 and owners >= 0.95 and wrong == 0


def test_figures_hiding_bases(layout, renderer):
    """Figures hide 30-60 % of each base: still every base and owner; ids are read less
    often and a wrong id stays rare (figures in the players' colours can mimic a tag)."""
    read_total = wrong_total = n = 0
    for seed in (11, 12, 13):
        scene = random_scene(layout, np.random.default_rng(seed), 22, figures=True)
        det = Detector(layout).detect(renderer.render(scene, Conditions(tilt_deg=15),
                                                      (1280, 720), seed=seed))
        occupancy, owners, read, wrong = score(scene, det)
        assert occupancy == 1.0 and owners >= 0.9
        read_total += read * len(scene.bases)
        wrong_total += wrong
        n += len(scene.bases)
    assert read_total / n >= 0.4
    assert wrong_total <= 0.05 * read_total


def test_hand_marks_cells_occluded(layout, renderer):
    base = random_scene(layout, np.random.default_rng(3), 12)
    scene = Scene(layout, base.bases, [Hand(300, 450, "bottom")])
    det = Detector(layout).detect(renderer.render(scene, Conditions(), (1280, 720), seed=3))
    assert det.fix.found
    truth = scene.occluded_regions()
    assert det.occluded, "a hand over the map must occlude cells"
    # Every detected occluded cell is near the hand; most covered cells are found.
    assert len(det.occluded & truth) >= 0.6 * len(truth)


@pytest.mark.parametrize("ink", [0.0, 0.3], ids=["black ink", "grey ink"])
@pytest.mark.parametrize("sleeve", [(60, 60, 60), (128, 128, 128), (200, 200, 200)],
                         ids=["dark", "grey", "light"])
def test_a_sleeve_of_any_grey_is_a_hand(layout, renderer, sleeve, ink):
    """Grey differs from paper in brightness only: darker over white print, lighter
    over dark print (the case the detector once missed altogether, seed 51), also where
    the printer's black is a grey. Every sleeve is seen; the cells it covers are
    counted over the three scenes (a light sleeve's tip over grey print is found in
    part, more or less of it in one scene as the framing moves it by a pixel: on 120
    scenes, 83 % of covered cells were found, and under half in 8)."""
    found = covered = 0
    for seed in (51, 59, 65):
        rng = np.random.default_rng(seed)
        base = random_scene(layout, rng, 14)
        x, y = float(rng.uniform(150, 550)), float(rng.uniform(200, 700))
        arm = Hand(x, y, "bottom" if y > layout.sheet[1] / 2 else "top", color=sleeve)
        scene = Scene(layout, base.bases, [arm])
        det = Detector(layout).detect(renderer.render(
            scene, Conditions(tilt_deg=10, print_black=ink), (1280, 720), seed=seed))
        truth = scene.occluded_regions()
        assert det.occluded, f"seed {seed}: a {sleeve} sleeve over the map went unseen"
        found += len(det.occluded & truth)
        covered += len(truth)
    assert found >= 0.6 * covered


@pytest.mark.parametrize("skin", SKIN, ids=[f"skin{k}" for k in range(len(SKIN))])
@pytest.mark.parametrize("game", ["dreamblade", "warseer"])
def test_a_hand_of_any_skin_reaching_to_the_near_edge_is_a_hand(layout, renderer, hex_map,
                                                               game, skin):
    """A hand reaching to the row nearest its player has its palm off the map, and its
    fingertips look like a base (skin's hue is near orange's). With darker skin the
    bases once "explained" the little of the hand that was on the map: the hand was
    missed and its fingertips reported as bases (phantom bases in the Warseer demo,
    a1 and d1). Every reach must occlude the cell reached, and nothing may be reported
    where no base stands and no hand is."""
    if game == "warseer":
        layout, renderer = hex_map
    cells = layout.cells
    ys = sorted({round(r.center[1]) for r in cells})
    bases = [Base(r.center[0], r.center[1], "p1" if k % 2 else "p2", k, figure=0.45)
             for k, r in enumerate(cells[5::9])]
    stand = {layout.region_at(b.x, b.y).name for b in bases}
    for edge, row in (("bottom", ys[-1]), ("top", ys[0])):
        for k, cell in enumerate(r for r in cells if round(r.center[1]) == row):
            scene = Scene(layout, bases, [Hand(*cell.center, edge, 80.0, skin)])
            det = Detector(layout).detect(renderer.render(
                scene, Conditions(tilt_deg=12.0, noise=1.5), (1280, 720), seed=k))
            assert cell.name in det.occluded, f"{edge} hand to {cell.name} went unseen"
            phantoms = {b.region for b in det.bases} - stand - det.occluded
            assert not phantoms, f"{edge} hand to {cell.name}: bases seen on {phantoms}"


@pytest.mark.parametrize("target", ["a8", "h8"])
def test_an_arms_shadow_is_not_a_row_of_bases(hex_map, target):
    """The palest arm reaching right across the pale hex map is hardly seen; its shadow
    beside it is, a band about a base wide that the base finder reads as a row of
    overlapping discs. Those discs are not filled (their distance peak is 0.73-0.77 of
    their radius, a base's 0.91-0.94), so they must not explain the band away: it is
    a hand's, and no base may be reported along it."""
    layout, renderer = hex_map
    cells = {r.name: r for r in layout.cells}
    bases = [Base(*cells[name].center, "p1" if k % 2 else "p2", k, figure=0.45)
             for k, name in enumerate(["b8", "c2", "b1", "h5", "h2", "e1", "g1", "h8"])]
    bases = [b for b in bases if layout.region_at(b.x, b.y).name != target]
    stand = {layout.region_at(b.x, b.y).name for b in bases}
    scene = Scene(layout, bases, [Hand(*cells[target].center, "bottom", 80.0, SKIN[4])])
    for seed in range(3):
        det = Detector(layout).detect(renderer.render(
            scene, Conditions(tilt_deg=12.0, noise=1.5), (1280, 720), seed=seed))
        phantoms = {b.region for b in det.bases} - stand - det.occluded
        assert not phantoms, f"seed {seed}: bases seen on {sorted(phantoms)}"


@pytest.mark.parametrize("game", ["dreamblade", "warseer"])
def test_a_plain_ring_is_never_read_as_a_sticker(layout, renderer, hex_map, game):
    """A plain ring (a base with no identity, Warseer's summoned minions) shows no
    ink and no accent. The ring fit, alone, once read a clean one as sticker 6 (a2
    and g1 here: the Warseer demo then asked to take p1#6 off a1 for the rest of the
    game); and a fit "explaining" the ring's noise made nearly every plain ring
    unreadable instead of plain (23 of 288 on the hex map were plain)."""
    if game == "warseer":
        layout, renderer = hex_map
    plain = total = 0
    for k, cell in enumerate(layout.cells):
        scene = Scene(layout, [Base(*cell.center, "p1", None, figure=0.0)])
        det = Detector(layout).detect(renderer.render(
            scene, Conditions(tilt_deg=12.0, noise=1.5), (1280, 720), seed=10 * k))
        seen = [b for b in det.bases if b.region == cell.name]
        assert len(seen) == 1 and seen[0].owner == "p1", f"{cell.name}: {seen}"
        assert seen[0].sticker is None, f"{cell.name}: read as sticker {seen[0].sticker}"
        plain += seen[0].tag == "none"
        total += 1
    assert plain >= 0.75 * total, f"{plain} of {total} plain rings seen as plain"


def test_no_map_in_view_is_found_false(layout):
    rng = np.random.default_rng(0)
    table = (rng.normal(90, 20, (720, 1280, 3))).clip(0, 255).astype(np.uint8)
    det = Detector(layout).detect(table)
    assert not det.fix.found and det.bases == []
    assert det.to_dict()["map"]["found"] is False


def test_bumped_map_is_noticed(layout, renderer):
    scene = random_scene(layout, np.random.default_rng(4), 10)
    det = Detector(layout)
    a = det.detect(renderer.render(scene, Conditions(), (1280, 720), seed=4))
    assert a.fix.found and not a.fix.moved
    b = det.detect(renderer.render(scene, Conditions(yaw_deg=3), (1280, 720), seed=4))
    assert b.fix.found and b.fix.moved
    c = det.detect(renderer.render(scene, Conditions(yaw_deg=3), (1280, 720), seed=4,
                                   frame_seed=9))
    assert c.fix.found and not c.fix.moved


def test_a_bumped_map_is_read_in_its_new_place(layout, renderer):
    """The warp's pixel map is kept while the homography stays; after a bump it must be
    rebuilt, or every base would be looked for where the map used to be."""
    scene = random_scene(layout, np.random.default_rng(14), 16)
    det = Detector(layout)
    for cond in (Conditions(), Conditions(yaw_deg=4, tilt_deg=8)):
        d = det.detect(renderer.render(scene, cond, (1280, 720), seed=14))
        occupancy, owners, read, wrong = score(scene, d)
        assert occupancy == 1.0 and owners == 1.0 and wrong == 0
        # Figures stand on these bases; a map looked for in its old place reads none.
        assert read >= 0.8


def test_markers_found_at_half_size_are_as_precise(layout, renderer):
    """The quick half-size marker search refines corners on the full frame: the map's
    fit is as good as the full-size search's."""
    from dataclasses import replace

    from vision.config import VisionConfig

    scene = random_scene(layout, np.random.default_rng(15), 10)
    frame = renderer.render(scene, Conditions(tilt_deg=30, noise=3), (1280, 720), seed=15)
    quick = Detector(layout).detect(frame).fix
    slow_cfg = replace(VisionConfig(), half_search_min_px=10_000)
    slow = Detector(layout, slow_cfg).detect(frame).fix
    assert quick.found and slow.found
    assert len(quick.markers_seen) >= 0.9 * len(slow.markers_seen)
    assert quick.reprojection_px <= max(0.5, 1.5 * slow.reprojection_px)
    # Both put the sheet in the same place to a fraction of a pixel.
    corners = np.array([[[0, 0], [layout.sheet[0], 0], [layout.sheet[0], layout.sheet[1]],
                         [0, layout.sheet[1]]]], np.float64)
    a = cv2.perspectiveTransform(corners, quick.homography)
    b = cv2.perspectiveTransform(corners, slow.homography)
    assert float(np.abs(a - b).max()) < 1.0


def test_the_work_area_covers_every_region(layout):
    from vision.detect.workarea import WorkArea

    area = WorkArea.for_layout(layout, 1.0, 6.0)
    assert area.size[0] < layout.sheet[0]  # the marker strips are left out
    for r in layout.regions:
        px = area.to_px(r.polygon)
        assert px.min() >= 0 and (px[:, 0] <= area.size[0]).all()
        assert (px[:, 1] <= area.size[1]).all()
        x, y = np.asarray(r.polygon, float).mean(axis=0)
        back = area.to_mm(*((np.array([x, y]) - area.origin) * area.scale))
        assert np.allclose(back, (x, y))


def test_the_foreground_of_a_box_is_the_whole_images_inside_its_context(layout, renderer):
    """The detector redoes only the changed part of a frame: the foreground of a box of
    the work area must equal the whole image's, away from the box's edges, in the
    sheet's pixels, the paper's brightness and both masks."""
    from vision.detect.workarea import Box

    scene = random_scene(layout, np.random.default_rng(9), 22, hands=1)
    frame = renderer.render(scene, Conditions(shadow=0.5), (1280, 720), seed=9)
    det = Detector(layout)
    h = det.detect(frame).fix.homography
    model = det.foreground
    whole = model.extract(frame, h)
    pieces = (Box(0, 0, 320, 400), Box(96, 192, 480, 640), Box(256, 464, 576, 864))
    for box in pieces:
        piece = model.extract(frame, h, box)
        keep = Box(box.x0 + model.context_px, box.y0 + model.context_px,
                   box.x1 - model.context_px, box.y1 - model.context_px)
        full = model.extract(frame, h)
        full.paste(piece, box, keep)  # what the detector does
        for name in ("gray", "illum", "mask", "loose"):
            assert np.array_equal(getattr(full, name), getattr(whole, name)), (box, name)


def test_markers_covered_keeps_the_last_good_fix(layout, renderer):
    scene = random_scene(layout, np.random.default_rng(5), 10)
    det = Detector(layout)
    frame = renderer.render(scene, Conditions(), (1280, 720), seed=5)
    assert det.detect(frame).fix.found
    covered = frame.copy()
    h = det.locator.last.homography
    for m in layout.markers:  # cardboard over every marker
        pts = cv2.perspectiveTransform(np.array([m.corners], np.float64), h)[0]
        x0, y0 = pts.min(axis=0).astype(int) - 6
        x1, y1 = pts.max(axis=0).astype(int) + 6
        covered[max(0, y0):y1, max(0, x0):x1] = (120, 110, 100)
    d = det.detect(covered)
    assert d.fix.found and d.fix.from_memory and d.fix.markers_seen == []


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "tablesight", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_cli_detect_json_contract(layout, renderer, tmp_path):
    scene = random_scene(layout, np.random.default_rng(6), 12)
    img = tmp_path / "frame.jpg"
    cv2.imwrite(str(img), renderer.render(scene, Conditions(), (1280, 720), seed=6))
    r = run_cli("vision", "detect", str(img), "--json", "--annotate", str(tmp_path / "a.png"))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["map"]["found"] is True and out["map"]["reprojection_error_px"] < 3
    assert len(out["map"]["markers_seen"]) >= 10
    assert set(out["cells"]) == {r.name for r in layout.cells}
    assert set(out["zones"]) == {r.name for r in layout.zones}
    total = sum(len(v) for v in out["cells"].values()) + sum(len(v) for v in out["zones"].values())
    assert total == len(scene.bases)
    base = next(b for v in out["cells"].values() for b in v)
    assert {"sticker", "owner", "confidence", "tag"} <= set(base)
    assert {"locate", "foreground", "bases", "identify", "total"} <= set(out["timing_ms"])
    assert out["occluded"] == []
    assert (tmp_path / "a.png").stat().st_size > 1000
    # The map is portrait in a landscape picture: the table is told to turn the camera.
    assert "quarter turn" in out["map"]["framing"]["advice"]
    text = run_cli("vision", "detect", str(img))
    assert "camera: turn the camera a quarter turn" in text.stdout


def _empty_and_frame(layout, renderer, tmp_path, seed: int, bases: int):
    """A photo of the empty map and one of ``bases`` bases on it, written as JPEGs:
    (empty path, frame path, the frame's scene)."""
    empty = tmp_path / "empty.jpg"
    cv2.imwrite(str(empty), renderer.render(random_scene(layout, np.random.default_rng(seed), 0),
                                            Conditions(), (1280, 720), seed=seed))
    scene = random_scene(layout, np.random.default_rng(seed), bases, figures=False)
    img = tmp_path / "frame.jpg"
    cv2.imwrite(str(img), renderer.render(scene, Conditions(), (1280, 720), seed=seed))
    return empty, img, scene


def test_cli_learn_board_then_detect_against_it(layout, renderer, tmp_path):
    """vision learn-board writes the empty board as seen; vision detect --board reads a
    frame against it (here the printed map itself, learned instead of drawn)."""
    empty, img, scene = _empty_and_frame(layout, renderer, tmp_path, 9, 12)
    board = tmp_path / "board.png"
    r = run_cli("vision", "learn-board", str(empty), "--out", str(board))
    assert r.returncode == 0, r.stderr
    assert "board.png" in r.stdout and board.stat().st_size > 10_000
    r = run_cli("vision", "detect", str(img), "--board", str(board), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    found = sum(len(v) for kind in ("cells", "zones") for v in out[kind].values())
    assert found == len(scene.bases) and out["occluded"] == []
    # Refused with one line: no markers in the picture; a picture of the wrong size.
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 200, np.uint8))
    r = run_cli("vision", "learn-board", str(blank), "--out", str(tmp_path / "x.png"))
    assert r.returncode == 2 and "markers were not found" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run_cli("vision", "detect", str(img), "--board", str(blank))
    assert r.returncode == 2 and "empty board's picture" in r.stderr


def test_cli_learn_board_refuses_a_dark_photo_and_warns_of_coloured_light(
        layout, renderer, tmp_path):
    """An empty-board photo in light the board cannot be learned from is refused in
    words; one in coloured light is learned with a warning (play's light may differ);
    and a frame without the map says why in ``detect``'s advice."""
    empty, _, _ = _empty_and_frame(layout, renderer, tmp_path, 5, 4)
    photo = cv2.imread(str(empty))
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), (photo * 0.12).astype(np.uint8))
    r = run_cli("vision", "learn-board", str(dark), "--out", str(tmp_path / "d.png"))
    assert r.returncode == 2 and "too dark to learn" in r.stderr, r.stderr
    purple = tmp_path / "purple.png"
    cv2.imwrite(str(purple), np.clip(photo * np.array([1.0, 0.5, 0.85]), 0, 255)
                .astype(np.uint8))
    r = run_cli("vision", "learn-board", str(purple), "--out", str(tmp_path / "p.png"))
    assert r.returncode == 0 and "warning: the light on the empty board is coloured" \
        in r.stderr, r.stderr
    r = run_cli("vision", "learn-board", str(empty), "--out", str(tmp_path / "e.png"))
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 200, np.uint8))
    r = run_cli("vision", "detect", str(blank), "--json")
    advice = json.loads(r.stdout)["advice"]
    assert r.returncode == 1 and advice and "markers were not found" in advice[0]
    assert "advice: the board's markers were not found" in \
        run_cli("vision", "detect", str(blank)).stdout


def test_cli_learn_board_from_several_photos_leaves_out_what_passed(layout, renderer,
                                                                     tmp_path):
    """Three photos of the empty board, a hand-sized brown patch (a sleeve, a cup) in
    one of them: learned from that one alone, the patch is the board's, and play
    without it differs there; learned from all three, it is left out. A photo without
    the map is named by its file."""
    empty, img, scene = _empty_and_frame(layout, renderer, tmp_path, 9, 12)
    photo = cv2.imread(str(empty))
    patched = tmp_path / "patched.png"
    cv2.circle(photo, (700, 330), 45, (40, 60, 90), -1)
    cv2.imwrite(str(patched), photo)
    seen = {}
    for name, photos in (("one", [patched]), ("three", [patched, empty, empty])):
        board = tmp_path / f"{name}.png"
        r = run_cli("vision", "learn-board", *map(str, photos), "--out", str(board))
        assert r.returncode == 0, r.stderr
        r = run_cli("vision", "detect", str(img), "--board", str(board), "--json")
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        seen[name] = (sum(len(v) for kind in ("cells", "zones") for v in out[kind].values()),
                      out["occluded"])
    assert seen["three"] == (len(scene.bases), [])
    assert seen["one"] != seen["three"]  # the patch's place differs from the board
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 200, np.uint8))
    r = run_cli("vision", "learn-board", str(empty), str(blank), "--out", str(tmp_path / "x.png"))
    assert r.returncode == 2 and f"{blank}: the board's markers were not" in r.stderr


def test_a_hand_over_a_learned_board_is_a_hand(layout, renderer):
    """A learned board follows the light's brightness and colour over 36 mm; a hand is
    wider than that, and its colour was once taken for the light's: the hand went
    unseen, and the cells under it could have been committed empty. Its colour, unlike
    the board's with the board's own detail hidden, makes it a hand again."""
    empty = renderer.render(random_scene(layout, np.random.default_rng(9), 0),
                            Conditions(), (1280, 720), seed=9)
    base = random_scene(layout, np.random.default_rng(3), 12)
    for x, y in ((300, 450), (350, 300), (150, 600)):
        scene = Scene(layout, base.bases, [Hand(x, y, "bottom")])
        det = Detector(layout)
        det.learn_board(empty)
        seen = det.detect(renderer.render(scene, Conditions(), (1280, 720), seed=3)).occluded
        truth = scene.occluded_regions()
        # measured: 7 of 7, 8 of 9 and 4 of 4 of the regions the hand covers
        assert len(seen & truth) >= 0.75 * len(truth), (x, y, sorted(seen), sorted(truth))


def test_cli_learn_board_writes_a_layout_naming_it(layout, renderer, tmp_path):
    """--layout-out: a tablesight-layout/2 file naming the learned picture (and the
    markers' stated height), which 'vision detect --layout' then uses on its own."""
    empty, img, scene = _empty_and_frame(layout, renderer, tmp_path, 4, 10)
    (tmp_path / "table").mkdir()
    board, lay = tmp_path / "table" / "board.png", tmp_path / "table" / "board.layout.json"
    r = run_cli("vision", "learn-board", str(empty), "--out", str(board),
                "--layout-out", str(lay), "--marker-height", "0")
    assert r.returncode == 0, r.stderr
    doc = json.loads(lay.read_text())
    assert doc["format"] == "tablesight-layout/2"
    assert doc["board"] == {"look": "learned", "picture": "board.png"}
    r = run_cli("vision", "detect", str(img), "--layout", str(lay), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert sum(len(v) for kind in ("cells", "zones") for v in out[kind].values()) == \
        len(scene.bases)
    # The picture gone, or damaged: one line, naming it.
    board.write_bytes(b"\x89PNG broken")
    r = run_cli("vision", "detect", str(img), "--layout", str(lay))
    assert r.returncode == 2 and "board.png" in r.stderr and "Traceback" not in r.stderr
    board.unlink()
    r = run_cli("vision", "detect", str(img), "--layout", str(lay))
    assert r.returncode == 2 and "which is not there" in r.stderr
    for bad in ("1e9", "nan"):
        r = run_cli("vision", "learn-board", str(empty), "--out", str(board),
                    "--marker-height", bad)
        assert r.returncode == 2 and "--marker-height" in r.stderr
    # Black and white pieces: the layout says whose are which; a bad tone is one line.
    r = run_cli("vision", "learn-board", str(empty), "--out", str(board),
                "--layout-out", str(lay), "--pieces", "p1=dark, p2=light")
    assert r.returncode == 0, r.stderr
    assert {p: v.get("pieces") for p, v in json.loads(lay.read_text())["players"].items()} \
        == {"p1": "dark", "p2": "light"}
    for bad, needle in (("p1=dark", "'p2' has none"), ("p1=dark,p2=dark", "same tone"),
                        ("p3=dark", "no player 'p3'"), ("dark", "not PLAYER=TONE"),
                        ("p1=black,p2=light", "not 'black'")):
        r = run_cli("vision", "learn-board", str(empty), "--out", str(board), "--pieces", bad)
        assert r.returncode == 2 and needle in r.stderr, (bad, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("cond,size,advice", [
    (Conditions(), (1280, 720), "quarter turn"),  # the long side along the short one
    (Conditions(yaw_deg=90), (1280, 720), None),  # turned: nothing to say
    (Conditions(), (720, 1280), None),  # a portrait picture of a portrait map
    (Conditions(yaw_deg=90, fill=0.5), (1280, 720), "closer"),
    # Framed well, but 540 lines: bases 17 px across, where figures cause misreadings.
    (Conditions(yaw_deg=90), (960, 540), "1080p mode"),
], ids=["portrait-map", "turned", "portrait-picture", "far", "too-few-pixels"])
def test_the_camera_framing_is_judged(layout, renderer, cond, size, advice):
    scene = random_scene(layout, np.random.default_rng(8), 6)
    framed = Detector(layout).detect(renderer.render(scene, cond, size, seed=8)).framing()
    assert framed is not None
    if advice is None:
        assert framed.advice is None
    else:
        assert advice in framed.advice
    # Where coming closer or turning gives the pixels, that alone is said.
    if advice in ("closer", "quarter turn"):
        assert "1080p" not in framed.advice and ";" not in framed.advice
    # A 25 mm base: about 19 px across at 720p with the map filling the picture's height.
    if cond == Conditions() and size == (1280, 720):
        assert 16 < framed.base_px < 22


@pytest.mark.parametrize("content,needle", [(b"not an image", "not an image"),
                                            (None, "no such file")])
def test_cli_bad_image(tmp_path, content, needle):
    path = tmp_path / "x.jpg"
    if content is not None:
        path.write_bytes(content)
    r = run_cli("vision", "detect", str(path), "--json")
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr


def test_cli_wrong_layout(tmp_path):
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), np.zeros((10, 10, 3), np.uint8))
    bad = tmp_path / "layout.json"
    bad.write_text('{"format": "something-else"}')
    r = run_cli("vision", "detect", str(img), "--layout", str(bad))
    assert r.returncode == 2 and "layout format" in r.stderr
    bad.write_text("{broken")
    r = run_cli("vision", "detect", str(img), "--layout", str(bad))
    assert r.returncode == 2 and "cannot read layout" in r.stderr


def test_cli_no_map_found_json(tmp_path):
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), np.full((720, 1280, 3), 128, np.uint8))
    r = run_cli("vision", "detect", str(img), "--json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["map"]["found"] is False


@pytest.mark.parametrize("ink", [0.1, 0.2, 0.35])
def test_grey_printed_black_is_not_a_hand(layout, renderer, ink):
    """Printers and cameras make black a dark grey (0.1-0.35 of the paper): the markers
    and lines are lighter than the reference draws them, which once called up to sixteen
    regions occluded by a "light sleeve". The print's black is measured instead."""
    for seed in (4, 5):
        scene = random_scene(layout, np.random.default_rng(seed), 14)
        det = Detector(layout).detect(renderer.render(
            scene, Conditions(tilt_deg=12, print_black=ink), (1280, 720), seed=seed))
        occupancy, owners, _read, wrong = score(scene, det)
        assert det.occluded == set(), f"ink {ink}, seed {seed}: {sorted(det.occluded)}"
        assert occupancy == 1.0 and owners == 1.0 and wrong == 0
