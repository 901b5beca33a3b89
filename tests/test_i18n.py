"""The two languages (docs/i18n.md): the catalog complete and up to date with the code,
the language chosen from --lang, CUATROLA_LANG and the locale, numbers by language, and
machine output the same bytes in both."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from cuatrola_cli.common import command_line_language
from cuatrola_cli.main import COMMANDS, app
from cuatrola_solver import i18n
from cuatrola_solver.i18n import (_, count, decimal, language_from_environment,
                                  language_from_header, ngettext, percent, pgettext, shortest, signed,
                                  using_language)

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "cuatrola_solver" / "locale" / "es" / "LC_MESSAGES" / "cuatrola.po"
runner = CliRunner()
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def catalog():
    with open(PO, "rb") as f:
        return read_po(f, locale="es")


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def test_every_message_has_its_spanish_none_fuzzy():
    bad = []
    for m in catalog():
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        if m.fuzzy or not all(forms):
            bad.append(m.id)
    assert not bad, f"{len(bad)} messages without Spanish (docs/i18n.md): {bad[:10]}"


def test_translations_keep_their_placeholders():
    bad = []
    for m in catalog():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
        forms = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for form in forms:
            if form and set(PLACEHOLDER.findall(form)) - wanted:
                bad.append((m.id, form))
            if form and not m.pluralizable and set(PLACEHOLDER.findall(form)) != wanted:
                bad.append((m.id, form))
    assert not bad, bad[:10]


def test_the_catalog_passes_babel_checks():
    """What ``pybabel compile`` checks: every translation's placeholders fit its message."""
    errors = [(m.id, [str(e) for e in errs]) for m, errs in catalog().check()]
    assert not errors, errors[:10]


def test_no_message_is_inside_an_f_string():
    """Babel's extraction does not look inside an f-string (Python before 3.12 reads it
    as one token): a ``_("...")`` there never reaches the catalog and is shown in
    English. A message is made outside and its value put in (``_(name)`` of a message
    made elsewhere may stay)."""
    found = []
    for path in sorted([*(ROOT / "cuatrola_solver").rglob("*.py"), *(ROOT / "cli").rglob("*.py")]):
        for fstring in ast.walk(ast.parse(path.read_text())):
            if isinstance(fstring, ast.JoinedStr):
                found += [f"{path.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(fstring)
                          if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                          and n.func.id in ("_", "N_", "ngettext", "pgettext", "later")
                          and any(isinstance(a, ast.Constant) for a in n.args)]
    assert found == [], found


def test_the_catalog_is_up_to_date_with_the_code(tmp_path):
    """pybabel extract finds no message that the Spanish catalog lacks (run the commands
    of docs/i18n.md, then translate)."""
    pot = tmp_path / "cuatrola.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"),
                                "-o", str(pot), str(ROOT)])
    with open(pot, "rb") as f:
        extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog() if m.id}
    missing = sorted(extracted - known)
    assert not missing, (f"{len(missing)} messages not in the catalog (pybabel extract/update, "
                         f"docs/i18n.md): {missing[:10]}")


def test_language_from_the_environment():
    assert language_from_environment({}) == "en"
    assert language_from_environment({"LANG": "es_ES.UTF-8"}) == "es"
    assert language_from_environment({"LANG": "es_AR"}) == "es"
    assert language_from_environment({"LANG": "fr_FR.UTF-8"}) == "en"
    # the first locale variable set decides, as POSIX reads them
    assert language_from_environment({"LC_ALL": "en_US.UTF-8", "LANG": "es_ES.UTF-8"}) == "en"
    assert language_from_environment({"LC_MESSAGES": "es_ES", "LANG": "C"}) == "es"
    # CUATROLA_LANG before the locale; a value naming no language is passed over
    assert language_from_environment({"CUATROLA_LANG": "en", "LANG": "es_ES.UTF-8"}) == "en"
    assert language_from_environment({"CUATROLA_LANG": "es", "LANG": "C.UTF-8"}) == "es"
    assert language_from_environment({"CUATROLA_LANG": "xx", "LANG": "es_ES"}) == "es"


