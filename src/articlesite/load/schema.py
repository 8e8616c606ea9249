"""What each kind of source file holds, declared once, and the one walk that checks it.

A loader declares the shape of its file from a few parts:

    NODE = Record("a node", id=Value(str), box=Value(_box(4), "'box' must be …"),
                  sub=Value(_key, "'{key}' must be a dictionary key", required=False))
    SPEC = Record("figure spec", title=…, nodes=ListOf(NODE, required=False, default=()))

and `Context(path, problems).read(SPEC, data)` gives the data back checked and
converted. Every problem is reported, not only the first, with the file, the line of
the key (LineDict from sourcefiles, or `lines` for a JSON file), the key and the
language. What a declaration cannot say (a date after another, an id used twice) the
loader checks afterwards on the checked values.

Rules every declaration shares:
- a Record refuses unknown fields and names the known ones; a missing required field is
  a problem, a missing optional one takes its default;
- an optional field given as null is as if it were left out;
- a field's message may name `{key}` (the field) and `{value}` (what was found).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..problems import Problems, did_you_mean


class Refused(Exception):
    """A value is not what its field holds (the message is final text)."""


class Checked(dict):
    """A mapping read by a Record: its fields converted, with the lines of the source's
    keys; `ok` is False when a field had a problem (it is then left out)."""

    ok: bool = True
    line: int | None = None
    key_lines: dict[str, int] | None = None

    def line_of(self, key: str) -> int | None:
        """The line of a key of the source's mapping (or of the mapping)."""
        return (self.key_lines or {}).get(key, self.line)


# Where a value sits: the field (or mapping key) it is the value of, and that key's line.
At = tuple[str | None, int | None]


@dataclass(frozen=True)
class Context:
    """Where problems go and what they name: the file, and the key and language a
    problem is about when the declaration does not say (e.g. a dictionary entry's key)."""

    path: Path
    problems: Problems
    language: str | None = None
    key: str | None = None
    # The lines of a plain (JSON) mapping's keys, worked out only if a message needs one.
    lines: Callable[[], dict[str, int]] | None = None

    def read(self, shape: Shape, value: Any) -> Any:
        """`value` checked against `shape`; None if it cannot be used at all."""
        if shape.takes_as_is(value):
            return value   # nothing to convert or report: no lines or contexts worked out
        try:
            return shape.read(value, self, (None, line_of(value)))
        except Refused as refused:
            self.add(line_of(value), str(refused))
            return None

    def line(self, mapping: Any, key: Any) -> int | None:
        lines = getattr(mapping, "key_lines", None)
        if lines is not None:
            return lines.get(str(key), getattr(mapping, "line", None))
        return self.lines().get(str(key)) if self.lines else None

    def add(self, line: int | None, message: str, key: Any = None) -> None:
        self.problems.add(self.path, line, message, key=self.key or key,
                          language=self.language)


def line_of(value: Any) -> int | None:
    return getattr(value, "line", None)


class Shape:
    """What one field holds. `read` gives the converted value, reports what it can
    itself (the fields of a nested Record) and raises Refused for the rest."""

    def __init__(self, *, required: bool = True, default: Any = None):
        self.required, self.default = required, default

    def read(self, value: Any, context: Context, at: At) -> Any:
        raise NotImplementedError

    def takes_as_is(self, value: Any) -> bool:
        """Whether `read` would give `value` itself and report nothing (then a large
        value, a dictionary of 15,000 texts, need not be walked)."""
        return False


class Value(Shape):
    """A value made by `convert`, which raises ValueError (or TypeError) when the value
    is wrong: `message` (naming {key} and {value} if it likes) is then the problem.
    `convert` may raise Refused itself, for a message of its own."""

    def __init__(self, convert: Callable[[Any], Any], message: str = "'{key}' is wrong",
                 **kwargs: Any):
        super().__init__(**kwargs)
        self.convert, self.message = convert, message

    def read(self, value: Any, context: Context, at: At) -> Any:
        try:
            return self.convert(value)
        except (ValueError, TypeError):
            raise Refused(self.message.format(key=at[0], value=value)) from None

    def takes_as_is(self, value: Any) -> bool:
        return self.convert is anything


class ListOf(Shape):
    """A list (null for none); each item read with `item`, a wrong item reported at its
    own line (or the list's) and left out."""

    def __init__(self, item: Shape, message: str = "'{key}' must be a list", **kwargs: Any):
        super().__init__(**kwargs)
        self.item, self.message = item, message

    def read(self, value: Any, context: Context, at: At) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            raise Refused(self.message.format(key=at[0], value=value))
        items = []
        for item in value:
            line = line_of(item) or at[1]
            try:
                items.append(self.item.read(item, context, (at[0], line)))
            except Refused as refused:
                context.add(line, str(refused), at[0])
        return items


