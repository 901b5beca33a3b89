"""Does a port answer as a Ray head?  (cuatrola_solver.lab.grpc_probe, as selfplay
calls it.)"""

from __future__ import annotations

import socket
import threading

import pytest

from cuatrola_solver.lab import selfplay


# --- does a port answer as a Ray head? ---------------------------------------------------------

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _server(reply):
    """A one-connection server on localhost: reads the client's preface, then ``reply``
    (a list of byte strings, sent apart; None: say nothing and wait)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    got = []
    done = threading.Event()

    def answer():
        conn, _ = server.accept()
        data = b""
        while len(data) < len(PREFACE):
            chunk = conn.recv(100)
            if not chunk:
                break
            data += chunk
        got.append(data)
        if reply is None:
            done.wait(5)
        else:
            for part in reply:
                conn.sendall(part)
                threading.Event().wait(0.05)
        conn.close()
        server.close()

    threading.Thread(target=answer, daemon=True).start()
    return server.getsockname()[1], got, done


SETTINGS = bytes([0, 0, 6, 4, 0, 0, 0, 0, 0])       # a SETTINGS frame's header


@pytest.mark.parametrize("reply, grpc", [
    ([SETTINGS + b"\x00\x03\x00\x00\x00\x64"], True),
    ([SETTINGS[:4], SETTINGS[4:]], True),            # in two pieces
    ([SETTINGS[:4], SETTINGS[4:] + b"\x00\x03"], True),  # the frame's header is read alone
    ([bytes([0, 0, 8, 7, 0, 0, 0, 0, 0])], False),   # another frame (GOAWAY)
    ([b"HTTP/1.1 400 Bad Request\r\n\r\n"], False),
    ([SETTINGS[:8]], False),                         # cut short
    ([], False),                                     # closed at once
])
def test_a_ray_head_answers_the_http2_preface_with_settings(reply, grpc):
    port, got, _ = _server(reply)
    assert selfplay._speaks_grpc("127.0.0.1", port) is grpc
    assert got == [PREFACE]


def test_a_port_that_says_nothing_is_not_a_ray_head(monkeypatch):
    """It is given up after RAY_TIMEOUT seconds (the server would wait 5)."""
    import time
    monkeypatch.setattr(selfplay, "RAY_TIMEOUT", 0.2)
    port, got, done = _server(None)
    began = time.monotonic()
    try:
        assert selfplay._speaks_grpc("127.0.0.1", port) is False
        assert time.monotonic() - began < 2.5
    finally:
        done.set()
    assert got == [PREFACE]


def _resetting_server(first: bytes):
    """A one-connection loopback server that sends ``first``, waits for the client's
    bytes, then resets the connection (SO_LINGER 0: a RST, not a FIN)."""
    import struct
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def answer():
        conn, _ = server.accept()
        if first:
            conn.sendall(first)
        conn.recv(1)                               # the client's request has come
        threading.Event().wait(0.1)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()
        server.close()

    threading.Thread(target=answer, daemon=True).start()
    return server.getsockname()[1]


@pytest.mark.parametrize("first, why", [
    (b"", "no HTTP/2 answer (no gRPC there)"),               # as a port that closes at once
    (SETTINGS + b"\x00\x03\x00\x00\x00\x64", "it closed the connection"),
], ids=["before-http2", "after-settings"])
def test_a_port_that_resets_the_connection(first, why):
    """A reset reads as the close it is, whether or not the request was read first (a
    port that closes at once resets or not depending on when the request arrives)."""
    port = _resetting_server(first)
    assert selfplay.ray_head_answer("127.0.0.1", port, 3.0) == why