def test_language_from_the_command_line(monkeypatch):
    for name in ("CUATROLA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert command_line_language(["--lang", "es", "rules"]) == "es"
    assert command_line_language(["--lang=es", "rules"]) == "es"
    assert command_line_language(["rules"]) == "en"
    # an option of the command is the command's own, not the language
    assert command_line_language(["deal", "--lang", "es"]) == "en"
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert command_line_language(["rules"]) == "es"
    assert command_line_language(["--lang", "en", "rules"]) == "en"


def test_language_from_a_browser_header():
    assert language_from_header("es-ES,es;q=0.9,en;q=0.8") == "es"
    assert language_from_header("en-US,en;q=0.9,es;q=0.8") == "en"
    assert language_from_header("fr-FR,fr;q=0.9,es;q=0.5") == "es"
    assert language_from_header("de-DE") == "en"
    assert language_from_header(None) == "en"


def test_numbers_by_language():
    assert (decimal(1.6), signed(1.6), signed(-0.25), percent(0.7), percent(0.705, 1),
            count(10000)) == ("1.60", "+1.60", "-0.25", "70%", "70.5%", "10,000")
    with using_language("es"):
        assert (decimal(1.6), signed(1.6), signed(-0.25), percent(0.7), percent(0.705, 1),
                count(10000), count(1000)) == ("1,60", "+1,60", "-0,25", "70\u00a0%",
                                               "70,5\u00a0%", "10.000", "1000")
    assert count(1000) == "1,000"
    assert (shortest(0.8234), shortest(1.5), shortest(2.0)) == ("0.8234", "1.5", "2.0")
    with using_language("es"):
        assert (shortest(0.8234), shortest(12345.5)) == ("0,8234", "12.345,5")


def test_a_word_with_its_own_translation_in_one_place():
    """pgettext: the cell of a match won (equity) is not the history's column of hands won."""
    assert pgettext("match", "won") == "won"
    with using_language("es"):
        assert (pgettext("match", "won"), _("won")) == ("ganada", "ganadas")


def test_a_piece_of_work_in_its_own_language():
    """using_language (a request of the server) leaves the process's language alone."""
    i18n.set_language("en")
    with using_language("es"):
        assert i18n.language() == "es"
    assert i18n.language() == "en"
    with pytest.raises(ValueError):
        i18n.set_language("fr")




# --- the command line in Spanish ------------------------------------------------------------

#: common English words: none may be printed under --lang es (option names, card codes,
#: bids, preset and parameter names aside)
ENGLISH = re.compile(r"\b(the|and|of|with|you|your|seat|trick|tricks|points|wins?|hands?|"
                     r"deals?|sampled|played|call|calls|contract|partner|side|match|score|"
                     r"expected|bad|not|is|are|for|double|dummy|cards?|lead|odds|none|after|"
                     r"before|over|result|tie|rules|advice|type|shows|sing|play)\b",
                     re.IGNORECASE)
#: what is not a word of either language: option names and their values (metavars, the
#: choices of --model), quoted examples, record tags, rule parameters, command names
NOT_WORDS = re.compile(r"--[\w-]+|\b\w+_\w+\b|\b[A-Z]{2,}\b|'[^'\n]*'|^\[\w+ \"[^\"]*\"\]$|"
                       r"\bRules\b|\bplayed(?=[:|\]])|\bdd\b|cuatrola \w+|(?:Usage|Uso): .*$|"
                       r"\b(?:advise|hint|play|serve|solve|check|analyze|puzzles|charts|deal|"
                       r"rules|bench|equity|selfplay|calibrate|compare|bidmodel|cardmodel)"
                       r"(?= {2,})", re.MULTILINE)
#: the values of rule parameters (``solo_goal=tricks``), shown as they are typed
RULE_VALUES = re.compile(r"\b(none|double|lose|points|tricks|trick|last|mano|carbunco|over|"
                         r"exact|target|near)\b")
RECORD = str(ROOT / "examples/records/online-renuncio.json")
PUZZLES = str(ROOT / "examples/puzzles/random-v-heuristic.jsonl")
SPANISH_RUNS = {
    "advise": ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2", "--auction",
               "paso", "--seed", "1"],
    "hint": ["hint", "--hand", "Sc 3c Se 3e Sb", "--muestra", "Rc", "--seat", "2", "--played",
             "1. Rb Sb 3b Rc 2. Ao Ac"],
    "solve": ["solve", "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab",
              "--muestra", "Ab"],
    "check": ["check", RECORD],
    "check-text": ["check", str(ROOT / "examples/records/narro-solo.txt")],
    "rules": ["rules"],
    "rules-narro": ["rules", "narro"],
    "deal": ["deal", "--seed", "3"],
    "charts": ["charts"],
    "charts-cell": ["charts", "--seat", "2", "--hand", "Ac 3c Ro Co Ab", "--muestra", "So"],
    "puzzles": ["puzzles", PUZZLES],
    "bad-card": ["advise", "Ac 3c Ro Co Xx", "--muestra", "So", "--seat", "2"],
    "bad-seat": ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "7"],
    "bad-auction": ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "3", "--auction",
                    "solo paso paso"],
    "bad-score": ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2", "--score",
                  "3-x"],
    "no-file": ["check", "no-such-record.json"],
    "bad-option": ["advise", "--bogus"],
    "help": ["--help"],
    "advise-help": ["advise", "--help"],
    "hint-help": ["hint", "--help"],
    "play-help": ["play", "--help"],
}
#: the lab commands on tiny inputs (docs/lab.md): their reports, summaries and progress lines
LAB_RUNS = {
    "selfplay": ["selfplay", "--a", "heuristic", "--b", "random", "--hands", "2", "--workers",
                 "1", "--seed", "1"],
    "selfplay-matches": ["selfplay", "--a", "heuristic", "--b", "random", "--matches", "1",
                         "--workers", "1", "--seed", "2"],
    "equity": ["equity", "--rules", "narro"],
    "equity-online": ["equity"],
}
#: lab commands whose output holds timings (their --json differs run to run)
TIMED_RUNS = {
    "bench": ["bench", "--deals", "3"],
    "bench-players": ["bench", "--players", "1"],
}
#: the lab's refusals
LAB_ERRORS = {
    "selfplay-bad-auction": ["selfplay", "--a", "heuristic", "--b", "random", "--hands", "1",
                             "--auction", "paso solo"],
    "selfplay-resume-without-out": ["selfplay", "--a", "heuristic", "--b", "random",
                                    "--resume"],
}
SPANISH_RUNS.update(LAB_ERRORS)
SPANISH_RUNS.update(LAB_RUNS)
SPANISH_RUNS.update(TIMED_RUNS)


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(NOT_WORDS.sub(" ", text))


