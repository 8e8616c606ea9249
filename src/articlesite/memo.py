"""What parsing remembers across builds: the memo, by kind and digest of what was parsed.

The cache (cache.py) owns it: it loads the memo with its index, hands it to the build,
and saves what the build used. It sits here, below loading, because the loaders use it;
every kind of thing it remembers is named here, once.
"""

from __future__ import annotations

import itertools
import marshal
from collections.abc import Callable
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

    def __init__(self, known: dict[str, Any] | None = None):
        self.known = known or {}
        self.kept: dict[str, Any] = {}   # what this build used or made: the next `known`

    def recall(self, kind: str, digest: str) -> Any:
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
