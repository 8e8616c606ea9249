"""Writing translations into `figures/figure-texts.json` as a careful hand would: only
the values that changed are replaced in the file's text, so key order, indentation,
non-ASCII characters, escapes and the final newline stay exactly as they were and a
`git diff` shows just the edited lines. A language an entry lacks (one being added) is
appended to the entry, indented like its other members.

The file is never half written: the new text is written beside it and renamed over it.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from json.decoder import scanstring
from pathlib import Path

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()

Changes = dict[tuple[str, str], str]   # (key, language) -> new text


@dataclass
class Entry:
    """Where one key's `{language: text}` object lies in the file's text."""

    values: dict[str, tuple[int, int]]   # language -> span of its JSON string
    close: int                           # the index of the entry's closing brace
    last_end: int                        # the end of its last value (open + 1 when empty)
    indent: str                          # what precedes each member (newline, spaces)
    key: tuple[int, int] = (0, 0)        # the span of the entry's key, quotes included
    lead: str = ""                       # what precedes its first member


class LayoutError(ValueError):
    """The text is not a JSON object of objects (the build reports why)."""


def _skip(text: str, position: int) -> int:
    return _SPACE.match(text, position).end()


def _expect(text: str, position: int, char: str) -> int:
    position = _skip(text, position)
    if text[position:position + 1] != char:
        raise LayoutError(f"expected {char!r} at character {position}")
    return position + 1


def _string(text: str, position: int) -> tuple[str, int]:
    """The JSON string starting at `position` (its quote) and the index after it."""
    if text[position:position + 1] != '"':
        raise LayoutError(f"expected a string at character {position}")
    return scanstring(text, position + 1)


def layout(text: str) -> dict[str, Entry]:
    """Every key's entry, located in the text. Raises LayoutError."""
    entries: dict[str, Entry] = {}
    position = _expect(text, 0, "{")
    position = _skip(text, position)
    if text[position:position + 1] == "}":
        return entries
    while True:
        position = _skip(text, position)
        key_start = position
        key, position = _string(text, position)
        key_span = (key_start, position)
        position = _expect(text, position, ":")
        opening = _expect(text, position, "{")
        entry = Entry({}, -1, opening, "", key_span)
        position = _skip(text, opening)
        entry.lead = text[opening:position]
        if text[position:position + 1] != "}":
            while True:
                member = _skip(text, position)
                entry.indent = text[position:member]
                language, position = _string(text, member)
                position = _skip(text, _expect(text, position, ":"))
                if text[position:position + 1] == '"':
                    _, end = _string(text, position)
                else:
                    _, end = _DECODER.raw_decode(text, position)
                entry.values[language] = (position, end)
                entry.last_end = end
                position = _skip(text, end)
                if text[position:position + 1] == ",":
                    position += 1
                    continue
                break
        position = _skip(text, position)
        if text[position:position + 1] != "}":
            raise LayoutError(f"expected '}}' at character {position}")
        entry.close = position
        entries[key] = entry
        position = _skip(text, position + 1)
        if text[position:position + 1] == ",":
            position += 1
            continue
        _expect(text, position, "}")
        return entries


def edit_text(text: str, changes: Changes) -> str:
    """The file's text with `changes` made and nothing else touched. Every key changed
    must exist (a missing language is added at the end of its entry)."""
    entries = layout(text)
    ascii_only = text.isascii() and "\\u" in text   # the file escapes non-ASCII: keep that
    edits: list[tuple[int, int, str]] = []
    added: dict[str, list[str]] = {}
    for (key, language), value in changes.items():
        entry = entries[key]
        quoted = json.dumps(value, ensure_ascii=ascii_only)
        if language in entry.values:
            start, end = entry.values[language]
            if json.loads(text[start:end]) != value:
                edits.append((start, end, quoted))
        else:
            added.setdefault(key, []).append(f"{json.dumps(language)}: {quoted}")
    for key, members in added.items():
        entry = entries[key]
        if entry.values:
            edits.append((entry.last_end, entry.last_end,
                           "".join(f",{entry.indent}{member}" for member in members)))
        else:
            edits.append((entry.last_end, entry.close, ", ".join(members)))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def write_atomically(path: Path, text: str, aside: Path | None = None) -> None:
    """Write `text` to a file in `aside` (default: beside `path`; the same file system),
    then rename it over `path`, keeping its permissions. `serve` watches figures/: the
    dictionary is written from the project's folder, so that it sees one change."""
    data = text.encode("utf-8")
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                         dir=aside or path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def add_entries(text: str, entries: dict[str, dict[str, str]]) -> str:
    """The dictionary's text with `entries` (new keys) appended after its last entry, in
    the indentation of its entries and their members; the rest of the text unchanged."""
    found = layout(text)
    first = re.match(r"\s*\{(\s*)", text)
    indent = first.group(1) if found else "\n  "
    model = next((entry for entry in reversed(found.values()) if entry.values), None)
    if model is None:
        lead = inner = indent + "  "
        closing = indent
    else:   # as the last entry with members writes them: on lines of their own, or one
        lead = model.lead   # (with one member, what precedes a next is guessed from it)
        inner = model.indent if len(model.values) > 1 else lead if "\n" in lead else " "
        closing = text[model.last_end:model.close]
    ascii_only = text.isascii() and "\\u" in text

    def written(key: str, texts: dict[str, str]) -> str:
        members = ",".join(f"{lead if i == 0 else inner}{json.dumps(code)}: "
                           f"{json.dumps(value, ensure_ascii=ascii_only)}"
                           for i, (code, value) in enumerate(texts.items()))
        return f"{indent}{json.dumps(key, ensure_ascii=ascii_only)}: {{{members}{closing}}}"

    added = ",".join(written(key, texts) for key, texts in entries.items())
    if found:
        end = list(found.values())[-1].close + 1
        new = text[:end] + "," + added + text[end:]
    else:
        start, close = first.end(), text.rindex("}")
        new = text[:start] + added + "\n" + text[close:]
    if json.loads(new) != {**json.loads(text), **entries}:
        raise ValueError("the dictionary with the new entries does not read back as meant")
    return new
