"""Changing a figure spec's YAML text as a careful hand would: only what changed changes.

Comments, key order, flow or block style, quoting and blank lines stay as they were, so
that `git diff` shows the lines of the edited elements and nothing else. PyYAML composes
the text into nodes that know where they start and end (`start_mark`, `end_mark`); each
edit replaces exactly the span of a value, or inserts or removes whole lines.

The API (stable: the figure editor and `figure layout` save through it)::

    from articlesite.figures.spec_edit import Append, Delete, Set, Unset
    from articlesite.figures.spec_edit import apply_edits, edit_file, intended

    new_text = apply_edits(text, [
        Set("box", [40, 60, 150, 62], "nodes", "actor"),   # a node, by its id
        Set("class", "feedback", "edges", 3),              # an edge, by its index
        Set("width", 1200),                                # a top-level key
        Unset("sub", "nodes", "env"),                      # a field removed
        Append("edges", {"from": "actor", "to": "env"}),   # an element appended
        Delete("labels", 0),                               # an element deleted
    ])
    edit_file(path, edits, expected=text_the_editor_loaded)   # atomic; FileChanged

- An element is `(section, element)`: a node by its `id` (or its index), an edge, label,
  divider or lifeline by its index in its list. Every reference names the spec as given:
  the edits are made together, not one after another (deleting edges 2 and 5 deletes the
  edges that were 2 and 5). An element appended cannot be addressed: give its fields in
  the `Append`.
- `Set` replaces a field's value, or adds the field: after the field that precedes it in
  the spec's usual order (`id, box, text, sub, class, link` for a node; `title, caption,
  width, height, direction, transforms, nodes, …` at the top level), else at the end.
- `Append` adds a line (or lines) after the section's last element, in the style of that
  element: a flow mapping `{from: a, to: b}` or a block mapping with the same indents. A
  missing (or empty) section is created in the style of the spec's other sections.
- `Unset` removes the field's line (or its part of a flow mapping). An element whose
  every field is removed while others are set (an edge given by its `points` that now
  names its ends) is written anew in its place, in its own style, its fields in the
  usual order; one that would be left with no field is refused.
- `Delete` removes the element's lines (a section left empty becomes `[]`).
- New values are written in flow style on one line (`[30, 48, 140, 62]`); strings plain
  when YAML reads them back as the same string, else quoted as the old value was (double
  quotes by default). A value that was a block collection stays one.
- Values are validated by the caller. The result is checked: `yaml.safe_load` of the new
  text must equal `intended(yaml.safe_load(text), edits)`, else SpecEditError (as for an
  element that does not exist, two edits of the same span, or a text that is not a spec).
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..translate.dictionary_file import write_atomically

Element = str | int   # a node's id, or an index in the section's list


@dataclass(frozen=True)
class Set:
    """Set `field` of an element (or of the spec, when `section` is None) to `value`."""

    field: str
    value: Any
    section: str | None = None
    element: Element | None = None


@dataclass(frozen=True)
class Unset:
    """Remove `field` from an element (or from the spec, when `section` is None)."""

    field: str
    section: str | None = None
    element: Element | None = None


@dataclass(frozen=True)
class Append:
    """Append the mapping `value` to the list `section`, creating the section if missing."""

    section: str
    value: dict


@dataclass(frozen=True)
class Delete:
    """Delete an element of `section`."""

    section: str
    element: Element


Edit = Set | Unset | Append | Delete


class SpecEditError(ValueError):
    """The edits cannot be made to this text (the message says why)."""


class FileChanged(SpecEditError):
    """The file is no longer the text the edits were made for."""


ORDER: dict[str | None, tuple[str, ...]] = {
    None: ("title", "caption", "width", "height", "direction", "transforms", "nodes",
           "edges", "groups", "labels", "dividers", "lifelines"),
    "nodes": ("id", "box", "text", "sub", "class", "link"),
    "edges": ("from", "to", "points", "label", "label_box", "label_at", "class", "arrow"),
    "groups": ("id", "title", "title_box", "nodes"),
    "labels": ("text", "box", "class"),
}
SECTIONS = ("nodes", "edges", "labels", "dividers", "lifelines")


# The edits, on plain data --------------------------------------------------------------

def intended(data: dict, edits: list[Edit]) -> dict:
    """What the spec `data` (as `yaml.safe_load` gives it) becomes with `edits` made."""
    data = copy.deepcopy(data)
    found = {id(edit): _find(data, edit) for edit in edits if not isinstance(edit, Append)}
    doomed = []
    for edit in edits:
        target = found.get(id(edit))
        if isinstance(edit, Set):
            target[edit.field] = copy.deepcopy(edit.value)
        elif isinstance(edit, Unset):
            target.pop(edit.field, None)
        elif isinstance(edit, Delete):
            doomed.append(target)
        else:
            if not isinstance(data.get(edit.section), list):
                data[edit.section] = []
            data[edit.section].append(copy.deepcopy(edit.value))
    for target in doomed:
        for section in data.values():
            if isinstance(section, list) and any(item is target for item in section):
                section[:] = [item for item in section if item is not target]
    return data


def _find(data: dict, edit: Set | Unset | Delete) -> dict:
    if edit.section is None:
        return data
    items = data.get(edit.section)
    items = items if isinstance(items, list) else []
    index = _index(items, edit.element, lambda item: item.get("id")
                   if isinstance(item, dict) else None)
    if index is None:
        raise SpecEditError(f"{edit.section} has no element {edit.element!r}")
    return items[index]


def _index(items: list, element: Element | None, id_of) -> int | None:
    if isinstance(element, bool) or element is None:
        return None
    if isinstance(element, int):
        return element if 0 <= element < len(items) else None
    return next((i for i, item in enumerate(items) if id_of(item) == element), None)


# Writing values ------------------------------------------------------------------------

_PLAIN = re.compile(r"[\w./(][^:#,\[\]{}\n\r\t'\"\\]*", re.UNICODE)
_ESCAPE = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _is_plain(text: str) -> bool:
    if not _PLAIN.fullmatch(text) or text != text.strip() or text[-1] in "?-":
        return False
    try:
        return yaml.safe_load(text) == text
    except yaml.YAMLError:
        return False


def _quoted(text: str, style: str | None = None) -> str:
    if style == "'" and text.isprintable():
        return "'" + text.replace("'", "''") + "'"
    out = []
    for char in text:
        code = ord(char)
        if char in _ESCAPE:
            out.append(_ESCAPE[char])
        elif code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFEFF) \
                or 0xD800 <= code <= 0xDFFF or code in (0xFFFE, 0xFFFF):
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def scalar(value: Any, style: str | None = None) -> str:
    """A scalar in YAML; a string in the quotes `style` (of the value it replaces)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SpecEditError(f"{value!r} is not a number a spec can hold")
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        text = repr(value)
        mantissa, _, exponent = text.partition("e")
        return text if not exponent or "." in mantissa else f"{mantissa}.0e{exponent}"
    if isinstance(value, str):
        return value if style not in ("'", '"') and _is_plain(value) else _quoted(value, style)
    raise SpecEditError(f"cannot write {type(value).__name__} {value!r} into a spec")


