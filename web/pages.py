"""The pages: one dashboard (board, prompt, dice, combat, score, history, camera, setup)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template
from flask_wtf.csrf import generate_csrf

bp = Blueprint("pages", __name__)


@bp.get("/")
def dashboard() -> Any:
    return render_template("dashboard.html", csrf=generate_csrf())
