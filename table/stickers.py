"""Which printed sticker is on which piece's base: the camera reads sticker ids, the rules
know pieces by reference (``p1#3``). Game-neutral: any game whose bases carry stickers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# Sticker ids per player in ``tablesight print stickers``' numbering (vision.tags has the
# same number; a test holds them equal).
STICKERS_PER_PLAYER = 16


@dataclass(frozen=True)
class Stickers:
    """Which sticker id is on which piece's base (from ``print stickers``)."""

    ref_of: Mapping[int, str]

    @classmethod
    def default(cls, forces: Mapping[str, Sequence[str]]) -> Stickers:
        # The numbering ``tablesight print stickers`` uses: p1 0-15, p2 16-31, by index.
        out: dict[int, str] = {}
        for pidx, player in enumerate(("p1", "p2")):
            for i in range(len(forces.get(player, ()))):
                out[pidx * STICKERS_PER_PLAYER + i] = f"{player}#{i}"
        return cls(out)

    def sticker_of(self, ref: str) -> int | None:
        """The sticker id on piece ``ref`` (the first, should a setup give it two); None
        when no sticker names it."""
        return next((k for k, r in self.ref_of.items() if r == ref), None)

    def to_dict(self) -> dict[str, str]:
        return {str(k): v for k, v in sorted(self.ref_of.items())}
