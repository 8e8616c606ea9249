"""Reading YAML and JSON sources while keeping the line each value came from."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import yaml

from ..problems import Problems


class LineDict(dict):
    """A mapping from a YAML file that remembers the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]


# Reading YAML is two steps: PyYAML composes the document's node tree (each node knows
# its line), then `_Builder` makes plain values of the nodes. PyYAML's own constructor
# does the second step through generic, Python-level dispatch and its resolver matches
# every plain scalar against a list of regular expressions; the specs are mostly the same
# few words and numbers, so the tag of a plain scalar is remembered by its text, and the
# common tags (text, numbers, booleans, null) are made without the constructor. Any other
# tag (dates, sets, binary…) and every error still go through PyYAML's SafeConstructor.
_STR, _SEQ, _MAP = (yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG,
                    yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG,
                    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG)
_MERGE = ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value")
_SCALAR, _SEQUENCE = yaml.ScalarNode, yaml.SequenceNode
_PLAIN_TAGS: dict[str, str] = {}   # the resolved tag of a plain scalar, by its text
_REMEMBERED = 4096


def _composer(base: type) -> type:
    """A loader on `base` that remembers the tags of plain scalars."""

    class Composer(base):
        def resolve(self, kind, value, implicit):
            if kind is _SCALAR:
                if not implicit[0]:
                    return _STR
                tag = _PLAIN_TAGS.get(value)
                if tag is None:
                    tag = super().resolve(kind, value, implicit)
                    if len(_PLAIN_TAGS) < _REMEMBERED:
                        _PLAIN_TAGS[value] = tag
                return tag
            return _SEQ if kind is _SEQUENCE else _MAP

        # No path resolvers are registered: nothing to follow down the tree.
        def descend_resolver(self, current_node, current_index):
            pass

        def ascend_resolver(self):
            pass

    return Composer


def _int(text: str) -> int:
    """A decimal integer; YAML's other spellings (0x1f, 0b10, 017 in octal, 1:30) raise
    ValueError and are left to PyYAML."""
    digits = text.lstrip("+-")
    if digits[:1] == "0" and digits != "0":
        raise ValueError(text)
    return int(text)


def _bool(text: str) -> bool:
    return text.lower() in ("yes", "true", "on")


# The value of a number, boolean or null (no one can change them in place), by its tag
# and text, as _PLAIN_TAGS keeps tags: a spec's coordinates repeat.
_COMMON: dict[tuple[str, str], Any] = {}
_SCALARS: dict[str, Callable[[str], Any]] = {
    "tag:yaml.org,2002:int": _int,
    "tag:yaml.org,2002:float": float,  # .inf, .nan and 1:30.5 raise ValueError
    "tag:yaml.org,2002:bool": _bool,
    "tag:yaml.org,2002:null": lambda text: None,
}


_UNKNOWN = object()


