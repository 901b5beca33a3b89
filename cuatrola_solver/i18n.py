"""The language of everything a person reads: gettext catalogs, one per language, and
numbers written the way each language writes them.

Human text is written in English in the code, wrapped in :func:`_` (or :func:`ngettext`
where a number chooses the form), and translated through the ``cuatrola`` gettext domain
whose catalogs live in ``cuatrola_solver/locale/LANG/LC_MESSAGES/`` (``cuatrola.po``,
edited with Babel's ``pybabel extract / update / compile``, docs/i18n.md; the ``.mo`` is
compiled when the package is built or installed, and read from the ``.po`` itself when
it is missing or older). Machine output (``--json``, records, card codes, bids) is never
translated.

:func:`set_language` chooses the language for the process; :func:`using_language` for
one piece of work (a request of the web server) without touching the others. Until one is
called, or for a language with no catalog, the English text is returned unchanged.
:func:`language_from_environment` reads ``CUATROLA_LANG``, then the locale variables;
:func:`language_from_header` reads a browser's ``Accept-Language``.

The numbers: :func:`decimal`, :func:`signed`, :func:`percent`, :func:`count` write
``1,60``, ``+1,60``, ``70 %``, ``10.000`` in Spanish (Babel's CLDR data) and exactly
what Python's own formats give in English (``1.60``, ``+1.60``, ``70%``, ``10,000``);
Spanish groups digits from 10.000 on (``1000``), as CLDR says.
"""

from __future__ import annotations

import contextlib
import gettext
import io
import os
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator, Mapping

#: the gettext domain of every message of the project
DOMAIN = "cuatrola"
#: where the catalogs are: ``LOCALE_DIR / LANG / "LC_MESSAGES" / "cuatrola.po"`` (and .mo)
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: the languages of the interface, the first the one the messages are written in
LANGUAGES = ("en", "es")
#: the variable that chooses the language, before the locale's
LANGUAGE_VARIABLE = "CUATROLA_LANG"
#: the locale's variables, in the order POSIX reads them (the first one set decides)
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

_catalogs: dict[str, gettext.NullTranslations] = {}
_process: list[str] = ["en"]
_piece: ContextVar[str | None] = ContextVar("cuatrola_language", default=None)


def catalog_paths(language: str) -> tuple[Path, Path]:
    """The ``.po`` and ``.mo`` files of ``language``."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


def compile_catalog(po: Path) -> bytes:
    """The ``.mo`` bytes of the catalog ``po`` (fuzzy messages left out, as msgfmt does)."""
    # Babel on demand: English, and an installed .mo, start without it
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with open(po, "rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def translations(language: str) -> gettext.NullTranslations:
    """The catalog of ``language``: its ``.mo``, or its ``.po`` compiled in memory when the
    ``.mo`` is missing or older (a checkout not rebuilt since the ``.po`` changed); English,
    and a language without a catalog, translate nothing."""
    if language not in _catalogs:
        po, mo = catalog_paths(language)
        found: gettext.NullTranslations = gettext.NullTranslations()
        if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
            with open(mo, "rb") as f:
                found = gettext.GNUTranslations(f)
        elif po.exists():
            found = gettext.GNUTranslations(io.BytesIO(compile_catalog(po)))
        _catalogs[language] = found
    return _catalogs[language]


def _check(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}")
    return language


def set_language(language: str) -> None:
    """Translate from now on into ``language`` (``"en"`` or ``"es"``)."""
    _process[0] = _check(language)


@contextlib.contextmanager
def using_language(language: str) -> Iterator[None]:
    """Translate into ``language`` inside the ``with`` block (this thread or task, and the
    threads it starts with its context), the process's language elsewhere."""
    token = _piece.set(_check(language))
    try:
        yield
    finally:
        _piece.reset(token)


def language() -> str:
    """The language messages are translated into now."""
    return _piece.get() or _process[0]


