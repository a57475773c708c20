"""A game's setup: who plays, with which warbands, on which map, which sticker is whose.

Stored as the first thing of every game in the log, so a resumed or replayed game is
rebuilt from exactly what it started with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table.dreamblade import Board, Catalog, Game

from .reconcile import Stickers

SETUP_FORMAT = "tablesight-setup/1"
DEFAULT_COLORS = {"p1": "#F0780A", "p2": "#1A78E0"}  # the printed rings (vision.layout)


class SetupFormatError(ValueError):
    """A setup document that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Setup:
    warbands: Mapping[str, tuple[str, ...]]
    names: Mapping[str, str] = field(default_factory=lambda: {"p1": "Player 1",
                                                               "p2": "Player 2"})
    colors: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_COLORS))
    system: str = "dreamblade"
    stickers: Mapping[int, str] | None = None  # None: the printed default numbering

    def build_game(self, catalog: Catalog | None = None) -> Game:
        return Game(Board.standard(), catalog or Catalog.builtin(),
                    {p: list(w) for p, w in self.warbands.items()})

    def sticker_map(self) -> Stickers:
        if self.stickers is None:
            return Stickers.default(self.warbands)
        return Stickers(dict(self.stickers))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": SETUP_FORMAT, "system": self.system,
                               "warbands": {p: list(w) for p, w in self.warbands.items()},
                               "names": dict(self.names), "colors": dict(self.colors)}
        if self.stickers is not None:
            out["stickers"] = {str(k): v for k, v in sorted(self.stickers.items())}
        return out

    @classmethod
    def from_dict(cls, d: object) -> Setup:
        if not isinstance(d, dict):
            raise SetupFormatError("a setup is a JSON object")
        if d.get("format", SETUP_FORMAT) != SETUP_FORMAT:
            raise SetupFormatError(f"unknown setup format {d.get('format')!r}")
        if d.get("system", "dreamblade") != "dreamblade":
            raise SetupFormatError(f"game system {d.get('system')!r} is not supported yet")
        wb = d.get("warbands")
        if not isinstance(wb, dict) or set(wb) != {"p1", "p2"}:
            raise SetupFormatError("warbands: an object with p1 and p2")
        warbands: dict[str, tuple[str, ...]] = {}
        for p, names in wb.items():
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise SetupFormatError(f"warbands.{p}: a list of miniature names")
            warbands[p] = tuple(names)
        names_ = d.get("names", {"p1": "Player 1", "p2": "Player 2"})
        colors = d.get("colors", DEFAULT_COLORS)
        for key, val in (("names", names_), ("colors", colors)):
            if not isinstance(val, dict) or not all(
                    isinstance(val.get(p), str) and 0 < len(val[p]) <= 40 for p in ("p1", "p2")):
                raise SetupFormatError(f"{key}: p1 and p2, each a short text")
        stickers = d.get("stickers")
        sticker_map: dict[int, str] | None = None
        if stickers is not None:
            if not isinstance(stickers, dict):
                raise SetupFormatError("stickers: an object of sticker id -> miniature")
            try:
                sticker_map = {int(k): str(v) for k, v in stickers.items()}
            except ValueError:
                raise SetupFormatError("stickers: keys are sticker ids (numbers)") from None
        return cls(warbands, {p: names_[p] for p in ("p1", "p2")},
                   {p: colors[p] for p in ("p1", "p2")}, "dreamblade", sticker_map)