class _Builder:
    """Plain values from a composed node tree: LineDicts, lists and scalars, as PyYAML's
    SafeConstructor would make them. An alias gives the same object again."""

    def __init__(self, loader: Any):
        self.constructor = loader   # for the rare tags and for PyYAML's errors
        self.made: dict[int, Any] = {}
        self.own: dict[int, set[int]] = {}   # a merging mapping's own keys, by its id

    def value(self, node: yaml.Node) -> Any:
        kind = type(node)
        if kind is _SCALAR:
            return node.value if node.tag == _STR else self.scalar(node)
        made = self.made.get(id(node))
        if made is not None:
            return made
        if kind is yaml.SequenceNode and node.tag == _SEQ:
            items = self.made[id(node)] = []
            append = items.append
            for item in node.value:
                if type(item) is _SCALAR:   # text, or a number remembered (coordinates)
                    tag = item.tag
                    if tag == _STR:
                        append(item.value)
                        continue
                    common = _COMMON.get((tag, item.value), _UNKNOWN)
                    if common is not _UNKNOWN:
                        append(common)
                        continue
                append(self.value(item))
            return items
        if kind is yaml.MappingNode and node.tag == _MAP:
            return self.mapping(node)
        return self.constructor.construct_object(node, deep=True)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        key = (node.tag, node.value)
        common = _COMMON.get(key, _UNKNOWN)
        if common is not _UNKNOWN:
            return common
        convert = _SCALARS.get(node.tag)
        if convert is not None:
            with contextlib.suppress(ValueError):
                value = convert(node.value)
                if len(_COMMON) < _REMEMBERED:
                    _COMMON[key] = value
                return value
        try:
            return self.constructor.construct_object(node, deep=True)
        except ValueError as exc:   # 2024-02-30, or an integer of 5000 digits: at its line
            reason = "a number of more than 4300 digits" if "digits" in str(exc) else str(exc)
            raise yaml.constructor.ConstructorError(None, None, reason,
                                                    node.start_mark) from None

    def mapping(self, node: yaml.MappingNode) -> LineDict:
        mapping = self.made[id(node)] = LineDict()
        mapping.line = node.start_mark.line + 1
        key_lines = mapping.key_lines = {}
        written = self.own.get(id(node))   # the keys written here, if some were merged
        first: dict[Any, yaml.Node] = {}
        for key_node, value_node in node.value:
            if type(key_node) is _SCALAR and key_node.tag == _STR:   # nearly every key
                key = key_node.value
            elif key_node.tag in _MERGE:
                self.own[id(node)] = {id(k) for k, _ in node.value if k.tag not in _MERGE}
                self.constructor.flatten_mapping(node)   # `<<: *base` merged, then again
                del self.made[id(node)]
                return self.mapping(node)
            else:
                key = self.value(key_node)
                if not isinstance(key, Hashable):
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping", node.start_mark,
                        "found unhashable key", key_node.start_mark)
            if key in mapping:
                _check_duplicate(key, first[key], key_node, written)
            first[key] = key_node
            if type(value_node) is _SCALAR:
                tag = value_node.tag
                value = value_node.value if tag == _STR else \
                    _COMMON.get((tag, value_node.value), _UNKNOWN)
                mapping[key] = self.scalar(value_node) if value is _UNKNOWN else value
            else:
                mapping[key] = self.value(value_node)
            key_lines.setdefault(str(key), key_node.start_mark.line + 1)
        return mapping


class DuplicateKey(yaml.YAMLError):
    """A key written twice in one mapping (YAML forbids it; PyYAML keeps the last)."""

    def __init__(self, key: Any, first: yaml.Mark, again: yaml.Mark):
        super().__init__(f"duplicate key {key!r}")
        self.key, self.first, self.again = key, first.line, again.line


class AliasProblem(yaml.YAMLError):
    """An alias that repeats its own node, or aliases that expand to too many values."""

    def __init__(self, message: str, mark: yaml.Mark):
        super().__init__(message)
        self.message, self.line = message, mark.line


def _check_duplicate(key: Any, first: yaml.Node, again: yaml.Node,
                     written: set[int] | None) -> None:
    """A key given twice is an error, unless one came from a merge (`<<: *base`), which
    the mapping's own keys override."""
    if written is None or (id(first) in written and id(again) in written):
        raise DuplicateKey(key, first.start_mark, again.start_mark)


# Aliases share one node: made once, they expand only when something walks the values
# (a digest, the schema's walk). Ten lines of nested aliases make billions of values, and
# an alias inside its own anchor a loop: both are refused, with the line of the node.
MOST_VALUES = 100_000