class Later(str):
    """English text that keeps its message and values (made by :func:`later`): as a
    ``str`` it is the English, which JSON output and records keep; :func:`_` writes it
    in the current language where it is shown."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, values: dict[str, object]) -> "Later":
        text = super().__new__(cls, template.format(**values) if values else template)
        text.template, text.values = template, values
        return text


def later(template: str, **values: object) -> str:
    """``template.format(**values)`` in English now, translated where it is shown:
    for text that is both machine output (a ``reason`` field of ``--json``) and read by
    a person (``_(reason)``)."""
    return Later(template, values)


def _(message: str) -> str:
    """``message`` in the current language (a :func:`later` text with its values, each
    of them that is one too translated)."""
    if isinstance(message, Later):
        return _(message.template).format(
            **{k: _(v) if isinstance(v, Later) else v for k, v in message.values.items()})
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of the message for ``n`` (``1 baza``, ``2 bazas``) in the current language."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language where a word needs its own translation in one
    place (``pgettext("match", "won")``: ``ganada``, where ``_("won")`` is ``ganadas``)."""
    return translations(language()).pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is defined; translated where shown."""
    return message


# --- choosing the language ----------------------------------------------------------------

def language_of(name: str | None) -> str | None:
    """The interface language a language or locale name asks for (``es``, ``es_ES.UTF-8``,
    ``es-AR`` -> ``"es"``; ``en_GB`` -> ``"en"``), None for any other."""
    if not name:
        return None
    code = name.strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    return code if code in LANGUAGES else None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """``CUATROLA_LANG`` when it names a language; else the first locale variable set
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``): ``es_*`` is Spanish -- the locale need not be
    installed; else English."""
    environ = os.environ if environ is None else environ
    chosen = language_of(environ.get(LANGUAGE_VARIABLE))
    if chosen:
        return chosen
    for name in LOCALE_VARIABLES:
        if environ.get(name):
            return language_of(environ[name]) or "en"
    return "en"


def language_from_header(header: str | None) -> str:
    """The language of an ``Accept-Language`` header (``es-ES,es;q=0.9,en;q=0.8`` ->
    ``"es"``): the interface language with the highest weight, English when none."""
    best, weight = "en", -1.0
    for part in (header or "").split(","):
        name, _sep, params = part.strip().partition(";")
        chosen = language_of(name)
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if chosen and q > weight:
            best, weight = chosen, q
    return best


# --- numbers --------------------------------------------------------------------------------

def _babel(value: float, pattern: str) -> str:
    """``value`` in Babel's pattern for the current language; a number under 10,000 is
    written without a group separator (``1000``, ``10.000``: CLDR's minimum grouping
    digits of Spanish, which Babel does not apply)."""
    from babel.numbers import format_decimal      # on demand: English starts without it
    return format_decimal(value, format=pattern, locale=language(),
                          group_separator=abs(value) >= 10000)


def _fraction_pattern(digits: int) -> str:
    return "#,##0" + ("." + "0" * digits if digits else "")


def decimal(value: float, digits: int = 2) -> str:
    """``1.60`` in English, ``1,60`` in Spanish."""
    if language() == "en":
        return f"{value:.{digits}f}"
    return _babel(value, _fraction_pattern(digits))


def signed(value: float, digits: int = 2) -> str:
    """``+1.60`` / ``-0.25`` in English, ``+1,60`` / ``-0,25`` in Spanish."""
    if language() == "en":
        return f"{value:+.{digits}f}"
    pattern = _fraction_pattern(digits)
    return _babel(value, f"+{pattern};-{pattern}")


def percent(fraction: float, digits: int = 0) -> str:
    """A fraction as a percentage: ``70%`` / ``70.5%`` in English, ``70 %`` / ``70,5 %``
    in Spanish (a no-break space before the sign, as Spanish writes it)."""
    if language() == "en":
        return f"{100 * fraction:.{digits}f}%"
    return _babel(100 * fraction, _fraction_pattern(digits)) + "\u00a0%"


def shortest(value: float) -> str:
    """A number with the digits Python's ``str`` gives it (``0.8234``, ``1.5``), in the
    current language (``0,8234``): for figures already rounded where they are made."""
    text = str(value)
    if "." not in text or "e" in text or "n" in text:
        return text
    return decimal(value, len(text.split(".")[1]))


def count(n: int) -> str:
    """A whole number: ``10,000`` in English, ``10.000`` in Spanish."""
    if language() == "en":
        return f"{n:,}"
    return _babel(n, "#,##0")
