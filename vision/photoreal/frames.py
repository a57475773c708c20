"""Rendered frames with their truth: made with Blender (cached), or read from a folder.

A frame set on disk is a folder of ``<scene>-q<quality>.jpg`` (what the webcam
delivered, MJPEG at that quality) and ``<scene>.json`` (the truth: bases with owner,
sticker and figure height; the look; the webcams). ``tests/data/renders/`` holds a small
committed set; ``tablesight vision render`` writes more, and ``tablesight bench vision``
renders its own into the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .. import tags
from ..layout import Layout
from ..synth.scene import Base, Scene
from .spec import RenderScene, write_job
from .webcam import Webcam, deliver_jpeg, random_webcam, read_render

JOB_SCRIPT = Path(__file__).with_name("blender_job.py")


class BlenderMissing(RuntimeError):
    def __init__(self) -> None:
        super().__init__("Blender is not installed: rendered frames need it "
                         "(Debian/Ubuntu: sudo apt-get install blender)")


class RenderFailed(RuntimeError):
    pass


@dataclass
class Frame:
    name: str  # "<scene>-q<quality>"
    jpeg: bytes  # what the webcam sent
    image: np.ndarray  # the same, decoded (BGR)
    scene: Scene  # the truth, scored like a synthetic scene
    quality: int
    figures: bool
    truth: dict[str, Any]


def cache_dir() -> Path:
    root = os.environ.get("TABLESIGHT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tablesight")
    return Path(root) / "renders"


def blender() -> str:
    path = os.environ.get("TABLESIGHT_BLENDER") or shutil.which("blender")
    if not path:
        raise BlenderMissing()
    return path


def job_digest(folder: Path) -> str:
    """What names a job in the cache: every file ``write_job`` put in the folder (the
    job, the printed sheet, each sticker, the truths) and the Blender script. The
    pictures count as well as the job: a sticker drawn another way (a new code, a new
    ink) must not be served the renders of the old one."""
    h = hashlib.sha256(JOB_SCRIPT.read_bytes())
    for path in sorted(folder.iterdir()):
        h.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:16]


def render(layout: Layout, scenes: list[RenderScene], folder: Path | None = None,
           threads: int = 2, timeout: float = 3600.0) -> list[Path]:
    """Each scene's scene-linear render (``.lin``, see ``blender_job.py``). Renders are
    cached by the job's content: the same scenes are rendered once."""
    if folder is None:
        cache_dir().mkdir(parents=True, exist_ok=True)
        # A folder of this process's own: two runs may write jobs at once.
        probe = Path(tempfile.mkdtemp(prefix="pending-", dir=cache_dir()))
        write_job(layout, scenes, probe, threads)
        folder = cache_dir() / job_digest(probe)
        try:
            probe.rename(folder)
        except OSError:  # rendered before (or being rendered): the job is the same
            shutil.rmtree(probe)
    else:
        write_job(layout, scenes, folder, threads)
    outs = [folder / f"{s.name}.lin" for s in scenes]
    if all(p.with_suffix(".done").exists() for p in outs):
        return outs
    cmd = [blender(), "-b", "--factory-startup", "--python", str(JOB_SCRIPT), "--",
           str(folder)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    missing = [p.name for p in outs if not p.with_suffix(".done").exists()]
    if proc.returncode != 0 or missing:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-12:])
        raise RenderFailed(f"Blender did not render {missing or 'the job'} "
                           f"(exit {proc.returncode}):\n{tail}")
    return outs


def scene_from_truth(layout: Layout, truth: dict[str, Any]) -> Scene:
    return Scene(layout, [Base(float(b["x"]), float(b["y"]), str(b["owner"]),
                               None if b["tag"] is None else int(b["tag"]),
                               float(b["diameter"]), float(b["angle"]),
                               0.4 if b.get("figure_mm") else 0.0)
                          for b in truth["bases"]])


def _scene_webcam(rs: RenderScene, seed: int) -> Webcam:
    """The webcam that films scene ``rs``: the same for every quality and frame."""
    return random_webcam(np.random.default_rng([seed, rs.seed]))


