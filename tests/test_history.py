"""The history database (cuatrola_solver.history, ``cuatrola history``): its figures
against analyze and check on a fixed set of named records, idempotent imports,
deterministic rebuilds, the migrations, files that are not ours, two writers at once,
an import killed midway."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.analysis.review import analyze
from cuatrola_solver.errors import HistoryError
from cuatrola_solver.history.database import (APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION,
                                              open_database)
from cuatrola_solver.history.facts import facts_of, hand_key
from cuatrola_solver.history.figures import Filters, bid_kind, figures
from cuatrola_solver.history.importing import add_hand, import_paths
from cuatrola_solver.history.merge import merge_names
from cuatrola_solver.history.rebuild import rebuild
from cuatrola_solver.history.stored import analyse_pending, hand_seed
from cuatrola_solver.notation.match_sheet import MatchSheet
from cuatrola_solver.notation.record import read_record, write_json, write_text
from cuatrola_solver.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "analysis").glob("*[!s].txt")) + [
    ROOT / "examples" / "records" / "narro-solo.txt",
    ROOT / "examples" / "records" / "online-renuncio.json"]
NAMES = ("Ana", "Bea", "Carlos", "Dani")


def seen_side():
    """A record kept from seat 2's side, its renuncio seen at once: not analysed, its
    renuncio counted."""
    rec = read_record((ROOT / "examples" / "records" / "online-renuncio.json").read_text())
    return dataclasses.replace(rec, hands=[None, rec.hands[1], None, None],
                               players=(None, "Bea", None, None))


SAMPLES = 200


def _named(i: int, rec):
    """Record ``i`` with names: the four rotated by ``i``, one seat left unnamed in every
    third record, none in the last."""
    if i == len(EXAMPLES) - 1:
        return rec
    names = list(NAMES[i % 4:] + NAMES[:i % 4])
    if i % 3 == 0:
        names[i % 4] = None
    return dataclasses.replace(rec, players=tuple(names))


def write_records(folder: Path) -> list:
    """The fixed set: the examples, named, half in the text form and half in JSON, one
    JSON lines file of two, and the record kept from one side; returns the records."""
    folder.mkdir(parents=True, exist_ok=True)
    recs = [_named(i, read_record(p.read_text(encoding="utf-8"), p.name))
            for i, p in enumerate(EXAMPLES)]
    for i, rec in enumerate(recs[:-2]):
        if i % 2:
            (folder / f"hand{i:02d}.json").write_text(write_json(rec), encoding="utf-8")
        else:
            (folder / f"hand{i:02d}.txt").write_text(write_text(rec), encoding="utf-8")
    sub = folder / "more"
    sub.mkdir(exist_ok=True)
    (sub / "run.jsonl").write_text("".join(write_json(r) + "\n" for r in recs[-2:]),
                                   encoding="utf-8")
    (sub / "seen.txt").write_text(write_text(seen_side()), encoding="utf-8")
    (sub / "notes.md").write_text("not a record: not read", encoding="utf-8")
    return recs + [seen_side()]


def dump(path: Path) -> dict:
    """Every table's rows, sorted: the database's content."""
    conn = sqlite3.connect(str(path))
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = "
                                             "'table' ORDER BY name")]
        return {t: sorted(map(repr, conn.execute(f"SELECT * FROM {t}"))) for t in tables}
    finally:
        conn.close()


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    """The fixed set imported and analysed with SAMPLES deals."""
    folder = tmp_path_factory.mktemp("records")
    recs = write_records(folder)
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    with open_database(path) as db:
        result = import_paths(db, [folder])
        assert (result.added, result.known, len(result.skipped)) == (len(recs), 0, 0)
        assert analyse_pending(db, SAMPLES) == len(recs) - 1       # not the seen side
    return folder, path, recs


def test_figures_equal_analyze_and_check(analysed):
    folder, path, recs = analysed
    expected: dict[str, dict] = {}
    for rec in recs:
        checked = replay(rec)
        result = analyze(rec, Budget(samples=SAMPLES, seed=hand_seed(hand_key(rec)))) \
            if rec.complete else None
        for seat, name in enumerate(rec.players, 1):
            if name is None:
                continue
            e = expected.setdefault(name, {"hands": 0, "renuncios": 0, "?!": 0, "?": 0,
                                           "??": 0, "choices": 0, "sound": 0, "against": 0,
                                           "ev": 0.0, "bids": 0, "lost": 0.0})
            e["hands"] += 1
            e["renuncios"] += sum(1 for r in checked.renuncios if r.seat == seat)
            if result is None:
                continue
            s = result.summary[seat - 1]
            e["?!"] += s.inaccuracies
            e["?"] += s.mistakes
            e["??"] += s.blunders
            e["choices"] += s.choices
            e["sound"] += round((s.accuracy or 0) * s.choices / 100)
            e["lost"] += s.win_chance_lost
            b = result.bids[seat - 1]
            e["bids"] += 1
            if b.call != b.advice:
                e["against"] += 1
                e["ev"] += b.ev_loss          # no score in these records: the same EV
    with open_database(path) as db:
        history = figures(db)
    got = {p.name: p for p in history.players}
    assert set(got) == set(expected) == set(NAMES)
    assert any(e["renuncios"] for e in expected.values())
    assert sum(e["?!"] + e["?"] + e["??"] for e in expected.values()) > 0
    for name, e in expected.items():
        p = got[name]
        assert (p.hands, p.renuncios, p.inaccuracies, p.mistakes, p.blunders) == \
            (e["hands"], e["renuncios"], e["?!"], e["?"], e["??"]), name
        assert (p.choices, p.sound, p.bids, p.bids_against_advice) == \
            (e["choices"], e["sound"], e["bids"], e["against"]), name
        assert p.ev_lost_bidding == pytest.approx(e["ev"])
        assert p.win_chance_lost == pytest.approx(e["lost"])
        d = p.to_dict()
        assert d["mistakes"] == {"?!": e["?!"], "?": e["?"], "??": e["??"]}
        assert d["renuncios"] == e["renuncios"]
        assert sum(s.choices for s in p.situations[:5]) == p.choices


def test_figures_filters_and_json(analysed):
    folder, path, recs = analysed
    with open_database(path) as db:
        everyone = figures(db)
        bea = figures(db, Filters(player="Bea"))
        narro = figures(db, Filters(preset="narro"))
        later = figures(db, Filters(since="2999-01-01"))
    assert [p.name for p in bea.players] == ["Bea"]
    assert bea.players[0] == next(p for p in everyone.players if p.name == "Bea")
    assert 0 < sum(p.hands for p in narro.players) < sum(p.hands for p in everyone.players)
    assert later.players == ()
    obj = everyone.to_dict()
    assert obj["schema"] == 1 and obj["hands"] == len(recs)
    keys = {"name", "hands", "renuncios", "mistakes", "bids_against_advice", "ev_lost_bidding"}
    assert all(keys <= set(p) for p in obj["players"])
    json.dumps(obj)


def test_a_match_sheet_is_imported_hand_by_hand(tmp_path):
    sheet = MatchSheet("online", ["Ana", "Bea", "Carlos", "Dani"])
    for p in EXAMPLES:
        rec = read_record(p.read_text(encoding="utf-8"), p.name)
        if rec.rules.name == "online" and rec.score is None:
            sheet.add(rec)
    sheet.save(tmp_path / "sheet.json")
    with open_database(tmp_path / "h.sqlite3") as db:
        first = import_paths(db, [tmp_path / "sheet.json"])
        again = import_paths(db, [tmp_path])
        names = db.query("SELECT seat, player FROM seats WHERE hand_id = 2 ORDER BY seat")
    assert (first.added, first.skipped, again.known) == (len(sheet.hands), (), len(sheet.hands))
    assert len(sheet.hands) >= 3
    assert [n for _, n in names] == list(sheet.seat_players(1))   # the deal passes on


def test_bid_kinds():
    assert bid_kind("paso", "solo") == "passed"
    assert bid_kind("solo", "paso") == "bid_over_paso"
    assert bid_kind("solo", "cuatrola") == "bid_lower"
    assert bid_kind("quintola", "solo") == "bid_higher"


def test_import_is_idempotent(analysed, tmp_path):
    folder, path, recs = analysed
    before = dump(path)
    with open_database(path) as db:
        again = import_paths(db, [folder])
        assert (again.added, again.known) == (0, len(recs))
        assert analyse_pending(db, SAMPLES) == 0
    assert dump(path) == before
    # the same hand in the other form, with its comments, is the same hand
    text = (folder / "hand00.txt").read_text(encoding="utf-8")
    rec = read_record(text)
    (tmp_path / "copy.json").write_text(write_json(rec), encoding="utf-8")
    (tmp_path / "copy.txt").write_text("{a comment}\n" + text, encoding="utf-8")
    with open_database(path) as db:
        assert import_paths(db, [tmp_path]).known == 2


def test_rebuild_is_deterministic(analysed, tmp_path):
    folder, _, _ = analysed
    contents = []
    for name in ("one.sqlite3", "two.sqlite3"):
        path = tmp_path / name
        rebuild(path, [folder])
        with open_database(path) as db:
            analyse_pending(db, SAMPLES)
        contents.append(dump(path))
    assert contents[0] == contents[1]
    assert contents[0]["cards"]
    # a rebuild over a database keeps its analyses and merges, and gives the same content
    path = tmp_path / "one.sqlite3"
    with open_database(path) as db:
        merge_names(db, "Dani", "Daniel")
    merged = dump(path)
    rebuild(path, [folder])
    assert dump(path) == merged


def test_merge(analysed, tmp_path):
    folder, path, recs = analysed
    copy = tmp_path / "h.sqlite3"
    rebuild(copy, [folder])
    with open_database(copy) as db:
        before = {p.name: p.hands for p in figures(db).players}
        assert merge_names(db, "Carlos", "Ana") == before["Carlos"]
        after = {p.name: p.hands for p in figures(db).players}
        assert after == {"Ana": before["Ana"] + before["Carlos"], "Bea": before["Bea"],
                         "Dani": before["Dani"]}
        with pytest.raises(HistoryError, match="no player 'Zoe'"):
            merge_names(db, "Zoe", "Ana")
        # a later record naming Carlos seats Ana
        rec = read_record((ROOT / "examples/records/narro-solo.txt").read_text())
        with db.write() as conn:
            assert add_hand(conn, facts_of(dataclasses.replace(
                rec, players=("Carlos", "Xavi", None, None))), "new.txt", "2026-01-01")
        assert {p.name for p in figures(db).players} == {"Ana", "Bea", "Dani", "Xavi"}


def test_migrations_from_the_first_schema(tmp_path):
    path = tmp_path / "old.sqlite3"
    rec = read_record((ROOT / "examples/records/online-renuncio.json").read_text())
    rec = dataclasses.replace(rec, players=("Ana", None, None, None))
    facts = facts_of(rec)
    with open_database(path, migrations=MIGRATIONS[:1]) as db:
        with db.write() as conn:            # as the first schema's import wrote a hand
            conn.execute("INSERT INTO hands (id, hash, record, source, played, rules, preset,"
                         " complete, contract, winner, game_points, match_won_by) VALUES "
                         "(1, ?, ?, 'old', '2026-01-01', ?, ?, 1, ?, ?, ?, NULL)",
                         (facts.key, facts.text, facts.rules, facts.preset, facts.contract,
                          facts.winner, facts.game_points))
            conn.executemany("INSERT INTO seats VALUES (1, ?, ?)",
                             list(enumerate(facts.players, 1)))
            conn.executemany("INSERT INTO renuncios VALUES (1, ?, ?, ?, ?, ?)",
                             [(r.trick, r.seat, r.card, r.obligation, r.cost)
                              for r in facts.renuncios])
        assert db.query("PRAGMA user_version")[0][0] == 1
        assert "analyses" not in {r[0] for r in db.query("SELECT name FROM sqlite_master")}
    with open_database(path) as db:
        assert db.query("PRAGMA user_version")[0][0] == SCHEMA_VERSION
        assert db.query("SELECT count(*) FROM hands")[0][0] == 1
        assert analyse_pending(db, SAMPLES) == 1
        p = figures(db).players[0]
        assert (p.name, p.hands, p.renuncios, p.analysed) == ("Ana", 1, 0, 1)
        assert db.query("PRAGMA journal_mode")[0][0] == "wal"
        assert db.query("PRAGMA foreign_keys")[0][0] == 1


def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cuatrola_cli.main", *args],
                          capture_output=True, text=True, **kw)


@pytest.mark.parametrize("content, said", [
    (b"this is not a database at all, just text " * 200, "not a history database"),
    (None, "not a history database"),
    ("newer", "newer than this"),
    ("torn", "corrupt"),
])
def test_a_file_not_ours_or_corrupt(tmp_path, content, said):
    path = tmp_path / "h.sqlite3"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is None:
        conn = sqlite3.connect(str(path))
        conn.execute("CREATE TABLE notes (x)")
        conn.commit()
        conn.close()
    elif content == "newer":
        open_database(path).close()
        conn = sqlite3.connect(str(path))
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        conn.close()
    else:
        rec_folder = tmp_path / "r"
        write_records(rec_folder)
        with open_database(path) as db:
            import_paths(db, [rec_folder])
        data = bytearray(path.read_bytes())
        for at in range(4096, len(data), 4096):   # every page after the first torn
            data[at:at + 100] = b"\xff" * 100
        path.write_bytes(bytes(data))
    with pytest.raises(HistoryError, match=said):
        with open_database(path) as db:
            figures(db)
    r = _cli("history", "--db", str(path))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and "Traceback" not in r.stderr
    assert "cuatrola history rebuild" in lines[0]


def test_two_writers_at_once(tmp_path):
    """An import in another process and a writer here, at the same time: both succeed."""
    folder = tmp_path / "r"
    recs = write_records(folder)
    path = tmp_path / "h.sqlite3"
    open_database(path).close()
    proc = subprocess.Popen([sys.executable, "-m", "cuatrola_cli.main", "history", "import",
                             str(folder), "--db", str(path), "--no-analyze"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errors = []

    def writer(n: int) -> None:
        try:
            with open_database(path) as db:
                for i in range(20):
                    with db.write() as conn:     # a hand fed by the table, say
                        conn.execute("INSERT INTO merges (old, new) VALUES (?, ?)",
                                     (f"w{n}-{i}", "x"))
                        time.sleep(0.005)
        except Exception as e:                   # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert not errors
    with open_database(path) as db:
        assert db.query("SELECT count(*) FROM hands")[0][0] == len(recs)
        assert db.query("SELECT count(*) FROM merges")[0][0] == 40


def test_kill_9_during_the_analysis_loses_nothing(tmp_path):
    folder = tmp_path / "r"
    recs = write_records(folder)
    path = tmp_path / "h.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "cuatrola_cli.main", "history", "import",
                             str(folder), "--db", str(path), "--samples", str(SAMPLES)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    while line and "analysed 2 of" not in line:
        line = proc.stderr.readline()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert "analysed 2 of" in line
    with open_database(path) as db:
        assert db.query("SELECT count(*) FROM hands")[0][0] == len(recs)
        done = db.query("SELECT count(*) FROM analyses")[0][0]
        assert 2 <= done < len(recs) - 1
    r = _cli("history", "import", str(folder), "--db", str(path), "--samples", str(SAMPLES))
    assert r.returncode == 0, r.stderr
    assert f"0 hands added, {len(recs)} already in" in r.stdout
    assert f"{len(recs) - 1 - done} hands analysed" in r.stdout
    with open_database(path) as db:
        assert db.query("SELECT count(*) FROM analyses")[0][0] == len(recs) - 1
        assert db.query("PRAGMA application_id")[0][0] == APPLICATION_ID


def test_cli_history(analysed, tmp_path):
    folder, path, recs = analysed
    r = _cli("history", "--db", str(path), "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)
    with open_database(path) as db:
        assert obj == json.loads(json.dumps(figures(db).to_dict()))
    r = _cli("history", "--db", str(path), "--player", "Ana")
    assert r.returncode == 0 and r.stdout.startswith(f"{path}: {len(recs)} hands")
    assert "Ana:" in r.stdout and "Bea:" not in r.stdout
    r = _cli("history", "--db", str(path), "--player", "Zoe")
    assert r.returncode == 2 and "no hand of player 'Zoe'" in r.stderr
    r = _cli("history", "--db", str(path), "--since", "yesterday")
    assert r.returncode == 2 and "bad date 'yesterday'" in r.stderr
    pytest.importorskip("matplotlib")
    plot = tmp_path / "trend.svg"
    r = _cli("history", "--db", str(path), "--plot", str(plot))
    assert r.returncode == 0, r.stderr
    assert plot.read_text().lstrip().startswith("<?xml")


def test_cli_merge_and_rebuild(analysed, tmp_path):
    folder, _, recs = analysed
    path = tmp_path / "h.sqlite3"
    r = _cli("history", "rebuild", str(folder), "--db", str(path), "--samples", str(SAMPLES))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"{path}: {len(recs)} hands added, 0 already in, 0 skipped",
                                     f"{len(recs) - 1} hands analysed"]
    assert r.stderr.count("analysed ") == len(recs) - 1
    r = _cli("history", "merge", "Dani", "Ana", "--db", str(path))
    assert r.returncode == 0 and r.stdout.startswith("Dani is now Ana: ")
    r = _cli("history", "merge", "Dani", "Ana", "--db", str(path))
    assert r.returncode == 2 and "no player 'Dani'" in r.stderr
    r = _cli("history", "--db", str(path), "--json")
    assert [p["name"] for p in json.loads(r.stdout)["players"]] == ["Ana", "Bea", "Carlos"]
    r = _cli("history", "import", str(tmp_path / "missing"), "--db", str(path))
    assert r.returncode == 2 and "no file or folder" in r.stderr


def test_before_the_analysis_the_bids_and_cards_are_said_to_wait(tmp_path):
    """Hands kept, none analysed: no 'none of 0 against the advice' / 'accuracy none of 0',
    the command says the analysis is still to come; the renuncios (known without it) stay."""
    db = tmp_path / "h.sqlite3"
    examples = Path(__file__).parent.parent / "examples" / "history"
    assert _cli("history", "import", str(examples), "--no-analyze", "--db", str(db)).returncode == 0
    r = _cli("history", "--db", str(db), "--player", "Bea")
    assert r.returncode == 0, r.stderr
    assert "none of 0" not in r.stdout and "against the advice" not in r.stdout
    assert "none of these hands is analysed yet" in r.stdout
    assert "renuncios: 2" in r.stdout


def test_figures_of_a_database_not_there_are_one_line_and_make_nothing(tmp_path):
    """A mistyped --db on a read: one line, exit 2, no folder or file made."""
    missing = tmp_path / "typo" / "h.sqlite3"
    r = _cli("history", "--db", str(missing))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "no history database" in lines[0] and "history import" in lines[0]
    assert not missing.parent.exists()
