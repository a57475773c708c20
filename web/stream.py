"""Live endpoints: the SSE event stream and the camera view (MJPEG)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, jsonify, request, stream_with_context

from .services import services

bp = Blueprint("stream", __name__)


@bp.get("/api/events")
def events() -> Any:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_id")
    last_id = int(raw) if raw and raw.isdigit() else None
    gen = services().broker.stream(last_id)
    return Response(stream_with_context(gen), mimetype="text/event-stream",
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

    def frames() -> Iterator[bytes]:
        last = None
        for _ in range(60 * 60 * 5):  # an hour at 5 pictures a second, then reconnect
            pic = live.preview(timeout=1.0, newer_than=last)
            if pic is None or pic is last:
                continue
            last = pic
            yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                   + str(len(pic)).encode() + b"\r\n\r\n" + pic + b"\r\n")

    return Response(stream_with_context(frames()),
                    mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-store"})
