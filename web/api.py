"""The JSON API: everything a page can do, for pages and for scripts.

Errors are JSON: ``{"error": "..."}`` with 400 (refused command, bad input), 401 (staff
login needed), 403 (CSRF), 404, 405, 413 (too large), 415 (not JSON) or 429 (too many
wrong PINs). Every field a client sends is checked for type and shape before use, and
a refused request changes nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, jsonify, request, session

from table import registry
from table.errors import CommandRefused, SetupRefused
from table.quoting import quote
from table.session import Session, Setup, SetupFormatError, StorageError

from .security import (
    LOGIN_LIMITS,
    STAFF_COMMANDS,
    check_pin,
    has_pin,
    is_staff,
    limiter,
    login_limit_breached,
)
from .services import services

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_ERROR = 300  # characters of an error reply


class _Bad(Exception):
    """A malformed request: answered with 400 and the reason."""


def _body() -> dict[str, Any]:
    # Parsed here rather than by get_json: a body nested thousands deep raises
    # RecursionError, which must be a 400 like any other bad JSON.
    try:
        data = json.loads(request.get_data(cache=True))
    except (ValueError, RecursionError):
        raise _Bad("the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise _Bad("the body must be a JSON object")
    return data


def _refused(message: str, code: int = 400) -> Any:
    """An error reply; messages quote client input, so they are cut to a size."""
    if len(message) > MAX_ERROR:
        message = message[:MAX_ERROR - 1] + "…"
    return jsonify(error=message), code


def _public(e: Exception) -> str:
    """A storage error as a client may read it: the log's name, not its path."""
    log = services().log
    text = str(e)
    return text.replace(str(log.path), log.path.name) if log is not None else text


@bp.errorhandler(_Bad)
def _bad(e: _Bad) -> Any:
    return _refused(str(e))


@bp.get("/state")
def state() -> Any:
    svc = services()
    snap = svc.session.snapshot()
    snap["staff"] = is_staff()
    snap["staff_login"] = has_pin()
    snap["last_event_id"] = svc.broker.last_id
    if svc.live is not None:
        snap["camera"] = svc.live.stats.to_dict()
    return jsonify(snap)


@bp.post("/command")
def command() -> Any:
    cmd = _body()
    do = cmd.get("do")
    if not isinstance(do, str):
        raise _Bad("do: the command's name, e.g. \"action\"")
    if do in STAFF_COMMANDS and not is_staff():
        return _refused(f"{quote(do)} needs a staff login", 401)
    if do in services().session.referee.seat_commands:
        # What one player alone may know is entered on their own page, never here.
        return _refused(f"{quote(do)} is entered on the player's own page")
    try:
        events = services().session.command(cmd, source="dashboard")
    except CommandRefused as e:
        return _refused(str(e))
    return jsonify(ok=True, events=[e.to_dict() for e in events])


_SEQ = re.compile(r"[0-9]{1,15}")  # ASCII digits only: str.isdigit takes "²" too


# -- each player's private page ----------------------------------------------------------
@bp.post("/seats")
def new_seat_key() -> Any:
    """A new private page link for a player (staff): the old one stops working."""
    if not is_staff():
        return _refused("a player's private link needs a staff login", 401)
    seat = _body().get("seat")
    if seat not in ("p1", "p2"):
        raise _Bad("seat: p1 or p2")
    key = services().session.issue_seat_key(seat)
    return jsonify(seat=seat, key=key, url=f"/seat/{key}")


def _seat(key: str) -> str | None:
    return services().session.seat_of(key)


@bp.get("/seat/<key>")
def seat_state(key: str) -> Any:
    seat = _seat(key)
    if seat is None:
        return _refused("this private page's link is not valid (a new one was made, or "
                        "a new game started): ask the table's staff", 404)
    return jsonify(services().session.seat_view(seat))


@bp.post("/seat/<key>/command")
def seat_command(key: str) -> Any:
    seat = _seat(key)
    if seat is None:
        return _refused("this private page's link is not valid: ask the table's staff", 404)
    try:
        events = services().session.seat_command(seat, _body())
    except CommandRefused as e:
        return _refused(str(e))
    return jsonify(ok=True, events=[e.to_dict() for e in events])


@bp.get("/history")
def history() -> Any:
    after = request.args.get("after", "0")
    if not _SEQ.fullmatch(after):
        raise _Bad("after: a sequence number")
    n = int(after)
    return jsonify([h for h in list(services().session.history) if h["seq"] > n])


@bp.get("/record")
def record() -> Any:
    # Staff may ask for the secrets of a game still played (``?reveal=1``).
    reveal = request.args.get("reveal") == "1"
    if reveal and not is_staff():
        return _refused("the revealed record needs a staff login", 401)
    resp = jsonify(services().session.record(reveal=reveal))
    resp.headers["Content-Disposition"] = "attachment; filename=tablesight-game.json"
    return resp


