"""What a save of the figure editor changes in a spec: the elements that differ from the
ones loaded (found by the index each came from, its `origin`), as the spec writer's
edits (spec_edit.py), which change only those lines."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..load.frontmatter import plain
from .spec_edit import ORDER, SECTIONS, Append, Delete, Set, SpecEditError, Unset, apply_edits


def fields(section: str) -> tuple[str, ...]:
    """The fields an element of the section may have, in the spec's usual order."""
    return ORDER.get(section, ("box",))


def used_keys(spec: dict) -> list[str]:
    """The dictionary keys the spec's nodes, labels, edge labels and group titles show, in
    order, once each."""
    keys: list[str] = []
    for item, names in [*((item, ("text", "sub")) for item in spec.get("nodes", [])),
                        *((item, ("text",)) for item in spec.get("labels", [])),
                        *((item, ("label",)) for item in spec.get("edges", [])),
                        *((item, ("title",)) for item in spec.get("groups", []))]:
        for name in names:
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
    return {key: item[key] for key in fields(name) if item.get(key) is not None}


def plans(data: dict, spec: dict) -> dict[str, Plan]:
    """Each list's edits: the page's elements against the spec's, by origin."""
    found = {}
    for name in (*SECTIONS, "groups"):
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


def edits(data: dict, spec: dict) -> list:
    """The spec writer's edits (spec_edit.py) that make the spec `data` say `spec`: a
    field set or removed for each element changed, elements appended and deleted, the
    canvas size if it changed."""
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
    wanted = edits(data, spec)
    if not wanted:
        return text
    try:
        return apply_edits(text, wanted)
    except SpecEditError as error:
        raise ValueError(str(error)) from None
