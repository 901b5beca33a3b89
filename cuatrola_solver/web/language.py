"""The page's language: the messages its scripts show, from the same catalogs as the
command line, and the language each request is answered in (docs/i18n.md).

- ``GET /api/messages?lang=es`` (:func:`messages_route`) answers
  ``{"language": "es", "messages": {msgid: msgstr or [singular, plural]}}``: the messages
  of the catalog found in the page's files (``static/*.js``, ``static/*.html``), which
  ``static/i18n.js`` reads to define ``t(msgid, params)`` and ``tn(singular, plural, n,
  params)``.
- Every request is answered in the language of the page (:class:`RequestLanguage`): the
  ``cuatrola_lang`` cookie that ``i18n.js`` sets from the page's switch, else the
  browser's ``Accept-Language``; so the server's messages (a bad hand, a bad record) come
  in the page's language."""

from __future__ import annotations

import functools
from http.cookies import SimpleCookie
from typing import Any

from babel.messages.pofile import read_po
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..i18n import DOMAIN, catalog_paths, language_from_header, language_of, using_language

__all__ = ["page_messages", "request_language", "messages_route", "RequestLanguage", "COOKIE"]

#: the cookie that carries the page's chosen language
COOKIE = "cuatrola_lang"
#: the files of the page whose messages are sent to it
PAGE_FILES = ("web/static/",)


@functools.lru_cache(maxsize=None)
def page_messages(language: str) -> dict[str, Any]:
    """The page's messages in ``language``: ``{msgid: msgstr}``, a plural message as
    ``{singular: [singular form, plural form]}``; untranslated ones left out (the page
    shows their English)."""
    po, _mo = catalog_paths(language)
    if language == "en" or not po.exists():
        return {}
    with open(po, "rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    found: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        if not any(any(part in path for part in PAGE_FILES) for path, _line in message.locations):
            continue
        if isinstance(message.id, (tuple, list)):
            found[message.id[0]] = list(message.string)
        else:
            found[message.id] = message.string
    return found


def request_language(headers: Any) -> str:
    """The language a request is answered in: its ``cuatrola_lang`` cookie when it names
    a language, else its ``Accept-Language``."""
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:                   # a malformed cookie header: as if none
        cookie = SimpleCookie()
    chosen = language_of(cookie[COOKIE].value) if COOKIE in cookie else None
    return chosen or language_from_header(headers.get("accept-language"))


async def messages_route(request: Request) -> Response:
    """``GET /api/messages?lang=es``: the page's messages (the request's language when
    ``lang`` is not given or names no language)."""
    language = language_of(request.query_params.get("lang")) or request_language(request.headers)
    return JSONResponse({"language": language, "messages": page_messages(language)},
                        headers={"Cache-Control": "no-store"})


class RequestLanguage:
    """ASGI middleware: the request handled in its language (:func:`request_language`),
    the worker threads it starts too."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        with using_language(request_language(headers)):
            await self.app(scope, receive, send)