class Record(Shape):
    """A mapping with known fields, in the order they are listed (the order messages
    name them in). `key_field` / `language_field`: problems of the record name that
    field's value as their key / language."""

    def __init__(self, what: str, *, key_field: str | None = None,
                 language_field: str | None = None, required: bool = True,
                 **fields: Shape):
        super().__init__(required=required)
        self.what, self.fields = what, fields
        self.key_field, self.language_field = key_field, language_field

    def read(self, value: Any, context: Context, at: At) -> Checked:
        if not isinstance(value, dict):
            raise Refused(f"{self.what} must be a mapping, found {type(value).__name__}")
        if self.key_field and value.get(self.key_field) is not None:
            context = replace(context, key=str(value[self.key_field]))
        if self.language_field and value.get(self.language_field) is not None:
            context = replace(context, language=str(value[self.language_field]))
        out = Checked()
        out.line, out.key_lines = line_of(value), getattr(value, "key_lines", None)
        lines = out.key_lines   # (a YAML mapping's: read here, as Context.line would)
        for name, shape in self.fields.items():
            given = value.get(name)
            if given is None and not shape.required:
                out[name] = shape.default
                continue
            if given is None and name not in value:
                context.add(out.line, f"{self.what} is missing the field '{name}'", name)
                out.ok = False
                continue
            if type(shape) is Value:   # most fields: converted here, the line looked up
                try:                   # only for a problem (as Value.read would refuse)
                    found = out[name] = shape.convert(given)
                    if isinstance(found, Checked) and not found.ok:
                        out.ok = False
                    continue
                except (ValueError, TypeError):
                    refused = Refused(shape.message.format(key=name, value=given))
                except Refused as own:
                    refused = own
                context.add(self._line(value, name, out.line, lines, context), str(refused),
                            name)
                out.ok = False
                continue
            line = self._line(value, name, out.line, lines, context)
            try:
                found = out[name] = shape.read(given, context, (name, line))
            except Refused as refused:
                context.add(line, str(refused), name)
                out.ok = False
            else:
                if isinstance(found, Checked) and not found.ok:
                    out.ok = False
        for name in value:
            if name not in self.fields:
                context.add(context.line(value, name), f"unknown field '{name}' in "
                            f"{self.what} ({did_you_mean(name, self.fields)}known fields: "
                            f"{', '.join(self.fields)})", name)
                out.ok = False
        return out


    @staticmethod
    def _line(value: Any, name: str, line: int | None, lines: dict[str, int] | None,
              context: Context) -> int | None:
        """The line of a field's key (a YAML mapping's own, or as the context finds it)."""
        return lines.get(name, line) if lines is not None else context.line(value, name)


class MapOf(Shape):
    """A mapping whose keys are the author's (a dictionary's keys, language codes): each
    value read with `value`. `keys`, if given, lists the keys allowed (`unknown` says
    what is wrong with another). Problems of an entry name its key as their key
    (`names="key"`) or their language (`names="language"`)."""

    def __init__(self, value: Shape, *, message: str = "'{key}' must be a mapping",
                 keys: list[str] | None = None, unknown: str = "unknown key '{key}'",
                 names: str = "key", **kwargs: Any):
        super().__init__(**kwargs)
        self.value, self.message, self.keys, self.unknown = value, message, keys, unknown
        self.names = names

    def takes_as_is(self, value: Any) -> bool:
        return isinstance(value, dict) and \
            (self.keys is None or all(key in self.keys for key in value)) and \
            all(self.value.takes_as_is(item) for item in value.values())

    def read(self, value: Any, context: Context, at: At) -> dict:
        if not isinstance(value, dict):
            raise Refused(self.message.format(key=at[0], value=value))
        out = {}
        for key, item in value.items():
            # Below the top, a plain (JSON) mapping's lines are not known: its key's are used.
            named = replace(context, lines=None, **{self.names: str(key)})
            line = context.line(value, key) or at[1]
            if self.keys is not None and key not in self.keys:
                named.add(line, self.unknown.format(key=key, value=item,
                                                    hint=did_you_mean(key, self.keys)))
                continue
            try:
                out[key] = self.value.read(item, named, (str(key), line))
            except Refused as refused:
                named.add(line, str(refused))
        return out


# Converters the declarations share -------------------------------------------------------

def anything(value: Any) -> Any:
    return value


def text(value: Any) -> str:
    """Non-empty text."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError
    return value


def scalar_text(value: Any) -> str:
    """Text, or a number written where text was meant (`name: 2024`), as text."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise TypeError
    return str(value)


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError
    return value


# No coordinate, size or ratio of a source is this large: a number of 309 digits would be
# infinite as a float (and math.isfinite refuses to convert one).
MOST_NUMBER = 1_000_000


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and (
        -MOST_NUMBER <= value <= MOST_NUMBER)


def all_numbers(values: list) -> bool:
    """Whether every item is_number: a plain int or float (what YAML and JSON give) is
    checked in place, without a call each (a spec has hundreds of coordinates)."""
    for value in values:
        kind = type(value)
        if kind is int or kind is float:
            if not -MOST_NUMBER <= value <= MOST_NUMBER:
                return False
        elif not is_number(value):
            return False
    return True


def positive(value: Any) -> float:
    if not is_number(value) or value <= 0:
        raise ValueError
    return float(value)


def one_of(*allowed: str) -> Callable[[Any], str]:
    def choose(value: Any) -> str:
        if value not in allowed:
            raise ValueError
        return value
    return choose


def choice(*allowed: str, **kwargs: Any) -> Value:
    """One of `allowed`, named in the message."""
    return Value(one_of(*allowed), f"'{{key}}' must be one of {', '.join(allowed)}", **kwargs)
