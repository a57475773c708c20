"""What the dashboard serves: the session, the live table (camera and box), the game log.

Attached to the app with ``init_app`` (Flask's extension pattern), so blueprints reach
them as ``current_app.extensions["tablesight"]`` and tests can attach fakes or a bare
session without a camera.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app

from table.session import GameLog, Session, SessionEvent

from .events import Broker


class TableServices:
    def __init__(self, session: Session, live: Any | None = None, log: GameLog | None = None,
                 ports: Callable[[], list[dict[str, Any]]] | None = None,
                 open_camera: Callable[[str], Any] | None = None,
                 open_box: Callable[[str], Any] | None = None) -> None:
        self.broker = Broker()
        self.live = live
        self.log = log  # games are listed, started and resumed from here
        self.ports = ports or (lambda: [])
        self.open_camera = open_camera  # camera choice -> frame source (CameraError)
        self.open_box = open_box  # port -> table box
        self.camera_spec = "none"  # what the setup page shows as chosen
        self.port = "none"
        self._used_ports: dict[str, str] = {}  # device -> description, this run's boxes
        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None
        self.session = session
        self.attach(session)

    def attach(self, session: Session) -> None:
        """Follow ``session`` (a new game replaces the old one on every screen)."""
        with self._lock:
            old = self.session
            if self._unsubscribe is not None:
                self._unsubscribe()
            if old is not session:  # the camera and box did not change with the game
                for part, h in old.health.items():
                    session.report_health(part, h["ok"], h["message"])
            self.session = session
            if self.live is not None:
                self.live.attach(session)
            self._unsubscribe = session.subscribe(self._publish)
            if self.log is not None and session.game_id is not None:
                self.log.put_on_table(session.game_id)  # what a restart resumes
        self.broker.publish("game", {"game_id": session.game_id})

    def use_port(self, port: str, description: str = "in use on this table") -> None:
        """The box's port: remembered for this run, so a port the system does not list
        (the demo's simulated box, a pty) can be chosen again after a change."""
        self.port = port
        if port != "none":
            self._used_ports.setdefault(port, description)

    def known_ports(self) -> list[dict[str, Any]]:
        listed = self.ports()
        seen = {p["device"] for p in listed}
        return listed + [{"device": d, "description": why}
                         for d, why in self._used_ports.items() if d not in seen]

    def _publish(self, ev: SessionEvent) -> None:
        self.broker.publish(ev.kind, ev.to_dict())

    def init_app(self, app: Flask) -> None:
        app.extensions["tablesight"] = self


def services() -> TableServices:
    return current_app.extensions["tablesight"]
