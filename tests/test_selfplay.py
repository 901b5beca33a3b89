"""The self-play lab (cuatrola_solver.lab.selfplay): duplicate tournaments, workers,
Ray, resume, bad input; how a run goes (its batches, their order on the way back, the
bound on the work in flight, the time limit, joining a Ray cluster) with made-up boards
and a stand-in for Ray; and its figures pinned by value, on small cases worked out by
hand and on tiny real runs recomputed from their records."""

from __future__ import annotations

import json
import math
import random
import re
import socket
from statistics import NormalDist
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.bots.players import parse_player
from cuatrola_solver.bots.playout import iter_match, play_hand
from cuatrola_solver.errors import RecordError
from cuatrola_solver.game.cards import random_deal
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.match import match_winner
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.lab import selfplay
from cuatrola_solver.lab.grpc_probe import ray_head_answer, speaks_grpc
from cuatrola_solver.lab.selfplay import LabConfig, LabError, Ratio, Summary
from cuatrola_solver.notation.record import read_json, record_from_obj
from cuatrola_solver.notation.replay import replay_deal

runner = CliRunner()

CHEAP = "pimc:samples=4,bid=heuristic"


def cli(*args: str):
    return runner.invoke(app, list(args))


def lines(path) -> list[dict]:
    return [json.loads(x) for x in open(path, encoding="utf-8")]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A small duplicate tournament, one process: 3 deals, heuristic against cheap pimc."""
    path = tmp_path_factory.mktemp("lab") / "one.jsonl"
    config = LabConfig.make("heuristic", CHEAP, seed=5, count=3, odds_samples=20)
    summary = selfplay.run(config, str(path), workers=1)
    return config, path, summary


def test_duplicate_plays_each_deal_twice_with_the_lineups_swapped(small):
    config, path, summary = small
    recs = lines(path)
    assert len(recs) == 6 and summary.boards == 3 and summary.hands == 6
    for i in range(3):
        first, second = recs[2 * i], recs[2 * i + 1]
        assert first["lab"]["deal"] == second["lab"]["deal"] == i
        assert (first["lab"]["play"], second["lab"]["play"]) == (0, 1)
        assert first["hands"] == second["hands"] and first["muestra"] == second["muestra"]
        assert first["lab"]["lineup"] == {"A": "heuristic", "B": CHEAP}
        assert second["lab"]["lineup"] == {"A": CHEAP, "B": "heuristic"}
        # every bid decision carries the advisor's odds over 20 deals
        assert [b["seat"] for b in first["lab"]["bids"]] == [1, 2, 3, 4]
        for b in first["lab"]["bids"]:
            assert b["odds"]["by"] == "advisor" and b["odds"]["samples"] == 20
            assert {o["bid"] for o in b["odds"]["options"]} >= {"paso", "solo"}
    # the deals differ from each other
    assert len({json.dumps(r["hands"]) for r in recs}) == 3


def test_records_are_schema_1_records_that_check_and_analyze_read(small, tmp_path):
    _, path, _ = small
    first = open(path, encoding="utf-8").readline()
    rec = read_json(first, "line 1")
    assert rec.complete and rec.auction is not None
    one = tmp_path / "one.json"
    one.write_text(first)
    for command in ("check", "analyze"):
        r = cli(command, str(one), "--json")
        assert r.exit_code == 0, r.output
    # only the documented extension is skipped: a misspelt field is still refused
    obj = json.loads(first)
    obj["auctoin"] = obj.pop("auction")
    with pytest.raises(RecordError, match="auctoin"):
        record_from_obj(obj)


def test_one_and_two_workers_write_the_same_records(small, tmp_path):
    config, path, summary = small
    two = tmp_path / "two.jsonl"
    s2 = selfplay.run(config, str(two), workers=2, batch=1)
    assert two.read_bytes() == path.read_bytes()
    assert s2.to_dict() == summary.to_dict()


def test_the_same_lineup_on_both_sides_plays_each_deal_once(monkeypatch):
    config = LabConfig.make("heuristic", "heuristic", seed=2, count=4, odds_samples=0)
    once = [json.loads(x) for x in selfplay.run_batch(config, 0, 4)]
    assert [r["lab"]["play"] for r in once] == [0] * 4
    s = selfplay.run(config, workers=1).to_dict()
    assert s["boards"] == 4 and s["hands"] == 4
    # the second play would have repeated the first
    monkeypatch.setattr(LabConfig, "plays", property(lambda self: (0, 1)))
    twice = [json.loads(x) for x in selfplay.run_batch(config, 0, 4)]
    for r0, r1 in zip(twice[::2], twice[1::2]):
        for r in (r0, r1):
            del r["lab"]["play"]
        assert r0 == r1


def test_a_time_limit_starts_no_new_batch(tmp_path):
    config = LabConfig.make("heuristic", "random", count=50, odds_samples=0)
    out = tmp_path / "t.jsonl"
    s = selfplay.run(config, str(out), workers=1, time_limit=0)
    assert s.boards == 0 and s.played == 0 and out.read_text() == ""


def test_summary_counts_the_points_of_each_lineup():
    config = LabConfig.make("heuristic", "random", seed=3, count=5, odds_samples=0)
    out = selfplay.run_batch(config, 0, 5)
    s = selfplay.run(config, workers=1)
    pts = {"a": 0, "b": 0}
    for line in out:
        obj = json.loads(line)
        winner = obj["lab"]["result"]["winner"]
        pts["a" if obj["lab"]["lineup"][winner] == "heuristic" else "b"] += \
            obj["lab"]["result"]["game_points"]
    d = s.to_dict()
    assert d["points_per_hand"]["a"]["mean"] == pytest.approx(pts["a"] / 10)
    assert d["points_per_hand"]["b"]["mean"] == pytest.approx(pts["b"] / 10)
    assert d["points_per_hand"]["difference"]["mean"] == pytest.approx((pts["a"] - pts["b"]) / 10)
    assert sum(r["bid"] for r in d["contracts"]) == 10


def test_pimc_bidder_records_the_odds_it_bid_on():
    config = LabConfig.make("pimc:samples=4,bid_samples=30", "heuristic", seed=1, count=1,
                            odds_samples=0)
    for line in selfplay.run_batch(config, 0, 1):
        obj = json.loads(line)
        for b in obj["lab"]["bids"]:
            pimc = obj["lab"]["lineup"]["A" if b["seat"] % 2 else "B"].startswith("pimc")
            if pimc:
                assert b["odds"]["by"] == "bidder" and b["odds"]["samples"] == 30
                assert b["call"] == b["odds"]["advice"]
            else:
                assert b["odds"] is None       # odds_samples=0: no odds for others


def test_forced_auctions_cycle_over_the_deals():
    config = LabConfig.make("heuristic", "random", seed=1, count=2, odds_samples=0,
                            auctions=["paso paso paso paso", "paso solo paso paso"])
    recs = [json.loads(x) for x in selfplay.run_batch(config, 0, 2)]
    assert [r["auction"] for r in recs] == [["paso"] * 4] * 2 + [["paso", "solo", "paso", "paso"]] * 2
    # a forced call is not the bidder's: a pimc bidder's own odds are not recorded as such
    forced = LabConfig.make("pimc:samples=4,bid_samples=20", "random", seed=1, count=1,
                            odds_samples=0, auctions=["paso solo paso paso"])
    for line in selfplay.run_batch(forced, 0, 1):
        assert all(b["odds"] is None for b in json.loads(line)["lab"]["bids"])
    with pytest.raises(LabError, match="bad auction"):
        LabConfig.make("heuristic", "heuristic", auctions=["solo solo paso paso"])
    with pytest.raises(LabError, match="4 calls"):
        LabConfig.make("heuristic", "heuristic", auctions=["paso"])


def test_matches_are_played_in_duplicate():
    config = LabConfig.make("heuristic", "random", seed=4, mode="matches", count=1,
                            odds_samples=0)
    recs = [json.loads(x) for x in selfplay.run_batch(config, 0, 1)]
    plays = [[r for r in recs if r["lab"]["play"] == p] for p in (0, 1)]
    for p, hands in enumerate(plays):
        assert [r["lab"]["hand"] for r in hands] == list(range(len(hands)))
        assert hands[-1]["lab"]["last"] and not any(r["lab"].get("last") for r in hands[:-1])
        # the same deals, hand by hand, as long as both matches last
    for r0, r1 in zip(*plays):
        assert r0["hands"] == r1["hands"]
        assert r0["lab"]["lineup"] == {"A": r1["lab"]["lineup"]["B"], "B": r1["lab"]["lineup"]["A"]}
    s = selfplay.run(config, workers=1).to_dict()
    assert s["matches_won"]["matches"] == 2
    assert s["hands"] == len(recs)


# --- resume -------------------------------------------------------------------------

def test_resume_after_a_cut_file_replays_only_the_unfinished_boards(small, tmp_path, monkeypatch):
    config, path, summary = small
    full = path.read_bytes()
    cut = tmp_path / "cut.jsonl"
    text = full.decode()
    # boards 0 and 1 complete, then half a line of board 2
    keep = text.split("\n")
    cut.write_text("\n".join(keep[:4]) + "\n" + keep[4][:100])
    played = []
    real = selfplay.play_board
    monkeypatch.setattr(selfplay, "play_board", lambda c, i: played.append(i) or real(c, i))
    s = selfplay.run(config, str(cut), workers=1, resume=True)
    assert played == [2]
    assert cut.read_bytes() == full
    assert s.to_dict() == summary.to_dict() and s.played == 2


def test_resume_extends_a_run_and_a_finished_run_plays_nothing(small, tmp_path):
    config, path, summary = small
    part = tmp_path / "part.jsonl"
    selfplay.run(config.with_count(2), str(part), workers=1)
    s = selfplay.run(config, str(part), workers=1, resume=True)
    assert part.read_bytes() == path.read_bytes() and s.played == 2
    again = selfplay.run(config, str(part), workers=1, resume=True)
    assert again.played == 0 and again.to_dict() == summary.to_dict()


def test_resume_refuses_another_configuration(small, tmp_path):
    config, path, _ = small
    other = tmp_path / "other.jsonl"
    other.write_bytes(path.read_bytes())
    r = cli("selfplay", "--a", "heuristic", "--b", CHEAP, "--hands", "3", "--seed", "6",
            "--odds-samples", "20", "--out", str(other), "--resume", "--workers", "1")
    assert r.exit_code == 2
    assert "from another configuration" in r.output and "seed" in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_an_existing_out_file_is_not_overwritten(small, tmp_path):
    _, path, _ = small
    r = cli("selfplay", "--a", "heuristic", "--b", "random", "--hands", "1", "--out", str(path))
    assert r.exit_code == 2 and "--resume" in r.output


# --- the command line -------------------------------------------------------------------

def test_selfplay_command_json_summary_and_records(tmp_path):
    out = tmp_path / "run.jsonl"
    r = cli("selfplay", "--a", "heuristic", "--b", "random", "--hands", "4", "--seed", "9",
            "--workers", "1", "--odds-samples", "0", "--out", str(out), "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["schema"] == 1 and summary["boards"] == 4 and summary["hands"] == 8
    assert len(lines(out)) == 8
    human = cli("selfplay", "--a", "heuristic", "--b", "random", "--hands", "2",
                "--workers", "1", "--odds-samples", "0")
    assert human.exit_code == 0 and "a - b" in human.stdout and "contract" in human.stdout


@pytest.mark.parametrize("args, words", [
    (["--a", "genius", "--b", "random"], "unknown player"),
    (["--a", "pimc:samples=x", "--b", "random"], "bad value"),
    (["--a", "pimc:depth=3", "--b", "random"], "bad option"),
    (["--a", "heuristic", "--b", "random", "--hands", "2", "--matches", "1"], "either"),
    (["--a", "heuristic", "--b", "random", "--auction", "paso solo"], "4 calls"),
    (["--a", "heuristic", "--b", "random", "--resume"], "--out"),
    (["--a", "heuristic", "--b", "random", "--ray", "127.0.0.1:1"], "does not answer"),
    (["--a", "heuristic", "--b", "random", "--ray", "nowhere"], "bad Ray address"),
])
def test_bad_input_exits_2_with_one_line(args, words):
    r = cli("selfplay", "--hands", "1", *args)
    assert r.exit_code == 2, r.output
    assert words in r.output and len(r.output.strip().splitlines()) == 1


def test_an_address_that_is_not_a_ray_head_is_refused_at_once():
    """A port that answers, but not gRPC: Ray itself would retry for minutes."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def answer():
        conn, _ = server.accept()
        conn.recv(100)
        conn.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")
        conn.close()

    threading.Thread(target=answer, daemon=True).start()
    port = server.getsockname()[1]
    try:
        r = cli("selfplay", "--a", "heuristic", "--b", "random", "--hands", "1",
                "--ray", f"127.0.0.1:{port}")
    finally:
        server.close()
    assert r.exit_code == 2 and "not as a Ray head" in r.output