#: every command's help, and those of history's own commands
HELPS = [[name] for name in COMMANDS] + [["history", sub] for sub in
                                         ("import", "analyze", "rebuild", "merge")]
#: what a help names that is not a word: the commands it refers to (``play --save``), the
#: choices of a value (``dd|played``)
HELP_NAMES = re.compile(r"\b(?:" + "|".join(COMMANDS) + r")\b|\b\w+\|\w+\b")


@pytest.mark.parametrize("command", HELPS, ids=" ".join)
def test_every_help_is_spanish(command):
    r = runner.invoke(app, ["--lang", "es", *command, "--help"], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.stdout + r.stderr
    found = english_words(HELP_NAMES.sub(" ", r.stdout))
    assert not found, f"{command}: English words {sorted(set(found))} in:\n{r.stdout}"


@pytest.mark.parametrize("name", sorted(SPANISH_RUNS))
def test_spanish_output_has_no_english_words(name):
    r = runner.invoke(app, ["--lang", "es", *SPANISH_RUNS[name]], env={"COLUMNS": "100"})
    text = r.stdout + r.stderr
    assert text.strip(), name
    found = english_words(RULE_VALUES.sub(" ", text) if name.startswith("rules") else text)
    assert not found, f"{name}: English words {sorted(set(found))} in:\n{text}"


#: the lab commands that read a self-play run (``{records}``: the ``lab_records`` fixture)
LAB_FILE_RUNS = {
    "calibrate": ["calibrate", "{records}"],
    "calibrate-cards": ["calibrate", "{records}", "--cards", "--card-samples", "5",
                        "--workers", "1"],
    "compare": ["compare", "{records}", "--ask", "random"],
    "cardmodel": ["cardmodel", "{records}", "-o", "{folder}/cm.json"],
    "bidmodel": ["bidmodel", "--deals", "50", "--samples", "20", "-o", "{folder}/bm.json"],
}
#: those without --json (they write a model file and say what it holds)
NO_JSON = {"cardmodel", "bidmodel"}


@pytest.fixture(scope="module")
def lab_records(tmp_path_factory):
    """A tiny self-play run with the odds of every call."""
    path = tmp_path_factory.mktemp("lab") / "run.jsonl"
    r = runner.invoke(app, ["selfplay", "--a", "heuristic", "--b", "random", "--hands", "4",
                            "--workers", "1", "--seed", "4", "--odds-samples", "10",
                            "--out", str(path), "--json"])
    assert r.exit_code == 0, r.stdout + r.stderr
    return path


@pytest.mark.parametrize("name", sorted(LAB_FILE_RUNS))
def test_spanish_lab_reports_have_no_english_words(name, lab_records):
    args = [a.format(records=lab_records, folder=lab_records.parent)
            for a in LAB_FILE_RUNS[name]]
    r = runner.invoke(app, ["--lang", "es", *args], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.stdout + r.stderr
    text = (r.stdout + r.stderr).replace(str(lab_records.parent), "RUN")   # the path's words
    found = english_words(text)
    assert not found, f"{name}: English words {sorted(set(found))} in:\n{text}"
    if name in NO_JSON:
        return
    english = runner.invoke(app, ["--lang", "en", *args, "--json"])
    spanish = runner.invoke(app, ["--lang", "es", *args, "--json"])
    assert english.exit_code == 0 and spanish.stdout == english.stdout


def test_a_lab_refusal_in_spanish(lab_records):
    r = runner.invoke(app, ["--lang", "es", "compare", str(lab_records), str(lab_records)])
    assert r.exit_code == 2
    text = r.stderr.replace(str(lab_records.parent), "RUN")
    assert "otra vez la tanda" in text and not english_words(text), text


def test_the_charts_page_in_spanish(tmp_path):
    """charts --html: the page's words (tags, styles, script and the recorded provenance
    aside) and its lang."""
    page = tmp_path / "charts.html"
    r = runner.invoke(app, ["--lang", "es", "charts", "--html", str(page)])
    assert r.exit_code == 0, r.stdout + r.stderr
    text = page.read_text(encoding="utf-8")
    assert '<html lang="es">' in text
    assert "Cómo se hizo" in text
    # the foot quotes the charts' provenance as it was recorded (English data)
    words = re.sub(r"<style>.*?</style>|<script>.*?</script>|<p class=\"foot\">.*?</p>|<[^>]*>",
                   " ", text, flags=re.S)
    found = english_words(html.unescape(words))
    assert not found, f"English words {sorted(set(found))} in the page"


def test_play_through_a_pipe_in_spanish():
    r = runner.invoke(app, ["--lang", "es", "play", "--seat", "1", "--bots", "heuristic",
                            "--seed", "7"], input="paso\nAb\nRc\nSo\nRc\nRb\n3b\n?\n")
    found = english_words(r.stdout)
    assert not found, f"English words {sorted(set(found))} in:\n{r.stdout}"
    assert "tu apuesta" in r.stdout and "baza" in r.stdout


@pytest.mark.parametrize("args", [
    ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2", "--seed", "1"],
    ["hint", "--hand", "Sc 3c Se 3e Sb", "--muestra", "Rc", "--seat", "2", "--played",
     "1. Rb Sb 3b Rc 2. Ao Ac", "--seed", "1"],
    ["check", RECORD], ["rules", "narro"], ["deal", "--seed", "3"], ["charts", "--seat", "2"],
    ["puzzles", PUZZLES], *LAB_RUNS.values(),
], ids=lambda a: a[0])
def test_json_is_the_same_in_both_languages(args):
    english = runner.invoke(app, ["--lang", "en", *args, "--json"])
    spanish = runner.invoke(app, ["--lang", "es", *args, "--json"])
    assert english.exit_code == 0, english.stdout + english.stderr
    assert spanish.stdout == english.stdout


def test_the_language_from_the_locale_alone():
    """LANG=es_ES.UTF-8 is enough, with no locale installed."""
    r = runner.invoke(app, ["rules", "narro"], env={"LANG": "es_ES.UTF-8", "LC_ALL": None,
                                                    "LC_MESSAGES": None, "CUATROLA_LANG": None})
    assert r.stdout.startswith("reglas: narro")
    r = runner.invoke(app, ["--lang", "en", "rules", "narro"], env={"LANG": "es_ES.UTF-8"})
    assert r.stdout.startswith("rules: narro")


#: scopes of their own: a name bound inside one does not shadow the function's ``_``
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
          ast.DictComp, ast.GeneratorExp)


def _bound_here(fn: ast.AST) -> set[str]:
    """The names a function binds in its own scope (not in comprehensions, nested
    functions or lambdas)."""
    names: set[str] = set()
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        if not isinstance(node, SCOPES):
            todo += ast.iter_child_nodes(node)
    return names


def test_no_function_shadows_the_translation():
    """A function that both calls ``_()`` and binds ``_`` (``for _, x in ...``) fails at
    run time: none may."""
    bad = []
    for path in [*ROOT.glob("cli/*.py"), *ROOT.glob("cuatrola_solver/**/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and "_" in _bound_here(fn):
                if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                       and n.func.id == "_" for n in ast.walk(fn)):
                    bad.append(f"{path.relative_to(ROOT)}:{fn.lineno}")
    assert not bad, bad
