"""Who may change what, and what a hostile browser or LAN peer cannot do.

Each protection and what it stops (``docs/web.md`` says the same for users):

* **CSRF** (Flask-WTF's ``CSRFProtect``): every request that changes state carries the
  page's token, tied to the browser's session cookie, in ``X-CSRF-Token``, and a JSON
  body. Another site's page can neither read the token nor send the header.
* **Host check** (Flask's ``TRUSTED_HOSTS``): a request naming a host this table does not
  answer to is refused, so a DNS-rebinding page on another origin cannot load the
  dashboard and its token through the browser.
* **Security headers** (Flask-Talisman): a Content-Security-Policy that allows scripts
  and styles from this server only (no inline script: an injected ``<script>`` or
  ``onerror=`` does not run), frames forbidden (``frame-ancestors 'none'`` and
  ``X-Frame-Options: DENY``: no click-jacking), no MIME sniffing, no referrer.
* **The admin PIN**: at least ``MIN_PIN`` characters and not a trivial run; compared as
  SHA-256 digests in constant time; wrong PINs throttled per client (Flask-Limiter:
  ``LOGIN_LIMITS``), so trying a million PINs would take that client years.
* **Sizes**: request bodies over ``MAX_BODY`` are refused (413) before they are read;
  error replies never repeat the input in full (``table.quoting.quote``).
* No endpoint takes a file path from the client.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable
from typing import Any

from flask import Flask, Response, current_app, jsonify, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_talisman import Talisman
from flask_wtf.csrf import CSRFError, CSRFProtect

STAFF_COMMANDS = {"undo", "correct", "follow_camera", "choose", "board_ok"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
MAX_BODY = 64 * 1024  # the largest real request (a setup with two forces) is ~2 KB
MIN_PIN = 6
# Per client address, counting wrong PINs only: a million six-digit PINs at 100 a day.
LOGIN_LIMITS = "5 per minute; 20 per hour; 100 per day"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")

CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

csrf = CSRFProtect()
# One limiter per process (its memory store is made anew by each ``init_app``).
limiter = Limiter(get_remote_address, storage_uri="memory://", headers_enabled=True)


class PinError(ValueError):
    """An admin PIN too weak to stand against guessing; the message says why."""


def check_pin_strength(pin: str) -> None:
    """Raise ``PinError`` for a PIN a LAN guesser would find."""
    if len(pin) < MIN_PIN:
        raise PinError(f"the admin PIN needs at least {MIN_PIN} characters "
                       f"(this one has {len(pin)})")
    if len(set(pin)) == 1:
        raise PinError("the admin PIN must not be one character repeated")
    if pin.isascii() and pin.isdigit():
        steps = {(int(b) - int(a)) % 10 for a, b in itertools.pairwise(pin)}
        if steps in ({1}, {9}):
            raise PinError("the admin PIN must not be a run of digits like 123456")


def _digest(pin: str) -> bytes:
    return hashlib.sha256(pin.encode("utf-8", "surrogatepass")).digest()


def init_security(app: Flask, admin_pin: str | None,
                  allowed_hosts: Iterable[str] | None = None) -> None:
    """``allowed_hosts``: the names and addresses this table is opened by (loopback
    always; the LAN addresses when it is served beyond this machine)."""
    if admin_pin is not None:
        check_pin_strength(admin_pin)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secrets.token_hex(32)  # per run: logins end on restart
    hosts = list(dict.fromkeys([*LOOPBACK_HOSTS, *(allowed_hosts or ())]))
    app.config.update(
        ADMIN_PIN_DIGEST=None if admin_pin is None else _digest(admin_pin),
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        TRUSTED_HOSTS=hosts,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        # A dashboard stays open all day at a store: the token lasts as long as the
        # browser's session (the server's secret changes on restart, which ends both).
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_HEADERS=["X-CSRF-Token"],
        WTF_CSRF_SSL_STRICT=False,  # tables are served over plain HTTP on the LAN
    )
    csrf.init_app(app)
    Talisman(app, force_https=False, session_cookie_secure=False,
             session_cookie_samesite="Strict", strict_transport_security=False,
             content_security_policy=CSP, frame_options="DENY",
             referrer_policy="no-referrer", permissions_policy={"camera": "()",
                                                                "microphone": "()"})
    limiter.init_app(app)

    @app.errorhandler(CSRFError)
    def _csrf_refused(e: CSRFError) -> Any:
        return jsonify(error="missing or wrong CSRF token (reload the page)"), 403

    @app.before_request
    def _json_only() -> Any:
        if request.method in SAFE_METHODS:
            return None
        if not request.is_json:
            return jsonify(error="send JSON (Content-Type: application/json)"), 415
        return None


def login_limit_breached(_limit: Any) -> Response:
    resp = jsonify(error="too many wrong PINs from this device: wait a while and try again")
    resp.status_code = 429
    return resp


def is_staff() -> bool:
    return current_app.config.get("ADMIN_PIN_DIGEST") is None or bool(session.get("staff"))


def has_pin() -> bool:
    return current_app.config.get("ADMIN_PIN_DIGEST") is not None


def check_pin(pin: object) -> bool:
    want = current_app.config.get("ADMIN_PIN_DIGEST")
    if want is None:
        return True
    # Digests of equal length, compared in constant time: neither the PIN's length nor
    # how many characters were right shows in the reply's timing.
    return isinstance(pin, str) and len(pin) <= 200 and hmac.compare_digest(_digest(pin),
                                                                            want)
