"""What happened: events returned by ``apply`` next to the new state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened, e.g. ``Event("destroyed", {"mini": "p2#0", "by": "p1"})``."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        body = " ".join(f"{k}={v}" for k, v in self.data.items())
        return f"{self.kind} {body}".rstrip()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}
