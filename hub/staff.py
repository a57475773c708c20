"""What staff see: sign in, every table at once (what needs a person first), one table's
board and games read-only (and its token stopped), finished games, the standings and the
results as CSV. Live: pages reload when a table publishes."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from .drawing import shapes
from .live import Notifications
from .standings import DEFAULT_ORDER, TIE_BREAKERS, Result, results_csv, standings
from .store import HubStore, StoreError

bp = Blueprint("staff", __name__)
OFFLINE_S = 30.0  # a table silent this long needs a look (it publishes every few seconds)
KEEPALIVE_S = 15.0
_PARTS = {"box": "table box", "camera": "camera"}


def _store() -> HubStore:
    return current_app.extensions["hub_store"]  # type: ignore[no-any-return]


@bp.before_request
def _signed_in() -> Any:
    if request.endpoint in ("staff.login", "static") or session.get("staff"):
        return None
    return redirect(url_for("staff.login"))


class Throttle:
    """Wrong passwords per client address: after ``most`` within ``window`` seconds,
    that address may not try again until the window has passed (a guesser on the
    store's network gets a few tries an hour, not thousands)."""

    def __init__(self, most: int = 5, window: float = 300.0) -> None:
        self.most, self.window = most, window
        self._misses: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def blocked(self, who: str) -> bool:
        with self._lock:
            now = time.monotonic()
            recent = [t for t in self._misses.get(who, []) if now - t < self.window]
            if recent:
                self._misses[who] = recent
            else:
                self._misses.pop(who, None)
            return len(recent) >= self.most

    def missed(self, who: str) -> None:
        with self._lock:
            if len(self._misses) > 10_000:  # a flood of addresses: forget the oldest
                self._misses.clear()
            self._misses.setdefault(who, []).append(time.monotonic())


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    error = None
    if request.method == "POST":
        who = request.remote_addr or "?"
        throttle: Throttle = current_app.extensions["hub_throttle"]
        if throttle.blocked(who):
            return render_template("login.html", error="too many wrong passwords from "
                                   "this device: wait a few minutes"), 429
        user = request.form.get("username", "")[:40]
        password = request.form.get("password", "")[:200]
        try:
            ok = _store().staff_ok(user, password)
        except StoreError:
            ok, error = False, "the hub's database is unreachable: try again shortly"
        if not ok and error is None:
            throttle.missed(who)
        if ok:
            session.clear()
            session["staff"] = user
            return redirect(url_for("staff.overview"))
        error = error or "wrong name or password"
    return render_template("login.html", error=error), 401 if error else 200


@bp.post("/logout")
def logout() -> Any:
    session.clear()
    return redirect(url_for("staff.login"))


def alerts(table: dict[str, Any], now: float) -> list[str]:
    """What needs a person at this table, most urgent first, in words."""
    out: list[str] = []
    if table["revoked"]:
        return ["its token was revoked: it cannot publish"]
    seen = table["last_seen"]
    if seen is None:
        return ["has not published yet"]
    quiet = now - seen.timestamp()
    if quiet > OFFLINE_S:
        out.append(f"silent for {_duration(quiet)}: is it on and on the network?")
    status = table["status"] or {}
    if status.get("desync"):
        out.append(f"the board and the game disagree: {status['desync']}")
    for part, h in sorted((status.get("health") or {}).items()):
        if not h.get("ok"):  # the table's own words say which part; else its name does
            out.append(h.get("message") or f"the {_PARTS.get(part, part)} is not working")
    return out


def _duration(s: float) -> str:
    if s < 120:
        return f"{int(s)} s"
    if s < 7200:
        return f"{int(s // 60)} min"
    return f"{int(s // 3600)} h"


@bp.get("/")
def overview() -> Any:
    try:
        tables = _store().tables()
        finished = sorted(_store().results(), key=lambda r: r.finished, reverse=True)[:20]
    except StoreError:
        return render_template("down.html"), 503
    now = time.time()
    for t in tables:
        t["alerts"] = alerts(t, now)
    tables.sort(key=lambda t: (not t["alerts"], t["name"]))
    return render_template("overview.html", tables=tables, finished=finished,
                           players=_players, when=_when, outcome=_outcome)


@bp.get("/tables/<int:table_id>")
def table(table_id: int) -> Any:
    try:
        tables = {t["id"]: t for t in _store().tables()}
        if table_id not in tables:
            abort(404)
        games = _store().games(table_id=table_id)
        latest = games[0] if games else None
        entries = _store().entries(latest["log"], latest["game"])[-40:] if latest else []
    except StoreError:
        return render_template("down.html"), 503
    t = tables[table_id]
    t["alerts"] = alerts(t, time.time())
    status = t["status"] or {}
    board = shapes(status["board"], status.get("colors")) if status.get("board") else None
    return render_template("table.html", table=t, games=games, latest=latest, board=board,
                           entries=list(reversed(entries)), players=_players, when=_when,
                           summary=_summary)


@bp.post("/tables/<int:table_id>/revoke")
def revoke(table_id: int) -> Any:
    """Stop a table's token working (a lost laptop); the table's games stay."""
    if request.form.get("sure") != "yes":
        return redirect(url_for("staff.table", table_id=table_id))
    try:
        _store().revoke_table_id(table_id)
    except StoreError:
        abort(404)
    return redirect(url_for("staff.table", table_id=table_id))


@bp.get("/standings")
def standings_page() -> Any:
    try:
        results = _store().results()
    except StoreError:
        return render_template("down.html"), 503
    systems = sorted({r.system for r in results})
    system = request.args.get("game", systems[0] if systems else "")[:40]
    order = [k for k in request.args.get("by", ",".join(DEFAULT_ORDER)).split(",")[:5]
             if k in TIE_BREAKERS] or list(DEFAULT_ORDER)
    rows = standings(results, system, order) if system in systems else []
    return render_template("standings.html", systems=systems, system=system, order=order,
                           rows=rows, tie_breakers=TIE_BREAKERS,
                           games=sum(1 for r in results if r.system == system))


@bp.get("/results.csv")
def results_export() -> Any:
    try:
        text = results_csv(_store().results())
    except StoreError:
        return render_template("down.html"), 503
    return Response(text, mimetype="text/csv", headers={
        "Content-Disposition": "attachment; filename=tablesight-results.csv"})


@bp.get("/stream")
def stream() -> Response:
    """Server-sent events: "changed" whenever a table publishes, with the table's id and
    the newest entry's time (``tablesight bench hub`` measures the delay by it)."""
    live: Notifications = current_app.extensions["hub_live"]
    q = live.subscribe()

    def events() -> Iterator[str]:
        try:
            yield "retry: 3000\n\n"
            while True:
                try:
                    payload = q.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                yield f"event: changed\ndata: {json.dumps(_notified(payload))}\n\n"
        finally:
            live.unsubscribe(q)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _notified(payload: str) -> dict[str, Any]:
    """What the store's NOTIFY said (``store.py``), checked: the table and the newest
    entry's time."""
    try:
        said = json.loads(payload)
        table, newest = int(said["table"]), said.get("newest")
    except (ValueError, TypeError, KeyError):
        return {}
    return {"table": table, "newest": newest if isinstance(newest, int | float) else None}


def _players(setup: Any) -> str:
    """"Ann v Bob" from a game's setup (``tablesight-setup/1``)."""
    names = setup.get("names") if isinstance(setup, dict) else None
    if not isinstance(names, dict):
        return "players not named"
    shown = [v[:40] for _, v in sorted(names.items()) if isinstance(v, str)]
    return " v ".join(shown) if shown else "players not named"


def _outcome(r: Result) -> str:
    """"Ann won, 5 to 3" / "a draw" / "no winner said", for the finished games list."""
    score = (f", {r.points['p1']} to {r.points['p2']}" if {"p1", "p2"} <= set(r.points)
             else "")
    if r.winner == "draw":
        return "a draw" + score
    if r.winner in ("p1", "p2"):
        return f"{r.p1 if r.winner == 'p1' else r.p2} won{score}"
    return "no winner said"


def _when(t: Any) -> str:
    if isinstance(t, int | float):
        t = datetime.fromtimestamp(t, UTC)
    if not isinstance(t, datetime):
        return ""
    return t.astimezone().strftime("%a %H:%M")


def _summary(entry: dict[str, Any]) -> str:
    """One line for an entry of a table's log, in the log's own words."""
    body = entry.get("body") or {}
    if not isinstance(body, dict):
        return ""
    for key in ("text", "action", "message", "public"):
        v = body.get(key)
        if isinstance(v, str) and v:
            return v[:160]
    return ", ".join(f"{k}: {v}" for k, v in list(body.items())[:3]
                     if isinstance(v, str | int | float | bool))[:160]
