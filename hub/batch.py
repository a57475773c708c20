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
    words), the camera's and the box's health, a desync. Short texts only."""
    d = _object(data, where)
    _keys(d, where, {"game", "prompt", "desync", "health", "players"})
    out: dict[str, Any] = {}
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
