"""Streams: the temporal stabiliser and the camera sources, on real frames and files."""

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, FreezeWatch, ImageFolderSource, open_source
from vision.detect import Detector
from vision.stabilizer import Stabilizer
from vision.synth import Conditions, Hand, Scene, random_scene


def region_counts(scene):
    out = {}
    for b in scene.bases:
        r = scene.layout.region_at(b.x, b.y).name
        out[r] = out.get(r, 0) + 1
    return out


def film(renderer, scenes, cond, seed, stab, det):
    """Each scene as one frame of a camera (the sensor noise differs per frame) through
    the detector and the stabiliser: the (frame index, observation) of every commit."""
    commits = []
    for i, sc in enumerate(scenes):
        img = renderer.render(sc, cond, (1280, 720), seed=seed, frame_seed=i)
        obs = stab.push(det.detect(img), i / 30, i)
        if obs is not None:
            commits.append((i, obs))
    return commits


def test_hands_never_commit_and_the_move_lands(layout, renderer):
    rng = np.random.default_rng(21)
    before = random_scene(layout, rng, 12, figures=True)
    moving = before.bases[0]
    # An empty cell, so the moved base lands clear of the others.
    taken = {layout.region_at(b.x, b.y).name for b in before.bases}
    dest = next(r for r in layout.cells if r.name not in taken and r.name[0] in "bcd")
    after = Scene(layout, [*before.bases[1:], type(moving)(*dest.center, moving.owner,
                                                            moving.tag, moving.diameter)])
    frames = [before] * 6
    for x, y in np.linspace([moving.x, moving.y], dest.center, 6):
        frames.append(Scene(layout, before.bases[1:], [Hand(float(x), float(y), "bottom")]))
    frames += [after] * 7
    stab = Stabilizer(4)
    commits = [(i, {k: len(v) for k, v in obs.regions.items() if v})
               for i, obs in film(renderer, frames, Conditions(tilt_deg=10, noise=3), 21,
                                  stab, Detector(layout))]
    assert commits, "the boards before and after must be committed"
    allowed = [region_counts(before), region_counts(after)]
    for i, got in commits:
        assert got in allowed, f"frame {i}: committed a board that never stood"
        assert not (6 <= i < 12), f"frame {i}: committed while the hand was over the map"
    assert commits[0][1] == allowed[0] and commits[-1][1] == allowed[1]
    assert stab.held_by_hands >= 4


def test_a_change_needs_k_consistent_frames(layout, renderer):
    scene = random_scene(layout, np.random.default_rng(22), 8, figures=False)
    det, stab = Detector(layout), Stabilizer(4)
    firsts = []
    for i in range(6):
        img = renderer.render(scene, Conditions(), (1280, 720), seed=22, frame_seed=i)
        if stab.push(det.detect(img), i / 30, i) is not None:
            firsts.append(i)
    assert firsts == [3]  # the fourth consistent frame, once


def test_image_folder_and_video_sources(layout, renderer, tmp_path):
    scene = random_scene(layout, np.random.default_rng(23), 6)
    frames = [renderer.render(scene, Conditions(), (640, 360), seed=23, frame_seed=i)
              for i in range(5)]
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, f in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), f)
    (folder / "notes.txt").write_text("ignored")
    src = open_source(str(folder))
    got = list(src)
    assert [f.index for f in got] == list(range(5))
    assert got[1].time == pytest.approx(1 / 30)
    video = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 360))
    for f in frames:
        writer.write(f)
    writer.release()
    vid = list(open_source(str(video)))
    assert len(vid) == 5 and vid[0].image.shape == (360, 640, 3)
    assert vid[-1].time >= vid[0].time


def test_sources_that_cannot_open(tmp_path):
    with pytest.raises(CameraError, match="no such camera"):
        open_source(str(tmp_path / "nope.mp4"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CameraError, match="no images"):
        open_source(str(empty))
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"garbage")
    with pytest.raises(CameraError, match="cannot open"):
        open_source(str(bad))


