"""Dates as each language writes them, from the CLDR data Babel ships: "May 1, 2024",
"2024年5月1日"."""

from __future__ import annotations

from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal

from ..load.frontmatter import parse_iso


@lru_cache(maxsize=64)
def locale_of(lang: str) -> Locale | None:
    """The CLDR locale of an HTML lang attribute ("zh-CN", "ja"), or of its language
    alone ("zh"); None if CLDR knows neither."""
    for tag in (lang, lang.split("-")[0]):
        try:
            return Locale.parse(tag, sep="-")
        except (UnknownLocaleError, ValueError):
            continue
    return None


@lru_cache(maxsize=4096)
def long_date(iso: str, lang: str) -> str:
    """An ISO date (or date-time: its date, as written) in the language's long form; the
    ISO date itself where CLDR does not know the language."""
    day = parse_iso(iso).date()
    locale = locale_of(lang)
    return format_date(day, format="long", locale=locale) if locale else day.isoformat()



def name_list(names: tuple[str, ...], lang: str) -> str:
    """Names joined as the language joins them: "A, B, and C", "A、B和C"."""
    locale = locale_of(lang)
    return format_list(list(names), locale=locale) if locale else ", ".join(names)


@lru_cache(maxsize=4096)
def number(value: int, lang: str) -> str:
    """A whole number as the language groups its digits: 12,345."""
    locale = locale_of(lang)
    return format_decimal(value, locale=locale) if locale else str(value)
