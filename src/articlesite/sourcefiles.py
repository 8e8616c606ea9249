"""Reading YAML and JSON sources while keeping the line each value came from."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from .problems import Problems


class LineDict(dict):
    """A mapping from a YAML file that remembers the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]


class _LineLoader(yaml.SafeLoader):
    def construct_mapping(self, node, deep=False):
        mapping = LineDict(super().construct_mapping(node, deep=True))
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {
            str(k.value): k.start_mark.line + 1 for k, _ in node.value
        }
        return mapping


_LineLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping
)


def parse_yaml(text: str, path: Path, problems: Problems, first_line: int = 1) -> Any:
    """Parse YAML text. None means a problem was added: a syntax error, or no data."""
    try:
        data = yaml.load(text, Loader=_LineLoader)
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


def read_text(path: Path, problems: Problems) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        problems.add(path, None, f"cannot read file: {exc.strerror}")
    except UnicodeDecodeError:
        problems.add(path, None, "file is not valid UTF-8")
    return None


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


def json_key_line(text: str, key: str, after: int = 0) -> int | None:
    """The 1-based line where `"key":` first appears at or after line `after`."""
    pattern = re.compile(r'^\s*' + re.escape(json.dumps(key, ensure_ascii=False)) + r'\s*:')
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= after and pattern.match(line):
            return number
    return None


def check_fields(mapping: Any, path: Path, problems: Problems, *, required: tuple[str, ...],
                 optional: tuple[str, ...] = (), what: str) -> bool:
    """Check a mapping has the required keys and no unknown ones. True if usable."""
    line = getattr(mapping, "line", None)
    if not isinstance(mapping, dict):
        problems.add(path, line, f"{what} must be a mapping, found {type(mapping).__name__}")
        return False
    ok = True
    for key in required:
        if key not in mapping:
            problems.add(path, line, f"{what} is missing the field '{key}'", key=key)
            ok = False
    for key in mapping:
        if key not in required and key not in optional:
            known = ", ".join(required + optional)
            problems.add(path, _key_line(mapping, key), f"unknown field '{key}' in {what} "
                         f"(known fields: {known})", key=str(key))
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