@pytest.fixture
def no_ray(monkeypatch):
    """``import ray`` fails, as where Ray is not installed."""
    import builtins
    real = builtins.__import__

    def refuse(name, *a, **k):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", refuse)


def test_ray_missing_is_bad_input(no_ray):
    with pytest.raises(LabError, match=r"needs Ray"):
        selfplay.connect_ray("auto")


# --- Ray --------------------------------------------------------------------------------

@pytest.mark.ray
def test_ray_gives_the_local_run_record_for_record(small, tmp_path):
    ray = pytest.importorskip("ray")
    config, path, summary = small
    out = tmp_path / "ray.jsonl"
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR",
             log_to_driver=False)
    try:
        host, port = ray.get_runtime_context().gcs_address.rsplit(":", 1)
        assert speaks_grpc(host, int(port))                # the check of --ray ray://...
        assert ray_head_answer(host, int(port)) is None    # the check of --ray HOST:PORT
        s = selfplay.run(config, str(out), ray="auto", batch=1)
    finally:
        ray.shutdown()
    assert out.read_bytes() == path.read_bytes()
    assert s.to_dict() == summary.to_dict()


# --- how a run goes, with made-up boards and a stand-in for Ray -----------------------

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

    def h2(host, port, timeout):
        checked.append(("grpc", host, port))
        return grpc() if callable(grpc) else grpc
    monkeypatch.setattr(selfplay, "ray_head_answer", gcs)
    monkeypatch.setattr(selfplay, "speaks_grpc", h2)
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


