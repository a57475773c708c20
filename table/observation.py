"""What the camera side hands to the table: the observed board, as plain values.

Defined here (not in ``vision``) because ``table`` consumes it and must not import the
camera code; ``vision`` produces it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from table.measure import Circle


@dataclass(frozen=True)
class ObservedBase:
    owner: str | None  # "p1" / "p2", or None when the colour could not be read
    sticker: int | None  # tag id, or None (plain ring, or not readable)
    tag: str  # "read", "none" (a plain ring) or "unreadable"
    confidence: float
    x_mm: float  # the centre, map millimetres
    y_mm: float
    diameter_mm: float = 0.0  # the outline as seen (0: not measured)
    # Bases or disks lying on others: how many lie under this one (0: on the table).
    layer: int = 0
    # For games whose pieces stand anywhere: which side is up (a disk's face, when the
    # camera tells them apart), the way the piece faces (degrees, ``table.measure``'s
    # convention; None: not seen) and the fit's error (mm, bounding the edge's place).
    face: str | None = None
    facing: float | None = None
    error_mm: float = 0.0

    def circle(self) -> Circle:
        """The base as ``table.measure`` measures it; ``ValueError`` without a diameter."""
        return Circle(self.x_mm, self.y_mm, self.diameter_mm, self.error_mm)

    def to_dict(self) -> dict[str, Any]:
        out = {"owner": self.owner, "sticker": self.sticker, "tag": self.tag,
               "confidence": round(self.confidence, 3),
               "center_mm": [round(self.x_mm, 1), round(self.y_mm, 1)]}
        if self.diameter_mm:
            out["diameter_mm"] = round(self.diameter_mm, 1)
        if self.layer:
            out["layer"] = self.layer
        if self.face is not None:
            out["face"] = self.face
        if self.facing is not None:
            out["facing"] = round(self.facing, 1)
        if self.error_mm:
            out["error_mm"] = round(self.error_mm, 2)
        return out


@dataclass(frozen=True)
class Observation:
    """A board the camera has seen steadily: region name -> bases in it."""

    time: float  # seconds, the timestamp of the last frame that confirmed it
    frame: int
    regions: dict[str, tuple[ObservedBase, ...]] = field(default_factory=dict)
    occluded: frozenset[str] = frozenset()

    def count(self, region: str) -> int:
        return len(self.regions.get(region, ()))

    def to_dict(self) -> dict[str, Any]:
        return {"time": round(self.time, 3), "frame": self.frame,
                "regions": {k: [b.to_dict() for b in v] for k, v in self.regions.items() if v},
                "occluded": sorted(self.occluded)}
