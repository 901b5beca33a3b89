"""How a lab run goes (issue 17): its batches, their order on the way back, the bound on
the work in flight, the time limit, the files it refuses, and joining a Ray cluster --
with the boards' play replaced by made-up records, and Ray by a stand-in, so that only
the running is tested, fast."""

from __future__ import annotations

import json
import socket
import threading
from types import SimpleNamespace

import pytest

from cuatrola_solver.lab import selfplay
from cuatrola_solver.lab.selfplay import LabConfig, Summary
from cuatrola_solver.errors import LabError


#: real hands, to which made-up ``lab`` fields are added (resume reads them as records)
REAL = [{k: v for k, v in json.loads(x).items() if k != "lab"} for x in selfplay.run_batch(
    LabConfig.make("heuristic", "random", seed=1, count=2, odds_samples=0), 0, 2)]


def _board_lines(config, i):
    """Made-up records of board i: both plays, a few points each (as Summary reads them)."""
    out = []
    for play in config.plays:
        hands = 1 if config.mode == "hands" else 1 + (i + play) % 3
        for k in range(hands):
            d = {"config": config.key(), "deal": i, "play": play,
                 "result": {"winner": "AB"[(i + k) % 2], "game_points": 1 + (i * 7 + k) % 4}}
            if config.mode == "matches":
                d["hand"] = k
                if k == hands - 1:
                    d["last"] = True
            out.append(json.dumps({**REAL[(i + k) % len(REAL)], "lab": d}))
    return out


@pytest.fixture
def fake_boards(monkeypatch):
    """run_batch gives made-up records; the boards it was asked for are noted."""
    asked = []

    def fake(config, start, stop):
        asked.append((start, stop))
        return [x for i in range(start, stop) for x in _board_lines(config, i)]

    monkeypatch.setattr(selfplay, "run_batch", fake)
    return asked


@pytest.fixture
def real_boards(monkeypatch):
    """run_batch plays the boards (resume checks every record it reads as ``check`` does,
    and its deal and seed against the run's); the boards it was asked for are noted."""
    asked = []
    real = selfplay.run_batch

    def spy(config, start, stop):
        asked.append((start, stop))
        return real(config, start, stop)

    monkeypatch.setattr(selfplay, "run_batch", spy)
    return asked, real


def _summary_of(config, lines):
    s = Summary(config)
    for x in lines:
        s.feed(json.loads(x))
    return s.to_dict()


def _all_lines(config, stop, start=0):
    return [x for i in range(start, stop) for x in _board_lines(config, i)]


@pytest.mark.parametrize("mode, count, workers, batch, steps", [
    # by default about four batches a worker, at most 8 boards of hands (1 of matches)
    ("hands", 10, 1, None, [3, 6, 9, 10]),
    ("hands", 100, 1, None, list(range(8, 100, 8)) + [100]),
    ("hands", 30, 3, None, list(range(3, 31, 3))),
    ("hands", 3, 2, None, [1, 2, 3]),
    ("matches", 3, 1, None, [1, 2, 3]),
    ("matches", 12, 1, None, list(range(1, 13))),
    ("hands", 10, 1, 4, [4, 8, 10]),
])
def test_the_batches_of_a_run_and_its_progress(fake_boards, fake_pool, mode, count, workers,
                                               batch, steps, tmp_path):
    config = LabConfig.make("heuristic", "random", mode=mode, count=count)
    out = tmp_path / "run.jsonl"
    progress = []
    s = selfplay.run(config, str(out), workers=workers, batch=batch,
                progress=lambda done, total: progress.append((done, total)))
    assert progress == [(d, count) for d in steps]
    assert sorted(fake_boards) == list(zip([0] + steps[:-1], steps))
    lines = _all_lines(config, count)
    assert out.read_text(encoding="utf-8") == "".join(x + "\n" for x in lines)
    assert s.to_dict() == _summary_of(config, lines)
    assert s.played == len(lines) and s.boards == count


def test_the_default_number_of_workers_is_the_machines(fake_boards, fake_pool, monkeypatch):
    config = LabConfig.make("heuristic", "random", count=24)
    monkeypatch.setattr(selfplay.os, "cpu_count", lambda: 3)
    progress = []
    selfplay.run(config, progress=lambda done, total: progress.append(done))
    assert fake_pool.workers == [3] and progress == list(range(2, 25, 2))
    monkeypatch.setattr(selfplay.os, "cpu_count", lambda: None)       # unknown: one, here
    selfplay.run(config, progress=lambda done, total: progress.append(done))
    assert fake_pool.workers == [3]