def _frame_noise(rs: RenderScene, seed: int, frame: int = 0) -> np.random.Generator:
    """The randomness (sensor noise, exposure hunting, white balance drift) of frame
    ``frame`` of scene ``rs``: ``film`` delivers frame 0 at every quality."""
    return np.random.default_rng([seed, rs.seed, 1] + ([frame] if frame else []))


def film(layout: Layout, scenes: list[RenderScene], renders: list[Path],
         qualities: Iterable[int], seed: int = 0,
         locked_exposure: float | None = None,
         fixed_gain: float | None = None) -> Iterator[Frame]:
    """Each render as webcams deliver it at each MJPEG quality (one webcam per scene,
    its other settings the same at every quality, so qualities compare like for like).
    ``locked_exposure``: exposure set by hand, the brightest 1 % at this share of full
    scale (``Webcam.metering``), instead of the auto exposure; ``fixed_gain``: the
    render's light times this, whatever the scene's light (``"fixed"`` metering), so a
    brighter room makes a brighter frame."""
    for rs, path in zip(scenes, renders, strict=True):
        linear = read_render(path)
        cam = _scene_webcam(rs, seed)
        if locked_exposure is not None:
            cam = Webcam(**{**cam.to_dict(), "metering": "locked",
                            "exposure": locked_exposure})
        if fixed_gain is not None:
            cam = Webcam(**{**cam.to_dict(), "metering": "fixed", "exposure": fixed_gain})
        truth = rs.truth()
        # pieces told by tone carry no sticker: nothing to see of one
        seen = None if layout.tones else visibility(path, truth["bases"])
        if seen is not None:
            for b, view in zip(truth["bases"], seen, strict=True):
                b["wedges_seen"] = view
        for q in qualities:
            cam_q = Webcam(**{**cam.to_dict(), "quality": int(q)})
            jpeg = deliver_jpeg(linear, cam_q, _frame_noise(rs, seed))
            truth = {**truth, "webcam": cam_q.to_dict()}
            yield Frame(f"{rs.name}-q{q}", jpeg, _decode(jpeg), rs.scene, int(q),
                        bool(rs.figures), truth)


# A wedge counts as seen when at least half of its outer part (radii 0.7-0.92 of the
# sticker, inside the ink rim) is in view. Figures hide a ring from the inside out, so
# the outer part is what any reader looks at: measured on the held-out renders, bases
# with fewer than four wedges seen by this rule were never read, while a stricter rule
# (80 % of 0.5-0.9) called a third of the stickers read from one frame unreadable.
WEDGE_SEEN = 0.5
CODED = (0.7, 0.92)


def read_ids(lin: Path, bare: bool = False) -> np.ndarray | None:
    """A render's id pass (``blender_job._id_passes``) as (height, width, 4) floats, top
    row first: base number + 1 (0: no sticker), the sticker's u and v, alpha. ``bare``:
    the pass with the figures hidden (the same pass when the scene has none). None when
    the render has no id pass (renders made before there was one)."""
    stem = lin.with_suffix("")
    meta_path, path = stem.with_suffix(".ids.json"), stem.with_suffix(".ids")
    if bare and stem.with_suffix(".ids-bare").exists():
        path = stem.with_suffix(".ids-bare")
    if not (meta_path.exists() and path.exists()):
        return None
    try:
        meta = json.loads(meta_path.read_text())
        dt = np.dtype("<f4" if meta["byteorder"] == "little" else ">f4")
        a = np.frombuffer(zlib.decompress(path.read_bytes()), dt)
        return a.reshape(int(meta["height"]), int(meta["width"]), 4)[::-1]
    except (ValueError, KeyError, TypeError, zlib.error) as e:
        raise OSError(f"{path}: not a render's id pass ({e})") from e


