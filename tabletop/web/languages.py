"""The browser's language: chosen per request and per connection, and the catalogues the
page scripts translate with (JSON, no build step).

A request speaks ``?lang=CODE``, else the ``tabletop_lang`` cookie the header's switcher
sets (the browser remembers it), else the best of ``Accept-Language``, else English. An
unknown ``?lang`` is refused with the list of languages.

Routes: ``GET /api/i18n?lang=CODE`` (the chosen language, the languages and their names,
and the catalogues of the core, of the pages and of every installed game, each
``{"plural": ..., "messages": {msgid: text or [forms]}}``), ``GET
/api/games/{game}/rules?lang=CODE`` (the game's rules text in that language, Markdown).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tabletop.core.errors import UnknownGameError, UsageError
from tabletop.core.i18n.catalogues import as_json
from tabletop.core.i18n.languages import NAMES, check, from_accept_language
from tabletop.core.i18n.scripts import MessageId, script_messages
from tabletop.core.i18n.text import ENGLISH, Msg, speaking, translate
from tabletop.core.presentation import presentation_of

COOKIE = "tabletop_lang"
PAGES = "tabletop.web"  # the domain of the pages' own words (tabletop/web/locale/)


def chosen(connection: HTTPConnection) -> str:
    """The language of a request or websocket; UsageError for an unknown ``?lang``."""
    asked = connection.query_params.get("lang")
    if asked:
        return check(asked, "?lang")
    remembered = connection.cookies.get(COOKIE, "")
    if remembered.strip().lower() in NAMES:
        return remembered.strip().lower()
    return from_accept_language(connection.headers.get("accept-language", "")) or ENGLISH


def spoken(connection: HTTPConnection) -> str:
    """:func:`chosen`, English for an unknown ``?lang`` (where a refusal is already said)."""
    try:
        return chosen(connection)
    except UsageError:
        return ENGLISH


def said(message: str, connection: HTTPConnection) -> str:
    """``message`` (an error's, a Msg) in the language of the request or websocket."""
    return translate(message, spoken(connection))


def in_language(value: Any, lang: str) -> Any:
    """``value`` (JSON) with each message in it (a game's summary, an option's help) in
    ``lang``; machine keys and plain strings stay as they are."""
    if isinstance(value, Msg):
        return translate(value, lang)
    if isinstance(value, dict):
        return {key: in_language(item, lang) for key, item in value.items()}
    if isinstance(value, list):
        return [in_language(item, lang) for item in value]
    return value


def refusal(exc: UsageError, lang: str = ENGLISH) -> Response:
    return JSONResponse({"error": translate(exc.args[0], lang)}, status_code=400)


def routes(games: Any) -> list[Route]:
    """The two routes, for the games of ``games`` (a Registry)."""

    async def catalogues(request: Request) -> Response:
        try:
            lang = chosen(request)
        except UsageError as exc:
            return refusal(exc)
        domains = ["tabletop", PAGES] + [
            type(games.get(gid)).__module__.split(".")[0] for gid in games.ids()
        ]
        return JSONResponse(
            {
                "lang": lang,
                "languages": NAMES,
                "catalogues": {domain: as_json(domain, lang) for domain in domains},
            },
            headers={"Vary": "Accept-Language, Cookie"},
        )

    async def rules(request: Request) -> Response:
        try:
            lang = chosen(request)
            game = games.get(request.path_params["game"])
        except UsageError as exc:
            return refusal(exc)
        except UnknownGameError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        text = speaking(lang, presentation_of(game).rules_text)
        return JSONResponse({"game": game.info.id, "lang": lang, "markdown": text})

    return [
        Route("/api/i18n", catalogues),
        Route("/api/games/{game}/rules", rules),
    ]


STATIC = Path(__file__).parent / "static"
_ELEMENT = re.compile(r"<(\w+)[^>]*\bdata-i18n(?=[\s>=])(?:=\"([^\"]*)\")?[^>]*>([^<]*)<")
_ATTRIBUTE = re.compile(r"\bdata-i18n-(?:placeholder|title|label)=\"([^\"]+)\"")
_CALL = re.compile(r"\bt\(\s*\"((?:[^\"\\]|\\.)*)\"")


def page_messages(folder: Path = STATIC) -> list[MessageId]:
    """The pages' own msgids: the text of each ``data-i18n`` element (or its value), each
    ``data-i18n-placeholder``/``-title``/``-label``, each ``t("...")`` of the scripts and
    each entry of their ``words({...})`` tables (a pair for a count); in order."""
    found: dict[MessageId, None] = {}
    for path in sorted(folder.glob("*.html")) + sorted(folder.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for _tag, value, inner in _ELEMENT.findall(text):
            found[(value or inner).strip()] = None
        for value in _ATTRIBUTE.findall(text):
            found[value] = None
        for value in _CALL.findall(text):
            found[value] = None
        for key in script_messages(path):
            found[key] = None
    return [m for m in found if m]