class _FakePool:
    """A process pool that runs a task when its result is asked for, and hands back the
    newest finished task first: the batches come back out of order."""

    def __init__(self):
        self.workers, self.live, self.most, self.submitted = [], 0, 0, 0

    def __call__(self, workers, mp_context=None):
        assert mp_context.get_start_method() == "spawn"
        self.workers.append(workers)
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, *args):
        self.live += 1
        self.most = max(self.most, self.live)
        self.submitted += 1
        return _FakeFuture(self, self.submitted, fn, args)

    def wait(self, pending, return_when=None):
        import concurrent.futures
        assert return_when == concurrent.futures.FIRST_COMPLETED
        newest = max(pending, key=lambda f: f.order)
        return {newest}, set(pending) - {newest}


class _FakeFuture:
    def __init__(self, pool, order, fn, args):
        self.pool, self.order, self.fn, self.args = pool, order, fn, args

    def result(self):
        self.pool.live -= 1
        return self.fn(*self.args)


@pytest.fixture
def fake_pool(monkeypatch):
    import concurrent.futures
    pool = _FakePool()
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(concurrent.futures, "wait", pool.wait)
    return pool


@pytest.mark.parametrize("workers", [2, 3])
def test_batches_that_come_back_out_of_order_are_written_in_order(fake_boards, fake_pool,
                                                                   workers, tmp_path):
    config = LabConfig.make("heuristic", "random", count=20)
    out = tmp_path / "run.jsonl"
    s = selfplay.run(config, str(out), workers=workers, batch=1)
    lines = _all_lines(config, 20)
    assert out.read_text(encoding="utf-8") == "".join(x + "\n" for x in lines)
    assert s.to_dict() == _summary_of(config, lines)
    # each worker has at most AHEAD batches in flight: memory does not grow with the run
    assert fake_pool.workers == [workers] and fake_pool.most == selfplay.AHEAD * workers


def test_one_worker_plays_here(fake_boards, fake_pool, tmp_path):
    config = LabConfig.make("heuristic", "random", count=5)
    selfplay.run(config, workers=1, batch=2)
    assert fake_pool.workers == [] and fake_boards == [(0, 2), (2, 4), (4, 5)]


def test_a_time_limit_stops_between_batches(fake_boards, monkeypatch):
    clock = iter(range(100))
    monkeypatch.setattr(selfplay.time, "monotonic", lambda: next(clock))
    # started at 0: batches are started at 1 and 2, not at 3 (the limit, 3 s, is reached)
    assert list(selfplay._until(range(10), 3)) == [0, 1]
    assert list(selfplay._until(range(4), None)) == [0, 1, 2, 3]
    clock = iter(range(100))
    config = LabConfig.make("heuristic", "random", count=10)
    s = selfplay.run(config, workers=1, batch=2, time_limit=2.5)
    assert fake_boards == [(0, 2), (2, 4)] and s.boards == 4


def test_resume_plays_the_rest_in_batches_from_where_the_file_ends(real_boards, tmp_path):
    asked, run_batch = real_boards
    config = LabConfig.make("heuristic", "random", mode="matches", count=7, odds_samples=0)
    out = tmp_path / "run.jsonl"
    selfplay.run(config.with_count(3), str(out), workers=1)
    asked.clear()
    progress = []
    s = selfplay.run(config, str(out), workers=1, resume=True, batch=3,
                     progress=lambda done, total: progress.append((done, total)))
    assert asked == [(3, 6), (6, 7)] and progress == [(6, 7), (7, 7)]
    lines = run_batch(config, 0, 7)
    assert out.read_text(encoding="utf-8") == "".join(x + "\n" for x in lines)
    assert s.to_dict() == _summary_of(config, lines)
    assert s.played == len(run_batch(config, 3, 7))
    # by default the batches are sized on the boards left to play: 16 of 20, 4 a batch
    hands = LabConfig.make("heuristic", "random", count=20, odds_samples=0)
    out = tmp_path / "hands.jsonl"
    selfplay.run(hands.with_count(4), str(out), workers=1)
    asked.clear()
    selfplay.run(hands, str(out), workers=1, resume=True)
    assert asked == [(4, 8), (8, 12), (12, 16), (16, 20)]


