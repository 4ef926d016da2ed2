"""Numbers and dates on the pages the server draws, in the page's language, without Babel's
locale data (it costs about 5 MB of resident memory for these few formats: docs/benchmarks.md)."""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext

from .common import select_locale

#: each language's decimal separator and thousands separator (English's when not listed)
SEPARATORS = {"it": (",", ".")}


def _separators() -> tuple[str, str]:
    return SEPARATORS.get(select_locale(), (".", ","))


def decimal(value: float, places: int) -> str:
    """``value`` with ``places`` decimals and the language's separators ("1,234.5", "1.234,5")."""
    point, thousands = _separators()
    whole, _, fraction = f"{value:,.{places}f}".partition(".")
    whole = whole.replace(",", thousands)
    return f"{whole}{point}{fraction}" if fraction else whole


def number(value: float) -> str:
    """``value`` with at most one decimal, none when it is whole ("12", "12.5")."""
    rounded = round(value, 1)
    return decimal(rounded, 0 if rounded == int(rounded) else 1)


def percent(rate: float) -> str:
    """A rate from 0 to 1 as a whole percentage ("50%")."""
    return decimal(round(rate * 100), 0) + "%"


def month(number_of_month: int) -> str:
    """A month's short name in the page's language."""
    return (
        gettext("Jan"),
        gettext("Feb"),
        gettext("Mar"),
        gettext("Apr"),
        gettext("May"),
        gettext("Jun"),
        gettext("Jul"),
        gettext("Aug"),
        gettext("Sep"),
        gettext("Oct"),
        gettext("Nov"),
        gettext("Dec"),
    )[number_of_month - 1]


def date(iso: str) -> str:
    """A stored moment (ISO 8601) as its day ("29 Nov 2026"); the text itself when it is none."""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return str(iso)[:10]
    return f"{moment.day} {month(moment.month)} {moment.year}"
