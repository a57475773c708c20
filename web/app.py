"""The application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from . import api, pages, stream
from .security import init_security
from .services import TableServices


def create_app(services: TableServices, *, admin_pin: str | None = None,
               testing: bool = False) -> Flask:
    app = Flask(__name__)
    app.config["TESTING"] = testing
    app.config["JSON_SORT_KEYS"] = False
    init_security(app, admin_pin)
    services.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)

    @app.errorhandler(HTTPException)
    def _json_errors(e: HTTPException) -> Any:
        # Routing errors (404, 405) never reach a blueprint: answer /api in JSON here.
        if request.path.startswith("/api/"):
            messages = {401: "staff login needed (POST /api/login with the admin PIN)"}
            return jsonify(error=messages.get(e.code or 0, e.description)), e.code
        return e

    return app
