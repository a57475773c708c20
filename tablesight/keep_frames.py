"""The last camera frames, written to a folder when the board and the game disagree.

A desync ("the board does not match the game") at a real table is hard to explain
afterwards: the game log says what the camera reported, not what it saw. With
``--keep-frames DIR`` the live table keeps its last few camera pictures in memory and,
when the session reports a desync, writes them (lossless PNG, as the detector read
them), each with the detector's annotated view and what it reported, into a folder of
their own under DIR. Store staff can send that folder in; a developer can run the
detector on the very pixels (``tablesight vision detect FILE``).

Memory: the pictures are kept as the camera delivered them (no copy, no encoding per
frame, so the camera loop pays nothing): ``keep`` frames of 1280x720 hold 2.8 MB each,
of 1920x1080 6.2 MB. Writing happens in a thread of its own, so the camera never
waits for the disk.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

KEEP = 12  # frames: the stabiliser commits a board after a few still frames
AT_MOST = 50  # incidents written per run: a table stuck in a desync must not fill a disk
QUIET_S = 10.0  # one incident per this many seconds: a desync whose wording changes is one


@dataclass
class Kept:
    image: np.ndarray
    index: int
    time: float
    detection: Any  # vision.detect.Detection


class FrameKeeper:
    def __init__(self, folder: str | Path, keep: int = KEEP, at_most: int = AT_MOST,
                 quiet_s: float = QUIET_S,
                 announce: Callable[[Path], None] | None = None) -> None:
        if keep < 1:
            raise ValueError(f"keep at least one frame (asked for {keep})")
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._frames: deque[Kept] = deque(maxlen=keep)
        self._lock = threading.Lock()
        self.at_most = at_most
        self.quiet_s = quiet_s
        self.written: list[Path] = []  # incident folders, in order
        self._last = -float("inf")
        self._writers: list[threading.Thread] = []
        self.announce = announce  # told where each incident goes (the terminal)

    def add(self, image: np.ndarray, index: int, t: float, detection: Any) -> None:
        with self._lock:
            self._frames.append(Kept(image, index, t, detection))

    def incident(self, kind: str, problems: list[str]) -> Path | None:
        """Write the kept frames for an incident (a desync and its problems); returns
        the folder it goes to, or None when nothing is written (no frames yet, too soon
        after the last incident, or ``at_most`` reached)."""
        now = time.monotonic()
        with self._lock:
            frames = list(self._frames)
            if not frames or now - self._last < self.quiet_s \
                    or len(self.written) >= self.at_most:
                return None
            self._last = now
            stamp = time.strftime("%Y%m%d-%H%M%S")
            slug = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-") or "incident"
            out = self.folder / f"{len(self.written) + 1:03d}-{stamp}-{slug}"
            self.written.append(out)
        writer = threading.Thread(target=_write, args=(out, kind, problems, frames),
                                  name="keep-frames", daemon=True)
        writer.start()
        self._writers.append(writer)
        if self.announce is not None:
            self.announce(out)
        return out

    def flush(self, timeout: float = 30.0) -> None:
        """Wait for the incidents being written (at the end of a run, in tests)."""
        for w in self._writers:
            w.join(timeout)
        self._writers = [w for w in self._writers if w.is_alive()]


def _write(out: Path, kind: str, problems: list[str], frames: list[Kept]) -> None:
    from vision.annotate import annotate

    out.mkdir(parents=True, exist_ok=True)
    listed = []
    for k in frames:
        name = f"frame-{k.index:07d}"
        cv2.imwrite(str(out / f"{name}.png"), k.image)
        entry: dict[str, Any] = {"file": f"{name}.png", "index": k.index, "time": k.time}
        det = k.detection
        if det is not None:
            try:
                cv2.imwrite(str(out / f"{name}-seen.jpg"), annotate(k.image, det),
                            [cv2.IMWRITE_JPEG_QUALITY, 85])
                entry["seen"] = f"{name}-seen.jpg"
                entry["detection"] = det.to_dict()
            except Exception as e:  # a picture that cannot be drawn still has its pixels
                entry["seen_error"] = f"{type(e).__name__}: {e}"
        listed.append(entry)
    # Written last, so a folder with incident.json is complete.
    (out / "incident.json").write_text(json.dumps(
        {"kind": kind, "problems": problems, "frames": listed}, indent=1, default=str))


__all__ = ["FrameKeeper"]
