"""``tabletop serve``: every installed game in the browser (Starlette, uvicorn, SQLite).

Imported only by the ``serve`` command and the web tests; ``play``, ``run`` and
``games`` never load it. The protocol is documented in ``docs/web.md``.
"""
