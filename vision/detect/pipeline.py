"""The detector: stages in order, each timed. One frame in, one ``Detection`` out."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout, Region
from ..shrink import shrink
from .bases import BaseFinder
from .foreground import ForegroundModel
from .framing import Framing, framing
from .identify import Identifier, Identity
from .locate import MapFix, MapLocator
from .occlusion import OcclusionFinder


@dataclass
class SeenBase:
    region: str
    x_mm: float
    y_mm: float
    diameter_mm: float
    owner: str | None
    owner_confidence: float
    sticker: int | None
    tag: str  # read / none / unreadable
    confidence: float
    occluded: bool = False
    paper: float = 0.0  # the paper's brightness around it (0-255), for reading it again

    def to_dict(self) -> dict[str, Any]:
        return {"sticker": self.sticker, "owner": self.owner,
                "confidence": round(self.confidence, 3), "tag": self.tag,
                "owner_confidence": round(self.owner_confidence, 3),
                "center_mm": [round(self.x_mm, 1), round(self.y_mm, 1)],
                "diameter_mm": round(self.diameter_mm, 1)}


def _seen(region: str, x_mm: float, y_mm: float, diameter_mm: float, ident: Identity,
          occluded: bool, paper: float) -> SeenBase:
    conf = ident.owner_confidence if ident.tag != "read" else \
        min(1.0, 0.5 * ident.owner_confidence + 0.5 * ident.tag_confidence + 0.2)
    return SeenBase(region, x_mm, y_mm, diameter_mm, ident.owner, ident.owner_confidence,
                    ident.sticker, ident.tag, conf, occluded, paper)


@dataclass
class Detection:
    fix: MapFix
    bases: list[SeenBase] = field(default_factory=list)
    occluded: set[str] = field(default_factory=set)
    timing_ms: dict[str, float] = field(default_factory=dict)
    size: tuple[int, int] = (0, 0)
    layout: Layout | None = None

    def by_region(self, role: str) -> dict[str, list[dict[str, Any]]]:
        assert self.layout is not None
        out: dict[str, list[dict[str, Any]]] = {
            r.name: [] for r in self.layout.regions if r.role == role}
        for b in self.bases:
            if b.region in out:
                out[b.region].append(b.to_dict())
        return out

    def framing(self) -> Framing | None:
        """How the camera frames the map (pixels per base, advice), once it is found."""
        if not self.fix.found or self.layout is None or self.fix.homography is None:
            return None
        return framing(self.fix.homography, self.layout, self.size)

    def to_dict(self) -> dict[str, Any]:
        f = self.fix
        framed = self.framing()
        return {
            "image": {"width": self.size[0], "height": self.size[1]},
            "map": {"found": f.found, "markers_seen": f.markers_seen,
                    "markers_expected": len(self.layout.markers) if self.layout else None,
                    "reprojection_error_px": None if f.reprojection_px is None
                    else round(f.reprojection_px, 3),
                    "moved": f.moved, "from_memory": f.from_memory,
                    "framing": None if framed is None else framed.to_dict()},
            "cells": self.by_region("cell") if f.found else {},
            "zones": self.by_region("zone") if f.found else {},
            "occluded": sorted(self.occluded),
            "timing_ms": {k: round(v, 2) for k, v in self.timing_ms.items()},
        }


class Detector:
    """Stateful across frames (the map locator tracks the markers); one per camera."""

    def __init__(self, layout: Layout, config: VisionConfig | None = None) -> None:
        self.layout = layout
        self.cfg = config or VisionConfig()
        self.locator = MapLocator(layout, self.cfg)
        self.foreground = ForegroundModel(layout, self.cfg)
        self.finder = BaseFinder(layout, self.cfg)
        self.identifier = Identifier(layout, self.cfg)
        self.occlusion = OcclusionFinder(layout, self.cfg, self.foreground.area,
                                         self.foreground.region_labels)
        self._previous: tuple[np.ndarray, Detection] | None = None
        self._rereads = 0  # unchanged frames on which unread stickers were read again
        self._reread_ids: dict[int, Counter[int]] = {}  # base index -> ids read again

    def _read_again(self, frame: np.ndarray, same: Detection) -> list[SeenBase]:
        """On a frame showing the same scene, the stickers not yet read, read again:
        each frame brings new sensor noise, and the stabiliser votes over the frames.
        For ``reread_frames`` frames after a full detection; ``same.bases`` when there
        is nothing to do."""
        todo = [k for k, b in enumerate(same.bases) if b.tag != "read" and not b.occluded]
        h = same.fix.homography
        if not todo or self._rereads >= self.cfg.reread_frames or h is None:
            return same.bases
        self._rereads += 1
        discs = [(b.x_mm, b.y_mm, b.diameter_mm / 2 * self.cfg.sticker_fraction, b.paper)
                 for b in (same.bases[k] for k in todo)]
        bases = list(same.bases)
        for k, ident in zip(todo, self.identifier.identify_many(frame, h, discs), strict=True):
            b = same.bases[k]
            if ident.tag != "read" or b.owner not in (None, ident.owner):
                continue
            ids = self._reread_ids.setdefault(k, Counter())
            ids[ident.sticker] += 1
            # Each reading again is one more chance to read it wrong as well as right: it
            # is believed once read the same way twice, and never another way (a larger
            # lead instead lost the gain and kept the wrong readings).
            if len(ids) == 1 and ids[ident.sticker] >= self.cfg.reread_agree:
                bases[k] = _seen(b.region, b.x_mm, b.y_mm, b.diameter_mm, ident, b.occluded,
                                 b.paper)
        return bases

    def _region_at(self, x_px: float, y_px: float, x_mm: float, y_mm: float) -> Region | None:
        """The region under a working pixel: from the drawn region map when the pixel is
        well inside one, from the exact polygons near an edge."""
        labels = self.foreground.region_labels
        ix, iy = int(round(x_px)), int(round(y_px))
        around = labels[max(0, iy - 1):iy + 2, max(0, ix - 1):ix + 2]
        if around.size == 9 and around.min() == around.max():
            k = int(around[0, 0])
            return self.layout.regions[k - 1] if k else None
        return self.layout.region_at(x_mm, y_mm)

    def _unchanged(self, small: np.ndarray) -> Detection | None:
        """The previous result, if this frame shows the same scene (sensor noise aside):
        most frames of a game change nothing, and they cost almost nothing this way."""
        if not self.cfg.reuse_still_frames or self._previous is None:
            return None
        before, det = self._previous
        if small.shape != before.shape:
            return None
        if int(np.abs(small - before).max()) > self.cfg.still_frame_diff:
            return None
        return det

    def detect(self, frame: np.ndarray) -> Detection:
        if frame is None or frame.ndim not in (2, 3) or frame.size == 0:
            raise ValueError("not an image")
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        t = {}
        t0 = time.perf_counter()
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = shrink(gray, 16).astype(np.int16)
        same = self._unchanged(small)
        if same is not None:
            t1 = time.perf_counter()
            bases = self._read_again(frame, same)
            t2 = time.perf_counter()
            fix = replace(same.fix, moved=False)  # nothing moved since that frame
            timing = {"unchanged": (t1 - t0) * 1000, "total": (t2 - t0) * 1000}
            if bases is not same.bases:
                timing["read_again"] = (t2 - t1) * 1000
            return Detection(fix, bases, same.occluded, timing, same.size, self.layout)
        self._rereads = 0
        self._reread_ids = {}
        fix = self.locator.locate(gray)
        t1 = time.perf_counter()
        t["locate"] = (t1 - t0) * 1000
        det = Detection(fix, size=(frame.shape[1], frame.shape[0]), layout=self.layout)
        if not fix.found:
            t["total"] = t["locate"]
            det.timing_ms = t
            return det
        h = fix.homography
        fg = self.foreground.extract(frame, h)
        t2 = time.perf_counter()
        t["foreground"] = (t2 - t1) * 1000
        cands, _ = self.finder.find(fg)
        t3 = time.perf_counter()
        t["bases"] = (t3 - t2) * 1000
        occluded, hand = self.occlusion.find(fg.mask, cands, fg.loose)
        t4 = time.perf_counter()
        t["occlusion"] = (t4 - t3) * 1000
        kept = []
        for c in cands:
            if hand[int(round(c.y)), int(round(c.x))]:
                continue  # inside a hand: fingers look like bases
            x_mm, y_mm = fg.area.to_mm(c.x, c.y)
            r_mm = c.radius / fg.scale
            region = self._region_at(c.x, c.y, x_mm, y_mm)
            if region is None:
                continue
            paper = float(fg.illum[int(round(c.y)), int(round(c.x))])
            kept.append((region, x_mm, y_mm, r_mm, paper))
        idents = self.identifier.identify_many(
            frame, h, [(x, y, r * self.cfg.sticker_fraction, p) for _, x, y, r, p in kept])
        for (region, x_mm, y_mm, r_mm, paper), ident in zip(kept, idents, strict=True):
            det.bases.append(_seen(region.name, x_mm, y_mm, 2 * r_mm, ident,
                                   region.name in occluded, paper))
        t5 = time.perf_counter()
        t["identify"] = (t5 - t4) * 1000
        t["total"] = (t5 - t0) * 1000
        det.occluded = occluded
        det.timing_ms = t
        self._previous = (small, det)
        return det