def test_a_camera_that_is_not_there_is_named_once_in_words(capfd):
    """A device number with no camera behind it: the health line names it and says what
    to check; OpenCV's own warnings do not repeat on the terminal at each retry."""
    src = open_source("99")
    for _ in range(3):
        assert src.read() is None
    health = src.health()
    assert not health.connected
    assert health.message.startswith("camera 99 not found: is it plugged in")
    assert "cap_v4l" not in capfd.readouterr().err
    stream = open_source("rtsp://staff:secret@127.0.0.1:9/table")
    assert "secret" not in stream.health().message  # every screen shows the health line
    assert "does not answer" in stream.health().message
    stream.close()
    src.close()


def test_frozen_camera_is_noticed():
    watch = FreezeWatch(frozen_after=1.0)
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (72, 128, 3), dtype=np.uint8)
    for t in np.arange(0, 0.9, 0.1):
        noisy = np.clip(img.astype(int) + rng.integers(-6, 7, img.shape), 0, 255).astype(np.uint8)
        assert not watch.update(noisy, float(t))
    frozen = [watch.update(img, 1.0 + t) for t in np.arange(0, 1.5, 0.1)]
    assert not frozen[0] and frozen[-1]
    assert not watch.update(np.roll(img, 5, axis=1), 3.0)  # a new picture: alive again


def test_image_folder_health_reports_frozen(tmp_path):
    img = np.full((36, 64, 3), 100, np.uint8)
    paths = []
    for i in range(90):
        p = tmp_path / f"{i:03d}.png"
        cv2.imwrite(str(p), img)
        paths.append(p)
    src = ImageFolderSource(paths, fps=30)
    for _ in src:
        pass
    health = src.health(now=src.last_time)
    assert health.frozen and "frozen" in health.message and health.frames == 90


def test_something_left_on_the_map_holds_only_its_own_cells(layout, renderer):
    """A 'hand' that does not move (a cup, a tray) cannot freeze the table: after
    ``static_frames`` its cells keep what they had and the rest of the board goes on."""
    rng = np.random.default_rng(23)
    before = random_scene(layout, rng, 6, figures=False)
    far = next(r for r in layout.cells if r.name == "e1")
    newcomer = type(before.bases[0])(*far.center, "p1", 3, 26.0)
    cup = Hand(*next(r for r in layout.cells if r.name == "a5").center, "top", 60.0)
    frames = [Scene(layout, before.bases)] * 5
    frames += [Scene(layout, [*before.bases, newcomer], [cup])] * 16
    stab = Stabilizer(4, static_frames=8)
    commits = film(renderer, frames, Conditions(tilt_deg=8, noise=2), 23, stab,
                   Detector(layout))
    assert commits[0][0] == 3  # the first board
    assert len(commits) > 1, "the rest of the board must go on"
    i, obs = commits[1]
    assert i >= 5 + 8 - 1, "not before the occluder has been still long enough"
    assert "a5" in obs.occluded and "a5" in stab.covered
    assert len(obs.regions["e1"]) == region_counts(before).get("e1", 0) + 1
    # The covered cells keep what was last committed there.
    assert obs.regions["a5"] == commits[0][1].regions["a5"]