@pytest.mark.parametrize("address", ["h:1", "ray://h:1"])
def test_without_grpcio_a_ray_address_says_what_to_install(monkeypatch, address):
    monkeypatch.setattr(selfplay, "_import_ray", lambda: _FakeRay(initialized=False))

    def missing():
        raise LabError("--ray HOST:PORT needs grpcio: pip install 'cuatrola-solver[lab]'")
    _probes(monkeypatch, head=missing, grpc=missing)
    with pytest.raises(LabError) as e:
        selfplay.connect_ray(address)
    assert str(e.value) == "--ray HOST:PORT needs grpcio: pip install 'cuatrola-solver[lab]'"


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


def test_ray_missing_says_how_to_get_it(no_ray):
    with pytest.raises(LabError) as e:
        selfplay._import_ray()
    assert str(e.value) == "--ray needs Ray: pip install 'cuatrola-solver[lab]'"
    assert e.value.__suppress_context__


# --- the figures pinned by value ------------------------------------------------------

Z = 1.959964


# --- the ratio estimator, by hand ---------------------------------------------------------

def test_ratio_of_three_boards_by_hand():
    """Boards (v, h) = (3, 2), (1, 2), (2, 4): r = 6 / 8 = 0.75 (not the mean of the
    boards' ratios, 0.833); residuals v - r h = 1.5, -0.5, -1, squares 3.5; the SE is
    sqrt(3.5 / (3 * 2)) / (8 / 3)."""
    r = Ratio()
    for v, h in ((3, 2), (1, 2), (2, 4)):
        r.add(v, h)
    se = math.sqrt(3.5 / 6) / (8 / 3)
    assert se == pytest.approx(0.2864110, abs=1e-7)
    d = r.to_dict()
    assert d["mean"] == 0.75
    assert d["se"] == pytest.approx(se, rel=1e-12)
    assert d["ci95"] == pytest.approx([0.75 - Z * se, 0.75 + Z * se], rel=1e-12)
    assert d["ci95"] == pytest.approx([0.188645, 1.311355], abs=1e-6)


def test_ratio_of_four_boards_with_negative_values():
    """A difference can be negative: (v, h) = (-2, 2), (4, 2), (0, 1), (1, 3); r = 3 / 8;
    residuals -2.75, 3.25, -0.375, -0.125; squares 7.5625 + 10.5625 + 0.140625 +
    0.015625 = 18.28125; SE = sqrt(18.28125 / 12) / 2."""
    r = Ratio()
    for v, h in ((-2, 2), (4, 2), (0, 1), (1, 3)):
        r.add(v, h)
    assert r.mean == 0.375
    assert r.se == pytest.approx(math.sqrt(18.28125 / 12) / 2, rel=1e-12)
    assert r.se == pytest.approx(0.6171381, abs=1e-7)


def test_ratio_of_two_boards_and_of_a_perfect_fit():
    # n = 2: the SE is |residual| / mean h: (1, 1), (3, 1): r = 2, residuals -1, 1
    r = Ratio()
    r.add(1, 1)
    r.add(3, 1)
    assert r.to_dict() == {"mean": 2.0, "se": 1.0, "ci95": [2 - Z, 2 + Z]}
    # every board on the line v = r h: no spread at all
    r = Ratio()
    for v, h in ((1, 2), (2, 4), (0.5, 1)):
        r.add(v, h)
    assert r.mean == 0.5 and r.se == 0.0 and r.to_dict()["ci95"] == [0.5, 0.5]


def test_ratio_without_enough_boards():
    r = Ratio()
    assert r.to_dict() == {"mean": None, "se": None, "ci95": None}
    r.add(3, 2)
    assert r.to_dict() == {"mean": 1.5, "se": None, "ci95": None}     # one board: no SE
    r = Ratio()
    r.add(0, 0)
    r.add(0, 0)
    assert r.to_dict() == {"mean": None, "se": None, "ci95": None}    # no hands


# --- a summary fed made-up records, by hand ----------------------------------------------

def _rec(deal, play, winner, points, auction=None, **lab_extra):
    obj = {"lab": {"deal": deal, "play": play, **lab_extra,
                   "result": {"winner": winner, "game_points": points}}}
    if auction is not None:
        obj["auction"] = auction.split()
    return obj


def _feed(config, recs):
    s = Summary(config)
    closed = [s.feed(r) for r in recs]
    return s, closed


def test_who_holds_a_side():
    # hands mode: line-up a holds side A in play 0, side B in play 1
    assert [Summary.who({"play": p}, side) for p in (0, 1) for side in "AB"] == \
        ["a", "b", "b", "a"]
    # matches: the labels swap hand by hand as well
    got = [Summary.who({"play": p, "hand": k}, "A") for p in (0, 1) for k in range(4)]
    assert got == ["a", "b", "a", "b", "b", "a", "b", "a"]


def test_contract_of_a_record():
    lab0 = {"play": 0}
    # the declarer is the last seat that did not pass; made means its side won
    assert selfplay._contract_of({"auction": ["paso", "paso", "solo", "paso"],
                             "lab": {**lab0, "result": {"winner": "A"}}}) == ("solo", 3, "a", True)
    assert selfplay._contract_of({"auction": ["solo", "contrasolo", "paso", "paso"],
                             "lab": {**lab0, "result": {"winner": "A"}}}) == \
        ("contrasolo", 2, "b", False)
    assert selfplay._contract_of({"auction": ["solo", "paso", "cuatrola", "paso"],
                             "lab": {"play": 1, "result": {"winner": "A"}}}) == \
        ("cuatrola", 3, "b", True)
    # paso is keyed by side A: made = side A won; a record without an auction passed
    assert selfplay._contract_of({"auction": ["paso"] * 4,
                             "lab": {"play": 1, "result": {"winner": "B"}}}) == \
        ("paso", "A", "b", False)
    assert selfplay._contract_of({"lab": {"play": 0, "result": {"winner": "A"}}}) == \
        ("paso", "A", "a", True)
    # in a match, hand 1 of play 0 has line-up b at side A
    assert selfplay._contract_of({"auction": ["paso", "paso", "paso", "quintola"],
                             "lab": {"play": 0, "hand": 1, "result": {"winner": "B"}}}) == \
        ("quintola", 4, "a", True)


HANDS_RECS = [
    # board 0: a scores 1 (side A, play 0) + 2 (side B, play 1)
    _rec(0, 0, "A", 1, "paso paso paso paso"),
    _rec(0, 1, "B", 2, "solo paso paso paso"),
    # board 1: b scores 2 (side B, play 0) + 4 (side A, play 1)
    _rec(1, 0, "B", 2, "paso solo paso paso"),
    _rec(1, 1, "A", 4, "paso paso paso cuatrola"),
    # board 2: a scores 2 (side A, play 0), b 1 (side A, play 1)
    _rec(2, 0, "A", 2, "solo contrasolo paso paso"),
    _rec(2, 1, "A", 1),
]