def flow(value: Any, style: str | None = None) -> str:
    """A value in flow style, on one line."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(str(k))}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value, style)


def _block_lines(value: Any) -> list[str]:
    """A list or mapping in block style, its entries' values in flow style."""
    if isinstance(value, dict):
        return [f"{scalar(str(k))}: {flow(v)}" for k, v in value.items()]
    return [f"- {flow(v)}" for v in value]


# Where things are in the text ------------------------------------------------------------

class _Text:
    """The spec's text and its composed node tree, with the splices the edits make."""

    def __init__(self, text: str):
        self.text = text
        self.nl = "\r\n" if "\r\n" in text else "\n"
        try:
            self.root = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as exc:
            raise SpecEditError(f"the spec is not valid YAML: {exc}") from None
        if not isinstance(self.root, yaml.MappingNode) or self.root.flow_style:
            raise SpecEditError("the spec is not a block mapping of keys")
        self.splices: list[tuple[int, int, float, int, str]] = []
        self.emptied: set[str] = set()   # flow sections whose every item is deleted
        self.deleted: set[int] = set()   # the ids of the nodes of deleted elements

    def splice(self, start: int, end: int, new: str, priority: float = 0) -> None:
        self.splices.append((start, end, priority, len(self.splices), new))

    def result(self) -> str:
        ordered = sorted(self.splices)
        for (_, end, *_), (start, *_) in itertools.pairwise(ordered):
            if start < end:
                raise SpecEditError("two edits change the same part of the spec")
        text = self.text
        for start, end, _, _, new in reversed(ordered):
            text = text[:start] + new + text[end:]
        return text

    def line_end(self, position: int) -> int:
        """Where the line holding the character before `position` ends (its newline)."""
        if position and self.text[position - 1] == "\n":
            position -= 1
        else:
            found = self.text.find("\n", position)
            position = len(self.text) if found < 0 else found
        return position - 1 if position and self.text[position - 1] == "\r" else position

    def line_start(self, position: int) -> int:
        return self.text.rfind("\n", 0, position) + 1

    def column(self, position: int) -> int:
        return position - self.line_start(position)

    def dash(self, item: yaml.Node) -> int:
        """The index of the `-` that introduces a block sequence's item."""
        position = item.start_mark.index - 1
        while position >= 0 and self.text[position] in " \t\r\n":
            position -= 1
        if position < 0 or self.text[position] != "-":
            raise SpecEditError(f"line {item.start_mark.line + 1}: no '-' before the item")
        return position

    def colon(self, key: yaml.Node) -> int:
        """The index just after the `:` that follows a key."""
        position = self.text.index(":", key.end_mark.index)
        return position + 1


