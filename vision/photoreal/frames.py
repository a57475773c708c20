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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

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


def render(layout: Layout, scenes: list[RenderScene], folder: Path | None = None,
           threads: int = 2, timeout: float = 3600.0) -> list[Path]:
    """Each scene's scene-linear render (``.lin``, see ``blender_job.py``). Renders are
    cached by the job's content: the same scenes are rendered once."""
    if folder is None:
        cache_dir().mkdir(parents=True, exist_ok=True)
        # A folder of this process's own: two runs may write jobs at once.
        probe = Path(tempfile.mkdtemp(prefix="pending-", dir=cache_dir()))
        write_job(layout, scenes, probe, threads)
        digest = hashlib.sha256((probe / "job.json").read_bytes() +
                                JOB_SCRIPT.read_bytes()).hexdigest()[:16]
        folder = cache_dir() / digest
        try:
            probe.rename(folder)
        except OSError:  # rendered before (or being rendered): the job is the same
            shutil.rmtree(probe)
    else:
        write_job(layout, scenes, folder, threads)
    outs = [folder / f"{s.name}.lin" for s in scenes]
    if all(p.exists() for p in outs):
        return outs
    cmd = [blender(), "-b", "--factory-startup", "--python", str(JOB_SCRIPT), "--",
           str(folder)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    missing = [p.name for p in outs if not p.exists()]
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


def film(layout: Layout, scenes: list[RenderScene], renders: list[Path],
         qualities: Iterable[int], seed: int = 0,
         locked_exposure: float | None = None) -> Iterator[Frame]:
    """Each render as webcams deliver it at each MJPEG quality (one webcam per scene,
    its other settings the same at every quality, so qualities compare like for like).
    ``locked_exposure``: exposure set by hand, the brightest 1 % at this share of full
    scale (``Webcam.metering``), instead of the auto exposure."""
    for rs, path in zip(scenes, renders, strict=True):
        linear = read_render(path)
        cam = random_webcam(np.random.default_rng([seed, rs.seed]))
        if locked_exposure is not None:
            cam = Webcam(**{**cam.to_dict(), "metering": "locked",
                            "exposure": locked_exposure})
        for q in qualities:
            cam_q = Webcam(**{**cam.to_dict(), "quality": int(q)})
            jpeg = deliver_jpeg(linear, cam_q, np.random.default_rng([seed, rs.seed, 1]))
            truth = {**rs.truth(), "webcam": cam_q.to_dict()}
            yield Frame(f"{rs.name}-q{q}", jpeg, _decode(jpeg), rs.scene, int(q),
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
