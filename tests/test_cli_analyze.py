"""``cuatrola analyze``: human report, JSON contract, --annotate round trip, bad input."""

from __future__ import annotations

import json
from pathlib import Path


from cuatrola_solver.notation.record import read_record, write_json

from helpers import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "analysis"
BLUNDER = str(EXAMPLES / "online-blunder.txt")
MONTAR = str(EXAMPLES / "online-montar.txt")

TOP = {"schema", "rules", "muestra", "hands", "auction", "score", "contract", "declarer",
       "exact", "samples", "seed", "renuncios", "decided_by_renuncio", "result", "cards",
       "bids", "dd_table", "summary", "win_chances", "model"}
CARD = {"trick", "position", "seat", "side", "card", "kind", "legal", "obligation", "dd",
        "dd_loss", "dd_points_lost", "p_win", "best_p_win", "loss", "best", "label",
        "symbol", "dd_only", "unpunished", "deals", "exact", "seed", "p_played",
        "best_p_played", "loss_dd"}
BID = {"seat", "side", "call", "advice", "ev_loss", "dd_best", "dd_points_lost", "missed",
       "deals", "exact", "seed", "options"}
OPTION = {"bid", "allowed", "contract", "declarer", "p_win", "ev", "dd_makes",
          "dd_game_points", "reason"}
PLAYED = {"p_played", "ev_played"}          # the options' keys with the played-odds model
SUMMARY = {"seat", "side", "cards", "choices", "accuracy", "inaccuracies", "mistakes",
           "blunders", "renuncios", "win_chance_lost", "points_lost", "dd_errors", "dd_only"}
DD = {"makes", "game_points", "tricks", "margin"}


def analyze_json(*args: str, input: str | None = None) -> dict:
    r = run("analyze", *args, "--json", input=input)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_json_keys_stable():
    d = analyze_json(MONTAR, "--samples", "100", "--seed", "1")
    assert set(d) == TOP and d["schema"] == 1 and d["model"] == "played"
    assert (d["samples"], d["seed"], d["exact"]) == (100, 1, False)
    for c in d["cards"]:
        assert set(c) == CARD
        if c["dd"] is not None:
            assert set(c["dd"]) == {"before", "after"}
            assert set(c["dd"]["before"]) == set(c["dd"]["after"]) == DD
    assert len(d["bids"]) == 4
    for b in d["bids"]:
        assert set(b) == BID
        for o in b["options"]:
            assert set(o) == OPTION | PLAYED
    assert [set(s) for s in d["summary"]] == [SUMMARY] * 4
    dd = analyze_json(MONTAR, "--samples", "100", "--seed", "1", "--model", "dd")
    assert dd["model"] == "dd" and all(set(o) == OPTION for b in dd["bids"]
                                       for o in b["options"])
    assert all(c["p_played"] is None and c["loss"] == c["loss_dd"] for c in dd["cards"]
               if c["kind"] == "choice")
    assert d["renuncios"][0]["obligation"] == "montar"
    assert d["decided_by_renuncio"] == d["renuncios"][0]
    assert d["result"]["ended_by"] == "renuncio"
    kinds = [c["kind"] for c in d["cards"]]
    assert kinds[kinds.index("renuncio") + 1:] == ["after_renuncio"] * (
        len(kinds) - kinds.index("renuncio") - 1)


def test_human_report():
    r = run("analyze", BLUNDER, "--samples", "100", "--seed", "3")
    assert r.exit_code == 0, r.output
    out = r.stdout
    for word in ("Bidding", "Play", "Summary", "trick 4", "Ae??", "blunder",
                 "renuncios: none", "result: side A scores 1", "seed 3", "dd best"):
        assert word in out, word


def test_stdin_json_record_and_no_bids():
    rec = read_record(Path(MONTAR).read_text(encoding="utf-8"))
    d = analyze_json("-", "--samples", "50", "--seed", "2", "--no-bids",
                     input=write_json(rec))
    assert d["bids"] == [] and d["renuncios"][0]["obligation"] == "montar"
    r = run("analyze", "-", "--samples", "50", "--seed", "2", "--no-bids",
            input=Path(MONTAR).read_text(encoding="utf-8"))
    assert r.exit_code == 0 and "renuncio (montar)" in r.stdout


def test_annotate_round_trip(tmp_path):
    out = tmp_path / "annotated.txt"
    first = analyze_json(BLUNDER, "--samples", "100", "--seed", "3", "--no-bids",
                         "--annotate", str(out))
    text = out.read_text(encoding="utf-8")
    assert "Ae?? {blunder: Ce wins" in text
    assert "cuatrola analyze: 100 deals per card, seed 3" in text
    r = run("check", str(out))
    assert r.exit_code == 0 and "result: side A scores 1" in r.stdout
    again = analyze_json(str(out), "--samples", "100", "--seed", "3", "--no-bids",
                         "--annotate", str(out))
    assert again["cards"] == first["cards"]
    assert out.read_text(encoding="utf-8") == text
    r = run("analyze", BLUNDER, "--samples", "50", "--seed", "3", "--no-bids",
            "--annotate", "-")
    assert r.exit_code == 0 and r.stdout.startswith('[Rules "online"]')


