"""A synthetic camera: a frame source whose picture is whatever scene it was last shown.

The demo and the end-to-end tests move bases and hands in a ``Scene`` and call
``show``; the camera renders it once (the expensive part) and then, like a real sensor,
keeps delivering that picture with fresh noise and a slight exposure flicker at its
frame rate, until the next ``show``. The live table reads it through the same
``FrameSource`` interface as a USB camera.
"""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from ..camera import FrameSource
from .scene import Conditions, Scene, SceneRenderer

NOISE_FRAMES = 4


class SyntheticCamera(FrameSource):
    def __init__(self, renderer: SceneRenderer, conditions: Conditions | None = None,
                 size: tuple[int, int] = (1280, 720), fps: float = 30.0,
                 realtime: bool = True, seed: int = 0) -> None:
        super().__init__()
        self.renderer = renderer
        self.conditions = conditions or Conditions(tilt_deg=12.0, noise=1.5)
        self.size = size
        self.fps = fps
        self.realtime = realtime
        self.seed = seed
        self._cond = threading.Condition()
        self._image: np.ndarray | None = None
        self.version = 0  # bumped by every ``show``
        self._served = -1  # the version of the last frame read
        self._next = 0.0
        self.paused = False  # a frozen camera, for tests of the health check
        self.unplugged = False
        rng = np.random.default_rng(seed + 99)
        h, w = size[1], size[0]
        # Small positive noise, added with saturation: cheap per frame, never the same.
        self._noise = [rng.integers(0, 3, (h, w, 3), dtype=np.uint8) for _ in range(NOISE_FRAMES)]
        self._k = 0

    def show(self, scene: Scene) -> None:
        """Render ``scene`` (in the caller's thread) and make it the picture."""
        image = self.renderer.render(scene, self.conditions, self.size, seed=self.seed)
        with self._cond:
            self._image = image
            self.version += 1
            self._cond.notify_all()

    def wait_served(self, version: int, timeout: float = 5.0) -> bool:
        """Block until a frame of ``version`` (or later) was read by the consumer."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._served < version:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _grab(self) -> tuple[np.ndarray, float] | None:
        if self.realtime:
            now = time.monotonic()
            if now < self._next:
                time.sleep(self._next - now)
            self._next = max(now, self._next) + 1.0 / self.fps
        with self._cond:
            while self._image is None:
                self._cond.wait(0.1)
                if self._image is None:
                    return None
            image, version = self._image, self.version
        if self.unplugged:
            self.connected = False
            return None
        self.connected = True
        if not self.paused:
            self._k = (self._k + 1) % NOISE_FRAMES
            if self._k % 2:
                image = cv2.add(image, self._noise[self._k])
        with self._cond:
            self._served = max(self._served, version)
            self._cond.notify_all()
        return image, time.time()
