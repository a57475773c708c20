"""What the table box tells the table, as plain values (produced by ``firmware_bridge``,
consumed by the session; defined here so ``table`` never imports serial code)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DeviceEvent:
    """``kind``: "button", "roll", "connected", "lost", "lost_events", "health"."""

    kind: str
    time: float  # host monotonic clock, seconds
    player: str | None = None
    button: str | None = None  # roll, ready, shift, strike, undo
    sides: int | None = None  # a roll's dice: each shows a number from 1 to ``sides``
    numbers: tuple[int, ...] = ()  # what the game's face table makes of them is its own
    request: int | None = None  # the host request a roll answers (None: a button roll)
    seq: int | None = None  # the box's sequence number
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "time": round(self.time, 4)}
        for k in ("player", "button", "sides", "request", "seq"):
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        if self.numbers:
            out["numbers"] = list(self.numbers)
        if self.detail:
            out.update(self.detail)
        return out


@dataclass(frozen=True)
class StreamPosition:
    """Where a table box's event stream stood for a game: which box (its own id; None
    for a box that has none), which boot, the last event number delivered, and the box's
    count of presses lost to a full queue as last heard. A host restarted mid-game
    resumes from it, so nothing is delivered twice and nothing lost goes uncounted."""

    box_id: str | None
    boot_id: str
    seq: int
    lost_total: int | None = None
