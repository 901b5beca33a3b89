"""The self-play lab: duplicate tournaments, workers, Ray, resume, bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.lab import selfplay
from cuatrola_solver.lab.grpc_probe import ray_head_answer
from cuatrola_solver.lab.selfplay import LabConfig, LabError
from cuatrola_solver.notation.record import read_json, record_from_obj
from cuatrola_solver.errors import RecordError

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


def test_ray_missing_is_bad_input(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_ray(name, *a, **k):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_ray)
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
        assert selfplay._speaks_grpc(host, int(port))     # the check of --ray ray://...
        assert ray_head_answer(host, int(port)) is None    # the check of --ray HOST:PORT
        s = selfplay.run(config, str(out), ray="auto", batch=1)
    finally:
        ray.shutdown()
    assert out.read_bytes() == path.read_bytes()
    assert s.to_dict() == summary.to_dict()
