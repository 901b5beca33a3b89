"""The language of everything a person reads: gettext catalogs, one per language.

Human text is written in English in the code, wrapped in :func:`_` (or :func:`ngettext`
where a number chooses the form), and translated through the ``cuatrola`` gettext domain
whose catalogs live in ``cuatrola_solver/locale/LANG/LC_MESSAGES/``. Machine output
(``--json``, records, card codes, bids) is never translated.

:func:`set_language` chooses the language for the process; until it is called, or for a
language with no catalog, the English text is returned unchanged.
"""

from __future__ import annotations

import gettext
from pathlib import Path

#: the gettext domain of every message of the project
DOMAIN = "cuatrola"
#: where the compiled catalogs are: ``LOCALE_DIR / LANG / "LC_MESSAGES" / "cuatrola.mo"``
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: the languages of the interface, the first the one the messages are written in
LANGUAGES = ("en", "es")

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def set_language(language: str) -> None:
    """Translate from now on into ``language`` (``"en"`` or ``"es"``)."""
    global _translations, _language
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: expected one of {', '.join(LANGUAGES)}")
    _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)
    _language = language


def language() -> str:
    """The language messages are translated into now."""
    return _language


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of the message for ``n`` (``1 baza``, ``2 bazas``) in the current language."""
    return _translations.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is defined; translated where shown."""
    return message
