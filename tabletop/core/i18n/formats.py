"""Numbers and dates in the reader's language, through Babel's CLDR data.

English keeps the plain forms tabletop always printed (``1234``, ``12``), so English
output stays byte-identical; other languages get their own separators and month names.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from tabletop.core.i18n.catalogues import ENGLISH
from tabletop.core.i18n.text import Msg, current


def number(value: float, lang: str | None = None, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals: ``1234`` in English, ``1 234`` in Czech."""
    lang = lang or current()
    if lang == ENGLISH:
        return f"{value:.{digits}f}"
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return str(format_decimal(round(value, digits), format=pattern, locale=lang))


def percent(value: float, lang: str | None = None) -> str:
    """``value`` percent: ``87.5%`` in English (as printed), ``87,5 %`` in Czech (CLDR's
    pattern, a no-break space before the sign where the language puts one)."""
    lang = lang or current()
    if lang == ENGLISH:
        return f"{value:g}%"
    from decimal import Decimal

    from babel.numbers import format_percent

    # Decimal: 78.6 / 100 in binary floating point is 0.78599999…, which Babel would
    # print in full ("78,59999999999999 %"); as the English line, at most 6 digits.
    exact = Decimal(f"{value:g}") / 100
    return str(format_percent(exact, locale=lang, decimal_quantization=False))


class Count(Msg):
    """A number inside a message, formatted in the reader's language where it is shown:
    ``2,000,000`` in English (the text tabletop always printed), ``2 000 000`` (no-break
    spaces) in Czech, Polish, Bulgarian and Russian. Pass it as a parameter: ``_("{nodes}
    positions", nodes=Count(nodes))``; ``grouped=False`` keeps English ungrouped (``3000``)
    where it always was."""

    value: float
    digits: int
    grouped: bool

    def __new__(cls, value: float, digits: int = 0, grouped: bool = True) -> Count:
        english = f"{value:,.{digits}f}" if grouped else f"{value:.{digits}f}"
        self = cast("Count", super().__new__(cls, english, None, ""))
        self.value = value
        self.digits = digits
        self.grouped = grouped
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Count, (self.value, self.digits, self.grouped))

    def translated(self, lang: str) -> str:
        """The number in ``lang``'s digits and separators (English: as printed)."""
        return str(self) if lang == ENGLISH else number(self.value, lang, self.digits)


def date_time(moment: dt.datetime, lang: str | None = None) -> str:
    """A moment, medium length: ``2026-12-02 01:05`` in English, ``2. 12. 2026 1:05`` in Czech."""
    lang = lang or current()
    if lang == ENGLISH:
        return moment.strftime("%Y-%m-%d %H:%M")
    from babel.dates import format_datetime

    return str(format_datetime(moment, format="short", locale=lang))