@bp.get("/health")
def health() -> Any:
    svc = services()
    out: dict[str, Any] = {"parts": svc.session.snapshot()["health"],
                           "subscribers": svc.broker.subscribers}
    if svc.live is not None:
        out["camera"] = svc.live.stats.to_dict()
    return jsonify(out)


@bp.post("/login")
@limiter.limit(LOGIN_LIMITS, deduct_when=lambda r: r.status_code == 401,
               on_breach=login_limit_breached)
def login() -> Any:
    if not check_pin(_body().get("pin")):
        return _refused("wrong PIN", 401)
    session["staff"] = True
    return jsonify(ok=True)


@bp.post("/logout")
def logout() -> Any:
    session.pop("staff", None)
    return jsonify(ok=True)


@bp.get("/systems")
def systems() -> Any:
    """The installed games, for the setup page."""
    return jsonify([g.setup_info() for g in registry.systems().values()])


@bp.get("/catalog")
def catalog() -> Any:
    """What a setup can field, for one installed game (``?game=NAME``; default the
    first game)."""
    try:
        system = registry.get(request.args.get("game", registry.default()))
    except registry.UnknownGame as e:
        return _refused(str(e))
    return jsonify(system.catalog())


@bp.get("/ports")
def ports() -> Any:
    return jsonify(services().ports())


@bp.get("/games")
def games() -> Any:
    log = services().log
    if log is None:
        return jsonify([])
    return jsonify([{"id": g.id, "created": g.created, "status": g.status,
                     "names": g.setup.get("names"), "entries": g.entries, "game": g.game,
                     "rules_version": g.rules_version}
                    for g in reversed(log.games())])


@bp.post("/games")
def new_game() -> Any:
    if not is_staff():
        return jsonify(error="starting a game needs a staff login"), 401
    svc = services()
    if svc.log is None:
        return jsonify(error="this table keeps no game log: it cannot start new games"), 400
    try:
        s = Session.new(Setup.from_dict(_body()), svc.log)
    except (SetupFormatError, SetupRefused, registry.UnknownGame) as e:
        return _refused(str(e))
    except StorageError as e:
        return _refused(_public(e))
    svc.attach(s)
    return jsonify(ok=True, game_id=s.game_id), 201


@bp.post("/games/<int:game_id>/resume")
def resume_game(game_id: int) -> Any:
    if not is_staff():
        return jsonify(error="resuming a game needs a staff login"), 401
    svc = services()
    if svc.log is None:
        return jsonify(error="this table keeps no game log"), 400
    try:
        s = Session.resume(svc.log, game_id)
    except (StorageError, SetupFormatError) as e:
        return _refused(_public(e))
    svc.attach(s)
    return jsonify(ok=True, game_id=s.game_id)


# Camera choices are device numbers or network streams, never a path on this machine.
_STREAM = re.compile(r"^(rtsp|rtsps|http|https)://[^\s]{1,300}$")


@bp.get("/devices")
def devices() -> Any:
    svc = services()
    return jsonify(camera=svc.camera_spec, port=svc.port, ports=svc.known_ports(),
                   can_change=svc.live is not None)


@bp.post("/devices")
def set_devices() -> Any:
    if not is_staff():
        return jsonify(error="changing devices needs a staff login"), 401
    svc = services()
    body = _body()
    if svc.live is None:
        return jsonify(error="this table runs without a live camera and box"), 400
    if "camera" in body and body["camera"] != svc.camera_spec:  # unchanged: left as it is
        spec = body["camera"]
        if not isinstance(spec, str) or not (spec == "none" or (spec.isdigit() and len(spec) < 3)
                                             or _STREAM.match(spec)):
            return jsonify(error="camera: a device number (0, 1...), an rtsp:// or http:// "
                                 "stream, or none"), 400
        try:
            source = None if spec == "none" or svc.open_camera is None else \
                svc.open_camera(spec)
        except Exception as e:
            return _refused(f"cannot open camera {spec}: {e}")
        svc.live.use_camera(source)
        svc.camera_spec = spec
    if "port" in body and body["port"] != svc.port:
        port = body["port"]
        known = {p["device"] for p in svc.known_ports()}
        if not isinstance(port, str) or (port != "none" and port not in known):
            return _refused(f"port: one of {sorted(known) or 'no ports found'}, or none")
        box = None if port == "none" or svc.open_box is None else svc.open_box(port)
        svc.live.use_box(box)
        svc.use_port(port)
    return jsonify(ok=True, camera=svc.camera_spec, port=svc.port)
