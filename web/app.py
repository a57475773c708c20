"""The application factory."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException, InternalServerError

from . import api, pages, stream
from .security import MAX_BODY, init_security
from .services import TableServices

log = logging.getLogger(__name__)

_MESSAGES = {
    401: "staff login needed (POST /api/login with the admin PIN)",
    404: "no such page or resource",
    405: "that method is not allowed here",
    413: f"request too large (at most {MAX_BODY // 1024} KB)",
    429: "too many requests from this device: wait a while and try again",
}


def create_app(services: TableServices, *, admin_pin: str | None = None,
               allowed_hosts: Iterable[str] | None = None, testing: bool = False) -> Flask:
    app = Flask(__name__)
    app.config["TESTING"] = testing
    app.config["JSON_SORT_KEYS"] = False
    init_security(app, admin_pin, allowed_hosts)
    services.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)

    @app.errorhandler(HTTPException)
    def _json_errors(e: HTTPException) -> Any:
        # Routing errors (404, 405) never reach a blueprint: answer /api in JSON here.
        # The text is ours, never the exception's (it may carry input or internals).
        if e.response is not None:  # made by us already (the PIN lock-out's reply)
            return e.response
        if request.path.startswith("/api/"):
            code = e.code or 400
            return jsonify(error=_MESSAGES.get(code, "bad request")), code
        return e

    @app.errorhandler(Exception)
    def _unexpected(e: Exception) -> Any:
        # A bug must not show a traceback or a file path to the client; the terminal
        # keeps one line for whoever runs the table.
        log.error("unexpected error on %s %s: %s: %s", request.method, request.path,
                  type(e).__name__, e)
        if request.path.startswith("/api/"):
            return jsonify(error="internal error: the table's terminal has the details"), 500
        return InternalServerError()

    return app
