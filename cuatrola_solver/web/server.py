"""Running the application (:func:`~.app.make_app`) on uvicorn: :func:`listen` binds
the socket (so a port taken is said at once, and port 0 gets a free one), :func:`run`
serves until interrupted, :func:`running` serves in a thread for the tests and the load
test."""

from __future__ import annotations

import socket
import threading
from contextlib import contextmanager
from typing import Iterator

import uvicorn
from starlette.types import ASGIApp

from ..errors import CuatrolaError
from .app import LOOPBACK

__all__ = ["listen", "run", "running", "url_of", "is_loopback", "DEFAULT_PORT"]

DEFAULT_PORT = 8765
#: connections served at once (more wait in the socket's queue, then are refused)
MAX_CONNECTIONS = 200


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, localhost, ::1)."""
    return host in LOOPBACK or host.startswith("127.")


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``; a host or port that cannot be had is bad input."""
    try:
        family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
        sock = socket.create_server((host.strip("[]"), port), family=family)
    except (OSError, OverflowError) as e:
        raise CuatrolaError(f"cannot serve on {host}:{port}: "
                            f"{getattr(e, 'strerror', None) or e}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _server(app: ASGIApp, quiet: bool) -> uvicorn.Server:
    config = uvicorn.Config(app, log_level="warning" if quiet else "info",
                            timeout_graceful_shutdown=1, limit_concurrency=MAX_CONNECTIONS,
                            access_log=not quiet, lifespan="off")
    return uvicorn.Server(config)


def run(app: ASGIApp, sock: socket.socket, quiet: bool = True) -> None:
    """Serve ``app`` on ``sock`` until interrupted (Ctrl-C)."""
    _server(app, quiet).run(sockets=[sock])


@contextmanager
def running(app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``app`` in a thread while the block runs; yields its URL."""
    sock = listen(host, port)
    server = _server(app, quiet=True)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise CuatrolaError("the server stopped as it started")
            threading.Event().wait(0.02)
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
