"""Layouts: what the detector knows about a printed map, in millimetres.

A layout is JSON (``tablesight-layout/2``, documented in ``docs/vision/layout.md``; the
first version is still read): the fiducial markers (dictionary, ids, corner positions,
and their height over the board when they do not lie on it), named regions (cells and
off-map zones as polygons, with their roles), the board (printed from this layout, or
learned from a photo of it empty), the expected base diameters and the players'
colours. Nothing in it is specific to a 5x5 grid: hexes or free polygons are regions
like any other, so other maps and games reuse the detector with a new file.

Coordinates: x to the right, y down, origin at the sheet's top-left corner, as the sheet
is seen by a person standing at p1's edge (the bottom edge).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from table import registry
from table.maps import LAYOUT_FORMAT as FIRST_FORMAT
from table.maps import LAYOUT_FORMAT_2

from .tags import FAMILY as TAG_FAMILY

# The format's names are the writers' (``table.maps``, which may not import this
# package); this reader knows both.
LAYOUT_FORMAT = LAYOUT_FORMAT_2
# Documents are written in the oldest version that holds what they say, so a printed
# map's file stays readable by tools that know only the first.
LAYOUT_FORMATS = (FIRST_FORMAT, LAYOUT_FORMAT)
BOARD_LOOKS = ("printed", "learned")
# How a player's pieces may be told apart without hue (version 2): all of one player's
# bases are dark (black plastic, ebony) or light (white, bone, maple).
TONES = ("dark", "light")
MAX_MARKER_HEIGHT_MM = 500.0  # a marker further off the board than this is a typo


class LayoutError(ValueError):
    """A layout file the detector cannot use; the message says what is wrong."""


@dataclass(frozen=True)
class Marker:
    id: int
    corners: tuple[tuple[float, float], ...]  # TL, TR, BR, BL (the detector's order)
    # mm above the board's playing surface (toward the camera); negative: below it, as
    # for a marker on the table beside a thick board. 0: printed on the board.
    height: float = 0.0

    @property
    def center(self) -> tuple[float, float]:
        xs, ys = zip(*self.corners, strict=True)
        return sum(xs) / 4, sum(ys) / 4


@dataclass(frozen=True)
class Region:
    name: str
    role: str  # "cell" or "zone"
    polygon: tuple[tuple[float, float], ...]
    player: str | None = None  # for zones: whose zone it is
    zone: str | None = None  # reserves, graveyard, destroyed
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def contains(self, x: float, y: float) -> bool:
        """Point-in-polygon (even-odd rule)."""
        inside = False
        pts = self.polygon
        j = len(pts) - 1
        for i in range(len(pts)):
            xi, yi = pts[i]
            xj, yj = pts[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            j = i
        return inside

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        xs, ys = zip(*self.polygon, strict=True)
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.bbox
        return (x0 + x1) / 2, (y0 + y1) / 2


@dataclass(frozen=True)
class Board:
    """What the board looks like: ``printed`` from this layout (light paper, the
    regions' outlines), or ``learned`` from a photo of it empty (any art, wood, mat),
    kept as ``picture`` (the work area from above, 1 px per mm, as
    ``tablesight vision learn-board`` writes it)."""

    look: str = "printed"
    picture: Path | None = None  # absolute once loaded from a file

    def to_dict(self, relative_to: Path | None = None) -> dict[str, Any]:
        if self.look == "printed" or self.picture is None:
            return {"look": self.look}
        pic = self.picture
        if relative_to is not None:
            try:
                pic = pic.resolve().relative_to(relative_to.resolve())
            except ValueError:
                pass  # elsewhere: kept absolute
        return {"look": self.look, "picture": pic.as_posix()}


@dataclass(frozen=True)
class Layout:
    name: str
    game: str
    sheet: tuple[float, float]  # width, height in mm
    dictionary: str  # an OpenCV ArUco dictionary name, e.g. DICT_4X4_50
    markers: tuple[Marker, ...]
    regions: tuple[Region, ...]
    base_diameters: tuple[float, float]  # smallest and largest, mm
    players: dict[str, str]  # player -> colour "#rrggbb"
    tag_family: str = TAG_FAMILY
    board: Board = field(default_factory=Board)
    raw: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    # player -> "dark" or "light": owners told by the pieces' own tone, not by stickers'
    # hue (black and white pieces); empty: by the stickers
    tones: dict[str, str] = field(default_factory=dict)
    # Pieces are flat disks that may lie on one another (a pile); otherwise they stand
    # side by side, and a disc overlapping another is part of its figure
    # (``detect/bases.figure_parts``).
    piles: bool = False

    # -- access -----------------------------------------------------------------------
    @property
    def cells(self) -> tuple[Region, ...]:
        return tuple(r for r in self.regions if r.role == "cell")

    @property
    def zones(self) -> tuple[Region, ...]:
        return tuple(r for r in self.regions if r.role == "zone")

    def region_at(self, x: float, y: float) -> Region | None:
        return next((r for r in self.regions if r.contains(x, y)), None)

    def marker_points(self) -> dict[int, np.ndarray]:
        return {m.id: np.array(m.corners, dtype=np.float32) for m in self.markers}

    @property
    def markers_on_board(self) -> bool:
        """Whether every marker lies in the board's plane (then one homography maps
        the markers and the board alike)."""
        return all(m.height == 0 for m in self.markers)

    @property
    def format(self) -> str:
        """The oldest format version that holds this layout."""
        if self.markers_on_board and self.board.look == "printed" and not self.tones \
                and not self.piles:
            return LAYOUT_FORMATS[0]
        return LAYOUT_FORMAT

    def player_bgr(self, player: str) -> tuple[int, int, int]:
        h = self.players[player].lstrip("#")
        r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
        return b, g, r

    # -- (de)serialisation ------------------------------------------------------------
    def to_dict(self, relative_to: Path | None = None) -> dict[str, Any]:
        """The document; ``relative_to``: the folder it will be saved in (a learned
        board's picture is then named relative to it)."""
        version = self.format
        out = {
            "format": version,
            "name": self.name,
            "game": self.game,
            "units": "mm",
            "sheet": {"width": self.sheet[0], "height": self.sheet[1]},
            "markers": {"dictionary": self.dictionary,
                        "items": [{"id": m.id, "corners": [list(c) for c in m.corners],
                                   **({"height": m.height} if m.height else {})}
                                  for m in self.markers]},
            "regions": [{"name": r.name, "role": r.role,
                         "polygon": [list(p) for p in r.polygon],
                         **({"player": r.player} if r.player else {}),
                         **({"zone": r.zone} if r.zone else {}),
                         **r.extra} for r in self.regions],
            "bases": {"diameters": list(self.base_diameters),
                      **({"piles": True} if self.piles else {})},
            "players": {p: {"color": c, **({"pieces": self.tones[p]} if p in self.tones
                                           else {})}
                        for p, c in self.players.items()},
            "tags": {"family": self.tag_family},
        }
        if version != LAYOUT_FORMATS[0]:
            out["board"] = self.board.to_dict(relative_to)
        return out

    @classmethod
    def from_dict(cls, d: object, folder: Path | None = None) -> Layout:
        """A layout from its document; ``folder``: where the document lies (a learned
        board's picture is named relative to it)."""
        if not isinstance(d, dict):
            raise LayoutError("a layout is a JSON object")
        version = d.get("format")
        if version not in LAYOUT_FORMATS:
            raise LayoutError(f"layout format must be one of {', '.join(LAYOUT_FORMATS)}, "
                              f"got {version!r}")
        try:
            sheet = (float(d["sheet"]["width"]), float(d["sheet"]["height"]))
            md = d["markers"]
            dictionary = str(md["dictionary"])
            markers = tuple(
                Marker(int(m["id"]), tuple((float(x), float(y)) for x, y in m["corners"]),
                       float(m.get("height", 0.0)) if version != LAYOUT_FORMATS[0] else 0.0)
                for m in md["items"])
            regions = tuple(
                Region(str(r["name"]), str(r["role"]),
                       tuple((float(x), float(y)) for x, y in r["polygon"]),
                       r.get("player"), r.get("zone"),
                       {k: v for k, v in r.items()
                        if k not in ("name", "role", "polygon", "player", "zone")})
                for r in d["regions"])
            dia = d["bases"]["diameters"]
            base = (float(min(dia)), float(max(dia)))
            players = {str(p): str(v["color"]) for p, v in d["players"].items()}
            tones = {str(p): v["pieces"] for p, v in d["players"].items()
                     if version != LAYOUT_FORMATS[0] and "pieces" in v}
            piles = d["bases"].get("piles", False) if version != LAYOUT_FORMATS[0] \
                else False
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            # OverflowError: a JSON integer too large for a float (10**400)
            raise LayoutError(f"layout is missing or has a malformed field: {exc!r}") from None
        if len(markers) < 2:
            raise LayoutError("a layout needs at least two markers")
        if any(len(m.corners) != 4 for m in markers):
            raise LayoutError("every marker needs exactly four corners")
        if len({m.id for m in markers}) != len(markers):
            raise LayoutError("marker ids must be unique")
        if not all(np.isfinite([c for m in markers for xy in m.corners for c in xy])):
            raise LayoutError("marker corners must be finite numbers")
        for m in markers:
            check_marker_height(m.height)
        if not isinstance(piles, bool):
            raise LayoutError(f"bases.piles must be true or false, got {piles!r}")
        board = _board(d.get("board") if version != LAYOUT_FORMATS[0] else None, folder)
        check_tones(tones, players)
        if any(len(r.polygon) < 3 for r in regions):
            raise LayoutError("every region needs a polygon of at least three points")
        if not hasattr(__import__("cv2").aruco, dictionary):
            raise LayoutError(f"unknown marker dictionary {dictionary!r}")
        family = str(d.get("tags", {}).get("family", TAG_FAMILY))
        if family != TAG_FAMILY:
            raise LayoutError(f"layout's stickers are of family {family!r}; this detector "
                              f"reads {TAG_FAMILY!r} (print the map and stickers again)")
        return cls(str(d.get("name", "unnamed")), str(d.get("game", "")), sheet, dictionary,
                   markers, regions, base, players, family, board, d, tones, piles)

    @classmethod
    def load(cls, path: str | Path) -> Layout:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise LayoutError(f"cannot read layout {path}: {exc}") from None
        except ValueError:  # a number of thousands of digits, past Python's limit
            raise LayoutError(f"cannot read layout {path}: a number too long to be a "
                              "layout's") from None
        layout = cls.from_dict(data, Path(path).parent)
        pic = layout.board.picture
        if pic is not None and not pic.is_file():
            raise LayoutError(f"layout {path} names the learned board {pic}, which is not "
                              "there (learn it again: tablesight vision learn-board)")
        return layout

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.write_text(json.dumps(self.to_dict(path.parent), indent=1) + "\n",
                        encoding="utf-8")


def check_tones(tones: dict[str, Any], players: dict[str, str]) -> dict[str, str]:
    """``tones`` if they can tell ``players`` apart, else LayoutError: every player's
    or none, each "dark" or "light", no two players alike (two tones tell two players
    apart, no more)."""
    if not tones:
        return tones
    for p, tone in tones.items():
        if tone not in TONES:
            raise LayoutError(f"player {p!r}'s pieces must be one of {', '.join(TONES)}, "
                              f"not {tone!r}")
    if set(tones) != set(players):
        missing = sorted(set(players) - set(tones))
        raise LayoutError(f"pieces told by tone need every player's tone; "
                          f"{', '.join(map(repr, missing))} has none")
    if len(set(tones.values())) != len(tones):
        raise LayoutError("two players' pieces have the same tone: the detector could not "
                          "tell them apart")
    return tones


def check_marker_height(height: float) -> float:
    """``height`` if it can be a marker's height over the board (mm), else LayoutError."""
    if not math.isfinite(height) or abs(height) > MAX_MARKER_HEIGHT_MM:
        raise LayoutError(f"a marker's height must be a number of mm within "
                          f"{MAX_MARKER_HEIGHT_MM:.0f} of the board, not {height}")
    return height


def _board(d: object, folder: Path | None) -> Board:
    if d is None:
        return Board()
    if not isinstance(d, dict) or d.get("look", "printed") not in BOARD_LOOKS:
        raise LayoutError(f"layout's board must be an object whose look is one of "
                          f"{', '.join(BOARD_LOOKS)}")
    if d.get("look", "printed") == "printed":
        return Board()
    pic = d.get("picture")
    if not isinstance(pic, str) or not pic.strip():
        raise LayoutError("a learned board names its picture (the file "
                          "'tablesight vision learn-board' wrote)")
    path = Path(pic)
    if not path.is_absolute() and folder is not None:
        path = folder / path
    return Board("learned", path)


# -- a game's map -------------------------------------------------------------------
def game_layout(game: str | None = None) -> Layout:
    """The printed map of an installed game (by default the first one), from the layout
    document its game system provides."""
    return Layout.from_dict(registry.get(game or registry.default()).layout())