def test_bad_input_exits_2(tmp_path):
    r = run("analyze", str(tmp_path / "missing.txt"))
    assert r.exit_code == 2 and "not found" in r.output
    bad = tmp_path / "bad.txt"
    bad.write_text('[Muestra "Xz"]\n', encoding="utf-8")
    r = run("analyze", str(bad))
    assert r.exit_code == 2 and "Xz" in r.output and "Traceback" not in r.output
    text = Path(BLUNDER).read_text(encoding="utf-8").replace("1. Sb Ab", "1. Ao Ab")
    r = run("analyze", "-", input=text)
    assert r.exit_code == 2 and "Ao" in r.output
    r = run("analyze", BLUNDER, "--exact", "--samples", "10")
    assert r.exit_code == 2 and "either" in r.output
    r = run("analyze", BLUNDER, "--samples", "0")
    assert r.exit_code == 2
    r = run("analyze", BLUNDER, "--samples", "10", "--no-bids", "--annotate",
            str(tmp_path / "no" / "such" / "dir.txt"))
    assert r.exit_code == 2 and "cannot write" in r.output


def test_tables_in_one_unit_and_no_blank_column():
    """'loss 0.66' beside 'win lost 66%'; empty 'EV lost' and 'note'
    columns; 'best: Re Ac 57%' (which card, at what?); accuracy 100% beside points lost."""
    import re
    from cuatrola_cli.cmd_analyze import render
    from cuatrola_cli.common import command_budget, command_models
    from cuatrola_solver.analysis.report import html_report
    from cuatrola_solver.analysis.review import analyze
    rec = read_record(Path(BLUNDER).read_text(encoding="utf-8"))
    # as `cuatrola analyze BLUNDER --samples 200 --seed 1` makes it
    analysis = analyze(rec, command_budget(False, 200, 1, None),
                       command_models(rec.rules, "played", inference=True))
    d = analysis.to_dict()
    text = render(analysis)
    # the command prints that report (then the note on the played-odds model)
    assert run("analyze", BLUNDER, "--samples", "200", "--seed", "1").stdout.startswith(text)
    ae = next(c for c in d["cards"] if c["card"] == "Ae")
    row = next(x for x in text.splitlines() if x.split()[1:2] == ["Ae??"])
    assert f"{100 * ae['loss']:.0f}%" in row.split() and f"{ae['loss']:.2f}" not in row
    # every loss is a percentage, as the summary's win lost is
    for line in text.splitlines():
        cells = line.split()
        if len(cells) > 5 and cells[0].isdigit() and re.fullmatch(r"\w{2}\W*", cells[1]):
            assert not re.search(r"\b0\.\d\d\b", line), line
    # the best cards that tie are joined by 'or', and the P(win) is each one's
    tie = next(c for c in d["cards"] if len(c["best"]) > 1)
    assert " or ".join(tie["best"][:3]) in text
    # no column of blanks: nothing was lost in the bidding, so no 'EV lost'
    assert all(b["ev_loss"] < 0.005 and not b["missed"] for b in d["bids"])
    bidding = text.split("Bidding", 1)[1].split("\n\n", 1)[0]
    assert "EV lost" not in bidding
    page = html_report(analysis)
    bids = page.split("<h2>The bidding</h2>", 1)[1].split("</table>", 1)[0]
    assert "EV lost" not in bids and "<th>note</th>" not in bids
    assert "<td></td>" not in bids
    # points lost double dummy are said to be double dummy, next to the sound errors
    summary = text.split("Summary", 1)[1]
    assert "dd pts lost" in summary and "dd errors (sound)" in summary
    assert "were sound on what it knew" in summary


def test_the_graph_ends_at_the_result():
    """The curves ended at A 28% / B 72% though side A won.  In
    analyze --json the last point of win_chances is the result, whatever ended the hand
    (five tricks, a renuncio, an early end)."""
    for name in ("online-blunder", "online-montar", "italiano-failed-solo", "app-fallar"):
        d = analyze_json(str(EXAMPLES / f"{name}.txt"), "--samples", "40", "--seed", "1",
                         "--no-bids")
        a_won = d["result"]["winner"] == "A"
        last = d["win_chances"][-1]
        assert last["knew"] == float(a_won) and last["knew_b"] == float(not a_won), name
        assert last["dd"] == int(a_won) and last["decided"], name