def last_end(node: yaml.Node) -> int:
    """Where a node's last character is, not counting comments or blank lines after it."""
    if isinstance(node, yaml.ScalarNode) or node.flow_style or not node.value:
        return node.end_mark.index
    last = node.value[-1]
    return last_end(last[1] if isinstance(node, yaml.MappingNode) else last)


def _pair(mapping: yaml.MappingNode, field: str) -> tuple[yaml.Node, yaml.Node] | None:
    return next(((k, v) for k, v in mapping.value
                 if isinstance(k, yaml.ScalarNode) and k.value == field), None)


def _scalar_value(node: yaml.Node) -> Any:
    return node.value if isinstance(node, yaml.ScalarNode) else None


# The edits, on the text ---------------------------------------------------------------------

def apply_edits(text: str, edits: list[Edit]) -> str:
    """The spec's text with `edits` made and nothing else changed (see the module's doc).
    Raises SpecEditError."""
    spec = _Text(text)
    _delete(spec, [edit for edit in edits if isinstance(edit, Delete)],
            {edit.section for edit in edits if isinstance(edit, Append)})
    rewritten = _rewrite(spec, edits)
    for edit in edits:
        if id(edit) in rewritten:
            continue
        if isinstance(edit, Set):
            _set(spec, edit)
        elif isinstance(edit, Unset):
            _unset(spec, edit)
    appended: dict[str, list[dict]] = {}
    for edit in edits:
        if isinstance(edit, Append):
            appended.setdefault(edit.section, []).append(edit.value)
    for section, values in appended.items():
        _append(spec, section, values)
    new = spec.result()
    try:
        expected = intended(yaml.safe_load(text), edits)
        if yaml.safe_load(new) != expected:
            raise SpecEditError("the edited spec does not read back as intended")
    except yaml.YAMLError as exc:
        raise SpecEditError(f"the edited spec is not valid YAML: {exc}") from None
    return new


def edit_file(path: Path, edits: list[Edit], expected: str | None = None,
              aside: Path | None = None) -> str:
    """Make `edits` to the spec at `path` and write it atomically (write_atomically:
    `aside` is where the temporary file goes). With `expected`, the file must still hold
    that text, else FileChanged and nothing is written. Returns the new text."""
    text = path.read_bytes().decode("utf-8")
    if expected is not None and text != expected:
        raise FileChanged(f"{path} changed since it was read")
    new = apply_edits(text, edits)
    if new != text:
        write_atomically(path, new, aside)
    return new


def _section(spec: _Text, name: str) -> yaml.Node | None:
    pair = _pair(spec.root, name)
    return None if pair is None else pair[1]


def _element(spec: _Text, section: str | None, element: Element | None) -> yaml.MappingNode:
    if section is None:
        return spec.root
    node = _section(spec, section)
    items = node.value if isinstance(node, yaml.SequenceNode) else []
    index = _index(items, element, lambda item: _scalar_value(_pair(item, "id")[1])
                   if isinstance(item, yaml.MappingNode) and _pair(item, "id") else None)
    if index is None or not isinstance(items[index], yaml.MappingNode):
        raise SpecEditError(f"{section} has no element {element!r}")
    if id(items[index]) in spec.deleted:
        raise SpecEditError(f"an edit changes {section} {element!r}, which it deletes")
    return items[index]


