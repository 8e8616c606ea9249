"""Reading YAML and JSON sources while keeping the line each value came from."""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from ..problems import Problems


class LineDict(dict):
    """A mapping from a YAML file that remembers the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]


def _line_loader(base: type) -> type:
    """A loader on `base` whose mappings are LineDicts."""

    class LineLoader(base):
        def construct_mapping(self, node, deep=False):
            mapping = LineDict(super().construct_mapping(node, deep=True))
            mapping.line = node.start_mark.line + 1
            mapping.key_lines = {
                str(k.value): k.start_mark.line + 1 for k, _ in node.value
            }
            return mapping

    LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                               LineLoader.construct_mapping)
    return LineLoader


# libyaml's parser (when PyYAML has it) is about ten times faster; the pure-Python one
# explains syntax errors better, so it is asked again when a file does not parse.
_LOADERS = [_line_loader(base) for base in (getattr(yaml, "CSafeLoader", None),
                                            yaml.SafeLoader) if base is not None]
# libyaml builds the document tree by recursion in C: nesting some 30 000 levels deep
# ("[[[…" or "- - - …") crashes the process instead of raising an error. Every level of
# nesting starts at one of these characters, so a text with few of them is shallow; any
# other text goes to the pure-Python loader, whose recursion stops with RecursionError.
_OPENERS, _SHALLOW = "[{-?:", 5000


def _load(text: str) -> Any:
    if sum(map(text.count, _OPENERS)) < _SHALLOW:
        for loader in _LOADERS[:-1]:
            with contextlib.suppress(yaml.YAMLError):
                return yaml.load(text, Loader=loader)
    return yaml.load(text, Loader=_LOADERS[-1])


def parse_yaml(text: str, path: Path, problems: Problems, first_line: int = 1) -> Any:
    """Parse YAML text. None means a problem was added: a syntax error, or no data."""
    try:
        data = _load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = first_line + mark.line if mark else None
        reason = getattr(exc, "problem", None) or str(exc)
        problems.add(path, line, f"invalid YAML: {reason}")
        return None
    except ValueError as exc:  # a date-like value that is no date: 2001-13-01
        problems.add(path, None, f"invalid YAML: {exc}")
        return None
    except RecursionError:
        problems.add(path, None, "invalid YAML: nested too deeply")
        return None
    if data is None:
        problems.add(path, first_line, "no data: the YAML is empty or null")
        return None
    if first_line != 1:
        _shift_lines(data, first_line - 1, set())
    return data


def _shift_lines(data: Any, offset: int, seen: set[int]) -> None:
    if id(data) in seen:  # an alias: the same object again
        return
    seen.add(id(data))
    if isinstance(data, LineDict):
        data.line += offset
        data.key_lines = {k: v + offset for k, v in data.key_lines.items()}
    if isinstance(data, dict):
        for value in data.values():
            _shift_lines(value, offset, seen)
    elif isinstance(data, list):
        for value in data:
            _shift_lines(value, offset, seen)


def digest(data: bytes) -> str:
    """A short content hash: what the build cache keys on."""
    return hasher(data).hexdigest()


def hasher(data: bytes = b""):
    """The hash of `digest`, to be fed more data."""
    return hashlib.blake2b(data, digest_size=16)


def read_bytes(path: Path, problems: Problems) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError as exc:
        problems.add(path, None, f"cannot read file: {exc.strerror}")
        return None


def decode(data: bytes, path: Path, problems: Problems) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        problems.add(path, None, "file is not valid UTF-8")
        return None


def read_source(path: Path, problems: Problems) -> tuple[str, str] | None:
    """A file's text and the digest of the very bytes it was decoded from."""
    data = read_bytes(path, problems)
    text = None if data is None else decode(data, path, problems)
    return None if text is None else (text, digest(data))


def read_text(path: Path, problems: Problems) -> str | None:
    source = read_source(path, problems)
    return None if source is None else source[0]


CHANGED = "the file changed while the site was being built: build again"


