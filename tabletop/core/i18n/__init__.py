"""Play in your own language: gettext catalogues, marked messages, the language chosen.

- :mod:`.text`: the markers. ``_ = Domain("tabletop_quarto")`` in a module, then
  ``_("{square} is occupied by {piece} (Q3.3)", square=..., piece=...)`` is a
  :class:`Msg`: a ``str`` whose value is the English text (so every comparison, JSON
  record and scenario sees English), carrying its msgid and parameters so that it is
  translated where it is shown (:func:`translate`), in the language of whoever reads it.
- :mod:`.languages`: the supported languages and how one is chosen
  (``--lang`` > ``TABLETOP_LANG`` > ``LC_ALL``/``LC_MESSAGES``/``LANG`` > English).
- :mod:`.catalogues`: each domain's ``.po`` files (``<package>/locale/<lang>/LC_MESSAGES/
  <package>.po``), compiled with Babel in memory at first use.
- :mod:`.formats`: numbers and dates through Babel's CLDR data.

Only :mod:`.catalogues` and :mod:`.formats` import Babel, and only when a language other
than English is used: English play never imports it.
"""

from __future__ import annotations

from tabletop.core.i18n.languages import LANGUAGES, NAMES, choose
from tabletop.core.i18n.text import Domain, Msg, current, message_of, set_language, translate

__all__ = [
    "LANGUAGES",
    "NAMES",
    "Domain",
    "Msg",
    "choose",
    "current",
    "message_of",
    "set_language",
    "translate",
]
