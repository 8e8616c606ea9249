"""What a save of the figure editor changes: the spec's elements that differ from the
ones loaded (found by the index each came from, its `origin`), and the dictionary's new
keys. The spec's text is then edited by the spec writer (spec_edit.py), which changes
only those lines."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..translate.dictionary_file import layout

# The fields each list's elements may have (the build's declaration, load/figures.py).
FIELDS = {"nodes": ("id", "box", "text", "sub", "class", "link"),
          "edges": ("points", "from", "to", "class", "arrow"),
          "labels": ("text", "box", "class"),
          "dividers": ("box",), "lifelines": ("box",)}


def plain(value: Any) -> Any:
    """A YAML value as plain JSON data (no line-keeping mappings)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def used_keys(spec: dict) -> list[str]:
    """The dictionary keys the spec's nodes and labels show, in order, once each."""
    keys: list[str] = []
    for item in [*spec.get("nodes", []), *spec.get("labels", [])]:
        for name in ("text", "sub"):
            if isinstance(item.get(name), str) and item[name] not in keys:
                keys.append(item[name])
    return keys


@dataclass
class Plan:
    """The edits of one list: elements replaced (by index), removed, appended."""

    replaced: dict[int, dict] = field(default_factory=dict)
    removed: list[int] = field(default_factory=list)
    appended: list[dict] = field(default_factory=list)


def element(item: dict, name: str) -> dict:
    """A page's element with only the fields the spec declares, in the declared order;
    null means left out."""
    return {key: item[key] for key in FIELDS[name] if item.get(key) is not None}


def plans(data: dict, spec: dict) -> dict[str, Plan]:
    """Each list's edits: the page's elements against the spec's, by origin."""
    found = {}
    for name in FIELDS:
        before = [plain(item) for item in data.get(name) or []]
        plan, kept = Plan(), set()
        for item in spec.get(name, []):
            origin, new = item.get("origin"), element(item, name)
            if origin is None or origin >= len(before) or origin in kept:
                plan.appended.append(new)
                continue
            kept.add(origin)
            if new != element(before[origin], name):
                plan.replaced[origin] = new
        plan.removed = [i for i in range(len(before)) if i not in kept]
        found[name] = plan
    return found


def append_entries(text: str, new: dict[str, dict[str, str]]) -> str:
    """The dictionary's text with `new` keys added at its end, written as its last entry
    is (one line, or one member a line with its indentation), escapes as the file has."""
    entries = layout(text)
    ascii_only = text.isascii() and "\\u" in text
    end = text.rindex("}")
    if entries:
        last = list(entries.values())[-1]
        line_start = text.rfind("\n", 0, last.close) + 1
        indent = text[line_start:len(text) - len(text[line_start:].lstrip(" \t"))]
        member = last.indent if "\n" in last.indent else None
        at, lead = last.close + 1, ","
    else:
        indent, member, at, lead = "  ", "\n    ", text.index("{") + 1, ""
    written = []
    for key, values in new.items():
        members = [f"{json.dumps(lang)}: {json.dumps(value, ensure_ascii=ascii_only)}"
                   for lang, value in values.items()]
        if member is None:
            body = "{" + ", ".join(members) + "}"
        else:
            body = "{" + ",".join(member + m for m in members) + "\n" + indent + "}"
        written.append(f"\n{indent}{json.dumps(key, ensure_ascii=ascii_only)}: {body}")
    addition = lead + ",".join(written)
    if not entries:
        addition += "\n"
        return text[:at] + addition + text[at:end].strip() + text[end:]
    return text[:at] + addition + text[at:]


def edits(data: dict, spec: dict) -> list:
    """The spec writer's edits (spec_edit.py) that make the spec `data` say `spec`: a
    field set or removed for each element changed, elements appended and deleted, the
    canvas size if it changed."""
    from .spec_edit import Append, Delete, Set, Unset

    found: list = [Set(name, spec[name]) for name in ("width", "height")
                   if spec[name] != data.get(name)]
    for name, plan in plans(data, spec).items():
        before = [plain(item) for item in data.get(name) or []]
        for index, new in plan.replaced.items():
            old = before[index]
            found += [Set(key, value, name, index) for key, value in new.items()
                      if old.get(key) != value]
            found += [Unset(key, name, index) for key in old if key not in new]
        found += [Delete(name, index) for index in plan.removed]
        found += [Append(name, item) for item in plan.appended]
    return found


def apply(text: str, data: dict, spec: dict) -> str:
    """The spec's text changed to say `spec`, and nothing else changed."""
    from .spec_edit import SpecEditError, apply_edits

    wanted = edits(data, spec)
    if not wanted:
        return text
    try:
        return apply_edits(text, wanted)
    except SpecEditError as error:
        raise ValueError(str(error)) from None