def test_a_frame_changed_in_part_gives_what_the_whole_frame_gives(layout, renderer):
    """A hand moving a base changes part of the picture: the detector redoes only that
    part and keeps the rest. Without sensor noise (the kept part is then the very same
    pixels) the answer must equal a detector that redoes every frame whole."""
    from dataclasses import replace

    from vision.config import VisionConfig

    def answer(d):
        return (sorted((b.region, round(b.x_mm, 2), round(b.y_mm, 2), b.sticker, b.owner,
                        b.tag, b.occluded) for b in d.bases), sorted(d.occluded))

    scene = random_scene(layout, np.random.default_rng(103), 22, figures=True)
    moving = scene.bases[0]
    path = np.linspace([moving.x, moving.y], [layout.sheet[0] / 2, layout.sheet[1] / 2], 5)
    frames = [scene] + [Scene(layout, scene.bases[1:], [Hand(float(x), float(y))])
                        for x, y in path] + [Scene(layout, scene.bases[1:])]
    partly = Detector(layout)
    whole = Detector(layout, replace(VisionConfig(), partial_detect=False,
                                     reuse_still_frames=False))
    # The stickers read on the bases kept from the last frame are passed on: each is
    # printed once, so none is a rival for the bases read again (``frame_print``).
    told: list[list[int]] = []
    identify = partly.identifier.identify_many

    def recording(*args, **kwargs):
        told.append(sorted(kwargs.get("elsewhere", args[4] if len(args) > 4 else ())))
        return identify(*args, **kwargs)

    partly.identifier.identify_many = recording  # type: ignore[method-assign]
    redone = []
    last = None
    for i, sc in enumerate(frames):
        img = renderer.render(sc, Conditions(noise=0, tilt_deg=10), (1280, 720), seed=103,
                              frame_seed=i)
        told.clear()
        d = partly.detect(img)
        redone.append(d.redone)
        assert answer(d) == answer(whole.detect(img)), f"frame {i} (redone {d.redone})"
        if 0 < d.redone < 1 and told:
            before = {b.sticker for b in last.bases if b.tag == "read"}
            assert told[0] and set(told[0]) <= before, (told, before)
        last = d
    assert redone[0] == 1.0
    assert any(0 < r < 0.7 for r in redone), redone  # some frames were redone in part


def test_a_bumped_map_or_many_partial_frames_redo_the_whole_frame(layout, renderer):
    from dataclasses import replace

    from vision.config import VisionConfig

    scene = random_scene(layout, np.random.default_rng(104), 12, figures=False)
    cfg = replace(VisionConfig(), full_refresh_frames=2)
    det = Detector(layout, cfg)
    redone = [det.detect(renderer.render(Scene(layout, scene.bases, [Hand(x, 300.0)]),
                                         Conditions(noise=0), (1280, 720), seed=104)).redone
              for x in (200.0, 215.0, 230.0, 245.0)]  # a hand moving a little each frame
    # whole, then two partial frames, then whole again
    assert redone[0] == 1.0 and 0 < redone[1] < 1 and 0 < redone[2] < 1
    assert redone[3] == 1.0
    bumped = renderer.render(scene, Conditions(noise=0, yaw_deg=3), (1280, 720), seed=104)
    d = det.detect(bumped)
    assert d.fix.moved and d.redone == 1.0


def seen_at(layout, cell, owner="p1", sticker=1):
    from vision.detect.pipeline import SeenBase

    x, y = next(r for r in layout.cells if r.name == cell).center
    return SeenBase(cell, x, y, 25.0, owner, 1.0, sticker, "read", 1.0)


def detection(layout, bases, occluded=()):
    from vision.detect.locate import MapFix
    from vision.detect.pipeline import Detection

    return Detection(MapFix(True, np.eye(3), [], 0.1), list(bases), set(occluded),
                     layout=layout)


def test_half_a_move_is_never_published(layout):
    """A hand carries a base from a4 to e1; the frame in which it leaves e1 misses the
    hand (a light sleeve on pale paper), so a4 is seen empty a frame before the base in
    e1 shows. Each region settles on its own, but the board waits for both: the only
    boards published are the one before the move and the one after."""
    stay = [seen_at(layout, "c3", "p2", 20)]
    before = [*stay, seen_at(layout, "a4")]
    after = [*stay, seen_at(layout, "e1")]
    frames = [detection(layout, before)] * 5
    frames += [detection(layout, stay, {"a4", "b4"})] * 3  # the hand over the map
    frames += [detection(layout, stay)]  # the hand in e1, missed
    frames += [detection(layout, after)] * 6
    stab = Stabilizer(4)
    published = []
    for i, det in enumerate(frames):
        obs = stab.push(det, i / 30, i)
        if obs is not None:
            published.append((i, {k for k, v in obs.regions.items() if v}))
    assert published == [(3, {"c3", "a4"}), (12, {"c3", "e1"})]


