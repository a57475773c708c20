"""Temporal stabiliser: from a stream of per-frame detections, a board is committed only
after ``stable_frames`` consecutive frames agree on it, and never while a hand is over
the map (any occluded region holds every commit: a move in progress touches two cells,
and half a move is not a move). For the same reason a region still settling on a new
content (it differs from what was committed, and has not yet shown it for
``stable_frames`` frames in a row) holds the others' changes: the cell a base left does
not go out before the cell it reached. A region that has differed for ``settle_frames``
frames (a flickering detection) holds nothing any more.

Hands move. An "occlusion" that stays exactly where it is for ``static_frames`` frames
is something left on the map (a cup, a dice tray) or a base the detector takes for a
hand; holding every commit for it would freeze the table for good. After that long its
regions keep their last committed contents and the rest of the board goes on; the
observation names them in ``occluded``.

Agreement is judged on what the camera sees reliably (how many bases of which owner in
each region, and where: a region may be a whole battlefield, in which a disk moves
without changing the count, so a base in a new place needs ``stable_frames`` frames
there too); sticker ids, which a figure can hide in one frame and show in the next,
are voted over the frames of the streak and the majority is reported. A first id needs
``min_reads`` readings among a base's last ``2 * stable_frames`` frames: a base a
figure partly hides is read in some frames and not in others, and now and then one
frame reads it wrong. Filmed as a stream of 30 frames (Blender renders through the
webcam model, the tuning scenes), believing one reading committed 6 wrong ids on 704
figure-covered bases, two readings 4, three none; the board's identity was 0.61, 0.59
and 0.55 (one frame alone: 0.45), without figures 0.993, 0.991, 0.984 (0.952). A
sticker read as two players' among those frames gives its base no owner: whose it is,
the frames dispute.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field

from table.observation import Observation, ObservedBase

from .detect.pipeline import Detection

TRACK_MM = 9.0  # a base that moved less than this between frames is the same base


@dataclass
class _Track:
    x: float
    y: float
    recent: deque = field(default_factory=lambda: deque(maxlen=8))  # (owner, tag, sticker)
    confidence: float = 0.0
    owner: str | None = None  # as committed; changed only by a clear majority (hysteresis)
    sticker: int | None = None
    tag: str = "unreadable"
    id_owner: str | None = None  # whose the committed id is, as the frames that read it said
    diameter: float = 0.0  # mm, as the camera measures the outline
    last: int = 0  # the region's frame count when this base was last seen
    layers: deque = field(default_factory=lambda: deque(maxlen=8))  # disks under it, per frame
    born: int = 0  # the region's frame count when this base was first seen here


@dataclass
class _Region:
    pending: tuple = ()
    streak: int = 0
    tracks: list[_Track] = field(default_factory=list)
    committed: tuple | None = None
    frames: int = 0
    unsettled: int = 0  # frames in a row its content differed from the committed one


class Stabilizer:
    def __init__(self, stable_frames: int = 4, static_frames: int = 90,
                 settle_frames: int | None = None, min_reads: int = 3) -> None:
        self.k = stable_frames
        self.min_reads = min_reads
        self.static_frames = static_frames
        self.settle_frames = 3 * stable_frames if settle_frames is None else settle_frames
        self._dirty = False  # a region's committed content changed, not yet published
        self.regions: dict[str, _Region] = {}
        self.current: Observation | None = None
        self.held_by_hands = 0  # frames during which a hand held every commit
        self._still: frozenset[str] = frozenset()  # the occluded regions, unchanged...
        self._still_for = 0  # ...for this many frames

    @property
    def covered(self) -> frozenset[str]:
        """Regions under something that has not moved for ``static_frames`` frames."""
        return self._still if self._still_for >= self.static_frames else frozenset()

    @staticmethod
    def _signature(bases) -> int:
        # Streaks follow what is seen most reliably: how many bases stand there. Owners
        # and ids are voted over the streak instead, so one misread frame changes nothing.
        return len(bases)

    @staticmethod
    def _key(committed: tuple) -> tuple:
        return tuple(sorted((b.owner or "?", b.sticker if b.sticker is not None else -1, b.tag,
                             b.layer) for b in committed))

    @classmethod
    def _same(cls, a: tuple, b: tuple) -> bool:
        """The same bases in the same places. A region may be the whole battlefield of a
        game of free placement: a disk flipped within it keeps the count, the id and the
        layer, and only its place says it moved. Two bases with the same key are paired
        in order of place; a place counts as the same within ``TRACK_MM`` (a track
        follows a base that far from frame to frame), so a fit's jitter is no change."""
        if cls._key(a) != cls._key(b):
            return False

        def placed(c: tuple) -> list:
            return sorted(c, key=lambda o: (o.owner or "?", o.sticker if o.sticker is not None
                                            else -1, o.tag, o.layer, o.x_mm, o.y_mm))
        return all(math.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm) < TRACK_MM
                   for p, q in zip(placed(a), placed(b), strict=True))

    def push(self, det: Detection, t: float, frame: int) -> Observation | None:
        """Feed one frame; returns a new stable Observation when the board changed."""
        if not det.fix.found or (det.fix.from_memory and not det.bases and det.occluded):
            for r in self.regions.values():
                r.streak, r.unsettled = 0, 0
            return None
        occluded = frozenset(det.occluded)
        if occluded != self._still:
            self._still, self._still_for = occluded, 0
        self._still_for += 1
        if occluded and self._still_for < self.static_frames:
            self.held_by_hands += 1
            for name, r in self.regions.items():
                r.streak, r.unsettled = 0, 0
                if name in occluded:
                    # What a hand was over may have been swapped (a disk put down on
                    # one of the same size, in its place): the votes from before it
                    # came say nothing of what is there now.
                    r.tracks, r.pending = [], ()
            return None
        by_region: dict[str, list] = {}
        for b in det.bases:
            by_region.setdefault(b.region, []).append(b)
        assert det.layout is not None
        changed = False
        for region in det.layout.regions:
            bases = by_region.get(region.name, [])
            st = self.regions.setdefault(region.name, _Region())
            if region.name in occluded:  # a still occluder: keep what was there
                st.streak, st.unsettled = 0, 0
                continue
            sig = self._signature(bases)
            if sig != st.pending:
                st.pending, st.streak, st.tracks = sig, 1, []
            else:
                st.streak += 1
            self._vote(st, bases)
            if st.streak >= self.k and self._settled(st):
                committed = self._committed(st)
                if st.committed is None or not self._same(committed, st.committed):
                    changed = True
                st.committed = committed
            differs = st.committed is not None and (sig != self._signature(st.committed)
                                                    or not self._settled(st))
            st.unsettled = st.unsettled + 1 if differs else 0
        self._dirty |= changed
        if not self._dirty:
            return None
        covered = self.covered
        if any(r.committed is None and name not in covered for name, r in self.regions.items()):
            # The first board is published once every region is settled, or under
            # something that has stood still on it for ``static_frames`` (a cup left on
            # the map from the start must not keep the board from ever being shown).
            return None
        if any(0 < r.unsettled < self.settle_frames for r in self.regions.values()):
            return None  # a region is still settling: publish the change with it
        self._dirty = False
        regions = {name: tuple(r.committed or ()) for name, r in self.regions.items()}
        self.current = Observation(t, frame, regions, occluded)
        return self.current

    def _vote(self, st: _Region, bases) -> None:
        st.frames += 1
        for b in bases:
            best = None
            for tr in st.tracks:
                d = ((tr.x - b.x_mm) ** 2 + (tr.y - b.y_mm) ** 2) ** 0.5
                if d < TRACK_MM and (best is None or d < best[0]):
                    best = (d, tr)
            if best is None:
                tr = _Track(b.x_mm, b.y_mm, deque(maxlen=2 * self.k), diameter=b.diameter_mm,
                            born=st.frames)
                st.tracks.append(tr)
            else:
                tr = best[1]
                tr.x, tr.y = (tr.x + b.x_mm) / 2, (tr.y + b.y_mm) / 2
                tr.diameter = (tr.diameter + b.diameter_mm) / 2
            tr.last = st.frames
            tr.recent.append((b.owner, b.tag, b.sticker))
            tr.layers.append(b.layer)
            tr.confidence = max(tr.confidence, b.confidence)
        # A place left behind (a disk flipped away within the region) is forgotten once
        # no frame has shown it for a while.
        st.tracks = [tr for tr in st.tracks if st.frames - tr.last < 2 * self.k]

    def _settled(self, st: _Region) -> bool:
        """Every base seen now has been seen in its place for ``stable_frames`` frames.
        The count alone does not say so when a base moved within the region: its new
        place needs as many frames as a new count, and as many readings of its id."""
        return all(st.frames - tr.born + 1 >= self.k for tr in st.tracks
                   if tr.last == st.frames)

    def _committed(self, st: _Region) -> tuple:
        out = []
        live = [tr for tr in st.tracks if tr.last == st.frames]
        for tr in sorted(live, key=lambda t: (t.x, t.y)):
            n_obs = len(tr.recent)
            owners = Counter(o for o, _, _ in tr.recent if o is not None)
            if owners:
                top, n = owners.most_common(1)[0]
                # A first owner needs a majority and ``stable_frames`` frames saying so
                # (a figure in the other player's colour gave its base to that player
                # in 3 of the first 5 frames, and in 3 of the 15 after); changing it
                # needs three quarters.
                need = 0.5 if tr.owner is None else 0.75
                if top != tr.owner and n > need * n_obs and (
                        tr.owner is not None or n >= self.k):
                    tr.owner = top
            reads = Counter(s for _, tag, s in tr.recent if tag == "read")
            if reads:
                (top_id, n), *rest = reads.most_common()
                # Two different ids read for one base: trust neither. A first id needs
                # ``min_reads`` readings (one frame's misreading is no id); changing one
                # needs three quarters of the frames.
                if rest and rest[0][1] * 3 > n:
                    tr.sticker, tr.tag = None, "unreadable"
                elif top_id != tr.sticker and (
                        (tr.sticker is None and n >= min(self.min_reads, tr.recent.maxlen))
                        or n > 0.75 * n_obs):
                    tr.sticker, tr.tag = top_id, "read"
                    tr.id_owner = Counter(o for o, tag, s in tr.recent
                                          if tag == "read" and s == top_id).most_common(1)[0][0]
            elif tr.sticker is None:
                tags = Counter(tg for _, tg, _ in tr.recent)
                tr.tag = "none" if tags.most_common(1)[0][0] == "none" else "unreadable"
            owner, sticker, tag = tr.owner, tr.sticker, tr.tag
            if tag == "read" and tr.id_owner != owner:
                # An id is its owner's: read without the owner standing (most frames saw
                # no owner, or another), the id is not believed either.
                sticker, tag = None, "unreadable"
            if len({o for o, tg, _ in tr.recent if tg == "read" and o is not None}) > 1:
                # Its sticker read as two players' in the last frames: whose base it is
                # is in dispute, and neither owner nor id is given. A figure painted in
                # orange's colour over blue's sticker 16 was read as orange's 6 in three
                # frames of twenty, as orange's by colour in four and right once, and
                # orange's owner was committed (720p rendered stream, seed 2).
                owner, sticker, tag = None, None, "unreadable"
            # What lies under it, as most frames saw it (a disk slid onto another
            # changes it; one frame's misreading does not).
            layer = Counter(tr.layers).most_common(1)[0][0] if tr.layers else 0
            out.append(ObservedBase(owner, sticker, tag, tr.confidence, tr.x, tr.y,
                                    tr.diameter, layer))
        return tuple(out)
