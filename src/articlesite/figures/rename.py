"""Renaming dictionary keys for the figure editor: when a node's id is renamed, its keys
(`FIGURE-OLD`, `FIGURE-OLD-sub`) follow it in `figures/figure-texts.json` and in the
record of confirmed translations beside it, provided no other figure uses them.

Only the key's own string changes in each file (its place, its entry, the file's
indentation and escapes stay), so `git diff` shows one line per key renamed.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..load.figures import FIGURE_ID
from ..load.sourcefiles import parse_yaml
from ..problems import Problems
from ..translate.dictionary_file import layout

Renames = dict[str, str]   # old key -> new key


def keys_of(data: object) -> set[str]:
    """Every dictionary key a spec's data names: its title and caption, and the text and
    subtitle of its nodes and labels."""
    if not isinstance(data, dict):
        return set()
    found = {data.get("title"), data.get("caption")}
    for name in ("nodes", "labels"):
        for item in data.get(name) or []:
            if isinstance(item, dict):
                found |= {item.get("text"), item.get("sub")}
    return {key for key in found if isinstance(key, str)}


def used_elsewhere(root: Path, figure: str) -> set[str]:
    """The keys the other figures of the project use."""
    found: set[str] = set()
    for path in sorted((root / "figures").glob("*.yaml")):
        if path.stem != figure:
            text = path.read_bytes().decode("utf-8", errors="replace")
            found |= keys_of(parse_yaml(text, path, Problems(root)))
    return found


def problems_of(renames: object, entries: set[str], mine: set[str],
                elsewhere: set[str]) -> list[str]:
    """What is wrong with the renames a page asks for (nothing: [])."""
    if not isinstance(renames, dict):
        return ["'renames' must map old keys to new keys"]
    found, new = [], set(renames.values())
    for old, key in renames.items():
        if not isinstance(key, str) or old not in entries or old not in mine:
            found.append(f"{old!r} is not a key of this figure in the dictionary")
        elif not FIGURE_ID.match(key):
            found.append(f"{key!r}: a key is lower-case letters, digits and hyphens")
        elif key in entries and key not in renames:
            found.append(f"the key {key!r} is taken in the dictionary")
        elif old in elsewhere:
            found.append(f"the key {old!r} is used by another figure: it keeps its name")
    if len(new) != len(renames):
        found.append("two keys are renamed to the same key")
    return found


def rename_keys(text: str, renames: Renames) -> str:
    """The dictionary's (or record's) text with its keys renamed; keys it lacks are
    left out. Nothing else in the text changes."""
    entries = layout(text)
    ascii_only = text.isascii() and "\\u" in text
    spans = sorted(((entries[old].key, new) for old, new in renames.items() if old in entries),
                   reverse=True)
    for (start, end), new in spans:
        text = text[:start] + json.dumps(new, ensure_ascii=ascii_only) + text[end:]
    before = json.loads(text) if spans else None
    if before is not None and len(before) != len(entries):
        raise ValueError("the dictionary with the renamed keys does not read back as meant")
    return text
