"""What a table sends the hub: a batch of its game log (``tablesight-batch/1``,
``docs/hub.md``). Read here from untrusted JSON into values, every field checked and
bounded; nothing else in the hub looks at a table's raw JSON.

A batch carries entries exactly as the table's log holds them: the body as the text
the log stored and the chain hash after it (``table.session.integrity``), so the hub
can check each entry follows the one before it and store it once, whatever is sent
twice."""

from __future__ import annotations

import itertools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from table.quoting import quote

FORMAT = "tablesight-batch/1"
MAX_BODY = 2 * 1024 * 1024  # bytes of one request
MAX_GAMES = 20  # games in one batch
MAX_ENTRIES = 2000  # entries in one batch, all games together
MAX_TEXT = 64 * 1024  # one entry's body, or a game's setup, as text
MAX_ID = 2**31 - 1  # game numbers and entry numbers (PostgreSQL's integer)
_LOG = re.compile(r"[0-9a-f]{32}")
_WORD = re.compile(r"[a-z][a-z0-9_-]{0,39}")  # kinds, sources, game systems
_CHAIN = re.compile(r"[0-9a-f]{64}")
_STATUS = ("playing", "over", "set_aside")


class BatchError(ValueError):
    """A batch the hub refuses; names the field."""


@dataclass(frozen=True)
class EntryIn:
    seq: int
    time: float
    kind: str
    source: str
    body: str  # the JSON text as the table's log holds it
    chain: str


@dataclass(frozen=True)
class GameIn:
    game: int  # the game's number in the table's log
    system: str
    rules_version: str
    created: float
    setup: str  # the setup's JSON text as the log holds it
    status: str
    entries: tuple[EntryIn, ...]


@dataclass(frozen=True)
class Batch:
    log: str  # the table's log file, a 32-hex-digit id it keeps in the file
    games: tuple[GameIn, ...]
    status: dict[str, Any]  # what the table shows now (``table_status``), checked


def parse_batch(data: object) -> Batch:
    """A batch from decoded JSON; ``BatchError`` naming the first bad field."""
    d = _object(data, "the batch")
    _keys(d, "the batch", {"format", "log", "games", "status"})
    if d.get("format") != FORMAT:
        raise BatchError(f"format: {FORMAT!r}, not {quote(d.get('format'))}")
    log = d.get("log")
    if not isinstance(log, str) or not _LOG.fullmatch(log):
        raise BatchError(f"log: the log's id, 32 hex digits, not {quote(log)}")
    games = d.get("games", [])
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise BatchError(f"games: a list of at most {MAX_GAMES}")
    parsed = tuple(_game(g, f"games[{i}]") for i, g in enumerate(games))
    if sum(len(g.entries) for g in parsed) > MAX_ENTRIES:
        raise BatchError(f"games: at most {MAX_ENTRIES} entries in one batch")
    if len({g.game for g in parsed}) != len(parsed):
        raise BatchError("games: each game once in a batch")
    return Batch(log, parsed, table_status(d.get("status", {}), "status"))


def table_status(data: object, where: str) -> dict[str, Any]:
    """What a table shows now, for the staff view: the game, whose turn (the prompt's
    words), the camera's and the box's health, a desync, the players' colours and, when
    it changed, the board as the table draws it (``board``). Short texts only."""
    d = _object(data, where)
    _keys(d, where, {"game", "prompt", "desync", "health", "players", "colors", "board"})
    out: dict[str, Any] = {}
    if "board" in d:
        out["board"] = board(d["board"], f"{where}.board")
    if "colors" in d:
        colors = _object(d["colors"], f"{where}.colors")
        out["colors"] = {p: _color(colors.get(p), f"{where}.colors.{p}", players=False)
                         for p in ("p1", "p2") if p in colors}
    for key in ("game", "prompt", "desync"):
        if key in d and d[key] is not None:
            out[key] = _text(d[key], f"{where}.{key}", 300)
    if "players" in d:
        players = d["players"]
        if not isinstance(players, list) or len(players) > 8:
            raise BatchError(f"{where}.players: a list of at most 8 names")
        out["players"] = [_text(p, f"{where}.players[{i}]", 60)
                          for i, p in enumerate(players)]
    if "health" in d:
        health = _object(d["health"], f"{where}.health")
        if len(health) > 8:
            raise BatchError(f"{where}.health: at most 8 parts")
        out["health"] = {}
        for part, h in health.items():
            _text(part, f"{where}.health", 20)
            h = _object(h, f"{where}.health.{part}")
            ok = h.get("ok")
            if not isinstance(ok, bool):
                raise BatchError(f"{where}.health.{part}.ok: true or false")
            out["health"][part] = {"ok": ok, "message": _text(
                h.get("message", ""), f"{where}.health.{part}.message", 300)}
    return out


