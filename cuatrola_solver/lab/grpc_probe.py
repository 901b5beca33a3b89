"""Is there a Ray head at HOST:PORT?  One gRPC call with a deadline, made with grpcio.

``ray.init(address=...)`` against a port that is not a Ray head retries for minutes,
filling stderr with Ray's own warnings.  Before joining, :func:`ray_head_answer` makes
the call a Ray client makes first, ``ray.rpc.NodeInfoGcsService/GetClusterId`` (an empty
request, sent as raw bytes: no generated code), and waits at most ``timeout`` seconds: a
Ray head answers it; another server answers with an error, or not in gRPC, or not at
all.  A head that takes only calls with a token (Ray's token authentication) answers
UNAUTHENTICATED: a Ray head too, which ``ray.init`` joins with the token the user has
set up (this probe sends none).  :func:`speaks_grpc` asks less, for Ray Client's server
(``ray://HOST:PORT``): that a gRPC connection is made there in time.

grpcio comes with ``cuatrola-solver[lab]``; it is imported when an address is probed.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from ..errors import LabError
from ..i18n import _

__all__ = ["ray_head_answer", "speaks_grpc", "RAY_METHOD"]

#: the first call of a Ray client to the head's GCS
RAY_METHOD = "/ray.rpc.NodeInfoGcsService/GetClusterId"
#: the longest part of grpcio's explanation a message quotes
MAX_DETAILS = 120


def _grpc() -> Any:
    try:
        import grpc
    except ImportError:
        raise LabError(_("--ray HOST:PORT needs grpcio: pip install "
                         "'cuatrola-solver[lab]'")) from None
    return grpc


def _target(host: str, port: int) -> str:
    """``host:port`` as gRPC names it (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _reachable(host: str, port: int, timeout: float) -> None:
    """Raise :class:`OSError` (refused, unknown host, no route) unless a TCP connection
    to ``host:port`` is made within ``timeout`` seconds."""
    socket.create_connection((host, port), timeout=timeout).close()


def ray_head_answer(host: str, port: int, timeout: float = 5.0) -> str | None:
    """None when ``host:port`` answers the Ray client's first call as a Ray head does,
    within ``timeout`` seconds (in all); else what it did instead, for a message.  A
    connection that cannot be made raises :class:`OSError`."""
    grpc = _grpc()
    began = time.monotonic()
    _reachable(host, port, timeout)
    left = max(0.1, timeout - (time.monotonic() - began))
    with grpc.insecure_channel(_target(host, port)) as channel:
        call = channel.unary_unary(RAY_METHOD)
        try:
            call(b"", timeout=left)
        except grpc.RpcError as e:
            code = e.code()
            if code == grpc.StatusCode.UNAUTHENTICATED:
                return None
            if code == grpc.StatusCode.DEADLINE_EXCEEDED:
                return _("no answer to a Ray call within {seconds} s").format(
                    seconds=f"{timeout:g}")
            details = " ".join(str(e.details() or "").split())[:MAX_DETAILS]
            return f"gRPC status {code.name}" + (f": {details}" if details else "")
    return None


def speaks_grpc(host: str, port: int, timeout: float = 5.0) -> bool:
    """Whether a gRPC connection to ``host:port`` is ready within ``timeout`` seconds
    (an HTTP/2 server there, as Ray Client's is).  A connection that cannot be made at
    all raises :class:`OSError`."""
    grpc = _grpc()
    _reachable(host, port, timeout)
    with grpc.insecure_channel(_target(host, port)) as channel:
        try:
            grpc.channel_ready_future(channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            return False
    return True
