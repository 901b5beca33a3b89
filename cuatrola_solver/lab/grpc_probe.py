"""Is there a Ray head at HOST:PORT?  One real gRPC call, with a deadline.

``ray.init(address=...)`` against a port that is not a Ray head retries for minutes,
filling stderr with Ray's own warnings -- also against a port that speaks HTTP/2 (any
gRPC server, a web server that takes h2c).  Before joining, :func:`ray_head_answer`
makes the call a Ray client makes first, ``ray.rpc.NodeInfoGcsService/GetClusterId``
(an empty request), over a plain socket, and waits at most ``timeout`` seconds for the
reply: a Ray head answers it with a message; another server answers with an error, a
reset, nothing, or not in HTTP/2.  A head that takes only calls with a token (Ray's
token authentication) answers UNAUTHENTICATED: a Ray head too, which ``ray.init`` joins
with the token the user has set up (this probe sends none, and reads none).

It needs neither grpcio nor Ray: a few frames of HTTP/2 (RFC 9113) written by hand, the
request's headers as HPACK literals (RFC 7541), and of the answer's headers only the
literal strings that are not Huffman-coded -- as gRPC's C++ core, which Ray's GCS
runs on, writes ``grpc-status`` and ``grpc-message``.
"""

from __future__ import annotations

import socket
import struct
import time

__all__ = ["ray_head_answer", "RAY_METHOD"]

#: the first call of a Ray client to the head's GCS
RAY_METHOD = "/ray.rpc.NodeInfoGcsService/GetClusterId"
#: the gRPC status of a call refused for want of credentials
UNAUTHENTICATED = 16
#: the names of the HPACK static table's entries an answer's trailers may refer to
_STATIC_NAMES = {8: ":status", 9: ":status", 10: ":status", 11: ":status", 12: ":status",
                 13: ":status", 14: ":status", 31: "content-type"}

_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA, _HEADERS, _RST_STREAM, _SETTINGS, _PING, _GOAWAY, _CONTINUATION = 0, 1, 3, 4, 6, 7, 9
_END_STREAM, _ACK, _END_HEADERS = 0x1, 0x1, 0x4


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + \
        struct.pack(">I", stream) + payload


def _literal(name_index: int | None, name: str, value: str) -> bytes:
    """One header as an HPACK literal without indexing, no Huffman coding (values under
    127 bytes)."""
    head = (bytes([name_index]) if name_index is not None and name_index < 15 else
            bytes([0x0F, name_index - 15]) if name_index is not None else
            bytes([0x00, len(name)]) + name.encode())
    return head + bytes([len(value)]) + value.encode()


def _request(authority: str) -> bytes:
    block = (b"\x83\x86"                                   # :method POST, :scheme http
             + _literal(4, ":path", RAY_METHOD)
             + _literal(1, ":authority", authority[:100])
             + _literal(31, "content-type", "application/grpc")
             + _literal(None, "te", "trailers"))
    message = b"\x00" + struct.pack(">I", 0)               # an empty request
    return (_PREFACE + _frame(_SETTINGS, 0, 0)
            + _frame(_HEADERS, _END_HEADERS, 1, block)
            + _frame(_DATA, _END_STREAM, 1, message))


