"""Does a port answer as a Ray head?  (cuatrola_solver.lab.grpc_probe, as selfplay calls
it): gRPC servers made with grpcio, one answering Ray's first call as a Ray head does,
and plain sockets that answer in other ways or not at all."""

from __future__ import annotations

import socket
import sys
import threading
import time
from concurrent import futures

import pytest

from cuatrola_solver.errors import LabError
from cuatrola_solver.lab import grpc_probe

grpc = pytest.importorskip("grpc")


def _grpc_server(service: str, method: str, answer):
    """A gRPC server on localhost whose one method ``service/method`` does ``answer``
    (request bytes, context) -> reply bytes."""
    server = grpc.server(futures.ThreadPoolExecutor(2))
    handler = grpc.method_handlers_generic_handler(
        service, {method: grpc.unary_unary_rpc_method_handler(answer)})
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def _cluster_id(request: bytes, context) -> bytes:
    assert request == b""                      # the probe's empty request
    return b"\x0a\x04abcd"


def _needs_a_token(request: bytes, context) -> bytes:
    context.abort(grpc.StatusCode.UNAUTHENTICATED,
                  "InvalidAuthToken: Authentication token is missing")


@pytest.mark.parametrize("answer", [_cluster_id, _needs_a_token], ids=["answers", "token"])
def test_a_ray_head_passes(answer):
    server, port = _grpc_server("ray.rpc.NodeInfoGcsService", "GetClusterId", answer)
    try:
        assert grpc_probe.ray_head_answer("127.0.0.1", port, 5.0) is None
        assert grpc_probe.speaks_grpc("127.0.0.1", port, 5.0)
    finally:
        server.stop(0)


def test_another_grpc_server_speaks_grpc_but_is_no_ray_head():
    server, port = _grpc_server("other.Service", "Call", _cluster_id)
    try:
        why = grpc_probe.ray_head_answer("127.0.0.1", port, 5.0)
        assert why is not None and "UNIMPLEMENTED" in why
        assert grpc_probe.speaks_grpc("127.0.0.1", port, 5.0)
    finally:
        server.stop(0)


def _socket_server(reply: bytes | None):
    """A one-connection server on localhost: reads the client's first bytes, then sends
    ``reply`` (None: closes at once; b"": says nothing, until the test is done)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    done = threading.Event()

    def answer():
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            if reply is None:
                conn.close()
                continue
            conn.recv(1024)
            conn.sendall(reply)
            done.wait(10)
            conn.close()

    threading.Thread(target=answer, daemon=True).start()

    def stop():
        done.set()
        server.close()
    return server.getsockname()[1], stop


@pytest.mark.parametrize("reply", [b"", b"HTTP/1.1 400 Bad Request\r\n\r\n", None],
                         ids=["mute", "http1", "closes"])
def test_a_port_that_is_no_grpc_server_is_told_within_the_timeout(reply):
    port, stop = _socket_server(reply)
    began = time.monotonic()
    try:
        why = grpc_probe.ray_head_answer("127.0.0.1", port, 1.0)
        assert why is not None and "\n" not in why
        assert not grpc_probe.speaks_grpc("127.0.0.1", port, 1.0)
    finally:
        stop()
    assert time.monotonic() - began < 4.5


def test_a_port_nobody_listens_on_raises_oserror():
    with socket.socket() as s:                 # a port just freed: nobody listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(OSError):
        grpc_probe.ray_head_answer("127.0.0.1", port, 1.0)
    with pytest.raises(OSError):
        grpc_probe.speaks_grpc("127.0.0.1", port, 1.0)


def test_without_grpcio_the_probe_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "grpc", None)        # import grpc: ImportError
    with pytest.raises(LabError, match=r"needs grpcio: pip install 'cuatrola-solver\[lab\]'"):
        grpc_probe.ray_head_answer("127.0.0.1", 1, 1.0)
