"""``GET /games/{game}/rules``: a game's rules text (its ``rules_text()``, Markdown) as a page,
in the connection's language (``?lang=``, the switcher's cookie, ``Accept-Language``: the
game's ``README.<lang>.md``, read as ``tabletop rules --lang`` reads it).

The Markdown is rendered by markdown-it-py (CommonMark, the renderer rich already brings)
with raw HTML switched off: whatever a plugin's text holds, no tag or script of its own
reaches the page (it shows as text), and links to ``javascript:`` and the like are dropped
by the library's link check.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

from tabletop.core.i18n.text import ENGLISH, Domain, translate

_ = Domain("tabletop")

_renderer = MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str) -> str:
    """Safe HTML for ``text`` (raw HTML in it is escaped, never passed through)."""
    html: str = _renderer.render(text)
    return html


def page(game_id: str, name: str, markdown: str, lang: str = ENGLISH) -> str:
    """The rules page's HTML, its own words in ``lang`` (``markdown`` is already in it)."""
    title = escape(translate(_("Rules of {name}", name=name), lang))
    back = escape(translate(_("Back to the lobby"), lang))
    return f"""<!doctype html>
<html lang="{escape(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · tabletop</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><header><a href="/">tabletop</a><span>{title}</span></header>
<main><article class="rules" data-rules="{escape(game_id)}">
{render_markdown(markdown)}
</article><p><a href="/">{back}</a></p></main>
<script type="module" src="/static/i18n.js"></script></body></html>
"""