def test_a_finished_run_resumed_needs_no_cluster(real_boards, monkeypatch, tmp_path):
    config = LabConfig.make("heuristic", "random", count=3, odds_samples=0)
    out = tmp_path / "run.jsonl"
    selfplay.run(config, str(out), workers=1)

    def no_ray():
        raise AssertionError("Ray asked for")
    monkeypatch.setattr(selfplay, "_import_ray", no_ray)
    again = selfplay.run(config, str(out), ray="auto", resume=True)
    assert again.played == 0 and again.boards == 3 and real_boards[0] == [(0, 1), (1, 2), (2, 3)]


def test_the_files_a_run_refuses_and_the_ones_it_takes(fake_boards, tmp_path):
    config = LabConfig.make("heuristic", "random", count=2)
    out = tmp_path / "run.jsonl"
    out.write_text("x")
    with pytest.raises(LabError) as e:
        selfplay.run(config, str(out), workers=1)
    assert str(e.value) == f"{out} exists: add --resume to continue it, or give another --out"
    with pytest.raises(LabError) as e:
        selfplay.run(config, workers=1, resume=True)
    assert str(e.value) == "--resume continues the file of --out: give --out FILE"
    # an empty file, or none, is a new run, --resume or not
    out.write_text("")
    assert selfplay.run(config, str(out), workers=1).played == 4
    new = tmp_path / "new.jsonl"
    assert selfplay.run(config, str(new), workers=1, resume=True).played == 4
    assert new.read_text() == out.read_text() != ""


# --- Ray, stood in for -------------------------------------------------------------------------

class _Ref:
    def __init__(self, fn, args):
        self.fn, self.args = fn, args


class _FakeRay:
    def __init__(self, cpus=2.0, initialized=True, error=None):
        self.cpus, self.initialized, self.error = cpus, initialized, error
        self.inits, self.live, self.most = [], 0, 0

    def is_initialized(self):
        return self.initialized

    def init(self, **kw):
        self.inits.append(kw)
        if self.error:
            raise self.error

    def cluster_resources(self):
        return {} if self.cpus is None else {"CPU": self.cpus, "memory": 1e9}

    def remote(self, fn):
        ray = self

        def submit(*args):
            ray.live += 1
            ray.most = max(ray.most, ray.live)
            return _Ref(fn, args)
        return SimpleNamespace(remote=submit)

    def wait(self, refs, num_returns=1):
        assert num_returns == 1
        return refs[-1:], refs[:-1]          # the newest first: out of order

    def get(self, ref):
        self.live -= 1
        return ref.fn(*ref.args)


@pytest.mark.parametrize("cpus, most", [(2.0, 4), (3.5, 6), (0.5, 2), (None, 2)])
def test_a_ray_run_is_the_local_run(fake_boards, monkeypatch, tmp_path, cpus, most):
    ray = _FakeRay(cpus)
    monkeypatch.setattr(selfplay, "_import_ray", lambda: ray)
    config = LabConfig.make("heuristic", "random", mode="matches", count=9)
    out = tmp_path / "ray.jsonl"
    progress = []
    s = selfplay.run(config, str(out), ray="auto", batch=1,
                progress=lambda done, total: progress.append(done))
    lines = _all_lines(config, 9)
    assert out.read_text(encoding="utf-8") == "".join(x + "\n" for x in lines)
    assert s.to_dict() == _summary_of(config, lines) and progress == list(range(1, 10))
    # AHEAD batches in flight per CPU of the cluster (at least one CPU)
    assert ray.most == most and ray.inits == []


def _probes(monkeypatch, head=None, grpc=True):
    """Stand-ins for the two probes of an address: the Ray head's first call (HOST:PORT)
    answered with ``head`` (None: a Ray head), HTTP/2 (ray://HOST:PORT) with ``grpc``;
    each probe noted.  A callable raises instead."""
    checked = []

    def gcs(host, port, timeout):
        checked.append(("head", host, port, timeout))
        return head() if callable(head) else head

    def h2(host, port):
        checked.append(("grpc", host, port))
        return grpc() if callable(grpc) else grpc
    monkeypatch.setattr(selfplay, "ray_head_answer", gcs)
    monkeypatch.setattr(selfplay, "_speaks_grpc", h2)
    return checked


