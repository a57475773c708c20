"""The second source of frames for ``bench vision``: Blender renders of the
printed map, stickers and figures as webcams deliver them, single frames and streams."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .bench_scoring import COMMITTED_KEYS, TIMING_RUNS, VisionTally, identity_rates, score_committed

if TYPE_CHECKING:
    from vision.layout import Layout

COMMITTED_RENDERS = Path(__file__).resolve().parents[1] / "tests" / "data" / "renders"
RENDER_QUALITIES = (60, 75, 90, 95)
# What the game receives from the renders: each scene streamed at these qualities for
# this many frames (about 1.5 s of a webcam's 15 fps), through the stabiliser.
STREAM_QUALITIES = (75, 90)
STREAM_FRAMES = 20
RENDER_SIZES = ((1280, 720), (1920, 1080))  # what webcams deliver as MJPEG
# A 4K webcam's frames, on request (``uhd``): a 4K render costs about four 1080p ones
# (3-4 min a scene on 2 cores), so only the first scenes of each set.
UHD_SIZE = (3840, 2160)
UHD_SCENES = 4


def bench_rendered(layout: Layout, quick: bool = False, seed: int = 1,
                   scenes: int = 8, uhd: bool = False) -> dict[str, Any]:
    """The second source of frames: Blender renders of the printed map, the
    stickers and figures, as webcams deliver them (``vision/photoreal``). Quick: the
    frames committed under tests/data/renders (720p, tuned on: not held out). Full:
    ``scenes`` scenes without figures and as many with, seeded apart from the committed
    ones, each at 720p and at 1080p, rendered once into the cache (about 20 s a scene
    at 720p and 50 s at 1080p on 2 cores), each at every MJPEG quality. Scored as the
    synthetic frames are, per (resolution, figures, quality). ``uhd``: the first
    ``UHD_SCENES`` of each set at 3840 x 2160 too (a 4K webcam), about half an hour
    more."""
    import numpy as np

    from vision.detect import Detector
    from vision.photoreal import frames as rendered
    from vision.photoreal.spec import random_render_scene

    out: dict[str, Any] = {}
    try:
        if quick:
            source = f"committed frames ({COMMITTED_RENDERS.name}/)"
            frame_list = rendered.load(layout, COMMITTED_RENDERS)
        else:
            source = f"rendered now (seeds {seed * 10_000}+, cached)"
            frame_list = []
            streams = []
            sizes = [(size, scenes) for size in RENDER_SIZES]
            if uhd:
                sizes.append((UHD_SIZE, min(scenes, UHD_SCENES)))
            for size, count in sizes:
                plan = [random_render_scene(layout, seed * 10_000 + i, figures=False,
                                            size=size) for i in range(count)]
                plan += [random_render_scene(layout, seed * 10_000 + 500 + i, figures=True,
                                             size=size) for i in range(count)]
                paths = rendered.render(layout, plan)
                frame_list += list(rendered.film(layout, plan, paths, RENDER_QUALITIES, seed))
                streams += [(rs, path) for rs, path in zip(plan, paths, strict=True)]
    except (OSError, RuntimeError) as e:
        return {"error": str(e)}
    tallies: dict[str, VisionTally] = {}
    goal: dict[str, VisionTally] = {}
    times: dict[str, list[float]] = {}
    for f in frame_list:
        runs = [Detector(layout).detect(f.image) for _ in range(TIMING_RUNS)]
        d = min(runs, key=lambda r: r.timing_ms["total"])
        res = f"{f.image.shape[0]}p"
        times.setdefault(res, []).append(d.timing_ms["total"])
        what = "figures" if f.figures else "no figures"
        seen = [b.get("wedges_seen") for b in f.truth["bases"]]
        views = seen if any(v is not None for v in seen) else None
        tallies.setdefault(f"{res}, {what}, MJPEG {f.quality}", VisionTally()).add(
            layout, f.scene, d, views)
        if f.quality >= 75:
            goal.setdefault(f"{res}, {what}, MJPEG 75+", VisionTally()).add(
                layout, f.scene, d, views)
    out["source"] = source
    out["frames"] = len(frame_list)
    out["conditions"] = {k: t.report() for k, t in sorted(tallies.items())}
    out["goals"] = {k: t.report() for k, t in sorted(goal.items())}
    out["ms_per_frame_single_image"] = {
        res: {"median": round(float(np.median(ts)), 2),
              "p95": round(float(np.percentile(ts, 95)), 2)} for res, ts in times.items()}
    if not quick:
        out["identity_after_stabiliser"] = rendered_streams(layout, streams, seed)
    return out


def rendered_streams(layout: Layout, streams: list, seed: int) -> dict[str, Any]:
    """What the game receives from the renders: each scene streamed for
    ``STREAM_FRAMES`` frames (``photoreal.frames.stream``) through one detector and the
    stabiliser, and the committed board scored against the truth, per (resolution,
    figures, quality)."""
    from vision.detect import Detector
    from vision.photoreal import frames as rendered
    from vision.stabilizer import Stabilizer

    tallies: dict[str, dict[str, int]] = {}
    for rs, path in streams:
        for q in STREAM_QUALITIES:
            det, stab, obs = Detector(layout), Stabilizer(), None
            for i, f in enumerate(rendered.stream(rs, path, q, STREAM_FRAMES, seed)):
                obs = stab.push(det.detect(f.image), i / 15, i) or obs
            key = f"{rs.look.size[1]}p, {'figures' if rs.figures else 'no figures'}, MJPEG {q}"
            score_committed(tallies.setdefault(key, dict.fromkeys(COMMITTED_KEYS, 0)),
                             rs.scene.bases, obs)
    return {k: {**identity_rates(n), "wrong_ids": n["wrong"],
                "wrong_owners": n["wrong_owner"]} for k, n in sorted(tallies.items())} | {
        "frames_per_stream": STREAM_FRAMES}