class SourceChanged(Exception):
    """A file read again during the build is no longer what the build first read."""

    def __init__(self, path: Path):
        super().__init__(f"{path} changed during the build")
        self.path = path


def read_again(path: Path, expected: str, start: int = 0) -> str:
    """The text (from byte `start`) of a file read before, as it was then: sources are
    not held in memory between loading and rendering, only their digests."""
    try:
        data = path.read_bytes()
    except OSError:
        raise SourceChanged(path) from None
    if digest(data) != expected:
        raise SourceChanged(path)
    return data[start:].decode("utf-8")


class Memo:
    """Results of parsing files, by kind and the digest of the bytes parsed, kept across
    builds by the cache (cache.py). Only a result that came with no problem is kept, and
    only in plain values that marshal gives back unchanged."""

    def __init__(self, known: dict[str, Any] | None = None):
        self.known = known or {}
        self.kept: dict[str, Any] = {}   # what this build used or made: the next `known`

    def recall(self, kind: str, digest: str) -> Any:
        key = f"{kind}:{digest}"
        value = self.kept.get(key)
        if value is None:
            value = self.known.get(key)
            if value is not None:
                self.kept[key] = value
        return value

    def keep(self, kind: str, digest: str, value: Any) -> None:
        try:
            if marshal.loads(marshal.dumps(value)) == value:
                self.kept[f"{kind}:{digest}"] = value
        except ValueError:  # not plain values: parse again next time
            pass

    def parse(self, kind: str, digest: str, parse: Callable[[], Any],
              problems: Problems) -> Any:
        """The remembered result, or `parse()`'s, remembered if it found no problem."""
        value = self.recall(kind, digest)
        if value is None:
            found = len(problems)
            value = parse()
            if value is not None and len(problems) == found:
                self.keep(kind, digest, value)
        return value


def load_yaml(path: Path, problems: Problems) -> Any:
    text = read_text(path, problems)
    return None if text is None else parse_yaml(text, path, problems)


def parse_json(text: str, path: Path, problems: Problems) -> Any:
    """Parse JSON text. None means a problem was added: a syntax error, or null."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.add(path, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})")
        return None
    except RecursionError:
        problems.add(path, None, "invalid JSON: nested too deeply")
        return None
    if data is None:
        problems.add(path, 1, "no data: the JSON is null")
    return data


_JSON_KEY = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*:', re.MULTILINE)


def json_key_lines(text: str) -> dict[str, int]:
    """The 1-based line where each `"key":` first starts a line, in one pass."""
    lines: dict[str, int] = {}
    line, position = 1, 0
    for match in _JSON_KEY.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        quoted = match.group(1)
        lines.setdefault(json.loads(quoted) if "\\" in quoted else quoted[1:-1], line)
    return lines


def check_fields(mapping: Any, path: Path, problems: Problems, *, required: tuple[str, ...],
                 optional: tuple[str, ...] = (), what: str, language: str | None = None
                 ) -> bool:
    """Check a mapping has the required keys and no unknown ones. True if usable."""
    line = getattr(mapping, "line", None)
    if not isinstance(mapping, dict):
        problems.add(path, line, f"{what} must be a mapping, found {type(mapping).__name__}")
        return False
    ok = True
    for key in required:
        if key not in mapping:
            problems.add(path, line, f"{what} is missing the field '{key}'", key=key,
                         language=language)
            ok = False
    for key in mapping:
        if key not in required and key not in optional:
            known = ", ".join(required + optional)
            problems.add(path, _key_line(mapping, key), f"unknown field '{key}' in {what} "
                         f"(known fields: {known})", key=str(key), language=language)
            ok = False
    return ok


def _key_line(mapping: Any, key: Any) -> int | None:
    lines = getattr(mapping, "key_lines", None)
    return lines.get(str(key), getattr(mapping, "line", None)) if lines else None


def line_of(mapping: Any, key: str | None = None) -> int | None:
    """Line of a key in a LineDict, or of the mapping itself."""
    if key is not None:
        return _key_line(mapping, key)
    return getattr(mapping, "line", None)