def _set(spec: _Text, edit: Set) -> None:
    mapping = _element(spec, edit.section, edit.element)
    pair = _pair(mapping, edit.field)
    if pair is None:
        _add_field(spec, mapping, edit.field, " " + flow(edit.value), edit.section)
        return
    key, old = pair
    if isinstance(old, yaml.ScalarNode) or old.flow_style:
        new = flow(edit.value, old.style if isinstance(old, yaml.ScalarNode) else None)
        start, end = old.start_mark.index, old.end_mark.index
        if start == end and spec.text[start - 1] == ":":   # an empty value: `sub:`
            new = " " + new
        spec.splice(start, end, new)
    elif isinstance(edit.value, (list, dict)) and edit.value:
        indent = spec.nl + " " * old.start_mark.column
        spec.splice(old.start_mark.index, last_end(old), indent.join(_block_lines(edit.value)))
    else:
        spec.splice(spec.colon(key), last_end(old), " " + flow(edit.value))


def _add_field(spec: _Text, mapping: yaml.MappingNode, field: str, rendered: str,
               section: str | None, priority: float = 0) -> None:
    """Insert `field:` + `rendered` into the mapping, in the usual order of its fields
    (fields inserted at one place, in that order too: by their rank in the splices'
    priority). The mapping has a field (_rewrite writes an empty one anew)."""
    order = ORDER.get(section, ())
    rank = order.index(field) if field in order else len(order)
    priority += rank / 1000
    before = [(k, v) for k, v in mapping.value
              if isinstance(k, yaml.ScalarNode) and k.value in order[:rank]]
    if mapping.flow_style:
        if before or field not in order:
            position = last_end((before or mapping.value)[-1][1])
            spec.splice(position, position, f", {scalar(field)}:{rendered}", priority)
        else:
            position = mapping.value[0][0].start_mark.index
            spec.splice(position, position, f"{scalar(field)}:{rendered}, ", priority)
        return
    column = mapping.value[0][0].start_mark.column
    if before or field not in order:
        position = spec.line_end(last_end((before or mapping.value)[-1][1]))
        new = spec.nl + " " * column + f"{scalar(field)}:{rendered}"
        spec.splice(position, position, new, priority)
    else:
        position = mapping.value[0][0].start_mark.index
        spec.splice(position, position, f"{scalar(field)}:{rendered}{spec.nl}" + " " * column,
                    -1 + rank / 1000)


def _rewrite(spec: _Text, edits: list[Edit]) -> set[int]:
    """Write anew each element whose every field is removed and which other fields then
    fill (an edge given by its points that now names its ends), or that is an empty `{}`
    given fields: its mapping, in its own style, with its new fields in their usual order.
    Field by field, the last removal would leave it empty for a moment. Returns the ids of
    the edits this made."""
    elements: dict[int, tuple[yaml.MappingNode, str, list[Set | Unset]]] = {}
    for edit in edits:
        if isinstance(edit, (Set, Unset)) and edit.section is not None:
            mapping = _element(spec, edit.section, edit.element)
            elements.setdefault(id(mapping), (mapping, edit.section, []))[2].append(edit)
    done: set[int] = set()
    for mapping, section, mine in elements.values():
        removed = {edit.field for edit in mine if isinstance(edit, Unset)}
        if any(_scalar_value(key) not in removed for key, _ in mapping.value):
            continue
        value: dict = {}
        for edit in mine:
            if isinstance(edit, Set):
                value[edit.field] = edit.value
            else:
                value.pop(edit.field, None)
        if not value:
            raise SpecEditError(f"removing {', '.join(map(repr, sorted(removed)))} would "
                                "leave the element empty")
        order = ORDER.get(section, ())
        value = dict(sorted(value.items(), key=lambda pair: order.index(pair[0])
                            if pair[0] in order else len(order)))
        if mapping.flow_style or not mapping.value:
            spec.splice(mapping.start_mark.index, mapping.end_mark.index, flow(value))
        else:
            indent = spec.nl + " " * mapping.value[0][0].start_mark.column
            spec.splice(mapping.start_mark.index, last_end(mapping),
                        indent.join(_block_lines(value)))
        done.update(id(edit) for edit in mine)
    return done