def wedge_at(u: np.ndarray, v: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Where sticker coordinates (u, v) lie on a sticker drawn at ``angle``
    (``tags.draw_tag``): (radius as a share of the sticker's, wedge number). The image
    goes onto the sticker unmirrored with its top row at v = 1, so the drawing's y axis
    (down) is -v."""
    du, dv = u - 0.5, 0.5 - v
    theta = np.degrees(np.arctan2(dv, du))
    wedge = np.floor(((theta - angle) % 360) / (360 / tags.SECTORS)).astype(np.int32)
    return 2 * np.hypot(du, dv), wedge % tags.SECTORS


def visibility(lin: Path, bases: list[dict[str, Any]]) -> list[int | None] | None:
    """For each base, the longest run of neighbouring wedges of its sticker that the
    camera sees (0-10; None: a base with no sticker), from the render's id passes;
    None when the render has none. Four neighbouring wedges name a pattern (``tags``),
    so a sticker with fewer in view cannot be read from this frame by any decoder."""
    shown, bare = read_ids(lin), read_ids(lin, bare=True)
    if shown is None or bare is None:
        return None
    which_bare = np.rint(bare[..., 0]).astype(np.int32)
    which_shown = np.rint(shown[..., 0]).astype(np.int32)
    out: list[int | None] = []
    for i, b in enumerate(bases):
        if b.get("tag") is None:
            out.append(None)
            continue
        ys, xs = np.nonzero(which_bare == i + 1)
        r, wedge = wedge_at(bare[ys, xs, 1], bare[ys, xs, 2], float(b["angle"]))
        keep = (r >= CODED[0]) & (r <= CODED[1])
        wedge = wedge[keep]
        visible = which_shown[ys[keep], xs[keep]] == i + 1
        total = np.bincount(wedge, minlength=tags.SECTORS)
        inview = np.bincount(wedge, weights=visible, minlength=tags.SECTORS)
        seen = (total > 0) & (inview >= WEDGE_SEEN * np.maximum(total, 1))
        out.append(_longest_run(seen.tolist()))
    return out


def _longest_run(seen: list[bool]) -> int:
    """The longest run of True around a ring."""
    if all(seen):
        return len(seen)
    best = run = 0
    for s in seen + seen:
        run = run + 1 if s else 0
        best = max(best, run)
    return min(best, len(seen))


def stream(rs: RenderScene, render: Path, quality: int, count: int,
           seed: int = 0) -> Iterator[Frame]:
    """One render as a webcam streams it: ``count`` frames at one MJPEG quality, the
    camera's settings those ``film`` gives the scene, its sensor noise, exposure hunting
    and white balance drift new in each frame (the first is ``film``'s frame)."""
    linear = read_render(render)
    cam = Webcam(**{**_scene_webcam(rs, seed).to_dict(), "quality": int(quality)})
    truth = {**rs.truth(), "webcam": cam.to_dict()}
    for i in range(count):
        jpeg = deliver_jpeg(linear, cam, _frame_noise(rs, seed, i))
        yield Frame(f"{rs.name}-q{quality}-f{i}", jpeg, _decode(jpeg), rs.scene, int(quality),
                    bool(rs.figures), truth)


def _decode(jpeg: bytes) -> np.ndarray:
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise OSError("not a JPEG frame")
    return img


def save(frames: Iterable[Frame], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for f in frames:
        (out / f"{f.name}.jpg").write_bytes(f.jpeg)  # the webcam's bytes, not re-encoded
        scene_name = f.name.rsplit("-q", 1)[0]
        truth = {k: v for k, v in f.truth.items() if k != "webcam"}
        meta_path = out / f"{scene_name}.json"
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else truth
        meta.setdefault("webcams", {})[str(f.quality)] = f.truth["webcam"]
        meta["figures"] = f.figures
        meta_path.write_text(json.dumps(meta, indent=1))
        written.append(out / f"{f.name}.jpg")
    return written


def load(layout: Layout, folder: Path) -> list[Frame]:
    """A frame set from disk (see the module's docstring)."""
    frames = []
    for meta_path in sorted(folder.glob("*.json")):
        try:
            truth = json.loads(meta_path.read_text())
            scene = scene_from_truth(layout, truth)
        except (ValueError, KeyError, TypeError) as e:
            raise OSError(f"{meta_path}: not a frame's truth ({e})") from e
        for q in sorted(truth.get("webcams", {}), key=int):
            path = folder / f"{meta_path.stem}-q{q}.jpg"
            if not path.exists():
                raise OSError(f"missing frame {path}")
            jpeg = path.read_bytes()
            frames.append(Frame(path.stem, jpeg, _decode(jpeg), scene, int(q),
                                bool(truth.get("figures")), truth))
    return frames
