"""Serving the dashboard from a background thread (werkzeug's threaded server: one thread
per request, which live streams need)."""

from __future__ import annotations

import ipaddress
import logging
import threading

from flask import Flask
from werkzeug.serving import make_server


class ServeError(RuntimeError):
    pass


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Server:
    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 8765,
                 admin_pin: str | None = None) -> None:
        if not is_loopback(host) and not admin_pin:
            raise ServeError(f"serving on {host} lets anyone on the network change the game: "
                             "give an admin PIN (--admin-pin) for setup and corrections")
        # One log line per request would drown the game's narration in the terminal.
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        try:
            self._srv = make_server(host, port, app, threaded=True)
        except OSError as e:
            raise ServeError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
        self._srv.daemon_threads = True
        self.host, self.port = host, self._srv.server_port
        self._thread = threading.Thread(target=self._srv.serve_forever, name="web",
                                        daemon=True)

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return f"http://{host}:{self.port}/"

    def start(self) -> Server:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._srv.shutdown()
        self._thread.join(timeout=5)