def check_aliases(root: yaml.Node) -> None:
    """Raise AliasProblem if the document's aliases loop or expand to more than
    MOST_VALUES values (each node counted once per place it appears)."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if type(node) is _SCALAR:
            continue
        children = [n for pair in node.value for n in pair] \
            if isinstance(node, yaml.MappingNode) else node.value
        if done:
            open_nodes.discard(id(node))
            sizes[id(node)] = size = 1 + sum(sizes.get(id(c), 1) for c in children)
            if size > MOST_VALUES:
                raise AliasProblem(f"its aliases expand to more than {MOST_VALUES:,} "
                                   "values: write the values out, or use fewer aliases",
                                   node.start_mark)
            continue
        if id(node) in sizes:
            continue
        if id(node) in open_nodes:
            raise AliasProblem("an alias inside the node its anchor names: it would "
                               "repeat forever", node.start_mark)
        open_nodes.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in children
                     if type(child) is not _SCALAR and id(child) not in sizes)


def _load_with(loader_class: type, text: str) -> Any:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is not None and "*" in text:   # an alias is written `*name`
            check_aliases(node)
        return None if node is None else _Builder(loader).value(node)
    finally:
        loader.dispose()


# libyaml's parser (when PyYAML has it) is about ten times faster; the pure-Python one
# explains syntax errors better, so it is asked again when a file does not parse.
_LOADERS = [_composer(base) for base in (getattr(yaml, "CSafeLoader", None),
                                         yaml.SafeLoader) if base is not None]
# libyaml builds the document tree by recursion in C: nesting some 30 000 levels deep
# ("[[[…" or "- - - …") crashes the process instead of raising an error. A level of flow
# nesting starts at a bracket; one of block nesting starts further right than the level
# around it, or (a sequence under a mapping's key) at the same column, the level inside
# it further right again. So twice the longest line plus the brackets bounds the depth:
# a text under _SHALLOW goes to libyaml, any other to the pure-Python loader, whose
# recursion stops with RecursionError.
_SHALLOW = 10_000


def _depth_bound(text: str) -> int:
    longest = max(map(len, text.split("\n")))   # YAML's lines are no longer than these
    return 2 * longest + text.count("[") + text.count("{") + 2


def _load(text: str) -> Any:
    if _depth_bound(text) < _SHALLOW:
        for loader in _LOADERS[:-1]:
            with contextlib.suppress(yaml.YAMLError):
                return _load_with(loader, text)
    return _load_with(_LOADERS[-1], text)


def parse_yaml(text: str, path: Path, problems: Problems, first_line: int = 1) -> Any:
    """Parse YAML text. None means a problem was added: a syntax error, or no data."""
    try:
        data = _load(text)
    except DuplicateKey as exc:
        problems.add(path, first_line + exc.again, f"invalid YAML: duplicate key "
                     f"{exc.key!r}: given at line {first_line + exc.first} and again "
                     "here; keep one")
        return None
    except AliasProblem as exc:
        problems.add(path, first_line + exc.line, f"invalid YAML: {exc.message}")
        return None
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
    if (line := surrogate_line(text, data)) is not None:
        problems.add(path, first_line - 1 + line, _SURROGATE)
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
    return hexdigest(hasher(data))


def key_of(*parts: object) -> str:
    """A digest of values: strings, numbers, None, containers and dataclasses of them,
    whose repr() is exact and deterministic."""
    return digest(repr(parts).encode())


def hasher(data: bytes = b""):
    """The hash of `digest`, to be fed more data (its value: `hexdigest`). SHA-256, cut to
    128 bits: where the processor computes it (SHA extensions, as on this project's
    machines) it hashes a 75 KB page 2.5 times as fast as BLAKE2b, and anything over about
    100 bytes faster (measured in bench/hashes.py)."""
    return hashlib.sha256(data)


def hexdigest(state) -> str:
    """The value of a `hasher`: 128 bits, in hex."""
    return state.hexdigest()[:32]


def read_bytes(path: Path, problems: Problems) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError as exc:
        problems.add(path, None, f"cannot read file: {exc.strerror}")
        return None


def text_of(data: bytes) -> str:
    """A source file's text: UTF-8 with or without a byte order mark, its line endings
    (LF, CRLF or CR) made LF. Raises UnicodeDecodeError."""
    text = data.decode("utf-8").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def decode(data: bytes, path: Path, problems: Problems) -> str | None:
    try:
        return text_of(data)
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
    """The text (from character `start` of `text_of`) of a file read before, as it was
    then: sources are not held in memory between loading and rendering, only digests."""
    try:
        data = path.read_bytes()
    except OSError:
        raise SourceChanged(path) from None
    if digest(data) != expected:
        raise SourceChanged(path)
    return text_of(data)[start:]


def load_yaml(path: Path, problems: Problems) -> Any:
    text = read_text(path, problems)
    return None if text is None else parse_yaml(text, path, problems)


def parse_json(text: str, path: Path, problems: Problems) -> Any:
    """Parse JSON text. None means a problem was added: a syntax error, or null."""
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
        if type(data) is _Twice:
            raise _TwiceInJson(data.twice)
    except _TwiceInJson as exc:
        problems.add(path, exc.line(text), f"invalid JSON: {exc}; keep one (JSON readers keep "
                     "the last in silence)")
        return None
    except json.JSONDecodeError as exc:
        problems.add(path, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})")
        return None
    except RecursionError:
        problems.add(path, None, "invalid JSON: nested too deeply")
        return None
    if data is None:
        problems.add(path, 1, "no data: the JSON is null")
    if (line := surrogate_line(text, data)) is not None:
        problems.add(path, line, _SURROGATE)
        return None
    return data


class _TwiceInJson(ValueError):
    """A key given twice in one JSON object; `inside` the key of the object holding it."""

    def __init__(self, key: str, inside: str | None = None):
        super().__init__()
        self.key, self.inside = key, inside

    def __str__(self) -> str:
        where = f" in the entry {self.inside!r}" if self.inside is not None else ""
        return f"the key {self.key!r} is given twice{where}"

    def line(self, text: str) -> int | None:
        """The line of the holding entry's key, or of the key's second occurrence at the
        start of a line."""
        if self.inside is not None:
            return json_key_lines(text).get(self.inside)
        quoted = re.escape(json.dumps(self.key, ensure_ascii=False))
        starts = [m.start() for m in re.finditer(rf"^\s*{quoted}\s*:", text, re.MULTILINE)]
        return text.count("\n", 0, starts[1]) + 1 if len(starts) > 1 else None


class _Twice(dict):
    """An object read with a key given twice (`twice`): its holder says which it is."""

    twice = ""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict:
    """json.loads' object_pairs_hook: the object as a dict; one with a key given twice is
    a _Twice, and an object holding a _Twice raises _TwiceInJson naming both keys."""
    for key, value in pairs:
        if type(value) is _Twice:
            raise _TwiceInJson(value.twice, key)
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    seen: set[str] = set()
    twice = next(key for key, _ in pairs if key in seen or seen.add(key))
    marked = _Twice(data)
    marked.twice = twice
    return marked


# A text read as UTF-8 holds no surrogate, but an escape can write one: "\\ud800" is half of
# a character, which no page can hold (UTF-8 cannot encode it).
_SURROGATE = ("an escape writes half of a character (a surrogate such as \\ud800), which no "
              "page can hold: write the character itself")
_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F][0-9a-fA-F]{2}")


def surrogate_line(text: str, data: Any) -> int | None:
    """The line of the escape in `text` that put a surrogate in `data`, if one did (JSON
    joins the two halves of a pair into one character; YAML does not)."""
    found = _ESCAPE.search(text) if "\\u" in text or "\\U" in text else None
    if found is None or not _holds_surrogate(data):
        return None
    lone = re.search(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
                     r"|(?<![0-9a-fA-F]{4})\\u[dD][c-fC-F][0-9a-fA-F]{2}", text)
    return text.count("\n", 0, (lone or found).start()) + 1


def _holds_surrogate(data: Any) -> bool:
    seen, stack = set(), [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if not value.isascii() and re.search("[\ud800-\udfff]", value):
                return True
        elif isinstance(value, dict | list) and id(value) not in seen:
            seen.add(id(value))
            stack.extend(value.items() if isinstance(value, dict) else value)
        elif isinstance(value, tuple):
            stack.extend(value)
    return False


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
