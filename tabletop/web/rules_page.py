"""``GET /games/{game}/rules``: a game's rules text (``Game.rules_text()``, Markdown) as a page.

The Markdown is rendered by markdown-it-py (CommonMark, the renderer rich already brings)
with raw HTML switched off: whatever a plugin's text holds, no tag or script of its own
reaches the page (it shows as text), and links to ``javascript:`` and the like are dropped
by the library's link check.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

TITLE = "Rules of {name}"
BACK = "Back to the lobby"

_renderer = MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str) -> str:
    """Safe HTML for ``text`` (raw HTML in it is escaped, never passed through)."""
    html: str = _renderer.render(text)
    return html


def page(game_id: str, name: str, markdown: str) -> str:
    """The rules page's HTML."""
    title = escape(TITLE.format(name=name))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · tabletop</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><header><a href="/">tabletop</a><span>{title}</span></header>
<main><article class="rules" data-rules="{escape(game_id)}">
{render_markdown(markdown)}
</article><p><a href="/">{escape(BACK)}</a></p></main></body></html>
"""
