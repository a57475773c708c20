"""The pages: one dashboard (board, prompt, dice, combat, score, history, camera, setup)
shared by the table, and each player's private page, reached by its key alone."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template
from flask_wtf.csrf import generate_csrf

from .services import services

bp = Blueprint("pages", __name__)


@bp.get("/")
def dashboard() -> Any:
    return render_template("dashboard.html", csrf=generate_csrf())


@bp.get("/seat/<key>")
def seat(key: str) -> Any:
    """A player's private page (their hidden hand, their secret choices). An unknown or
    revoked key gets a page saying so, never the other seat's."""
    found = services().session.seat_of(key)
    if found is None:
        return render_template("seat.html", csrf=generate_csrf(), known=False), 404
    return render_template("seat.html", csrf=generate_csrf(), known=True)