def _game(data: object, where: str) -> GameIn:
    d = _object(data, where)
    _keys(d, where, {"game", "system", "rules_version", "created", "setup", "status",
                     "entries"})
    system = d.get("system", "")
    if not isinstance(system, str) or (system and not _WORD.fullmatch(system)):
        raise BatchError(f"{where}.system: a game system's name, not {quote(system)}")
    entries = d.get("entries", [])
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        raise BatchError(f"{where}.entries: a list of at most {MAX_ENTRIES}")
    status = d.get("status")
    if status not in _STATUS:
        raise BatchError(f"{where}.status: one of {', '.join(_STATUS)}, not {quote(status)}")
    out = tuple(_entry(e, f"{where}.entries[{i}]") for i, e in enumerate(entries))
    if any(b.seq != a.seq + 1 for a, b in itertools.pairwise(out)):
        raise BatchError(f"{where}.entries: consecutive numbers, in order")
    return GameIn(_whole(d.get("game"), f"{where}.game"), system,
                  _text(d.get("rules_version", ""), f"{where}.rules_version", 80),
                  _time(d.get("created"), f"{where}.created"),
                  _json_text(d.get("setup"), f"{where}.setup"), status, out)


def _entry(data: object, where: str) -> EntryIn:
    d = _object(data, where)
    _keys(d, where, {"seq", "time", "kind", "source", "body", "chain"})
    kind, source, chain = d.get("kind"), d.get("source", ""), d.get("chain")
    if not isinstance(kind, str) or not _WORD.fullmatch(kind):
        raise BatchError(f"{where}.kind: a word, not {quote(kind)}")
    if not isinstance(source, str) or (source and not _WORD.fullmatch(source)):
        raise BatchError(f"{where}.source: a word, not {quote(source)}")
    if not isinstance(chain, str) or not _CHAIN.fullmatch(chain):
        raise BatchError(f"{where}.chain: 64 hex digits, not {quote(chain)}")
    return EntryIn(_whole(d.get("seq"), f"{where}.seq"), _time(d.get("time"), f"{where}.time"),
                   kind, source, _json_text(d.get("body"), f"{where}.body"), chain)


