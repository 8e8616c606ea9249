"""Translated texts: the figure-text dictionary and the templates' interface strings.

A dictionary maps a key to one text per language. Values are plain text with a small
markup a translator can read: `π_old` or `r_{t+1}` is a subscript, `x^2` or `x^{n}` a
superscript, a newline a line break, and `\\_` / `\\^` a literal character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from markupsafe import Markup, escape

from ..problems import Problems
from .sourcefiles import json_key_lines, parse_json, parse_yaml, read_text

_SCRIPT = re.compile(r"\\([_^])|([_^])(?:\{([^{}]*)\}|([A-Za-z0-9\u0370-\u03ff]+))")


@lru_cache(maxsize=2048)  # figures repeat their texts across pages
def rich_text(value: str) -> Markup:
    """Escape a dictionary value and turn its sub/superscript markup into HTML."""
    out: list[str] = []
    position = 0
    for match in _SCRIPT.finditer(value):
        out.append(escape(value[position:match.start()]))
        if match.group(1):
            out.append(escape(match.group(1)))
        else:
            tag = "sub" if match.group(2) == "_" else "sup"
            inner = match.group(3) if match.group(3) is not None else match.group(4)
            out.append(Markup(f"<{tag}>{escape(inner)}</{tag}>"))
        position = match.end()
    out.append(escape(value[position:]))
    html = Markup("").join(out)
    return Markup(html.replace("\n", Markup("<br>")))


@lru_cache(maxsize=2048)
def plain_text(value: str) -> str:
    """A dictionary value as plain text (markup removed), for attributes and alt text."""
    return _SCRIPT.sub(lambda m: m.group(1) or m.group(3) or m.group(4) or "", value).replace(
        "\n", " ")


@dataclass
class Dictionary:
    """Texts by key and language, with where each key is written."""

    path: Path
    texts: dict[str, dict[str, str]]
    source: str = field(default="", repr=False)   # the file's text

    @cached_property
    def lines(self) -> dict[str, int]:
        """The line of each key: worked out only when a message needs one."""
        if self.path.suffix == ".json":
            return json_key_lines(self.source)
        data = parse_yaml(self.source, self.path, Problems(self.path.parent))
        return data.key_lines if isinstance(data, dict) else {}

    def __contains__(self, key: str) -> bool:
        return key in self.texts


def load_dictionary(path: Path, codes: list[str], problems: Problems,
                    what: str = "dictionary") -> Dictionary | None:
    """Load a `{key: {language: text}}` JSON or YAML file and check every language is there."""
    if not path.is_file():
        problems.add(path, None, f"{what} not found")
        return None
    source = read_text(path, problems)
    if source is None:
        return None
    is_json = path.suffix == ".json"
    data = parse_json(source, path, problems) if is_json else parse_yaml(source, path, problems)
    if data is None:
        return None
    if not isinstance(data, dict):
        problems.add(path, 1, f"{what} must map keys to {{language: text}}")
        return None
    dictionary = Dictionary(path, {}, source)
    found: list[tuple[str, str, str | None]] = []   # key, message, language
    for key, entry in data.items():
        if not isinstance(entry, dict):
            found.append((key, "value must map language codes to texts", None))
            continue
        for code in entry:
            if code not in codes:
                known = ", ".join(codes)
                found.append((key, f"unknown language '{code}' (languages: {known})",
                              str(code)))
        for code in codes:
            text = entry.get(code)
            if text is None:
                found.append((key, f"translation missing for language '{code}'", code))
            elif not isinstance(text, str):
                found.append((key, "translation must be text", code))
            elif not text.strip():
                found.append((key, f"translation empty for language '{code}'", code))
        dictionary.texts[key] = {code: value for code, value in entry.items()
                                 if isinstance(value, str)}
    for key, message, language in found:
        problems.add(path, dictionary.lines.get(key), message, key=key, language=language)
    return dictionary