def test_a_flickering_region_does_not_freeze_the_board(layout):
    """A region whose count keeps changing (one base, then two, then one: a detection
    flickering) holds the other regions' changes only for ``settle_frames`` frames."""
    from dataclasses import replace

    base = [seen_at(layout, "c3", "p2", 20)]
    one = seen_at(layout, "b2")
    two = [one, replace(one, x_mm=one.x_mm + 30)]
    frames = [detection(layout, base)] * 5
    for i in range(30):  # a base appears in a5; b2 flickers all along
        frames.append(detection(layout, [*base, seen_at(layout, "a5"),
                                         *(two if i % 2 else [one])]))
    stab = Stabilizer(4, settle_frames=12)
    published = [i for i, det in enumerate(frames) if stab.push(det, i / 30, i) is not None]
    # The first board at frame 3; a5 settles at frame 8 but waits while b2 is unsettled
    # (since frame 5), until b2 has been so for 12 frames (frame 16).
    assert published == [3, 16]


def test_something_on_the_map_from_the_start_does_not_hide_the_board(layout):
    """A cup on a5 from the first frame: a5 is never seen, but once the cup has stood
    still for ``static_frames`` the rest of the board is published, a5 named occluded."""
    board = [seen_at(layout, "c3", "p2", 20), seen_at(layout, "b1")]
    stab = Stabilizer(4, static_frames=8)
    published = []
    for i in range(16):
        obs = stab.push(detection(layout, board, {"a5"}), i / 30, i)
        if obs is not None:
            published.append((i, obs))
    assert [i for i, _ in published] == [10]  # 7 frames held, then 4 consistent ones
    obs = published[0][1]
    assert "a5" in obs.occluded and len(obs.regions["c3"]) == 1 and len(obs.regions["b1"]) == 1


def test_one_frame_s_misreading_is_no_id(layout):
    """A base a figure partly hides is read in some frames and not in others; now and
    then one frame reads it wrong. An id is believed once three frames of the last
    eight read it, and never on one frame's word."""
    from dataclasses import replace

    other = seen_at(layout, "c3", "p2", 20)
    unread = replace(seen_at(layout, "b2"), sticker=None, tag="unreadable")
    misread = seen_at(layout, "b2", sticker=6)
    frames = [unread] * 6 + [misread] + [unread] * 10
    stab, obs = Stabilizer(4), None
    for i, b in enumerate(frames):
        obs = stab.push(detection(layout, [other, b]), i / 30, i) or obs
        assert obs is None or all(o.sticker is None for o in obs.regions["b2"])
    # The right id, read in three frames among unread ones, is believed.
    right = seen_at(layout, "b2", sticker=3)
    for i, b in enumerate([right, unread, right, unread, right], start=len(frames)):
        obs = stab.push(detection(layout, [other, b]), i / 30, i) or obs
    assert obs is not None and [o.sticker for o in obs.regions["b2"]] == [3]
    assert [o.sticker for o in obs.regions["c3"]] == [20]