def test_hands_summary_of_made_up_records_by_hand():
    config = LabConfig.make("heuristic", "random", count=3)
    s, closed = _feed(config, HANDS_RECS)
    assert closed == [False, True] * 3
    d = s.to_dict()
    assert (d["mode"], d["a"], d["b"], d["rules"], d["seed"]) == \
        ("hands", "heuristic", "random", "online", 0)
    assert (d["boards"], d["hands"]) == (3, 6)
    assert "matches_won" not in d
    pts = d["points_per_hand"]
    # a: boards 3, 0, 2 over 2 hands each: r = 5/6, residuals 4/3, -5/3, 1/3, ss = 14/3
    se_a = math.sqrt(14 / 3 / 6) / 2
    assert pts["a"]["mean"] == pytest.approx(5 / 6) and pts["a"]["se"] == pytest.approx(se_a)
    assert pts["a"]["se"] == pytest.approx(0.440959, abs=1e-6)
    assert pts["a"]["ci95"] == pytest.approx([5 / 6 - Z * se_a, 5 / 6 + Z * se_a])
    # b: boards 0, 6, 1: r = 7/6, residuals -7/3, 11/3, -4/3, ss = 62/3
    se_b = math.sqrt(62 / 3 / 6) / 2
    assert pts["b"]["mean"] == pytest.approx(7 / 6) and pts["b"]["se"] == pytest.approx(se_b)
    assert pts["b"]["ci95"] == pytest.approx([7 / 6 - Z * se_b, 7 / 6 + Z * se_b])
    # a - b: boards 3, -6, 1: r = -1/3, residuals 11/3, -16/3, 5/3, ss = 134/3
    se_d = math.sqrt(134 / 3 / 6) / 2
    assert pts["difference"]["mean"] == pytest.approx(-1 / 3)
    assert pts["difference"]["se"] == pytest.approx(se_d)
    assert pts["difference"]["se"] == pytest.approx(1.364225, abs=1e-6)
    assert pts["difference"]["ci95"] == pytest.approx([-1 / 3 - Z * se_d, -1 / 3 + Z * se_d])
    # hands won by a: 2, 0, 1 of 2 each: r = 1/2, residuals 1, -1, 0, ss = 2
    won = d["hands_won"]
    assert list(won) == ["a"]
    assert won["a"]["mean"] == 0.5 and won["a"]["se"] == pytest.approx(math.sqrt(2 / 6) / 2)
    # the contracts, paso first, then by strength and seat; Wilson intervals worked out
    # from (p + z²/2n) / (1 + z²/n) +- z / (1 + z²/n) sqrt(p(1-p)/n + z²/4n²)
    rows = d["contracts"]
    assert [(r["contract"], r["seat"], r["bid"], r["by_a"], r["by_b"], r["made"])
            for r in rows] == [
        ("paso", "A", 2, 1, 1, 2),
        ("solo", 1, 1, 0, 1, 0),
        ("solo", 2, 1, 0, 1, 1),
        ("contrasolo", 2, 1, 0, 1, 0),
        ("cuatrola", 4, 1, 1, 0, 0),
    ]
    assert [r["share"] for r in rows] == pytest.approx([2 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6])
    assert [r["made_rate"] for r in rows] == [1.0, 0.0, 1.0, 0.0, 0.0]
    ci = [r["made_ci95"] for r in rows]
    assert ci[0] == pytest.approx([0.342380, 1.0], abs=1e-6)        # 2 of 2
    assert ci[1] == ci[3] == ci[4] == pytest.approx([0.0, 0.793451], abs=1e-6)   # 0 of 1
    assert ci[2] == pytest.approx([0.206549, 1.0], abs=1e-6)        # 1 of 1
    for r in rows:
        assert list(r) == ["contract", "seat", "bid", "share", "by_a", "by_b", "made",
                           "made_rate", "made_ci95"]


def test_hands_summary_of_one_lineup_closes_each_board_after_one_play():
    config = LabConfig.make("random", "random", count=2)
    s, closed = _feed(config, [_rec(0, 0, "A", 1), _rec(1, 0, "B", 2, "paso solo paso paso")])
    assert closed == [True, True]
    d = s.to_dict()
    assert (d["boards"], d["hands"]) == (2, 2)
    # one hand a board: points a (side A) 1, 0; b 0, 2
    assert d["points_per_hand"]["a"]["mean"] == 0.5 and d["points_per_hand"]["b"]["mean"] == 1.0
    assert d["points_per_hand"]["a"]["se"] == pytest.approx(0.5)
    assert d["points_per_hand"]["difference"]["mean"] == -0.5
    assert d["points_per_hand"]["difference"]["se"] == pytest.approx(1.5)
    assert [r["share"] for r in d["contracts"]] == [0.5, 0.5]


MATCH_RECS = [
    # board 0, play 0 (a is side A in even hands): a 1; b 2; b 2, b wins the match
    _rec(0, 0, "A", 1, "paso paso paso paso", hand=0),
    _rec(0, 0, "A", 2, "solo paso paso paso", hand=1),
    _rec(0, 0, "B", 2, "paso solo paso paso", hand=2, last=True),
    # board 0, play 1 (b is side A in even hands): b 4; b 1, b wins
    _rec(0, 1, "A", 4, "paso paso cuatrola paso", hand=0),
    _rec(0, 1, "B", 1, "paso paso paso paso", hand=1, last=True),
    # board 1, play 0: a 5, a wins
    _rec(1, 0, "A", 5, "quintola paso paso paso", hand=0, last=True),
    # board 1, play 1: b 1; b 2; a 2, a wins
    _rec(1, 1, "A", 1, "paso paso paso paso", hand=0),
    _rec(1, 1, "B", 2, "paso paso paso solo", hand=1),
    _rec(1, 1, "B", 2, "paso paso solo paso", hand=2, last=True),
]


def test_matches_summary_of_made_up_records_by_hand():
    config = LabConfig.make("heuristic", "random", mode="matches", count=2)
    s, closed = _feed(config, MATCH_RECS)
    assert closed == [False, False, False, False, True, False, False, False, True]
    d = s.to_dict()
    assert (d["mode"], d["boards"], d["hands"]) == ("matches", 2, 9)
    pts = d["points_per_hand"]
    # boards (a, b, hands): (1, 9, 5), (7, 3, 4); two boards: SE = |residual| / mean h
    assert pts["a"]["mean"] == pytest.approx(8 / 9)
    assert pts["a"]["se"] == pytest.approx((7 - 4 * 8 / 9) / 4.5)          # 31/40.5
    assert pts["b"]["mean"] == pytest.approx(12 / 9)
    assert pts["b"]["se"] == pytest.approx((9 - 5 * 12 / 9) / 4.5)         # 7/13.5
    assert pts["difference"]["mean"] == pytest.approx(-4 / 9)
    assert pts["difference"]["se"] == pytest.approx((4 + 4 * 4 / 9) / 4.5)  # 52/40.5
    # hands won by a: 1 of 5, 2 of 4
    assert d["hands_won"]["a"]["mean"] == pytest.approx(1 / 3)
    assert d["hands_won"]["a"]["se"] == pytest.approx((2 - 4 / 3) / 4.5)
    # matches won by a: 0 of 2, 2 of 2
    m = d["matches_won"]
    assert m["matches"] == 4
    assert m["a"] == {"mean": 0.5, "se": 0.5, "ci95": [0.5 - Z / 2, 0.5 + Z / 2]}
    assert [(r["contract"], r["seat"], r["bid"], r["by_a"], r["by_b"], r["made"])
            for r in d["contracts"]] == [
        ("paso", "A", 3, 2, 1, 2),
        ("solo", 1, 1, 0, 1, 1),
        ("solo", 2, 1, 0, 1, 1),
        ("solo", 3, 1, 0, 1, 0),
        ("solo", 4, 1, 0, 1, 1),
        ("cuatrola", 3, 1, 0, 1, 1),
        ("quintola", 1, 1, 1, 0, 1),
    ]
    paso = d["contracts"][0]
    assert paso["share"] == pytest.approx(1 / 3) and paso["made_rate"] == pytest.approx(2 / 3)
    assert paso["made_ci95"] == pytest.approx([0.207660, 0.938508], abs=1e-6)   # 2 of 3


