"""What a webcam makes of the light a render gives it.

A render (``blender_job.py``) is scene-linear light with no camera in it. A cheap USB
webcam adds, in this order: its lens (barrel distortion, softness, vignetting), a
Bayer sensor with shot, read and row noise (rolling readout: each row gets its own
offset) behind an auto exposure that hunts, demosaicing, an auto white balance that is
a little off and drifts, a tone curve with the saturation boost webcams like, edge
sharpening with its halos, and MJPEG (JPEG at the quality the driver picks, chroma
subsampled 4:2:0). None of this shares code with ``vision.synth``.
"""

from __future__ import annotations

import json
import math
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np


@dataclass(frozen=True)
class Webcam:
    quality: int = 85  # MJPEG quality (the range: 60-95)
    k1: float = -0.06  # radial distortion (negative: barrel)
    softness: float = 0.7  # the lens's blur, Gaussian sigma in pixels
    vignette: float = 0.15  # light lost at the corners
    exposure: float = 0.32  # what the auto exposure aims the frame's mean at (linear)
    exposure_drift: float = 0.08  # frame-to-frame hunting of the auto exposure
    wb_error: float = 0.05  # how far the auto white balance misses grey, per channel
    wb_drift: float = 0.02
    shot: float = 0.012  # shot noise: sigma = shot * sqrt(signal)
    read: float = 0.004  # read noise (linear units of full scale)
    rows: float = 0.003  # rolling readout: each row's offset
    saturation: float = 1.2
    sharpen: float = 0.5  # unsharp mask amount
    chroma: str = "4:2:0"  # MJPEG's chroma subsampling (UVC webcams send 4:2:2 or 4:2:0)
    # "mean": the auto exposure brings the frame's mean to ``exposure`` (a dark mat
    # filling the frame then clips every white); "locked": exposure set by hand so the
    # brightest 1 % of the frame sits at ``exposure`` of full scale, as a user does with
    # v4l2-ctl over a dark board; "fixed": the render's light multiplied by
    # ``exposure`` itself, the same in every frame whatever the room's light does (an
    # exposure set once, or an auto exposure at its longest in a dim room)
    metering: str = "mean"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def random_webcam(rng: np.random.Generator, quality: int | None = None) -> Webcam:
    return Webcam(quality=int(quality if quality is not None else rng.integers(60, 96)),
                  k1=float(rng.uniform(-0.12, -0.01)), softness=float(rng.uniform(0.3, 0.8)),
                  vignette=float(rng.uniform(0.05, 0.3)),
                  exposure=float(rng.uniform(0.26, 0.4)),
                  wb_error=float(rng.uniform(0.0, 0.08)),
                  shot=float(rng.uniform(0.006, 0.02)), read=float(rng.uniform(0.002, 0.006)),
                  rows=float(rng.uniform(0.0, 0.005)), saturation=float(rng.uniform(1.0, 1.35)),
                  sharpen=float(rng.uniform(0.2, 0.9)),
                  chroma="4:2:2" if rng.random() < 0.5 else "4:2:0")


def read_render(path: str | Path) -> np.ndarray:
    """A render's scene-linear light (``blender_job.py``'s ``.lin`` file) as float32 BGR,
    in the render's own units up to a constant (the exposure is the webcam's job)."""
    path = Path(path)
    try:
        meta = json.loads(path.with_suffix(".lin.json").read_text())
        w, h = int(meta["width"]), int(meta["height"])
        data = np.frombuffer(zlib.decompress(path.read_bytes()),
                             "<u2" if meta.get("byteorder", "little") == "little" else ">u2")
        rgb = data.reshape(h, w, 3).astype(np.float32) / 65535
    except (OSError, ValueError, KeyError, zlib.error) as e:
        raise OSError(f"cannot read the render {path}: {e}") from e
    return np.ascontiguousarray(rgb[..., ::-1])


