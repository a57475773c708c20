"""The store hub's application factory: the tables' API and the staff view on one
PostgreSQL database (``docs/hub.md``)."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from typing import Any

from flask import Flask, jsonify, request
from flask_talisman import Talisman
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException

from . import api, staff
from .batch import MAX_BODY
from .live import Notifications
from .store import HubStore

log = logging.getLogger(__name__)

CSP = {"default-src": "'self'", "script-src": "'self'", "style-src": "'self'",
       "img-src": "'self' data:", "connect-src": "'self'", "object-src": "'none'",
       "base-uri": "'none'", "form-action": "'self'", "frame-ancestors": "'none'"}
_MESSAGES = {404: "no such resource", 405: "that method is not allowed here",
             413: f"request too large (at most {MAX_BODY // 1024} KB)"}


def create_app(store: HubStore, *, live: Notifications | None = None,
               allowed_hosts: Iterable[str] | None = None, secret_key: str | None = None,
               testing: bool = False) -> Flask:
    app = Flask(__name__)
    app.config.update(
        TESTING=testing,
        SECRET_KEY=secret_key or secrets.token_hex(32),
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=64 * 1024,
        TRUSTED_HOSTS=list(allowed_hosts) if allowed_hosts else None,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,  # a store's LAN is plain HTTP
    )
    app.extensions["hub_store"] = store
    app.extensions["hub_live"] = live or Notifications(store.dsn)
    app.extensions["hub_throttle"] = staff.Throttle()
    csrf = CSRFProtect(app)
    csrf.exempt(api.bp)  # tables sign with their token, never a cookie
    Talisman(app, force_https=False, session_cookie_secure=False,
             session_cookie_samesite="Strict", strict_transport_security=False,
             content_security_policy=CSP, frame_options="DENY",
             referrer_policy="no-referrer")
    app.register_blueprint(api.bp)
    app.register_blueprint(staff.bp)

    @app.errorhandler(CSRFError)
    def _csrf(e: CSRFError) -> Any:
        return "The form was stale: go back, reload the page and try again.", 400

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            code = e.code or 400
            return jsonify(error=_MESSAGES.get(code, "bad request")), code
        return e

    @app.errorhandler(Exception)
    def _unexpected(e: Exception) -> Any:
        # Never a traceback or a path to a client; one line for the hub's terminal.
        log.error("unexpected error on %s %s: %s: %s", request.method, request.path,
                  type(e).__name__, e)
        if request.path.startswith("/api/"):
            return jsonify(error="internal error: the hub's terminal has the details"), 500
        return "Something went wrong on the hub; its terminal has the details.", 500

    return app