# --- every figure of a real run, recomputed from its records ------------------------------

def _plain_ratio(pairs):
    """mean, se, ci95 of sum(v) / sum(h) over boards, the textbook way."""
    n = len(pairs)
    sv, sh = sum(v for v, _ in pairs), sum(h for _, h in pairs)
    mean = sv / sh
    if n < 2:
        return {"mean": mean, "se": None, "ci95": None}
    se = math.sqrt(sum((v - mean * h) ** 2 for v, h in pairs) / (n * (n - 1))) / (sh / n)
    return {"mean": mean, "se": se, "ci95": [mean - Z * se, mean + Z * se]}


def _plain_wilson(k, n):
    z = NormalDist().inv_cdf(0.975)
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return [0.0 if k == 0 else centre - half, 1.0 if k == n else centre + half]


def recompute(config, recs):
    """The summary of a run's records, from the records' own line-up labels."""
    name = {config.a: "a", config.b: "b"}
    boards: dict[int, list] = {}
    for r in recs:
        boards.setdefault(r["lab"]["deal"], []).append(r)
    pts = {"a": [], "b": [], "d": []}
    won, matches = [], []
    rows: dict = {}
    for i in sorted(boards):
        hands = boards[i]
        p = {"a": 0, "b": 0}
        w = {"a": 0, "b": 0}
        m = {"a": 0, "b": 0}
        for r in hands:
            res = r["lab"]["result"]
            side = res["winner"]
            who = name[r["lab"]["lineup"][side]]
            p[who] += res["game_points"]
            w[who] += 1
            if r["lab"].get("last"):
                m[who] += 1
            calls = r.get("auction", ["paso"] * 4)
            seats = [s for s in (1, 2, 3, 4) if calls[s - 1] != "paso"]
            if seats:
                key = (calls[seats[-1] - 1], seats[-1])
                bid_side = "AB"[(seats[-1] - 1) % 2]
            else:
                key, bid_side = ("paso", "A"), "A"
            row = rows.setdefault(key, {"bid": 0, "made": 0, "a": 0, "b": 0})
            row["bid"] += 1
            row["made"] += side == bid_side
            row[name[r["lab"]["lineup"][bid_side]]] += 1
        n = len(hands)
        pts["a"].append((p["a"], n))
        pts["b"].append((p["b"], n))
        pts["d"].append((p["a"] - p["b"], n))
        won.append((w["a"], n))
        matches.append((m["a"], len(config.plays)))
    total = len(recs)
    strength = ["paso", "solo", "contrasolo", "cuatrola", "quintola"]
    out = {"mode": config.mode, "a": config.a, "b": config.b, "rules": config.rules,
           "seed": config.seed, "boards": len(boards), "hands": total,
           "points_per_hand": {"a": _plain_ratio(pts["a"]), "b": _plain_ratio(pts["b"]),
                               "difference": _plain_ratio(pts["d"])},
           "hands_won": {"a": _plain_ratio(won)}}
    if config.mode == "matches":
        out["matches_won"] = {"a": _plain_ratio(matches),
                              "matches": len(boards) * len(config.plays)}
    out["contracts"] = [
        {"contract": c, "seat": s, "bid": row["bid"], "share": row["bid"] / total,
         "by_a": row["a"], "by_b": row["b"], "made": row["made"],
         "made_rate": row["made"] / row["bid"], "made_ci95": _plain_wilson(row["made"], row["bid"])}
        for (c, s), row in sorted(rows.items(), key=lambda kv: (strength.index(kv[0][0]),
                                                                  str(kv[0][1])))]
    return out


def _same(got, want, path="summary"):
    """Equal, floats to 1e-9 relative; says where they differ."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), path
        for k in want:
            _same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        for j, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{path}[{j}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12), path
    else:
        assert got == want and type(got) is type(want), path


class Spy:
    """A player that notes who it is and where it sits whenever it is asked to call."""

    def __init__(self, inner, log):
        self.inner, self.log = inner, log
        self.name = getattr(inner, "name", repr(inner))

    def __repr__(self):
        return repr(self.inner)

    def call(self, view, seed):
        self.log.append((repr(self.inner), view.seat))
        return self.inner.call(view, seed)

    def sing(self, view, seed):
        return self.inner.sing(view, seed)

    def card(self, view, seed):
        return self.inner.card(view, seed)


def _spied_run(monkeypatch, config):
    """The records of a run played here, with who sat at each seat of each hand."""
    log: list = []
    monkeypatch.setattr(selfplay, "parse_player", lambda spec: Spy(parse_player(spec), log))
    recs = [json.loads(x) for x in selfplay.run_batch(config, 0, config.count)]
    monkeypatch.undo()
    assert len(log) == 4 * len(recs)
    seated = [dict((seat, who) for who, seat in log[4 * j:4 * j + 4]) for j in range(len(recs))]
    return recs, seated


@pytest.fixture(params=[("hands", "online"), ("matches", "online"), ("hands", "narro"),
                        ("matches", "app")], ids=lambda p: "-".join(p))
def tiny(request, tmp_path_factory):
    """A tiny run of each mode, written by selfplay.run, with its summary.  Played afresh for
    each test (it takes a tenth of a second): the mutation tests pick the tests to run
    by the functions each test calls, its fixtures' setup included."""
    mode, rules = request.param
    count = 5 if mode == "hands" else 3
    config = LabConfig.make("heuristic", "random", rules=rules, seed=11, mode=mode,
                            count=count, odds_samples=0)
    path = tmp_path_factory.mktemp("values") / f"{mode}.jsonl"
    summary = selfplay.run(config, str(path), workers=1)
    recs = [json.loads(x) for x in open(path, encoding="utf-8")]
    assert {r["rules"] for r in recs} == {rules}
    return config, path, recs, summary


def test_the_summary_of_a_run_is_the_one_its_records_give(tiny):
    config, _, recs, summary = tiny
    want = recompute(config, recs)
    assert want["boards"] == config.count and summary.played == len(recs)
    _same(summary.to_dict(), want)
    # the figures must not be trivially equal: the run has some spread
    assert want["points_per_hand"]["difference"]["se"] > 0
    assert len(want["contracts"]) >= 3


def test_the_lineup_of_each_record_is_who_sat_there(monkeypatch, tiny):
    config, _, recs, _ = tiny
    again, seated = _spied_run(monkeypatch, config)
    assert again == recs
    for r, seats in zip(recs, seated):
        lineup = r["lab"]["lineup"]
        assert seats == {1: lineup["A"], 2: lineup["B"], 3: lineup["A"], 4: lineup["B"]}
        assert set(lineup.values()) == {config.a, config.b}


