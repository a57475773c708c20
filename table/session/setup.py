"""A game's setup: which game, who plays, with which forces (``forces``: each player's
list of pieces by name, whatever the game calls them), each player's own deck of cards
for games that have one (``decks``: card names; absent, the game's sample deck), which
sticker is whose.

Stored as the first thing of every game in the log, so a resumed or replayed game is
rebuilt from exactly what it started with.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table import registry
from table.stickers import Stickers

SETUP_FORMAT = "tablesight-setup/1"
DEFAULT_COLORS = {"p1": "#F0780A", "p2": "#1A78E0"}  # the printed rings (a game's layout)


MAX_NAME = 40
MAX_FORCE_ENTRIES = 64  # the rules allow 16; room for a clear refusal, not for abuse
MAX_DECK_ENTRIES = 100  # decks of 60 cards; room for a clear refusal, not for abuse
_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")


class SetupFormatError(ValueError):
    """A setup document that cannot be used; the message names the field."""


def _player_name(v: object, p: str) -> str:
    """A name people read on every screen: printable text, no control characters."""
    if not isinstance(v, str) or not v.strip() or len(v) > MAX_NAME or any(
            unicodedata.category(ch)[0] == "C" for ch in v):
        raise SetupFormatError(f"names.{p}: 1 to {MAX_NAME} printable characters")
    return v.strip()


def _color(v: object, p: str) -> str:
    # Drawn into the board's SVG: only this exact shape ever reaches a page.
    if not isinstance(v, str) or not _COLOR.fullmatch(v):
        raise SetupFormatError(f"colors.{p}: a colour like #f0780a")
    return v


@dataclass(frozen=True)
class Setup:
    forces: Mapping[str, tuple[str, ...]]
    names: Mapping[str, str] = field(default_factory=lambda: {"p1": "Player 1",
                                                               "p2": "Player 2"})
    colors: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_COLORS))
    system: str = field(default_factory=registry.default)
    stickers: Mapping[int, str] | None = None  # None: the printed default numbering
    decks: Mapping[str, tuple[str, ...]] | None = None  # None: the game's sample decks

    def sticker_map(self) -> Stickers:
        if self.stickers is None:
            return Stickers.default(self.forces)
        return Stickers(dict(self.stickers))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": SETUP_FORMAT, "system": self.system,
                               "forces": {p: list(w) for p, w in self.forces.items()},
                               "names": dict(self.names), "colors": dict(self.colors)}
        if self.stickers is not None:
            out["stickers"] = {str(k): v for k, v in sorted(self.stickers.items())}
        if self.decks is not None:
            out["decks"] = {p: list(d) for p, d in self.decks.items()}
        return out

    @classmethod
    def sample(cls, game: str | None = None,
               names: tuple[str, str] = ("Ann", "Bob")) -> Setup:
        """A first game of ``game`` (the default game when None) with its sample forces:
        demos, benches and a table started with no setup."""
        system = registry.get(game or registry.default())
        return cls({p: tuple(f) for p, f in system.sample_forces().items()},
                   {"p1": names[0], "p2": names[1]}, system=system.name)

    @classmethod
    def from_dict(cls, d: object) -> Setup:
        if not isinstance(d, dict):
            raise SetupFormatError("a setup is a JSON object")
        if d.get("format", SETUP_FORMAT) != SETUP_FORMAT:
            raise SetupFormatError(f"unknown setup format {d.get('format')!r}")
        system = d.get("system", registry.default())
        try:
            registry.get(system)
        except registry.UnknownGame as e:
            raise SetupFormatError(f"system: {e}") from None
        # "warbands": what setups (logs, API clients) were written with before the
        # neutral name; read the same.
        key = "forces" if "forces" in d or "warbands" not in d else "warbands"
        wb = d.get(key)
        if not isinstance(wb, dict) or set(wb) != {"p1", "p2"}:
            raise SetupFormatError(f"{key}: an object with p1 and p2")
        forces: dict[str, tuple[str, ...]] = {}
        for p in ("p1", "p2"):
            names = wb[p]
            if not isinstance(names, list) or len(names) > MAX_FORCE_ENTRIES or not all(
                    isinstance(n, str) and 0 < len(n) <= 80 for n in names):
                raise SetupFormatError(f"{key}.{p}: a list of at most {MAX_FORCE_ENTRIES} "
                                       "piece names")
            if not names:
                raise SetupFormatError(f"{key}.{p} is empty: each player needs at least "
                                       "one piece")
            forces[p] = tuple(names)
        names_ = d.get("names", {"p1": "Player 1", "p2": "Player 2"})
        colors = d.get("colors", DEFAULT_COLORS)
        for key, val in (("names", names_), ("colors", colors)):
            if not isinstance(val, dict) or set(val) != {"p1", "p2"}:
                raise SetupFormatError(f"{key}: an object with p1 and p2")
        stickers = d.get("stickers")
        sticker_map: dict[int, str] | None = None
        if stickers is not None:
            if not isinstance(stickers, dict) or len(stickers) > 2 * MAX_FORCE_ENTRIES:
                raise SetupFormatError("stickers: an object of sticker id -> piece")
            if not all(re.fullmatch(r"[0-9]{1,4}", k) and isinstance(v, str) and len(v) <= 20
                       for k, v in stickers.items()):
                raise SetupFormatError("stickers: sticker ids (numbers) -> pieces "
                                       "like p1#3")
            sticker_map = {int(k): v for k, v in stickers.items()}
        decks = d.get("decks")
        deck_map: dict[str, tuple[str, ...]] | None = None
        if decks is not None:
            if not isinstance(decks, dict) or set(decks) != {"p1", "p2"}:
                raise SetupFormatError("decks: an object with p1 and p2")
            for p in ("p1", "p2"):
                cards = decks[p]
                if not isinstance(cards, list) or len(cards) > MAX_DECK_ENTRIES or not all(
                        isinstance(c, str) and 0 < len(c) <= 80 for c in cards):
                    raise SetupFormatError(f"decks.{p}: a list of at most "
                                           f"{MAX_DECK_ENTRIES} card names")
            deck_map = {p: tuple(decks[p]) for p in ("p1", "p2")}
        return cls(forces, {p: _player_name(names_[p], p) for p in ("p1", "p2")},
                   {p: _color(colors[p], p) for p in ("p1", "p2")}, system, sticker_map,
                   deck_map)
