"""The two languages (docs/i18n.md): the catalog complete and up to date with the code,
the language chosen from --lang, CUATROLA_LANG and the locale, numbers by language, and
machine output the same bytes in both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from cuatrola_cli.common import command_line_language
from cuatrola_solver import i18n
from cuatrola_solver.i18n import (_, count, decimal, language_from_environment,
                                  language_from_header, ngettext, percent, signed,
                                  using_language)

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "cuatrola_solver" / "locale" / "es" / "LC_MESSAGES" / "cuatrola.po"
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


def test_a_piece_of_work_in_its_own_language():
    """using_language (a request of the server) leaves the process's language alone."""
    i18n.set_language("en")
    with using_language("es"):
        assert i18n.language() == "es"
    assert i18n.language() == "en"
    with pytest.raises(ValueError):
        i18n.set_language("fr")