def _unset(spec: _Text, edit: Unset) -> None:
    mapping = _element(spec, edit.section, edit.element)
    pairs = mapping.value
    index = next((i for i, (k, _) in enumerate(pairs) if _scalar_value(k) == edit.field), None)
    if index is None:
        return
    if len(pairs) == 1:
        raise SpecEditError(f"removing '{edit.field}' would leave the element empty")
    key, value = pairs[index]
    if mapping.flow_style:
        if index + 1 < len(pairs):
            spec.splice(key.start_mark.index, pairs[index + 1][0].start_mark.index, "")
        else:
            spec.splice(last_end(pairs[index - 1][1]), last_end(value), "")
    elif index == 0 and spec.line_start(key.start_mark.index) != key.start_mark.index \
            and spec.text[spec.line_start(key.start_mark.index):key.start_mark.index].strip():
        spec.splice(key.start_mark.index, pairs[1][0].start_mark.index, "")   # `- id: x`
    else:
        start = spec.line_start(key.start_mark.index)
        spec.splice(max(start - 1, 0), spec.line_end(last_end(value)), "")


def _delete(spec: _Text, deletes: list[Delete], appended: set[str]) -> None:
    by_section: dict[str, set[int]] = {}
    for edit in deletes:
        node = _section(spec, edit.section)
        item = _element(spec, edit.section, edit.element)
        by_section.setdefault(edit.section, set()).add(
            next(i for i, it in enumerate(node.value) if it is item))
    spec.deleted.update(id(_section(spec, name).value[i])
                        for name, doomed in by_section.items() for i in doomed)
    for name, doomed in by_section.items():
        node = _section(spec, name)
        key = _pair(spec.root, name)[0]
        if node.flow_style:
            kept = [spec.text[it.start_mark.index:it.end_mark.index]
                    for i, it in enumerate(node.value) if i not in doomed]
            spec.splice(node.value[0].start_mark.index, last_end(node.value[-1]),
                        ", ".join(kept))
            if not kept:
                spec.emptied.add(name)
        elif len(doomed) == len(node.value) and name not in appended:
            spec.splice(spec.colon(key), spec.line_end(last_end(node)), " []")
        else:
            for i in sorted(doomed):
                item = node.value[i]
                start = spec.line_start(spec.dash(item))
                spec.splice(start - 1, spec.line_end(last_end(item)), "")


def _append(spec: _Text, section: str, values: list[dict]) -> None:
    """Append `values` to `section`, after its last element or in a new list."""
    pair = _pair(spec.root, section)
    node = None if pair is None else pair[1]
    if isinstance(node, yaml.SequenceNode) and node.value:
        last = node.value[-1]
        position = last_end(last)
        if node.flow_style:
            comma = "" if section in spec.emptied else ", "
            spec.splice(position, position, comma + ", ".join(map(flow, values)), 1)
        else:
            lines = [line for value in values for line in _item_lines(spec, last, value)]
            spec.splice(spec.line_end(position), spec.line_end(position),
                        "".join(spec.nl + line for line in lines), 1)
        return
    if node is not None and not (isinstance(node, yaml.SequenceNode)
                                 or _scalar_value(node) in ("", "~", "null", "Null", "NULL")):
        raise SpecEditError(f"'{section}' is not a list")
    rendered = _new_list(spec, values)
    if pair is None:
        rank = ORDER[None].index(section) if section in ORDER[None] else 99
        _add_field(spec, spec.root, section, rendered, None, 2 + rank / 100)
    else:
        spec.splice(spec.colon(pair[0]), max(spec.colon(pair[0]), last_end(node)), rendered, 1)


def _new_list(spec: _Text, values: list[dict]) -> str:
    """A list's text after its key's colon, in the style of the spec's other sections."""
    like = next((value for key, value in spec.root.value
                 if _scalar_value(key) in SECTIONS and isinstance(value, yaml.SequenceNode)
                 and value.value), None)
    if like is not None and like.flow_style:
        return " [" + ", ".join(map(flow, values)) + "]"
    if like is not None:
        lines = [line for value in values for line in _item_lines(spec, like.value[0], value)]
    else:
        lines = [("  - " if i == 0 else "    ") + line
                 for value in values for i, line in enumerate(_block_lines(value))]
    return "".join(spec.nl + line for line in lines)


def _item_lines(spec: _Text, like: yaml.Node, value: dict) -> list[str]:
    """The lines of a new block-sequence item written as `like` is."""
    dash = spec.dash(like)
    prefix = " " * spec.column(dash) + "-" + " " * (like.start_mark.index - dash - 1) \
        if spec.line_start(like.start_mark.index) == spec.line_start(dash) else None
    if prefix is None:   # `-` alone on its line
        prefix = " " * spec.column(dash) + "- "
    if isinstance(like, yaml.MappingNode) and not like.flow_style:
        lines = _block_lines(value)
        indent = " " * len(prefix)
        return [prefix + lines[0]] + [indent + line for line in lines[1:]]
    return [prefix + flow(value)]
