"""The JSON API: everything a page can do, for pages and for scripts.

Errors are JSON: ``{"error": "..."}`` with 400 (refused command, bad input), 401 (staff
login needed), 403 (CSRF), 404, 405 or 415.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, current_app, jsonify, request, session

from table.dreamblade import Catalog, CatalogError, SetupError
from table.session import CommandError, Session, Setup, SetupFormatError, StorageError

from .security import STAFF_COMMANDS, check_pin, is_staff
from .services import services

bp = Blueprint("api", __name__, url_prefix="/api")


class _Bad(Exception):
    """A malformed request body: answered with 400 and the reason."""


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise _Bad("the body must be a JSON object")
    return data


@bp.errorhandler(_Bad)
def _bad(e: _Bad) -> Any:
    return jsonify(error=str(e)), 400


@bp.get("/state")
def state() -> Any:
    svc = services()
    snap = svc.session.snapshot()
    snap["staff"] = is_staff()
    snap["staff_login"] = current_app.config.get("ADMIN_PIN") is not None
    snap["last_event_id"] = svc.broker.last_id
    if svc.live is not None:
        snap["camera"] = svc.live.stats.to_dict()
    return jsonify(snap)


@bp.post("/command")
def command() -> Any:
    cmd = _body()
    if cmd.get("do") in STAFF_COMMANDS and not is_staff():
        return jsonify(error=f"'{cmd.get('do')}' needs a staff login"), 401
    try:
        events = services().session.command(cmd, source="dashboard")
    except CommandError as e:
        return jsonify(error=str(e)), 400
    return jsonify(ok=True, events=[e.to_dict() for e in events])


@bp.get("/history")
def history() -> Any:
    after = request.args.get("after", "0")
    if not after.isdigit():
        raise _Bad("after: a sequence number")
    n = int(after)
    return jsonify([h for h in list(services().session.history) if h["seq"] > n])


@bp.get("/record")
def record() -> Any:
    resp = jsonify(services().session.record())
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
def login() -> Any:
    if not check_pin(_body().get("pin")):
        return jsonify(error="wrong PIN"), 401
    session["staff"] = True
    return jsonify(ok=True)


@bp.post("/logout")
def logout() -> Any:
    session.pop("staff", None)
    return jsonify(ok=True)


@bp.get("/catalog")
def catalog() -> Any:
    cat = Catalog.builtin()
    return jsonify([{"name": m.name, "cost": m.cost, "kind": m.kind.value}
                    for m in sorted(cat, key=lambda m: (m.cost, m.name))])


@bp.get("/ports")
def ports() -> Any:
    return jsonify(services().ports())


@bp.get("/games")
def games() -> Any:
    log = services().log
    if log is None:
        return jsonify([])
    return jsonify([{"id": g.id, "created": g.created, "status": g.status,
                     "names": g.setup.get("names"), "entries": g.entries}
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
    except (SetupFormatError, CatalogError, SetupError) as e:
        return jsonify(error=str(e)), 400
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
        return jsonify(error=str(e)), 400
    svc.attach(s)
    return jsonify(ok=True, game_id=s.game_id)


# Camera choices are device numbers or network streams, never a path on this machine.
_STREAM = re.compile(r"^(rtsp|rtsps|http|https)://[^\s]{1,300}$")


@bp.get("/devices")
def devices() -> Any:
    svc = services()
    return jsonify(camera=svc.camera_spec, port=svc.port, ports=svc.ports(),
                   can_change=svc.live is not None)


@bp.post("/devices")
def set_devices() -> Any:
    if not is_staff():
        return jsonify(error="changing devices needs a staff login"), 401
    svc = services()
    body = _body()
    if svc.live is None:
        return jsonify(error="this table runs without a live camera and box"), 400
    if "camera" in body:
        spec = body["camera"]
        if not isinstance(spec, str) or not (spec == "none" or (spec.isdigit() and len(spec) < 3)
                                             or _STREAM.match(spec)):
            return jsonify(error="camera: a device number (0, 1...), an rtsp:// or http:// "
                                 "stream, or none"), 400
        try:
            source = None if spec == "none" or svc.open_camera is None else \
                svc.open_camera(spec)
        except Exception as e:
            return jsonify(error=f"cannot open camera {spec}: {e}"), 400
        svc.live.use_camera(source)
        svc.camera_spec = spec
    if "port" in body:
        port = body["port"]
        known = {p["device"] for p in svc.ports()}
        if port != "none" and port not in known:
            return jsonify(error=f"port: one of {sorted(known) or 'no ports found'}, or none"), 400
        box = None if port == "none" or svc.open_box is None else svc.open_box(port)
        svc.live.use_box(box)
        svc.port = port
    return jsonify(ok=True, camera=svc.camera_spec, port=svc.port)
