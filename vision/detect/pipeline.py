"""The detector: stages in order, each timed. One frame in, one ``Detection`` out.

A camera mostly films a still table, and when something changes (a hand moving a base)
only part of the picture changes. The detector compares each frame with the last one it
worked on, in 16x16-pixel blocks: an unchanged frame reuses the last result; a frame
changed in part redoes only the part of the work area that changed (grown by what the
stages need around it) and keeps the rest, bases and identities included; a bumped map,
a new homography, a change over most of the map, or ``full_refresh_frames`` partial
frames in a row, redo everything.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from ..config import VisionConfig
from ..layout import Layout, LayoutError, Region
from ..shrink import shrink
from .bases import BaseCandidate, BaseFinder, crowded, disc_radius, figure_parts
from .board_light import learned_from
from .clusters import take_apart
from .diagnose import empty_board_problems, lines_off, map_not_found, relearn_advice
from .foreground import Foreground, ForegroundModel
from .framing import Framing, framing
from .identify import Identifier, Identity
from .locate import MapFix, MapLocator
from .occlusion import OcclusionFinder
from .piles import centres, layers, split
from .pose import camera_over_board
from .tone import ToneReader
from .view import TOP_BEYOND_OUTLINE
from .workarea import Box, WorkArea

BLOCK = 16  # frame pixels: frames are compared in blocks of this size (their grey means)
# ... and in cells of this size inside them: a sticker swapped for another of the same
# colours barely moves a block's mean (by 2 grey levels on a square-grid map, under the
# 4 that noise is allowed), but it moves some of its cells' means by 21 or more
CELL = 4


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
    layer: int = 0  # disks lying under this one (piles.py); 0: on the table

    def to_dict(self) -> dict[str, Any]:
        out = {"sticker": self.sticker, "owner": self.owner,
               "confidence": round(self.confidence, 3), "tag": self.tag,
               "owner_confidence": round(self.owner_confidence, 3),
               "center_mm": [round(self.x_mm, 1), round(self.y_mm, 1)],
               "diameter_mm": round(self.diameter_mm, 1)}
        if self.layer:
            out["layer"] = self.layer
        return out


def _seen(region: str, x_mm: float, y_mm: float, diameter_mm: float, ident: Identity,
          occluded: bool) -> SeenBase:
    conf = ident.owner_confidence if ident.tag != "read" else \
        min(1.0, 0.5 * ident.owner_confidence + 0.5 * ident.tag_confidence + 0.2)
    return SeenBase(region, x_mm, y_mm, diameter_mm, ident.owner, ident.owner_confidence,
                    ident.sticker, ident.tag, conf, occluded)


@dataclass
class Detection:
    fix: MapFix
    bases: list[SeenBase] = field(default_factory=list)
    occluded: set[str] = field(default_factory=set)
    timing_ms: dict[str, float] = field(default_factory=dict)
    size: tuple[int, int] = (0, 0)
    layout: Layout | None = None
    redone: float = 1.0  # share of the work area worked on (0: the last result reused)
    # What a person should do about this frame, in words (the map not found and why; a
    # learned board against which everything looks changed).
    advice: list[str] = field(default_factory=list)

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
            "advice": list(self.advice),
            "cells": self.by_region("cell") if f.found else {},
            "zones": self.by_region("zone") if f.found else {},
            # Free areas, where pieces stand anywhere (a battlefield, a meadow).
            "areas": self.by_region("area") if f.found else {},
            "occluded": sorted(self.occluded),
            "timing_ms": {k: round(v, 2) for k, v in self.timing_ms.items()},
        }


@dataclass
class _Worked:
    """What the last frame worked on left behind, for redoing only a changed part of the
    next one."""

    cells: np.ndarray  # its grey means per CELL x CELL pixels (uint8)
    small: np.ndarray  # ... and per BLOCK x BLOCK pixels
    detection: Detection  # its fix holds the homography the foreground was warped with
    foreground: Foreground
    candidates: list[BaseCandidate]
    known: dict[tuple[float, float], Identity]  # candidate centre -> its identity
    partial_runs: int = 0  # partial frames since the last whole one


class Detector:
    """Stateful across frames (the map locator tracks the markers); one per camera."""

    def __init__(self, layout: Layout, config: VisionConfig | None = None) -> None:
        self.layout = layout
        self.cfg = config or VisionConfig()
        self.locator = MapLocator(layout, self.cfg)
        self.foreground = ForegroundModel(layout, self.cfg)
        self.finder = BaseFinder(layout, self.cfg)
        self.identifier: Identifier | ToneReader = (
            ToneReader(layout, self.cfg) if layout.tones else Identifier(layout, self.cfg))
        self.occlusion = OcclusionFinder(layout, self.cfg, self.foreground.area,
                                         self.foreground.region_labels)
        area = self.foreground.area
        # A base whose pixels changed has its centre within this of the change.
        self._disc_px = int(np.ceil(disc_radius(layout, area.scale)))
        self._sheet_from_px = np.linalg.inv(area.px_to_sheet())
        self._cells = {r.name for r in layout.regions if r.role == "cell"}
        self.board_warnings: list[str] = []  # about the empty board learned last
        self._worked: _Worked | None = None
        if layout.board.picture is not None:  # the layout names a learned board
            board = cv2.imread(str(layout.board.picture), cv2.IMREAD_COLOR)
            if board is None:
                raise LayoutError(f"{layout.board.picture}: the layout's learned board is "
                                  "not a picture OpenCV can read")
            try:
                self.use_board(board)
            except ValueError as e:
                raise LayoutError(f"{layout.board.picture}: {e}") from None

    def learn_board(self, empty: np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        """Learn the board's own look from a frame of it empty, or from several: any
        art, wood, lines, colours, instead of the map the layout would print. Every
        later frame is compared with it. Returns the learned picture (the work area
        from above, BGR; ``use_board`` takes it again, e.g. from a file).

        From several frames (``board_light.learned_from``), what shows in fewer than
        half of them is left out: a sun patch that moved on, a hand passing, a lamp's
        glare where another photo was taken with the lamp off. A ValueError names the
        frame (its position, from 1) that cannot be used."""
        frames = [empty] if isinstance(empty, np.ndarray) else list(empty)
        if not frames:
            raise ValueError("no picture of the empty board")
        boards = []
        for k, frame in enumerate(frames, 1):
            which = f"picture {k}: " if len(frames) > 1 else ""
            if frame is None or frame.ndim != 3 or frame.size == 0:
                raise ValueError(f"{which}not a colour image")
            fix = MapLocator(self.layout, self.cfg).locate(cv2.cvtColor(frame,
                                                                        cv2.COLOR_BGR2GRAY))
            if not fix.found or fix.homography is None:
                raise ValueError(which + map_not_found(fix, self.layout, self.cfg,
                                                       (frame.shape[1], frame.shape[0])))
            boards.append(self.foreground.warp(frame, fix.homography))
        board = learned_from(boards)
        refused, self.board_warnings = empty_board_problems(board,
                                                            self.foreground.region_mask)
        if refused:
            raise ValueError(refused)
        off = lines_off(board, self.foreground.region_labels, self.cfg.px_per_mm,
                        {m.height for m in self.layout.markers})
        if off:
            self.board_warnings.append(off)
        self.use_board(board)
        return board

    def use_board(self, board: np.ndarray) -> None:
        """Compare frames with ``board`` (a picture ``learn_board`` made) from now on."""
        self.foreground.use_reference(board)
        self._worked = None  # what was worked out against the old board is void
        # The board's light is followed over the whole picture (a median of the gain):
        # a part of a frame would not see enough of it, so frames are worked whole.
        self.cfg = replace(self.cfg, partial_detect=False)

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

    def _changed_blocks(self, cells: np.ndarray, small: np.ndarray) -> np.ndarray | None:
        """Which blocks differ from the last frame worked on (beyond sensor noise): in
        their mean, or in the mean of one of their cells; None when there is no such
        frame to compare with."""
        w = self._worked
        if w is None or small.shape != w.small.shape:
            return None
        cell_moved = (cv2.absdiff(cells, w.cells) > self.cfg.still_cell_diff).view(np.uint8)
        # A block's mean of 255s and 0s is over 0 when any of its cells moved.
        block_moved = shrink(cell_moved * np.uint8(255), BLOCK // CELL) > 0
        return (np.abs(small - w.small) > self.cfg.still_frame_diff) | block_moved

    def _changed_part(self, changed: np.ndarray | None, fix: MapFix) -> tuple[Box, Box] | None:
        """The part of the work area to redo: (the box where bases may have changed, the
        box to extract the foreground over, which gives it context); None to redo all."""
        w, cfg = self._worked, self.cfg
        if (not cfg.partial_detect or w is None or changed is None or fix.moved
                or fix.homography is None
                or not np.array_equal(fix.homography, w.detection.fix.homography)
                or w.partial_runs >= cfg.full_refresh_frames or not changed.any()):
            return None
        # The changed blocks' bounding box, in the frame, then in working pixels (a
        # projective map sends a rectangle to a quadrilateral: its corners bound it).
        rows, cols = np.nonzero(changed)
        x0, x1 = cols.min() * BLOCK, (cols.max() + 1) * BLOCK
        y0, y1 = rows.min() * BLOCK, (rows.max() + 1) * BLOCK
        corners = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float64)
        to_work = self._sheet_from_px @ np.linalg.inv(fix.homography)
        pts = cv2.perspectiveTransform(corners, to_work).reshape(4, 2)
        area = self.foreground.area.box
        lo = np.clip(np.floor(pts.min(axis=0)), 0, [area.x1, area.y1]).astype(int)
        hi = np.clip(np.ceil(pts.max(axis=0)), 0, [area.x1, area.y1]).astype(int)
        inner = Box(int(lo[0]), int(lo[1]), int(hi[0]), int(hi[1])).grown(self._disc_px, area)
        outer = inner.grown(self.foreground.context_px, area)
        if outer.pixels > cfg.partial_max_share * area.pixels:
            return None
        return inner, outer

    def _as_outlines(self, seeds: list[BaseCandidate], homography: np.ndarray,
                     size: tuple[int, int], area: WorkArea) -> list[BaseCandidate]:
        """Disks found by their white centres, each moved to where its outline's centre
        would be found. A sticker lies on its disk's top, which a tilted camera sees
        displaced away from its foot; an outline holds foot, side and top, and the
        stages after this take its centre for that (``view.on_top``), so every disk is
        reported and read alike."""
        camera = camera_over_board(homography, size, self.cfg.camera_hfov_deg)
        lift = self.cfg.base_height_mm
        if not seeds or camera is None or camera[2] <= lift:
            return seeds
        k = 1.0 + TOP_BEYOND_OUTLINE * lift / (camera[2] - lift)
        out = []
        for sd in seeds:
            x, y = area.to_mm(sd.x, sd.y)
            x, y = camera[0] + (x - camera[0]) / k, camera[1] + (y - camera[1]) / k
            out.append(replace(sd, x=(x - area.origin[0]) * area.scale,
                               y=(y - area.origin[1]) * area.scale))
        return out

    def detect(self, frame: np.ndarray) -> Detection:
        if frame is None or frame.ndim not in (2, 3) or frame.size == 0:
            raise ValueError("not an image")
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        t = {}
        t0 = time.perf_counter()
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        cells = shrink(gray, CELL)
        small = shrink(cells, BLOCK // CELL).astype(np.int16)
        changed = self._changed_blocks(cells, small)
        worked = self._worked
        if (self.cfg.reuse_still_frames and worked is not None and changed is not None
                and not changed.any()):
            # The same scene, sensor noise aside: most frames of a game change nothing.
            same = worked.detection
            fix = replace(same.fix, moved=False)  # nothing moved since that frame
            spent = (time.perf_counter() - t0) * 1000
            return Detection(fix, list(same.bases), set(same.occluded),
                             {"unchanged": spent, "total": spent}, same.size, self.layout,
                             redone=0.0)
        fix = self.locator.locate(gray)
        t1 = time.perf_counter()
        t["locate"] = (t1 - t0) * 1000
        det = Detection(fix, size=(frame.shape[1], frame.shape[0]), layout=self.layout)
        if not fix.found:
            det.advice = [map_not_found(fix, self.layout, self.cfg, det.size)]
            t["total"] = t["locate"]
            det.timing_ms = t
            self._worked = None
            return det
        h = fix.homography
        assert h is not None
        part = self._changed_part(changed, fix)
        known: dict[tuple[float, float], Identity] = {}
        if part is None or worked is None:
            fg = self.foreground.extract(frame, h, frame_gray=gray)
            t2 = time.perf_counter()
            cands = self.finder.find(fg.mask)
        else:
            inner, outer = part
            piece = self.foreground.extract(frame, h, outer, frame_gray=gray)
            fg = worked.foreground
            fg.paste(piece, outer, inner)
            t2 = time.perf_counter()
            # Bases are looked for where they may have changed (and as far around as one
            # base reaches); outside, the ones already known there stay.
            look = inner.grown(self._disc_px, outer)
            found = self.finder.find(fg.mask[look.slices])
            cands = [c for c in worked.candidates if not inner.contains(c.x, c.y)]
            cands += [c for c in (replace(c, x=c.x + look.x0, y=c.y + look.y0)
                                  for c in found) if inner.contains(c.x, c.y)]
            # Identities are kept only where nothing changed: a base found again in the
            # changed part is read again, even at the very same centre (a base swapped
            # for another in the same spot, or a sticker a hand uncovered, once kept
            # the reading of what stood there before).
            known = {at: ident for at, ident in worked.known.items()
                     if not inner.contains(*at)}
            det.redone = round(outer.pixels / self.foreground.area.box.pixels, 3)
        t["foreground"] = (t2 - t1) * 1000
        t3 = time.perf_counter()
        t["bases"] = (t3 - t2) * 1000
        if not self.layout.piles:
            # Pieces touching one another, taken apart before anything is called a hand
            # (where pieces lie on one another, ``split`` below takes them apart).
            s = self.cfg.px_per_mm
            cands = take_apart(fg.mask, cands, self.finder.r_min * 0.85,
                               self.finder.r_max + 4.0 * s, self.cfg.disc_fill, fg.loose,
                               self.foreground.sheet_inner)
        occluded, hand = self.occlusion.find(cands, fg.loose)
        # Disks lying on one another, taken apart (not under a hand: fingers are no pile);
        # the outline reads up to 4 mm wider than the disk (its rim and shadow).
        s = self.cfg.px_per_mm
        seeds = self._as_outlines(centres(
            fg.gray, fg.illum, fg.mask, self.finder.r_min, self.finder.r_max + 4.0 * s,
            self.cfg.sticker_fraction), h, det.size, fg.area) if self.layout.piles else []
        cands = split(fg.mask, cands, self.finder.r_min * 0.85, self.finder.r_max + 4.0 * s,
                      s, hand, seeds)
        t4 = time.perf_counter()
        t["occlusion"] = (t4 - t3) * 1000
        kept = []
        for c in cands:
            if hand[int(round(c.y)) // 2, int(round(c.x)) // 2]:  # half resolution
                continue  # inside a hand: fingers look like bases
            x_mm, y_mm = fg.area.to_mm(c.x, c.y)
            region = self._region_at(c.x, c.y, x_mm, y_mm)
            if region is None:
                continue
            paper = float(fg.illum[int(round(c.y)), int(round(c.x))])
            kept.append((c, region, x_mm, y_mm, c.radius / fg.scale, paper))
        new = [k for k in kept if (k[0].x, k[0].y) not in known]
        # The stickers the decoders read on bases kept from the last frame: each
        # sticker is printed once, so they are no rivals for the ones read now.
        elsewhere = [i.sticker for i in known.values() if i.decoded and i.sticker is not None]
        read = dict(zip(((c.x, c.y) for c, *_ in new), self.identifier.identify_many(
            frame, h, [(x, y, r * self.cfg.sticker_fraction, p) for _, _, x, y, r, p in new],
            fix.marker_maps, elsewhere), strict=True))
        idents = {**known, **read}
        # A figure's head or arms beside its base are found as a disc of their own,
        # overlapping the base further than two bases can: not a base (where pieces do
        # not lie on one another).
        # A sticker read against the frame's print alone is no evidence here: the ring
        # round a figure's head is sampled over its base's sticker, shifted, and the
        # print once read such a ring as another piece (1080p held-out renders), so a
        # crowded disc keeps no such reading. Nor does a disc whose outline is no
        # circle (``BaseCandidate.round``): its centre is uncertain, and a pale sticker
        # half lost against tinted paper gave a disc 4 mm off whose shifted ring the
        # print read as another sticker (held-out 1080p seed 5; on seeds 1-3 and 5 such
        # discs held 16 of the 366 right readings by the print).
        # (Every disc figure_parts weighs is crowded, so once those readings are gone
        # none read by the print alone can win it a place.)
        bases = kept
        if not self.layout.piles:
            cands_kept = [k[0] for k in kept]
            for c, near in zip(cands_kept, crowded(cands_kept, self.finder.r_min),
                               strict=True):
                if (near or not c.round) and idents[(c.x, c.y)].by_print:
                    idents[(c.x, c.y)] = Identity(None, 0.0, None, "unreadable", 0.0)
            figure = figure_parts(cands_kept,
                                  [idents[(c.x, c.y)].tag == "read" for c in cands_kept],
                                  self.finder.r_min)
            bases = [k for k, f in zip(kept, figure, strict=True) if not f]
        # Disks lying on others: which is on top, read on the grey work area.
        under = layers(fg.gray, [k[0] for k in bases], fg.scale)
        for (c, region, x_mm, y_mm, r_mm, _), layer in zip(bases, under, strict=True):
            det.bases.append(replace(_seen(region.name, x_mm, y_mm, 2 * r_mm,
                                           idents[(c.x, c.y)], region.name in occluded),
                                     layer=layer))
        t5 = time.perf_counter()
        t["identify"] = (t5 - t4) * 1000
        t["total"] = (t5 - t0) * 1000
        det.occluded = occluded
        relearn = relearn_advice(len(occluded & self._cells), len(self._cells),
                                 self.foreground.learned)
        det.advice = [relearn] if relearn else []
        det.timing_ms = t
        self._worked = _Worked(cells, small, replace(det, bases=list(det.bases)), fg, cands,
                               {(c.x, c.y): idents[(c.x, c.y)] for c, *_ in kept},
                               0 if part is None else worked.partial_runs + 1)  # type: ignore[union-attr]
        return det