def test_an_id_is_believed_only_with_its_owner(layout):
    """An id is its owner's. A base whose sticker is read in a few frames while most
    frames see no owner at all (a pale figure hiding half the ring: on a tuning stream
    such a base was read as the wrong sticker of the right player in 7 frames of 20,
    and never right) gets neither; read while its owner stands, the id is believed."""
    from dataclasses import replace

    other = seen_at(layout, "c3", "p2", 20)
    blank = replace(seen_at(layout, "b2"), owner=None, owner_confidence=0.0, sticker=None,
                    tag="unreadable", confidence=0.0)
    read = seen_at(layout, "b2", sticker=6)
    frames = [read, blank, blank, read, blank, read, blank, blank] * 3
    stab, obs = Stabilizer(4), None
    for i, b in enumerate(frames):
        obs = stab.push(detection(layout, [other, b]), i / 30, i) or obs
    assert obs is not None
    assert [(o.owner, o.sticker) for o in obs.regions["b2"]] == [(None, None)]
    # The owner seen by colour in the frames between: the same readings are believed.
    owned = replace(blank, owner="p1", owner_confidence=1.0)
    for i, b in enumerate([read, owned, owned, read, owned, read, owned, owned],
                          start=len(frames)):
        obs = stab.push(detection(layout, [other, b]), i / 30, i) or obs
    assert [(o.owner, o.sticker) for o in obs.regions["b2"]] == [("p1", 6)]
    # Once believed, the id stays while its owner does, read again or not (a figure
    # turned on the base may hide the sticker for many frames).
    for i, b in enumerate([owned] * 40, start=len(frames) + 8):
        obs = stab.push(detection(layout, [other, b]), i / 30, i) or obs
    assert [(o.owner, o.sticker) for o in stab._committed(stab.regions["b2"])] == [("p1", 6)]


def test_a_first_owner_needs_as_many_frames_as_a_change(layout):
    """A figure in the other player's colour over a pale sticker: some frames give the
    base to that player, most see no owner. The pattern of a rendered stream (1080p,
    MJPEG 75), whose first five frames held three such: the base was committed as the
    figure's colour's and kept so for good. A first owner now needs ``stable_frames``
    frames as well as a majority; an owner seen in every frame is committed as soon as
    before."""
    from dataclasses import replace

    other = seen_at(layout, "c3", "p2", 20)
    blank = replace(seen_at(layout, "b2"), owner=None, owner_confidence=0.0, sticker=None,
                    tag="unreadable", confidence=0.0)
    painted = replace(blank, owner="p2", owner_confidence=0.6)
    said = [0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0]
    stab, obs = Stabilizer(4), None
    for i, s in enumerate(said):
        obs = stab.push(detection(layout, [other, painted if s else blank]), i / 15, i) or obs
        assert obs is None or [o.owner for o in obs.regions["b2"]] == [None]
    assert obs is not None
    # Seen in every frame: committed with the first commit, on the fourth frame.
    stab, published = Stabilizer(4), []
    owned = replace(blank, owner="p1", owner_confidence=1.0)
    for i in range(4):
        got = stab.push(detection(layout, [other, owned]), i / 15, i)
        if got is not None:
            published.append((i, [o.owner for o in got.regions["b2"]]))
    assert published == [(3, ["p1"])]


def test_a_base_swapped_in_place_is_read_anew(hex_map):
    """A frame that changed in part is worked on in part, and bases outside the change
    keep their reading. One put down where another stood, at the very same centre, was
    found again inside the change and kept what stood there before: p2's sticker 20
    read as p1's 3 (c3, d7, g2 in this scene), a wrong id and owner from a clean
    picture. Each swap must read what now stands there."""
    from vision.synth.scene import Base

    layout, renderer = hex_map
    cells = {c.name: c for c in layout.cells}
    others = [Base(*cells["b1"].center, "p1", 0, figure=0.4),
              Base(*cells["f2"].center, "p1", 1, figure=0.4)]
    for cell in ("c3", "d7", "g2"):
        det = Detector(layout)
        partial = 0
        for owner, tag in (("p1", 3), ("p1", 3), ("p1", 5), ("p1", 9), ("p2", 20)):
            scene = Scene(layout, [*others, Base(*cells[cell].center, owner, tag, figure=0.0)])
            d = det.detect(renderer.render(scene, Conditions(tilt_deg=12.0, noise=1.5),
                                           (1280, 720), seed=0))
            partial += 0 < d.redone < 1
            seen = [(b.owner, b.sticker) for b in d.bases if b.region == cell]
            assert seen == [(owner, tag)], f"{cell}: {owner} {tag} shown, {seen} seen"
        assert partial >= 2  # the swaps were worked on in part, as a live camera's are


