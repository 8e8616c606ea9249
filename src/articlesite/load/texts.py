"""Translated texts: the figure-text dictionary and the templates' interface strings.

A dictionary maps a key to one text per language. Values are plain text with a small
markup a translator can read (load/markup.py: subscripts, superscripts, code, line
breaks; identifiers shown as written).

A text that is the same in every language on purpose (a code identifier, a name, a
formula) is written once, under `"*"`: `"step": {"*": "ppo_trainer.step()"}`. Every
language without a text of its own takes it; such a text is neither untranslated nor
unconfirmed (translate/record.py: SAME).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ..problems import Problems, plural
from .schema import Context, MapOf, Value, anything
from .sourcefiles import json_key_lines, parse_json, parse_yaml, read_text

EVERY = "*"   # the key of a text that is the same in every language


@dataclass
class Dictionary:
    """Texts by key and language, with where each key is written."""

    path: Path
    texts: dict[str, dict[str, str]]
    source: str = field(default="", repr=False)   # the file's text
    # (key, language) of the texts a language in progress lacks, which texts holds in
    # the source language instead
    fallbacks: frozenset[tuple[str, str]] = frozenset()
    # (key, language) of the texts taken from the key's "*": the same in every language
    same: frozenset[tuple[str, str]] = frozenset()

    @cached_property
    def lines(self) -> dict[str, int]:
        """The line of each key: worked out only when a message needs one."""
        if self.path.suffix == ".json":
            return json_key_lines(self.source)
        data = parse_yaml(self.source, self.path, Problems(self.path.parent))
        return data.key_lines if isinstance(data, dict) else {}

    def __contains__(self, key: str) -> bool:
        return key in self.texts


def value_problem(text: object, code: str) -> str | None:
    """What is wrong with a dictionary value for language `code`, if anything: the
    build's rule, shared by everything that writes values (import, the editor)."""
    if text is None:
        return f"translation missing for language '{code}'"
    if not isinstance(text, str):
        return "translation must be text"
    if not text.strip():
        return f"translation empty for language '{code}'"
    return None


def load_dictionary(path: Path, codes: list[str], problems: Problems,
                    what: str = "dictionary", in_progress: frozenset[str] = frozenset(),
                    fallback: str | None = None,
                    base: dict[str, dict[str, str]] | None = None,
                    ignore: frozenset[str] = frozenset()) -> Dictionary | None:
    """Load a `{key: {language: text}}` JSON or YAML file and check every language is there.

    A text missing or empty in a language `in_progress` is no problem: the `fallback`
    language's text stands in for it (listed in `fallbacks`). `base` holds texts the file
    overrides key by key and language by language (the default theme's interface
    strings); with a base, the file may be absent. Texts in the languages `ignore` (the
    theme's languages the site has not) are left out."""
    if base is not None and not path.exists():
        return complete(Dictionary(path, {}, ""), dict(base), codes, problems, what,
                        in_progress, fallback, base)
    if not path.is_file():
        problems.add(path, None, f"{what} not found")
        return None
    source = read_text(path, problems)
    if source is None:
        return None
    is_json = path.suffix == ".json"
    if base is not None and not source.strip():
        data = {}   # an empty override file overrides nothing
    else:
        data = parse_json(source, path, problems) if is_json else parse_yaml(source, path,
                                                                            problems)
    if data is None:
        return None
    if not isinstance(data, dict):
        problems.add(path, 1, f"{what} must map keys to {{language: text}}")
        return None
    dictionary = Dictionary(path, {}, source)
    shape = MapOf(MapOf(Value(anything), keys=codes, names="language",
                        unknown=f"unknown language '{{key}}' ({{hint}}languages: "
                                f"{', '.join(codes)})",
                        message="value must map language codes to texts"))
    context = Context(path, problems, lines=lambda: dictionary.lines)
    if ignore:
        data = {key: {code: text for code, text in entry.items() if code not in ignore}
                if isinstance(entry, dict) else entry for key, entry in data.items()}
    data, same = every_language(data, codes)
    entries = context.read(shape, data) or {}
    if base:
        entries = {key: base.get(key, {}) | entries.get(key, {})
                   for key in [*base, *(key for key in entries if key not in base)]}
    dictionary.same = frozenset(same)
    return complete(dictionary, entries, codes, problems, what, in_progress, fallback, base)


def every_language(data: dict, codes: list[str]) -> tuple[dict, set[tuple[str, str]]]:
    """The entries with each `"*"` text given to every language that has none of its own,
    and the (key, language) pairs so given."""
    same: set[tuple[str, str]] = set()
    out = {}
    for key, entry in data.items():
        if isinstance(entry, dict) and EVERY in entry:
            entry = dict(entry)
            text = entry.pop(EVERY)
            for code in codes:
                if code not in entry:
                    entry[code] = text
                    same.add((str(key), code))
        out[key] = entry
    return out, same


def complete(dictionary: Dictionary, entries: dict, codes: list[str], problems: Problems,
             what: str, in_progress: frozenset[str], fallback: str | None,
             base: dict[str, dict[str, str]] | None) -> Dictionary:
    """`dictionary` with the texts of `entries`, every language of each checked. A language
    that `base` (the theme) has no text for and the file none either is one problem."""
    fallbacks: set[tuple[str, str]] = set()
    unknown: dict[str, list[str]] = {}   # language -> the keys neither base nor file has
    for key, entry in entries.items():
        texts = dictionary.texts[key] = {code: value for code, value in entry.items()
                                         if isinstance(value, str)}
        for code in codes:
            message = value_problem(entry.get(code), code)
            if message and code in in_progress and isinstance(entry.get(fallback), str) \
                    and not value_problem(entry[fallback], fallback):
                texts[code] = entry[fallback]
                fallbacks.add((key, code))
            elif message and base is not None and key in base and code not in entry:
                unknown.setdefault(code, []).append(key)
            elif message:
                problems.add(dictionary.path, dictionary.lines.get(key), message, key=key,
                             language=code)
    for code, keys in unknown.items():
        if len(keys) == len(base or ()):
            problems.add(dictionary.path, None, f"the default theme has no {what} in "
                         f"'{code}': add its {plural(len(keys), 'key')} ({', '.join(keys[:3])}, …) "
                         f"to {dictionary.path.name}, or mark the language `status: "
                         "in-progress` to show the source language's meanwhile",
                         language=code)
            continue
        for key in keys:
            problems.add(dictionary.path, dictionary.lines.get(key), f"translation missing "
                         f"for language '{code}' (the default theme has none)", key=key,
                         language=code)
    dictionary.fallbacks = frozenset(fallbacks)
    return dictionary
