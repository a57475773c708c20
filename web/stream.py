"""Live endpoints: the SSE event stream and the camera view (MJPEG)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, jsonify, request

from .events import BrokerFull, Closing
from .services import services

bp = Blueprint("stream", __name__)
MAX_CAMERA_VIEWERS = 4  # each picture stream holds a thread and a JPEG every 0.2 s
_viewers = threading.BoundedSemaphore(MAX_CAMERA_VIEWERS)
_EVENT_ID = re.compile(r"[0-9]{1,15}")


@bp.get("/api/events")
def events() -> Any:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_id")
    last_id = int(raw) if raw and _EVENT_ID.fullmatch(raw) else None
    try:
        gen = services().broker.stream(last_id)
    except BrokerFull:
        return jsonify(error="too many screens follow this table; close one and reload"), 503
    return Response(gen, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/camera.jpg")
def camera_jpg() -> Any:
    live = services().live
    pic = live.preview() if live is not None and live.camera is not None else None
    if pic is None:
        return jsonify(error="no camera picture"), 404
    return Response(pic, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera.mjpg")
def camera_mjpg() -> Any:
    live = services().live
    if live is None or live.camera is None:
        return jsonify(error="no camera attached"), 404

    if not _viewers.acquire(blocking=False):
        return jsonify(error=f"the camera view is open on {MAX_CAMERA_VIEWERS} screens "
                             "already; close one"), 503

    def frames() -> Iterator[bytes]:
        last = None
        for _ in range(60 * 60 * 5):  # an hour at 5 pictures a second, then reconnect
            pic = live.preview(timeout=1.0, newer_than=last)
            if pic is None or pic is last:
                continue
            last = pic
            yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                   + str(len(pic)).encode() + b"\r\n\r\n" + pic + b"\r\n")

    return Response(Closing(frames(), _viewers.release),
                    mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-store"})
