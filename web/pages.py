"""The pages: one dashboard (board, prompt, dice, combat, score, history, camera, setup)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def dashboard() -> Any:
    return render_template("dashboard.html", csrf=current_app.config["CSRF_TOKEN"])
