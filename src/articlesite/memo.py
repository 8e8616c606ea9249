"""What parsing remembers across builds: the memo, by kind and digest of what was parsed.

The cache (cache.py) owns it: it loads the memo with its index, hands it to the build,
and saves what the build used. It sits here, below loading, because the loaders use it;
every kind of thing it remembers is named here, once.
"""

from __future__ import annotations

import itertools
import marshal
from collections.abc import Callable, Iterable
from typing import Any

from .problems import Problems

# The kinds of results the memo keeps, each by the digest of what was parsed:
SOURCE = "source"          # an article source's front matter (load/content.py)
REFERENCES = "references"  # an article's bibliography (load/content.py)
OUTLINE = "outline"        # an article source's outline (load/outlines.py)
SECTIONS = "sections"      # an article source's sections (load/sections.py)
SPEC = "spec"              # the dictionary keys of a figure spec that loaded clean
BODY = "body"              # an article body's stored record (cache.KeptBody), by body_key
COPY = "copy"              # a figure's copy for the translator's view (cache.StoredCopy)
LINKS = "links"            # a figure spec's nodes that link to a section: id, link, line
KINDS = (SOURCE, REFERENCES, OUTLINE, SECTIONS, SPEC, BODY, COPY, LINKS)


def memo_key(kind: str, digest: str) -> str:
    """The memo's key of a result: its kind and the digest of what was parsed."""
    assert kind in KINDS, kind
    return f"{kind}:{digest}"


class Memo:
    """Results of parsing files, by kind (one of KINDS) and the digest of the bytes
    parsed, kept across builds by the cache (cache.py). Only a result that came with no
    problem is kept, and only in plain values that marshal gives back unchanged."""

    def __init__(self, known: dict[str, Any] | None = None,
                 parts: dict[str, Callable[[], dict[str, Any]]] | None = None):
        self.known = known or {}
        self.kept: dict[str, Any] = {}   # what this build used or made: the next `known`
        # Kinds kept apart (the cache's own files), each loaded when first recalled: what
        # a build that never asks for them does not unmarshal (cache.py).
        self.parts = parts or {}
        self.part_keys: dict[str, set[str]] = {}   # the memo keys each part holds
        self.loaded: set[str] = set()
        self.swept: set[str] = set()   # kinds whose every current result was recalled
        # The digest of each file (by path) unchanged since the last build hashed it, as
        # its size, times and inode say (unchanged.py): not read again for a result
        # remembered by that digest.
        self.trusted: dict[str, str] = {}

    def recall(self, kind: str, digest: str) -> Any:
        if kind in self.parts and kind not in self.loaded:
            self.load_part(kind)
        key = memo_key(kind, digest)
        value = self.kept.get(key)
        if value is None:
            value = self.known.get(key)
            if value is not None:
                self.kept[key] = value
        return value

    def keep(self, kind: str, digest: str, value: Any) -> None:
        try:
            if marshal.loads(marshal.dumps(value)) == value:
                self.kept[memo_key(kind, digest)] = value
        except ValueError:  # not plain values: parse again next time
            pass

    def forget(self, kinds: Iterable[str], digests: Iterable[str | None]) -> None:
        """What this build keeps of these kinds of results for these digests goes (those
        of the old version of a file read again)."""
        for kind in kinds:
            for digest in digests:
                if digest is not None:
                    self.kept.pop(memo_key(kind, digest), None)

    def forget_where(self, kind: str, gone: Callable[[Any], bool]) -> None:
        """What this build keeps of a kind of results goes where `gone(value)`."""
        prefix = memo_key(kind, "")
        for key in [key for key, value in self.kept.items()
                    if key.startswith(prefix) and gone(value)]:
            del self.kept[key]

    def kept_since(self, count: int) -> dict[str, Any]:
        """What this memo kept after its first `count` entries (a build worker's, for
        the build's `take`), the newest first: a large build's memo holds thousands
        before them."""
        return dict(itertools.islice(reversed(self.kept.items()), len(self.kept) - count))

    def take(self, kept: dict[str, Any]) -> None:
        """Keep what another process's memo (a build worker's) kept, by memo key: checked
        by its `keep` there."""
        self.kept.update(kept)

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

    def of_kind(self, kind: str) -> list[Any]:
        """Every value this build kept of one kind."""
        prefix = memo_key(kind, "")
        return [value for key, value in self.kept.items() if key.startswith(prefix)]

    def trusted_digest(self, kind: str, path: object) -> str | None:
        """The digest of the file at `path`, if it is trusted and a result of `kind` is
        remembered for it: the caller need not read the file."""
        digest = self.trusted.get(str(path))
        return digest if digest is not None and self.has(kind, digest) else None

    def has(self, kind: str, digest: str) -> bool:
        """Whether a result is remembered, without loading a part kept apart."""
        key = memo_key(kind, digest)
        return key in self.kept or key in self.known or key in self.part_keys.get(kind, ())

    def known_without_parts(self) -> dict[str, Any]:
        """What the memo knew before this build, but the kinds kept apart."""
        prefixes = tuple(memo_key(kind, "") for kind in self.parts)
        return {key: value for key, value in self.known.items()
                if not prefixes or not key.startswith(prefixes)}

    def load_part(self, kind: str) -> None:
        """Load a kind kept apart (once); a result kept by this build stays."""
        self.loaded.add(kind)
        for key, value in self.parts[kind]().items():
            self.known.setdefault(key, value)

    def sweep(self, kind: str) -> None:
        """Say that this build recalled every result of `kind` still current: what it did
        not recall can go (part_to_save)."""
        self.swept.add(kind)

    def part_to_save(self, kind: str) -> dict[str, Any] | None:
        """What the cache saves of a kind kept apart: None if it is as it was (neither
        loaded nor added to); what this build kept of it if it swept the kind; else that
        and what it was before."""
        prefix = memo_key(kind, "")
        kept = {key: value for key, value in self.kept.items() if key.startswith(prefix)}
        if kind not in self.loaded and not kept:
            return None
        if kind in self.swept:
            return kept
        if kind not in self.loaded:
            self.load_part(kind)
        return {key: value for key, value in self.known.items()
                if key.startswith(prefix)} | kept

    def without_parts(self) -> dict[str, Any]:
        """What this build kept, but the kinds kept apart."""
        prefixes = tuple(memo_key(kind, "") for kind in self.parts)
        return {key: value for key, value in self.kept.items()
                if not prefixes or not key.startswith(prefixes)}
