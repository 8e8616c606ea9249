"""An article source's front matter: the fields, declared once, and their checks.

    title, description   required, non-empty text
    date, updated        an ISO 8601 date (2024-05-01) or date and time
                         (2024-05-01T09:30:00+08:00; without an offset, UTC)
    authors              a list of names, or one name
    tags                 a list of tags, or one tag
    draft                true or false (default false): left out unless drafts are asked for
    image                the preview image: a path in the article's folder, or an http(s) URL
    extra                a mapping of the author's own, handed to the templates as `extra`
    numbering            true or false: whether the page numbers the `##` sections (default:
                         site.yaml's, or none when the headings carry their own numbers:
                         load/numbering.py)

Values are kept as plain data (dates as ISO text) so that the memo (sourcefiles.Memo)
can keep them across builds.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

from ..problems import Problems
from .schema import Context, Record, Value, flag, text
from .sourcefiles import key_of

URL = re.compile(r"^https?://\S+\Z")


@dataclass(frozen=True)
class FrontMatter:
    title: str
    description: str
    date: str | None = None        # ISO 8601: "2024-05-01" or "2024-05-01T09:30:00+08:00"
    updated: str | None = None
    authors: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    draft: bool = False
    image: str | None = None       # relative to the article's folder, or an absolute URL
    extra: dict = field(default_factory=dict)
    numbering: bool | None = None  # None: site.yaml's, or as the headings (load/numbering.py)
    # Not written by the author: counted from the body (wordcount.py).
    words: int = 0                 # CJK characters plus other words
    minutes: int = 0               # reading time, in the source's language

    @cached_property
    def uncounted(self) -> FrontMatter:
        """Without the word count and reading time. Kept with the front matter: a quick
        rebuild asks it of every article's sources, and these are the same objects from
        build to build unless edited."""
        return replace(self, words=0, minutes=0)

    @cached_property
    def uncounted_digest(self) -> str:
        """What pages that list the article key on (build.plan_pages), kept likewise."""
        return key_of(self.uncounted)

    @property
    def newest(self) -> str | None:
        """The last date the article changed: `updated`, else `date`."""
        return self.updated or self.date


def _date(value: Any) -> str:
    date = iso_date(value)
    if date is None:
        raise ValueError
    return date


def _names(value: Any) -> tuple[str, ...]:
    names = texts(value)
    if names is None:
        raise ValueError
    return names


def _image(value: Any) -> str:
    if not isinstance(value, str) or not (URL.match(value) or relative_file(value)):
        raise ValueError
    return value


def _extra(value: Any) -> dict:
    if not isinstance(value, dict):
        raise TypeError
    return plain(value)


DATE = ("'{key}' must be an ISO date such as 2024-05-01, or a date and time such as "
        "2024-05-01T09:30:00+08:00; found '{value}'")
FRONT_MATTER = Record(
    "front matter",
    title=Value(text, "'{key}' must be non-empty text"),
    description=Value(text, "'{key}' must be non-empty text"),
    date=Value(_date, DATE, required=False),
    updated=Value(_date, DATE, required=False),
    authors=Value(_names, "'{key}' must be a list of author names (or a single one), each "
                  "non-empty text", required=False, default=()),
    tags=Value(_names, "'{key}' must be a list of tags (or a single one), each non-empty "
               "text", required=False, default=()),
    draft=Value(flag, "'{key}' must be true or false; found '{value}'", required=False,
                default=False),
    image=Value(_image, "'{key}' must be a path inside the article's folder (such as "
                "cover.png) or an http(s) URL; found '{value}'", required=False),
    extra=Value(_extra, "'{key}' must be a mapping (key: value lines)", required=False,
                default={}),
    numbering=Value(flag, "'{key}' must be true or false; found '{value}'", required=False))


# Beside the fields parse_front_matter gives: the line of `image:` (for its problems).
IMAGE_LINE = "image_line"


def parse_front_matter(meta: Any, path: Path, language: str,
                       problems: Problems) -> dict | None:
    """The checked fields as plain data (FrontMatter's fields), or None if unusable. Every
    problem of the front matter is reported, not only the first."""
    fields = Context(path, problems, language=language).read(FRONT_MATTER, meta)
    if fields is None:
        return None
    if fields.get("date") and fields.get("updated") and \
            sort_key(fields["updated"]) < sort_key(fields["date"]):
        fields.ok = False
        problems.add(path, fields.line_of("updated"), f"'updated' ({fields['updated']}) is "
                     f"before 'date' ({fields['date']})", key="updated", language=language)
    if fields.get("updated") and "date" not in meta:
        fields.ok = False
        problems.add(path, fields.line_of("updated"), "'updated' needs a 'date' (when the "
                     "article was first published)", key="updated", language=language)
    if not fields.ok:
        return None
    return {**fields, "extra": dict(fields["extra"]),
            IMAGE_LINE: fields.line_of("image") if fields.get("image") else None}


def iso_date(value: Any) -> str | None:
    """A date or date-time as ISO text, from what YAML gave (a date, a datetime or text);
    None if it is none. A time without an offset is taken as UTC."""
    if isinstance(value, str):
        text = value.strip()
        try:
            if len(text) == 10:
                value = dt.date.fromisoformat(text)
            else:
                value = dt.datetime.fromisoformat(text)  # Python 3.11 reads "Z" too
        except ValueError:
            return None
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return None


def parse_iso(text: str) -> dt.datetime:
    """An ISO date or date-time as an aware datetime (a date: its midnight, UTC)."""
    if len(text) == 10:
        return dt.datetime.combine(dt.date.fromisoformat(text), dt.time(),
                                   tzinfo=dt.UTC)
    return dt.datetime.fromisoformat(text)


def sort_key(text: str) -> dt.datetime:
    return parse_iso(text)


def texts(value: Any) -> tuple[str, ...] | None:
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(
            isinstance(v, str) and v.strip() for v in values):
        return None
    return tuple(v.strip() for v in values)


def relative_file(text: str) -> bool:
    path = PurePosixPath(text)
    return bool(text) and not path.is_absolute() and ".." not in path.parts \
        and "\\" not in text and ":" not in text


def plain(value: Any) -> Any:
    """YAML data as plain values: mappings and lists of text, numbers, booleans and None;
    dates as ISO text."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return iso_date(value)
    return value