def _integer(block: bytes, i: int, bits: int) -> tuple[int, int]:
    """An HPACK integer with a ``bits``-bit prefix at ``block[i]``: (value, next i)."""
    top = (1 << bits) - 1
    value = block[i] & top
    i += 1
    if value < top:
        return value, i
    shift = 0
    while i < len(block):
        b = block[i]
        i += 1
        value += (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    return value, i


def _string(block: bytes, i: int) -> tuple[str | None, int]:
    """An HPACK string at ``block[i]``: (its text, None when Huffman-coded; next i)."""
    huffman = bool(block[i] & 0x80)
    length, i = _integer(block, i, 7)
    raw = block[i:i + length]
    return (None if huffman else raw.decode("latin-1")), i + length


def header_fields(block: bytes, table: list[tuple[str, str | None]]) -> dict[str, str | None]:
    """The fields of an HPACK header block that can be read without Huffman decoding
    (others are None or left out); ``table``: the connection's dynamic table, newest
    first, updated."""
    fields: dict[str, str | None] = {}
    i = 0
    try:
        while i < len(block):
            b = block[i]
            if b & 0x80:                                   # indexed
                index, i = _integer(block, i, 7)
                name, value = (table[index - 62] if index > 61 and index - 62 < len(table)
                               else (_STATIC_NAMES.get(index, "?"), None))
                fields[name] = value
                continue
            if b & 0xE0 == 0x20:                           # a dynamic table size update
                _, i = _integer(block, i, 5)
                continue
            indexing = bool(b & 0x40)
            index, i = _integer(block, i, 6 if indexing else 4)
            if index:
                name = (table[index - 62][0] if index > 61 and index - 62 < len(table)
                        else _STATIC_NAMES.get(index, "?"))
            else:
                text, i = _string(block, i)
                name = text or "?"
            value, i = _string(block, i)
            fields[name] = value
            if indexing:
                table.insert(0, (name, value))
    except IndexError:
        pass                                              # a cut block: what was read
    return fields


def _refusal(fields: dict[str, str | None]) -> str | None:
    """None when the trailers of the Ray call say a Ray head asks for a token; else
    what they say, for a message."""
    status = fields.get("grpc-status")
    if status is not None and status.isdigit() and int(status) == UNAUTHENTICATED:
        return None
    message = fields.get("grpc-message")
    return ("it answered the Ray call with an error"
            + (f" (gRPC status {status}" + (f": {message[:80]}" if message else "") + ")"
               if status is not None else "")
            + ": not a Ray head")


def ray_head_answer(host: str, port: int, timeout: float = 5.0) -> str | None:
    """None when ``host:port`` answers the Ray client's first call with a reply, as a
    Ray head does, within ``timeout`` seconds (in all); else what it did instead, for a
    message.  A connection that cannot be made raises :class:`OSError`."""
    deadline = time.monotonic() + timeout
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(_request(f"{host}:{port}"))
        buffer = b""
        http2 = False
        table: list[tuple[str, str | None]] = []
        headers = b""                     # a header block of stream 1 still being read
        ended = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return ("no answer to a Ray call within "
                        f"{timeout:g} s" if http2 else "no HTTP/2 answer (no gRPC there)")
            s.settimeout(left)
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            except ConnectionResetError:
                chunk = b""             # closed with our request unread: a reset, not a FIN
            except OSError as e:
                return f"the connection failed ({e.strerror or e})"
            if not chunk:
                return ("it closed the connection" if http2
                        else "no HTTP/2 answer (no gRPC there)")
            buffer += chunk
            while len(buffer) >= 9:
                length = int.from_bytes(buffer[:3], "big")
                kind, flags = buffer[3], buffer[4]
                stream = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
                if not http2 and (kind != _SETTINGS or stream != 0 or length > 1 << 16):
                    return "no HTTP/2 answer (no gRPC there)"
                http2 = True
                if len(buffer) < 9 + length:
                    break
                payload, buffer = buffer[9:9 + length], buffer[9 + length:]
                if kind == _SETTINGS and not flags & _ACK:
                    s.sendall(_frame(_SETTINGS, _ACK, 0))
                elif kind == _PING and not flags & _ACK:
                    s.sendall(_frame(_PING, _ACK, 0, payload))
                elif kind == _GOAWAY:
                    return "it ended the connection (GOAWAY) without answering the Ray call"
                elif stream == 1 and kind == _RST_STREAM:
                    return "it refused the Ray call (the stream was reset)"
                elif stream == 1 and kind == _DATA and len(payload) >= 5:
                    return None                           # a reply message: a Ray head
                elif stream == 1 and kind in (_HEADERS, _CONTINUATION):
                    if kind == _HEADERS:
                        ended = bool(flags & _END_STREAM)
                        if flags & 0x8:                   # PADDED
                            payload = payload[1:len(payload) - payload[0]]
                        if flags & 0x20:                  # PRIORITY
                            payload = payload[5:]
                    headers += payload
                    if flags & _END_HEADERS:
                        fields = header_fields(headers, table)
                        headers = b""
                        if ended:                         # trailers only: an error
                            return _refusal(fields)