def test_the_records_of_a_run(tiny):
    config, _, recs, _ = tiny
    rules = get_rules(config.rules)
    by_play: dict = {}
    for j, r in enumerate(recs):
        d = r["lab"]
        assert d["config"] == config.key()
        rec = record_from_obj(r)
        result = replay_deal(rec).result()
        assert d["result"] == {"winner": str(result.winner), "game_points": result.game_points}
        # the bid decisions are the auction's, seat by seat, without odds (odds_samples 0)
        assert d["bids"] == [{"seat": s, "call": c, "odds": None}
                             for s, c in enumerate(r["auction"], 1)]
        by_play.setdefault((d["deal"], d["play"]), []).append(r)
    assert [k for k in by_play] == [(i, p) for i in range(config.count) for p in (0, 1)]
    for (i, p), hands in by_play.items():
        first, second = (config.a, config.b) if p == 0 else (config.b, config.a)
        if config.mode == "hands":
            (r,) = hands
            assert r["lab"]["lineup"] == {"A": first, "B": second}
            assert "hand" not in r["lab"] and "last" not in r["lab"] and "score" not in r
            continue
        # a match: the pairs swap labels hand by hand, the score is the one before the hand
        total = {first: 0, second: 0}
        for k, r in enumerate(hands):
            d = r["lab"]
            assert d["hand"] == k and d.get("last", False) == (k == len(hands) - 1)
            assert d["lineup"] == ({"A": first, "B": second} if k % 2 == 0
                                   else {"A": second, "B": first})
            assert r["score"] == {"A": total[d["lineup"]["A"]], "B": total[d["lineup"]["B"]]}
            assert match_winner(rules, total[first], total[second]) is None
            total[d["lineup"][d["result"]["winner"]]] += d["result"]["game_points"]
        winner = hands[-1]["lab"]["lineup"][hands[-1]["lab"]["result"]["winner"]]
        assert str(match_winner(rules, total[first], total[second])) == \
            ("A" if winner == first else "B")


def test_a_board_is_seeded_from_the_run_and_its_index(tiny):
    """Board i's deal and the players' seed come from Random(f"{seed}/{mode}/{i}"), so a
    seed gives the same run in every version and on every machine."""
    config, _, recs, _ = tiny
    rules = get_rules(config.rules)
    for i in range(config.count):
        rng = random.Random(f"{config.seed}/{config.mode}/{i}")
        mine = [r for r in recs if r["lab"]["deal"] == i]
        for play in (0, 1):
            hands = [r for r in mine if r["lab"]["play"] == play]
            first, second = (config.a, config.b) if play == 0 else (config.b, config.a)
            seated = [parse_player(first if s % 2 else second) for s in (1, 2, 3, 4)]
            if config.mode == "hands":
                if play == 0:
                    deal = random_deal(rng)
                    seed = rng.getrandbits(62)
                assert hands[0]["lab"]["seed"] == seed
                assert play_hand(deal, seated, rules, seed=seed).to_json_obj() == \
                    {k: v for k, v in hands[0].items() if k != "lab"}
            else:
                if play == 0:
                    seed = rng.getrandbits(62)
                assert all(r["lab"]["seed"] == seed for r in hands)
                assert [rec.to_json_obj() for rec in iter_match(seated, rules, seed)] == \
                    [{k: v for k, v in r.items() if k != "lab"} for r in hands]


@pytest.mark.parametrize("board", ["first", "last"])
def test_resume_mid_board_gives_the_summary_of_the_whole_run(tiny, tmp_path, board):
    """A file cut after whole lines of an unfinished board: those lines are played again
    and counted once."""
    config, path, recs, summary = tiny
    text = path.read_text(encoding="utf-8").splitlines(keepends=True)
    # the first line of that board, and the lines before it
    i = 0 if board == "first" else config.count - 1
    first = next(j for j, r in enumerate(recs) if r["lab"]["deal"] == i)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(text[:first + 1]), encoding="utf-8")
    s = Summary(config)
    done, end = selfplay.resume_point(str(cut), config, s)
    assert done == i and end == len("".join(text[:first]).encode())
    assert s._board is None and s.boards == i and s.hands == first
    resumed = selfplay.run(config, str(cut), workers=1, resume=True)
    assert cut.read_text(encoding="utf-8") == "".join(text)
    assert resumed.played == len(recs) - first
    _same(resumed.to_dict(), summary.to_dict())


def test_resume_refuses_boards_out_of_order_and_broken_records(tiny, tmp_path):
    config, path, recs, _ = tiny
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    second = next(j for j, r in enumerate(recs) if r["lab"]["deal"] == 1)
    bad.write_text("".join(lines[second:]), encoding="utf-8")
    with pytest.raises(LabError) as e:
        selfplay.resume_point(str(bad), config, Summary(config))
    assert str(e.value) == (f"{bad}, line 1: board 1 where board 0 was expected: not a lab "
                            f"run's file in order")
    # board 0 without its first record: the next play, or the next hand of the match
    bad.write_text("".join(lines[1:second]), encoding="utf-8")
    with pytest.raises(LabError) as e:
        selfplay.resume_point(str(bad), config, Summary(config))
    got, want = (("play 1", "play 0") if config.mode == "hands"
                 else ("play 0, hand 1", "play 0, hand 0"))
    assert recs[1]["lab"].get("hand", None) == (None if config.mode == "hands" else 1)
    assert str(e.value) == (f"{bad}, line 1: {got} of board 0 where {want} was expected: not "
                            f"a lab run's file in order")
    broken = json.loads(lines[0])
    broken["muestra"] = "Xx"
    bad.write_text(json.dumps(broken) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=rf"^bad card 'Xx' \({re.escape(str(bad))}, line 1, "
                                       rf"field 'muestra'\)"):
        selfplay.resume_point(str(bad), config, Summary(config))


def test_a_file_that_is_not_a_lab_run(tmp_path):
    """Every line is a record checked as ``check`` checks it (lab/records.py): a line
    that is not a record is the record reader's error, a record without its ``lab``
    field or of another configuration the lab's."""
    config = LabConfig.make("heuristic", "random", seed=5, odds_samples=0)
    real = selfplay.run_batch(config, 0, 1)            # both plays of board 0
    first = real[0] + "\n"
    f = tmp_path / "f.jsonl"
    bare = json.dumps({k: v for k, v in json.loads(real[1]).items() if k != "lab"})
    for text, error, message in [
        ("{oops\n", RecordError, f"{f}, line 2: not a JSON record ("),
        (bare + "\n", LabError,
         f"{f}, line 2: not a record of the self-play lab (no 'lab' field)"),
        ("[1]\n", RecordError, f"{f}, line 2: expected a record (a JSON object), got [1]"),
    ]:
        f.write_text(first + text)
        with pytest.raises(error) as e:
            list(selfplay.read_lines(str(f), config))
        assert type(e.value) is error and str(e.value).startswith(message), str(e.value)
    # another configuration: the fields that differ, both ways
    other = json.loads(real[0])
    other["lab"]["config"].update(seed=6, odds_samples=7)
    f.write_text(json.dumps(other) + "\n")
    with pytest.raises(LabError) as e:
        list(selfplay.read_lines(str(f), config))
    assert str(e.value) == (f"{f} is from another configuration (line 1: seed 6 here, 5 now, "
                            f"odds_samples 7 here, 0 now): give another --out, or the same "
                            f"options to --resume it")
    # a lab field without its configuration is refused by the record's check
    other["lab"] = {}
    f.write_text(json.dumps(other) + "\n")
    with pytest.raises(LabError) as e:
        list(selfplay.read_lines(str(f), config))
    assert str(e.value) == (f"{f}, line 1, lab: expected the fields config, deal, play, "
                            f"lineup, seed, bids, result")
    # without a configuration every lab line is read; a cut last line is not
    f.write_text(first + real[1] + "\n" + real[0][:40])
    ends = [len(first.encode()), len(first.encode()) + len(real[1].encode()) + 1]
    assert list(selfplay.read_lines(str(f))) == [(1, json.loads(real[0]), ends[0]),
                                                 (2, json.loads(real[1]), ends[1])]


