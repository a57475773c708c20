"""Serving the dashboard from a background thread.

werkzeug's threaded server gives each connection a thread, which live streams need. Two
limits keep a LAN peer from exhausting it: a connection idle for ``IDLE_S`` is closed,
and at most ``MAX_CONNECTIONS`` are served at once (more are closed at once).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import ipaddress
import logging
import signal
import socket
import struct
import threading
from typing import Any

from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

IDLE_S = 60.0  # SSE sends a heartbeat every 15 s, so a live screen is never idle this long
MAX_CONNECTIONS = 200


class ServeError(RuntimeError):
    pass


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (what players type on their
    phones). Read from the network interfaces; nothing is sent."""
    found: list[str] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        names = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                req = struct.pack("256s", name.encode()[:15])
                addr = socket.inet_ntoa(fcntl.ioctl(s.fileno(), 0x8915, req)[20:24])  # SIOCGIFADDR
            except OSError:
                continue  # an interface without an IPv4 address
            if not ipaddress.ip_address(addr).is_loopback and addr not in found:
                found.append(addr)
    return found


def served_names(host: str) -> list[str]:
    """The names and addresses a browser may use to reach a server bound to ``host``
    (the dashboard's trusted hosts, besides loopback)."""
    if is_loopback(host):
        return []
    names = lan_addresses() if is_wildcard(host) else [host]
    hostname = socket.gethostname()
    return [*names, hostname, f"{hostname}.local"]


class _Handler(WSGIRequestHandler):
    timeout = IDLE_S  # socket timeout: a silent or stalled client is let go

    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass  # one log line per request would drown the game's narration


class Server:
    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 8765,
                 admin_pin: str | None = None, *, signs_in: bool = False) -> None:
        # ``signs_in``: the app has accounts of its own (the store hub), no PIN needed.
        if not is_loopback(host) and not admin_pin and not signs_in:
            raise ServeError(f"serving on {host} lets anyone on the network change the game: "
                             "give an admin PIN (--admin-pin) for setup and corrections")
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        said = io.StringIO()
        try:
            # werkzeug reports a port in use itself, on stderr, and exits: both caught,
            # so the person reads one line of ours.
            with contextlib.redirect_stderr(said):
                self._srv = make_server(host, port, app, threaded=True,
                                        request_handler=_Handler)
        except OSError as e:
            raise ServeError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
        except SystemExit:
            raise ServeError(f"cannot listen on {host}:{port}: the port is in use (another "
                             "tablesight?); give another --web-port") from None
        self._srv.daemon_threads = True
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._wrap_connections()
        self.host, self.port = host, self._srv.server_port
        self._thread = threading.Thread(target=self._srv.serve_forever, name="web",
                                        daemon=True)

    def _wrap_connections(self) -> None:
        srv, slots = self._srv, self._slots
        process, finish = srv.process_request, srv.process_request_thread

        def process_request(request: Any, client_address: Any) -> None:
            if not slots.acquire(blocking=False):
                srv.shutdown_request(request)  # full: closed at once, no thread made
                return
            process(request, client_address)

        def process_request_thread(request: Any, client_address: Any) -> None:
            try:
                finish(request, client_address)
            finally:
                slots.release()

        srv.process_request = process_request  # type: ignore[method-assign]
        srv.process_request_thread = process_request_thread  # type: ignore[method-assign]

    @property
    def url(self) -> str:
        host = "127.0.0.1" if is_wildcard(self.host) else self.host
        return f"http://{host}:{self.port}/"

    def urls(self) -> list[str]:
        """Every address a browser can open: the LAN ones first when served on all."""
        if is_wildcard(self.host):
            return [f"http://{a}:{self.port}/" for a in lan_addresses()] + [self.url]
        return [self.url]

    def start(self) -> Server:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._srv.shutdown()
        self._thread.join(timeout=5)


def wait_forever(stop: threading.Event) -> None:
    """Block until Ctrl-C, SIGTERM or ``stop`` is set (a server's main thread)."""
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