def test_joining_a_ray_cluster(monkeypatch):
    ray = _FakeRay(initialized=False)
    monkeypatch.setattr(selfplay, "_import_ray", lambda: ray)
    checked = _probes(monkeypatch)
    assert selfplay.connect_ray("auto") is ray and checked == []
    assert selfplay.connect_ray("10.0.0.5:6379") is ray
    assert selfplay.connect_ray("ray://head.local:10001") is ray
    assert selfplay.connect_ray("::1:6379") is ray                  # the port is after the last ':'
    assert selfplay.connect_ray("ray://fe80::2:10001") is ray
    t = selfplay.RAY_TIMEOUT
    assert checked == [("head", "10.0.0.5", 6379, t), ("grpc", "head.local", 10001),
                       ("head", "::1", 6379, t), ("grpc", "fe80::2", 10001)]
    quiet = {"logging_level": "ERROR", "log_to_driver": False, "include_dashboard": False}
    assert ray.inits == [dict(address=a, **quiet) for a in
                         ("auto", "10.0.0.5:6379", "ray://head.local:10001", "::1:6379",
                          "ray://fe80::2:10001")]
    # a Ray already started here (a test's) is used as it is
    ray.initialized = True
    assert selfplay.connect_ray("10.0.0.5:6379") is ray and len(ray.inits) == 5


@pytest.mark.parametrize("address", ["nowhere", "host:", ":6379", "host:63a9", "ray://host",
                                     "ray://:1", "host:0", "host:65536", "ray://host:70000"])
def test_a_bad_ray_address(monkeypatch, address):
    monkeypatch.setattr(selfplay, "_import_ray", lambda: _FakeRay(initialized=False))
    checked = _probes(monkeypatch)
    with pytest.raises(LabError) as e:
        selfplay.connect_ray(address)
    assert str(e.value) == (f"bad Ray address '{address}': expected HOST:PORT (a port 1 to "
                            f"65535) or auto")
    assert checked == []


@pytest.mark.parametrize("address", ["h:1", "ray://h:1"])
def test_a_ray_head_that_does_not_answer_or_is_not_one(monkeypatch, address):
    monkeypatch.setattr(selfplay, "_import_ray", lambda: _FakeRay(initialized=False))

    def refused():
        raise ConnectionRefusedError(111, "Connection refused")
    _probes(monkeypatch, head=refused, grpc=refused)
    with pytest.raises(LabError) as e:
        selfplay.connect_ray(address)
    assert str(e.value) == (f"the Ray head at '{address}' does not answer (Connection refused): "
                            f"start one with 'ray start --head'")

    def timeout():
        raise socket.timeout("timed out")
    _probes(monkeypatch, head=timeout, grpc=timeout)
    with pytest.raises(LabError) as e:
        selfplay.connect_ray(address)
    assert str(e.value) == (f"the Ray head at '{address}' does not answer (timed out): "
                            f"start one with 'ray start --head'")
    _probes(monkeypatch, head="it answered the Ray call with an error: nope", grpc=False)
    with pytest.raises(LabError) as e:
        selfplay.connect_ray(address)
    why = "no gRPC there" if address.startswith("ray://") else \
        "it answered the Ray call with an error: nope"
    assert str(e.value) == (f"'{address}' answers, but not as a Ray head ({why}): give the "
                            f"address 'ray start --head' printed")


@pytest.mark.parametrize("address, error, message", [
    ("auto", ConnectionError("no cluster\nmore text"),
     "cannot join the Ray cluster at 'auto': no cluster (start one with 'ray start --head')"),
    ("h:1", RuntimeError("  version mismatch  \n"),
     "cannot join the Ray cluster at 'h:1': version mismatch"),
    ("auto", ValueError(""),
     "cannot join the Ray cluster at 'auto': ValueError (start one with 'ray start --head')"),
])
def test_a_ray_cluster_that_cannot_be_joined(monkeypatch, address, error, message):
    monkeypatch.setattr(selfplay, "_import_ray", lambda: _FakeRay(initialized=False, error=error))
    _probes(monkeypatch)
    with pytest.raises(LabError) as e:
        selfplay.connect_ray(address)
    assert str(e.value) == message and e.value.__suppress_context__


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


def test_ray_missing_says_how_to_get_it(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_ray(name, *a, **k):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(LabError) as e:
        selfplay._import_ray()
    assert str(e.value) == "--ray needs Ray: pip install 'cuatrola-solver[lab]'"
    assert e.value.__suppress_context__


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
