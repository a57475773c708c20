"""Camera sources: anything OpenCV can open, an image folder, or the synthetic camera.

``open_source("0")`` (device index), ``open_source("rtsp://...")`` or ``http://`` (a
stream), ``open_source("game.mp4")`` (a video file), ``open_source("frames/")`` (an
image folder, in name order), ``open_source("image.jpg")``. Live sources reconnect when
the camera drops; every source stamps frames with a time and notices a frozen camera
(the same picture for ``frozen_after`` seconds).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class CameraError(RuntimeError):
    """A camera source that cannot be opened at all."""


@dataclass
class Frame:
    image: np.ndarray
    time: float  # seconds (source clock: wall clock for live cameras)
    index: int


@dataclass
class Health:
    connected: bool
    frozen: bool
    frames: int
    reconnects: int
    last_frame_age: float | None
    message: str = ""

    def to_dict(self) -> dict:
        return dict(self.__dict__)


class FreezeWatch:
    """Notices a camera that keeps delivering the same picture (a hung driver)."""

    def __init__(self, frozen_after: float = 2.0, tolerance: float = 0.3) -> None:
        self.frozen_after = frozen_after
        self.tolerance = tolerance
        self._last: np.ndarray | None = None
        self._since: float | None = None
        self.frozen = False

    def update(self, image: np.ndarray, t: float) -> bool:
        small = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image,
                           (64, 36), interpolation=cv2.INTER_AREA).astype(np.int16)
        # Real sensors always add some noise: an exactly repeated frame is suspicious.
        if self._last is not None and float(np.abs(small - self._last).mean()) < self.tolerance:
            if self._since is None:
                self._since = t
            self.frozen = t - self._since >= self.frozen_after
        else:
            self._since = None
            self.frozen = False
        self._last = small
        return self.frozen


class FrameSource(ABC):
    def __init__(self) -> None:
        self.frames = 0
        self.reconnects = 0
        self.freeze = FreezeWatch()
        self.last_time: float | None = None
        self.connected = True
        self.bad_frames = 0

    @abstractmethod
    def _grab(self) -> tuple[np.ndarray, float] | None:
        """The next picture and its time, or None at the end / while disconnected."""

    def read(self) -> Frame | None:
        got = self._grab()
        if got is None:
            return None
        image, t = got
        if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0 \
                or image.shape[0] < 16 or image.shape[1] < 16:
            self.bad_frames += 1  # a broken driver or stream: skipped, counted, reported
            return None
        self.freeze.update(image, t)
        self.frames += 1
        self.last_time = t
        return Frame(image, t, self.frames - 1)

    def absent(self) -> str:
        """What to say of a camera that has never sent a picture (found nowhere)."""
        return "camera not found"

    def health(self, now: float | None = None) -> Health:
        age = None if self.last_time is None else (now or time.time()) - self.last_time
        stale = age is not None and age > 3.0 and self.bad_frames > 0
        msg = ("camera frozen: the same picture for "
               f"{self.freeze.frozen_after:g} s" if self.freeze.frozen else
               self.absent() if not self.connected and self.frames == 0 else
               "camera disconnected, reconnecting" if not self.connected else
               f"camera sends broken pictures ({self.bad_frames} so far)" if stale else "")
        return Health(self.connected, self.freeze.frozen, self.frames, self.reconnects, age, msg)

    def close(self) -> None:  # noqa: B027 - optional for sources without resources
        pass

    def __iter__(self):
        while True:
            f = self.read()
            if f is None:
                return
            yield f


class ImageFolderSource(FrameSource):
    """Images in name order, at a nominal frame rate (timestamps are synthetic)."""

    def __init__(self, paths: list[Path], fps: float = 30.0) -> None:
        super().__init__()
        if not paths:
            raise CameraError("no images to read")
        self.paths = paths
        self.fps = fps
        self.i = 0

    def _grab(self) -> tuple[np.ndarray, float] | None:
        while self.i < len(self.paths):
            path = self.paths[self.i]
            self.i += 1
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if img is not None:
                return img, (self.i - 1) / self.fps
        return None


class CaptureSource(FrameSource):
    """An OpenCV capture (device, stream or file). Live ones reconnect with backoff."""

    def __init__(self, target: int | str, live: bool, retry_s: float = 1.0,
                 max_retry_s: float = 10.0) -> None:
        super().__init__()
        self.target = target
        self.live = live
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        # OpenCV's own warnings (a missing /dev/videoN, at every retry) would fill the
        # terminal forever; the health line says it once, in words.
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
        self.cap = cv2.VideoCapture(target)
        if not self.cap.isOpened():
            if not live:
                raise CameraError(f"cannot open {target!r} as a video")
            self.connected = False
        self._next_retry = 0.0
        self._backoff = retry_s
        self.fps = self.cap.get(cv2.CAP_PROP_FPS) or 30.0

    def _grab(self) -> tuple[np.ndarray, float] | None:
        if not self.connected:
            now = time.time()
            if now < self._next_retry:
                return None
            self.cap.release()
            self.cap = cv2.VideoCapture(self.target)
            if not self.cap.isOpened():
                self._next_retry = now + self._backoff
                self._backoff = min(self.max_retry_s, self._backoff * 2)
                return None
            self.connected, self._backoff = True, self.retry_s
            self.reconnects += 1
        ok, img = self.cap.read()
        if not ok or img is None:
            if self.live:
                self.connected = False
                self._next_retry = time.time() + self._backoff
            return None
        if self.live:
            return img, time.time()
        return img, self.cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0

    def absent(self) -> str:
        if isinstance(self.target, int):
            return (f"camera {self.target} not found: is it plugged in, and is "
                    f"{self.target} its number? (the first camera is 0)")
        # Not the address itself: a stream's URL may carry a password, and the health
        # line is on every screen.
        return "the camera stream does not answer: is its address right?"

    def close(self) -> None:
        self.cap.release()


def open_source(spec: str) -> FrameSource:
    if spec.isdigit():
        return CaptureSource(int(spec), live=True)
    if "://" in spec:
        return CaptureSource(spec, live=True)
    path = Path(spec)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise CameraError(f"{spec}: no images in this folder")
        return ImageFolderSource(files)
    if not path.exists():
        raise CameraError(f"{spec}: no such camera, file or folder")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFolderSource([path])
    return CaptureSource(str(path), live=False)