# --- what the command prints -----------------------------------------------------------------

def _numbers(text):
    return [float(x) for x in re.findall(r"[-+]?\d+\.?\d*", text)]


@pytest.mark.parametrize("mode", ["hands", "matches"])
def test_every_figure_selfplay_prints_is_the_records_figure(mode, tmp_path):
    count = "4" if mode == "hands" else "2"
    base = ["selfplay", "--a", "heuristic", "--b", "random", f"--{mode}", count, "--seed",
            "3", "--workers", "1", "--odds-samples", "0"]
    out = tmp_path / "run.jsonl"
    r = runner.invoke(app, base + ["--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    config = LabConfig.make("heuristic", "random", seed=3, mode=mode, count=int(count),
                            odds_samples=0)
    recs = [json.loads(x) for x in open(out, encoding="utf-8")]
    want = recompute(config, recs)
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got.pop("schema") == 1 and got.pop("out") == str(out)
    _same(got, want)
    human = runner.invoke(app, base)
    assert human.exit_code == 0, human.output
    assert re.fullmatch(rf"played {want['hands']} hands in \d+\.\d s \(\d+\.\d\d hands/s\)\n",
                        human.stderr.splitlines(keepends=True)[-1])
    text = human.stdout.splitlines()
    unit = "deals, each played twice" if mode == "hands" else "pairs of matches"
    assert text[0] == (f"{want['boards']} {unit} ({want['hands']} hands), rules online, "
                       f"seed 3")
    pts = want["points_per_hand"]
    for label, d in (("a ", pts["a"]), ("b ", pts["b"]), ("a - b", pts["difference"])):
        line = next(x for x in text if x.startswith(f"  {label}") and "[" in x)
        assert _numbers(line.split("(")[0])[-3:] == pytest.approx(
            [d["mean"], *d["ci95"]], abs=5.001e-4), line
    line = next(x for x in text if x.startswith("hands won by a:"))
    won = want["hands_won"]["a"]
    assert _numbers(line) == pytest.approx([100 * won["mean"], *(100 * x for x in won["ci95"])],
                                           abs=0.05001)
    if mode == "matches":
        line = next(x for x in text if x.startswith("matches won by a:"))
        m = want["matches_won"]
        assert _numbers(line) == pytest.approx(
            [100 * m["a"]["mean"], *(100 * x for x in m["a"]["ci95"]), m["matches"]], abs=0.05001)
    start = next(j for j, x in enumerate(text) if x.startswith("contract ")) + 2
    table = text[start:start + len(want["contracts"])]
    assert len(table) == len(want["contracts"]) and start + len(table) == len(text)
    for line, row in zip(table, want["contracts"]):
        cells = line.split()
        assert cells[:2] == [row["contract"], str(row["seat"])]
        lo, hi = (100 * x for x in row["made_ci95"])
        assert [float(x) for x in cells[2:7]] == pytest.approx(
            [row["bid"], 100 * row["share"], row["by_a"], row["by_b"], 100 * row["made_rate"]],
            abs=0.5001)
        assert [float(x) for x in cells[7].split("-")] == pytest.approx([lo, hi], abs=0.5001)


# --- the configuration ------------------------------------------------------------------------

def test_a_configuration_and_its_key():
    c = LabConfig.make("pimc:samples=4, bid=heuristic", "random", rules="narro", seed=7,
                       count=3, odds_samples=5,
                       auctions=["paso,solo, PASO paso", ("paso", "paso", "paso", "SOLO")])
    assert (c.a, c.b, c.rules, c.seed, c.mode, c.odds_samples, c.count) == \
        ("pimc:samples=4,bid=heuristic", "random", "narro", 7, "hands", 5, 3)
    assert c.auctions == (("paso", "solo", "paso", "paso"), ("paso", "paso", "paso", "solo"))
    assert c.key() == {"a": "pimc:samples=4,bid=heuristic", "b": "random", "rules": "narro",
                       "seed": 7, "mode": "hands", "odds_samples": 5,
                       "auctions": ["paso solo paso paso", "paso paso paso solo"]}
    assert c.plays == (0, 1) and LabConfig.make("random", "random").plays == (0,)
    more = c.with_count(9)
    assert more.count == 9 and more == c and more.key() == c.key()      # count aside
    d = LabConfig.make("heuristic", "random")
    assert (d.rules, d.seed, d.mode, d.odds_samples, d.count, d.auctions) == \
        ("online", 0, "hands", 100, 1, ())
    # rules as overrides are kept as the record writes them
    o = LabConfig.make("heuristic", "random", rules={"preset": "online", "target": 15})
    assert o.rules == {"preset": "online", "target": 15}


@pytest.mark.parametrize("kw, message", [
    (dict(mode="x"), "bad mode 'x': expected hands or matches"),
    (dict(count=0), "bad number of hands 0: expected at least 1"),
    (dict(count=0, mode="matches"), "bad number of matches 0: expected at least 1"),
    (dict(odds_samples=-1), "bad odds samples -1: expected 0 (no odds) or more"),
    (dict(auctions=["solo paso"]), "bad auction 'solo paso': expected 4 calls, one per seat "
                                   "from seat 1"),
    (dict(auctions=[["solo"] * 5]), "bad auction 'solo solo solo solo solo': expected 4 calls, "
                                    "one per seat from seat 1"),
    (dict(auctions=["paso paso solo solo"]), "bad auction 'paso paso solo solo': seat 4 may not "
                                             "call 'solo': a bid must be stronger than the "
                                             "standing solo"),
    (dict(auctions=["solo solo paso paso"]), "bad auction 'solo solo paso paso': bad auction: "
                                             "call 2 'solo' of seat 2 is illegal: a bid must be "
                                             "stronger than the standing solo"),
    (dict(auctions=["paso paso paso paso"], mode="matches"),
     "--auction plays single hands: it cannot be used with --matches"),
])
def test_a_bad_configuration_says_what_is_wrong(kw, message):
    with pytest.raises(LabError) as e:
        LabConfig.make("heuristic", "random", **kw)
    assert str(e.value) == message


def test_count_at_least_one_and_odds_samples_zero_are_accepted():
    assert LabConfig.make("heuristic", "random", count=1, odds_samples=0).count == 1


# --- the odds recorded at each bid decision -----------------------------------------------------

def _expected_odds(advice, by, match):
    options = []
    for o in advice.to_dict()["options"]:
        if not o["allowed"]:
            continue
        e = {k: o[k] for k in ("bid", "contract", "declarer", "side")}
        e["p_win"], e["ev"] = round(o["p_win"], 6), round(o["ev"], 6)
        if match:
            e["p_match"] = round(o["p_match"], 6)
        options.append(e)
    return {"by": by, "samples": advice.deals, "advice": advice.advice, "options": options}


def _bid_views(obj):
    """The view of each seat as it bid, and the record's seed."""
    rec = record_from_obj(obj)
    hand = HandState(rec.hands, rec.muestra, rec.rules, rec.score)
    views = []
    for seat, call in enumerate(rec.auction, 1):
        views.append(View.from_hand(hand, seat))
        hand.bid(call)
    return views


@pytest.mark.parametrize("mode", ["hands", "matches"])
def test_the_odds_of_each_bid_are_the_advisors(mode):
    """A pimc bidder (bid=advisor) records the odds it bid on, with its own samples and
    options; everyone else the advisor's over odds_samples deals (with the match chance
    in a match)."""
    from cuatrola_solver.bots.players import bid_advice
    pimc = "pimc:samples=4,bid_samples=12,odds=played,inference=1"
    count = 3 if mode == "hands" else 1
    config = LabConfig.make(pimc, "random", seed=2, mode=mode, count=count, odds_samples=6)
    recs = [json.loads(x) for x in selfplay.run_batch(config, 0, count)][:6]
    differs = {"odds": 0, "inference": 0}
    for obj in recs:
        views = _bid_views(obj)
        for view, b in zip(views, obj["lab"]["bids"]):
            assert b["seat"] == view.seat
            seed = obj["lab"]["seed"]
            if mode == "matches":       # the match's seed: hand k's players get their own
                rng = random.Random(f"{seed}/{obj['lab']['hand']}")
                random_deal(rng)
                seed = rng.getrandbits(62)
            match = mode == "matches"
            if obj["lab"]["lineup"]["AB"[(view.seat - 1) % 2]] == config.a:
                want = _expected_odds(bid_advice(view, seed, 12, "played", True), "bidder", match)
                differs["odds"] += want != _expected_odds(
                    bid_advice(view, seed, 12, "dd", True), "bidder", match)
                differs["inference"] += want != _expected_odds(
                    bid_advice(view, seed, 12, "played", False), "bidder", match)
                assert b["call"] == want["advice"]
            else:
                want = _expected_odds(bid_advice(view, seed, 6), "advisor", match)
            assert b["odds"] == want
            assert [o["bid"] for o in b["odds"]["options"]] == view.legal_calls()
    # the bidder's own options matter to its odds: its bid model to every figure; its
    # played odds to the match chance (the hand's p_win and ev recorded are double dummy)
    assert differs["inference"] and (mode == "hands" or differs["odds"]), differs


def test_forced_calls_record_the_advisors_odds_for_everyone():
    from cuatrola_solver.bots.players import bid_advice
    config = LabConfig.make("pimc:samples=4,bid_samples=12", "random", seed=3, count=1,
                            odds_samples=5, auctions=["paso solo paso paso"])
    for line in selfplay.run_batch(config, 0, 1):
        obj = json.loads(line)
        for view, b in zip(_bid_views(obj), obj["lab"]["bids"]):
            assert b["odds"] == _expected_odds(bid_advice(view, obj["lab"]["seed"], 5),
                                               "advisor", False)


def test_a_player_that_breaks_the_rules_in_the_lab_is_named_by_its_spec(monkeypatch):
    """The lab sees each player through a recorder: an error must still name the player
    (not the recorder object)."""
    class Cheat:
        def __repr__(self):
            return "cheat"

        def call(self, view, seed):
            return "contrasolo"

    config = LabConfig.make("heuristic", "random", count=1, odds_samples=0)
    monkeypatch.setattr(selfplay, "parse_player",
                        lambda spec: Cheat() if spec == "random" else parse_player(spec))
    from cuatrola_solver.errors import PlayerError
    with pytest.raises(PlayerError) as e:
        selfplay.run_batch(config, 0, 1)
    assert str(e.value) == ("player cheat in seat 2 called 'contrasolo': contrasolo is not "
                            "played under these rules")


def test_the_recorder_passes_each_question_on_and_notes_the_calls():
    asked = []

    class Player:
        def call(self, view, seed):
            asked.append(("call", view, seed))
            return "solo"

        def sing(self, view, seed):
            asked.append(("sing", view, seed))
            return 2

        def card(self, view, seed):
            asked.append(("card", view, seed))
            return 13

    bids: list = []
    view = SimpleNamespace(seat=3)
    r = selfplay._Recorder(Player(), 0, None, bids)
    assert (r.call(view, 5), r.sing(view, 6), r.card(view, 7)) == ("solo", 2, 13)
    assert asked == [("call", view, 5), ("sing", view, 6), ("card", view, 7)]
    assert bids == [{"seat": 3, "call": "solo", "odds": None}]
    # forced calls are not asked of the player
    forced = selfplay._Recorder(Player(), 0, ("paso", "paso", "cuatrola", "paso"), bids)
    assert forced.call(view, 5) == "cuatrola" and len(asked) == 3
    assert bids[-1] == {"seat": 3, "call": "cuatrola", "odds": None}


def test_the_contract_rows_are_in_order_of_strength_then_seat():
    """Fed strongest first, listed paso first, then by strength, then by seat."""
    config = LabConfig.make("random", "random", count=7)
    auctions = ["quintola paso paso paso", "paso paso paso cuatrola", "cuatrola paso paso paso",
                "paso paso solo contrasolo", "solo contrasolo paso paso", "paso paso solo paso",
                "paso paso paso paso"]
    s, closed = _feed(config, [_rec(i, 0, "A", 1, a) for i, a in enumerate(auctions)])
    assert all(closed)
    assert [(r["contract"], r["seat"]) for r in s.to_dict()["contracts"]] == [
        ("paso", "A"), ("solo", 3), ("contrasolo", 2), ("contrasolo", 4), ("cuatrola", 1),
        ("cuatrola", 4), ("quintola", 1)]


def test_a_run_writes_compact_json_lines():
    """One record a line, without the spaces of json.dumps' default (a run is thousands
    of lines)."""
    config = LabConfig.make("heuristic", "random", count=1, odds_samples=0)
    for line in selfplay.run_batch(config, 0, 1):
        assert "\n" not in line
        assert line == json.dumps(json.loads(line), separators=(",", ":"))
        assert '":' in line and '": ' not in line and '","' in line


def test_a_configuration_that_differs_only_by_unknown_fields():
    """A record of a configuration with a field this version does not know: no field
    to name, a '?' says so."""
    config = LabConfig.make("heuristic", "random", seed=5)
    assert selfplay._diff({**config.key(), "speed": 2}, config.key()) == "?"
    assert selfplay._diff(None, config.key()) == "no configuration"


def test_resume_scores_a_match_under_the_runs_rules(tmp_path):
    """narro plays to 21 by 2: a match file is read back under those rules (under another
    preset's, to 11, its score would end the match early), and a last hand without
    ``lab.last`` is refused word for word."""
    config = LabConfig.make("heuristic", "random", rules="narro", seed=2, mode="matches",
                            count=1, odds_samples=0)
    lines = selfplay.run_batch(config, 0, 1)
    rows = [json.loads(x) for x in lines]
    scores = [(r["score"]["A"], r["score"]["B"]) for r in rows if r["lab"]["play"] == 0]
    assert max(max(s) for s in scores) >= 11          # past online's target, still going
    f = tmp_path / "narro.jsonl"
    f.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    assert selfplay.resume_point(str(f), config, Summary(config)) == (1, f.stat().st_size)
    first_last = next(i for i, r in enumerate(rows) if r["lab"].get("last"))
    del rows[first_last]["lab"]["last"]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(LabError) as e:
        selfplay.resume_point(str(f), config, Summary(config))
    assert str(e.value) == (f"{f}, line {first_last + 1}: lab.last says the match goes on "
                            f"with this hand, but the score says otherwise")
