"""What tables call: ``POST /api/v1/batches`` (a batch of a table's log) and ``GET
/api/v1/progress`` (where the hub stands with a log, to resume from). A table proves who
it is with its token (``Authorization: Bearer ...``); no cookie, so no CSRF."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request

from .batch import BatchError, parse_batch
from .store import HubStore, Refused, StoreError, TableRow

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _store() -> HubStore:
    return current_app.extensions["hub_store"]  # type: ignore[no-any-return]


def _table() -> TableRow | None:
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Bearer ") or not 10 <= len(auth) <= 200:
        return None
    return _store().table_for_token(auth[len("Bearer "):].strip())


def _refuse(message: str, status: int) -> Any:
    return jsonify(error=message), status


@bp.post("/batches")
def batches() -> Any:
    try:
        table = _table()
        if table is None:
            return _refuse("unknown or revoked table token", 401)
        data = request.get_json(silent=True)
        if data is None:
            return _refuse("send a batch as JSON (Content-Type: application/json)", 400)
        batch = parse_batch(data)
        stored = _store().store(table, batch)
    except BatchError as e:
        return _refuse(str(e), 400)
    except Refused as e:
        return _refuse(str(e), e.status)
    except StoreError:
        return _refuse("the hub's database is unreachable: the table keeps its log and "
                       "sends it again", 503)
    return jsonify(stored=stored.new, have={str(g): n for g, n in stored.have.items()})


@bp.get("/progress")
def progress() -> Any:
    log = request.args.get("log", "")
    if len(log) != 32 or any(c not in "0123456789abcdef" for c in log):
        return _refuse("log: the log's id, 32 hex digits", 400)
    try:
        table = _table()
        if table is None:
            return _refuse("unknown or revoked table token", 401)
        have = _store().progress(table, log)
    except Refused as e:
        return _refuse(str(e), e.status)
    except StoreError:
        return _refuse("the hub's database is unreachable", 503)
    return jsonify(have={str(g): n for g, n in have.items()})
