"""Who may change what.

* Every request that changes state must carry the page's CSRF token in the
  ``X-CSRF-Token`` header (a cross-site form cannot set headers) and a JSON body.
* Served beyond this machine (``--host 0.0.0.0``) the app needs an admin PIN: setup,
  corrections, undo and camera overrides then need a staff login (``POST /api/login``).
  Players' own steps (dice, ready, actions) stay open, as at the table itself.
* No endpoint takes a file path from the client.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from flask import Flask, current_app, jsonify, request, session

STAFF_COMMANDS = {"undo", "correct", "follow_camera", "choose", "board_ok"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def init_security(app: Flask, admin_pin: str | None) -> None:
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secrets.token_hex(32)  # per run: logins end on restart
    app.config["CSRF_TOKEN"] = secrets.token_urlsafe(24)
    app.config["ADMIN_PIN"] = admin_pin
    app.config["SESSION_COOKIE_SAMESITE"] = "Strict"
    app.config["SESSION_COOKIE_HTTPONLY"] = True

    @app.before_request
    def _csrf() -> Any:
        if request.method in SAFE_METHODS:
            return None
        sent = request.headers.get("X-CSRF-Token", "")
        if not hmac.compare_digest(sent, current_app.config["CSRF_TOKEN"]):
            return jsonify(error="missing or wrong CSRF token (reload the page)"), 403
        if not request.is_json:
            return jsonify(error="send JSON (Content-Type: application/json)"), 415
        return None


def is_staff() -> bool:
    pin = current_app.config.get("ADMIN_PIN")
    return pin is None or bool(session.get("staff"))


def check_pin(pin: object) -> bool:
    want = current_app.config.get("ADMIN_PIN")
    if want is None:
        return True
    return isinstance(pin, str) and hmac.compare_digest(pin.encode(), want.encode())