def test_a_sticker_swapped_for_one_of_the_same_colours_is_read_anew(layout, renderer):
    """With no frame between (a camera that dropped the frames of the hand), a sticker
    swapped for another of its owner's barely moves a 16-pixel block's grey mean (2 grey
    levels at a1 on Dreamblade's map, under the 4 that noise may move it): the frame was
    taken as unchanged and the old id kept for as long as the board stood still (14 of
    60 such swaps in ``bench vision``). The 4-pixel cells inside the blocks see it."""
    from vision.synth.scene import Base

    cells = {c.name: c for c in layout.cells}
    others = [Base(*cells["e5"].center, "p1", 15, figure=0.4)]
    for cell, owner, stickers in (("a1", "p2", (22, 18, 23)), ("b4", "p2", (27, 24, 30)),
                                  ("c4", "p1", (2, 5, 9))):
        det = Detector(layout)
        for tag in (*stickers, stickers[0]):
            scene = Scene(layout, [*others, Base(*cells[cell].center, owner, tag, figure=0.0)])
            d = det.detect(renderer.render(scene, Conditions(tilt_deg=12.0, noise=1.5),
                                           (1280, 720), seed=1))
            seen = [(b.owner, b.sticker) for b in d.bases if b.region == cell]
            assert seen == [(owner, tag)], f"{cell}: {owner} {tag} shown, {seen} seen"
        # Sensor noise alone is still no change: the result is reused.
        d = det.detect(renderer.render(scene, Conditions(tilt_deg=12.0, noise=1.5),
                                       (1280, 720), seed=1, frame_seed=5))
        assert d.redone == 0.0


def test_a_sticker_read_as_two_players_gives_no_owner(layout):
    """A figure painted in orange over blue's sticker: some frames read it as orange's
    sticker (the paint over blue's colour wedges), others by colour alone as orange's,
    one right as blue's. With readings of two players' stickers in the last frames,
    whose base it is is in dispute: neither owner nor id is given, until the frames
    agree again."""
    from dataclasses import replace

    other = seen_at(layout, "c3", "p2", 20)
    painted = seen_at(layout, "b2", "p1", 6)
    by_colour = replace(painted, sticker=None, tag="unreadable", confidence=0.0)
    right = seen_at(layout, "b2", "p2", 16)
    frames = [by_colour, painted, by_colour, painted, painted, by_colour, right, by_colour]
    stab, obs = Stabilizer(4), None
    for i, b in enumerate(frames):
        obs = stab.push(detection(layout, [other, b]), i / 15, i) or obs
    assert obs is not None
    assert [(o.owner, o.sticker) for o in obs.regions["b2"]] == [(None, None)]
    # Before the right reading came, the painted colour's owner and id stood: one
    # player's readings only (the rule asks two players' before it withholds).
    stab, obs = Stabilizer(4), None
    for i, b in enumerate(frames[:6]):
        obs = stab.push(detection(layout, [other, b]), i / 15, i) or obs
    assert obs is not None and [(o.owner, o.sticker) for o in obs.regions["b2"]] == [("p1", 6)]


def test_the_vision_bench_rows_on_cells_run_over_every_installed_game():
    """``bench vision``'s rows about bases in cells play every installed game's map,
    and say so, not crash, for a map whose pieces stand anywhere (Diskwars: no cells)."""
    from table import registry
    from tablesight.bench_sequences import NO_CELLS, plain_rings, swapped_in_place
    from vision.layout import game_layout

    rings, swaps = plain_rings(1, 3), swapped_in_place(1, 3)
    for game in registry.systems():
        if game_layout(game).cells:
            assert rings[game]["stickers"] > 0 and rings[game] != NO_CELLS
            assert swaps[game] != NO_CELLS
        else:
            assert rings[game] == swaps[game] == NO_CELLS