def _object(data: object, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BatchError(f"{where}: a JSON object")
    return data


def _keys(d: dict[str, Any], where: str, allowed: set[str]) -> None:
    extra = sorted(k for k in d if k not in allowed)
    if extra:
        raise BatchError(f"{where}: unknown key {quote(extra[0])}")


def _whole(v: object, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_ID:
        raise BatchError(f"{where}: a whole number from 1 to {MAX_ID}, not {quote(v)}")
    return v


def _time(v: object, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) \
            or not 0 <= v < 1e11:
        raise BatchError(f"{where}: seconds since 1970, not {quote(v)}")
    return float(v)


def _text(v: object, where: str, most: int) -> str:
    if not isinstance(v, str) or len(v) > most or "\x00" in v:
        raise BatchError(f"{where}: a text of at most {most} characters")
    return v


def _json_text(v: object, where: str) -> str:
    """JSON text of an object, kept as sent (the chain covers its exact characters)."""
    text = _text(v, where, MAX_TEXT)
    try:
        parsed = json.loads(text)
    except ValueError:
        raise BatchError(f"{where}: JSON text of an object") from None
    if not isinstance(parsed, dict):
        raise BatchError(f"{where}: JSON text of an object")
    return text


# -- the board as a table draws it (``table.drawing``) -------------------------------------
# Only what the staff view draws is read, each part checked and bounded; other keys are
# left out (a newer table may draw more than this hub knows).
_HEX_COLOR = re.compile(r"#[0-9a-fA-F]{6}")
MAX_REGIONS, MAX_PIECES, MAX_LINES, MAX_POINTS = 2000, 600, 60, 64


def board(data: object, where: str) -> dict[str, Any]:
    d = _object(data, where)
    frame = d.get("frame")
    if not isinstance(frame, list) or len(frame) != 4:
        raise BatchError(f"{where}.frame: x, y, width, height")
    x, y, w, h = (_mm(v, f"{where}.frame") for v in frame)
    if w <= 0 or h <= 0:
        raise BatchError(f"{where}.frame: a width and height above 0")
    regions = _list(d.get("regions", []), f"{where}.regions", MAX_REGIONS)
    pieces = _list(d.get("pieces", []), f"{where}.pieces", MAX_PIECES)
    lines = _list(d.get("lines", []), f"{where}.lines", MAX_LINES)
    return {"frame": [x, y, w, h],
            "regions": [_region(r, f"{where}.regions[{i}]") for i, r in enumerate(regions)],
            "pieces": [_piece(p, f"{where}.pieces[{i}]") for i, p in enumerate(pieces)],
            "lines": [_line(ln, f"{where}.lines[{i}]") for i, ln in enumerate(lines)]}


def _region(data: object, where: str) -> dict[str, Any]:
    d = _object(data, where)
    outline = _list(d.get("outline"), f"{where}.outline", MAX_POINTS)
    if len(outline) < 3:
        raise BatchError(f"{where}.outline: three points or more")
    alert = d.get("alert")
    return {"id": _text(d.get("id"), f"{where}.id", 40),
            "outline": [_point(p, f"{where}.outline") for p in outline],
            "label": _text(d.get("label", ""), f"{where}.label", 40),
            "fill": None if d.get("fill") is None else _color(d["fill"], f"{where}.fill"),
            "alert": None if alert is None else _text(
                _object(alert, f"{where}.alert").get("text", ""), f"{where}.alert", 200)}


def _piece(data: object, where: str) -> dict[str, Any]:
    d = _object(data, where)
    player = d.get("player", "")
    if player not in ("p1", "p2", ""):
        raise BatchError(f"{where}.player: p1, p2 or none")
    at, diameter, badge = d.get("at"), d.get("diameter"), d.get("badge")
    layer = d.get("layer", 0)
    if isinstance(layer, bool) or not isinstance(layer, int) or not -100 <= layer <= 100:
        raise BatchError(f"{where}.layer: a whole number")
    if badge is not None and (isinstance(badge, bool) or not isinstance(badge, int)
                              or not -999 <= badge <= 999):
        raise BatchError(f"{where}.badge: a whole number")
    region = d.get("region")
    return {"player": player, "label": _text(d.get("label", ""), f"{where}.label", 60),
            "region": None if region is None else _text(region, f"{where}.region", 40),
            "at": None if at is None else _point(at, f"{where}.at"),
            "diameter": None if diameter is None else _mm(diameter, f"{where}.diameter"),
            "layer": layer, "badge": badge}


def _line(data: object, where: str) -> dict[str, Any]:
    d = _object(data, where)
    return {"a": _point(d.get("a"), f"{where}.a"), "b": _point(d.get("b"), f"{where}.b"),
            "label": _text(d.get("label", ""), f"{where}.label", 40),
            "color": _color(d.get("color", "#ffffff"), f"{where}.color"),
            "dashed": bool(d.get("dashed", False))}


def _list(v: object, where: str, most: int) -> list[Any]:
    if not isinstance(v, list) or len(v) > most:
        raise BatchError(f"{where}: a list of at most {most}")
    return v


def _mm(v: object, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) \
            or abs(v) > 100_000:
        raise BatchError(f"{where}: millimetres, a number")
    return float(v)


def _point(v: object, where: str) -> list[float]:
    if not isinstance(v, list) or len(v) != 2:
        raise BatchError(f"{where}: a point [x, y]")
    return [_mm(v[0], where), _mm(v[1], where)]


def _color(v: object, where: str, players: bool = True) -> str:
    if isinstance(v, str) and (_HEX_COLOR.fullmatch(v) or (players and v in ("p1", "p2"))):
        return v
    raise BatchError(f"{where}: a colour #rrggbb" + (" or a player" if players else ""))