def _distort(img: np.ndarray, k1: float) -> np.ndarray:
    """Barrel distortion: each output pixel looks at the scene point its ray came from."""
    h, w = img.shape[:2]
    f = math.hypot(w, h) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = (xx - w / 2) / f, (yy - h / 2) / f
    # A pixel at radius r shows the scene at r (1 - k1 r^2): with k1 < 0, farther out
    # than a pinhole would, so straight lines bow outward (barrel). The corners then
    # look past the render's edge, onto the table, which is mirrored in.
    scale = 1 - k1 * (x * x + y * y)
    return cv2.remap(img, x * scale * f + w / 2, y * scale * f + h / 2, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REFLECT)


def _mosaic(bgr: np.ndarray) -> np.ndarray:
    """The Bayer pattern (BGGR: blue at even rows and columns) the sensor records."""
    h, w = bgr.shape[:2]
    raw = np.empty((h, w), np.float32)
    raw[0::2, 0::2] = bgr[0::2, 0::2, 0]
    raw[0::2, 1::2] = bgr[0::2, 1::2, 1]
    raw[1::2, 0::2] = bgr[1::2, 0::2, 1]
    raw[1::2, 1::2] = bgr[1::2, 1::2, 2]
    return raw


def _srgb(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055)


def deliver(render: np.ndarray, cam: Webcam, rng: np.random.Generator) -> np.ndarray:
    """One MJPEG frame (decoded, BGR uint8) of ``render`` as ``cam`` films it."""
    return cv2.imdecode(np.frombuffer(deliver_jpeg(render, cam, rng), np.uint8),
                        cv2.IMREAD_COLOR)


def deliver_jpeg(render: np.ndarray, cam: Webcam, rng: np.random.Generator) -> bytes:
    """The same frame as the JPEG bytes the webcam sends."""
    img = _distort(render, cam.k1) if cam.k1 else render.copy()
    if cam.softness > 0:
        img = cv2.GaussianBlur(img, (0, 0), cam.softness)
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    img *= (1 - cam.vignette * r2)[..., None]
    # Auto exposure: the frame's mean brought to the target, hunting a little.
    if cam.metering == "fixed":
        gain = cam.exposure
    elif cam.metering == "locked":
        lum = float(np.percentile(img.mean(axis=2), 99))
        gain = cam.exposure / max(lum, 1e-6)
    else:
        lum = float(img.mean())
        gain = cam.exposure / max(lum, 1e-6) * (1 + rng.normal(0, cam.exposure_drift))
    raw = _mosaic(img * gain)
    signal = np.clip(raw, 0, None)
    raw = raw + rng.normal(0, 1, raw.shape).astype(np.float32) * (
        cam.shot * np.sqrt(signal) + cam.read)
    raw += rng.normal(0, cam.rows, (h, 1)).astype(np.float32)
    raw16 = (np.clip(raw, 0, 1) * 65535).astype(np.uint16)  # the sensor saturates
    bgr = cv2.cvtColor(raw16, cv2.COLOR_BayerRG2BGR).astype(np.float32) / 65535
    # Auto white balance: the brightest fifth of the frame taken for white (the paper,
    # mostly), missing by a little.
    flat = bgr.reshape(-1, 3)
    lum = flat.sum(axis=1)
    means = flat[lum >= np.percentile(lum, 80)].mean(axis=0)
    wb = means.mean() / np.maximum(means, 1e-6)
    wb *= 1 + rng.normal(0, cam.wb_error + cam.wb_drift, 3)
    bgr *= wb.astype(np.float32)
    grey = bgr.mean(axis=2, keepdims=True)
    bgr = grey + (bgr - grey) * cam.saturation
    out = _srgb(bgr)
    if cam.sharpen > 0:
        soft = cv2.GaussianBlur(out, (0, 0), 1.0)
        out = out + cam.sharpen * (out - soft)
    out8 = (np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8)
    sampling = (cv2.IMWRITE_JPEG_SAMPLING_FACTOR_422 if cam.chroma == "4:2:2"
                else cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420)
    ok, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, int(cam.quality),
                                          cv2.IMWRITE_JPEG_SAMPLING_FACTOR, sampling])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
