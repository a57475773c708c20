"""The JSON API: everything a page can do, for pages and for scripts.

Errors are JSON: ``{"error": "..."}`` with 400 (refused command, bad input), 401 (staff
login needed), 403 (CSRF), 404, 405 or 415.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request, session

from table.dreamblade import Catalog, CatalogError, SetupError
from table.session import CommandError, SetupFormatError

from .security import STAFF_COMMANDS, check_pin, is_staff
from .services import services

bp = Blueprint("api", __name__, url_prefix="/api")


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise _Bad("the body must be a JSON object")
    return data


class _Bad(Exception):
    pass


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


@bp.post("/games")
def new_game() -> Any:
    if not is_staff():
        return jsonify(error="starting a game needs a staff login"), 401
    svc = services()
    if svc.new_session is None:
        return jsonify(error="this table cannot start new games"), 400
    try:
        s = svc.new_session(_body())
    except (SetupFormatError, CatalogError, SetupError) as e:
        return jsonify(error=str(e)), 400
    svc.attach(s)
    return jsonify(ok=True, game_id=s.game_id), 201
