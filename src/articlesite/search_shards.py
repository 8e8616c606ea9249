"""A language's search index in shards: Pagefind has no incremental mode, so a large
language's pages are split into shards, each indexed by Pagefind into a bundle of its
own, and an edit indexes only its page's shard again. The search box (theme/search.js)
loads the main bundle (`pagefind/`, which holds shard 0 of every language with the
program's files) and merges the language's other shards (`pagefind/shard-N/`) into it
with Pagefind's `mergeIndex` (pagefind.app, "Searching multiple sites"): one list of
results, sorted by each result's score.

A page's shard is a stable hash of its path within its language (the same article's
translations share their shard number), modulo the language's shard count: a power of
two, the largest that leaves each shard PAGES_PER_SHARD pages or more, halved until no
shard is empty (shard 0 must hold the language: Pagefind's client would fall back to
another language's index). A language of fewer than twice PAGES_PER_SHARD pages has one
shard: the bundle Pagefind makes of the whole site. The manifest lists each language's
other shards (none, then): the search box reads it first.

Pagefind ranks with each index's own statistics (its pages' count and average length,
how many pages hold a word): shards of a hundred pages drawn at random from the same
site give close statistics, not equal ones (bench/search_ranking.py compares the top
results with the index in one piece).
"""

from __future__ import annotations

import hashlib
import json
import os

BUNDLE = "pagefind"
# What the search box reads first: the main bundle's language keys -> the folders of
# their other shards, relative to the bundle.
MANIFEST = f"{BUNDLE}/articlesite-shards.json"
# A shard holds this many pages to twice as many. At N = 1000 (1000 pages a language), 16
# shards of about 62 pages: an edit indexes 62 pages again instead of 1000.
PAGES_PER_SHARD = 40
# Set to a number of pages, it replaces PAGES_PER_SHARD (tests, bench/search_ranking.py).
PAGES_VARIABLE = "ARTICLESITE_SEARCH_SHARD_PAGES"


def pages_per_shard() -> int:
    value = os.environ.get(PAGES_VARIABLE, "")
    return int(value) if value.isdigit() and int(value) > 0 else PAGES_PER_SHARD


def folder(shard: int) -> str:
    """The bundle folder of a shard, in site/."""
    return BUNDLE if shard == 0 else f"{BUNDLE}/shard-{shard}"


def stable_hash(path: str) -> int:
    """A page's hash: of its path without its language's folder."""
    within = path.split("/", 1)[-1]
    return int.from_bytes(hashlib.blake2b(within.encode("utf-8"), digest_size=8).digest(),
                          "big")


def split(group: list[tuple[str, str, str]]) -> dict[int, list[tuple[str, str, str]]]:
    """A language's pages (path first in each) by shard, every shard holding some."""
    size = pages_per_shard()
    count = 1
    while count * 2 * size <= len(group):
        count *= 2
    hashes = [stable_hash(page[0]) for page in group]
    while count > 1 and len({value % count for value in hashes}) < count:
        count //= 2
    shards: dict[int, list] = {}
    for page, value in zip(group, hashes):
        shards.setdefault(value % count, []).append(page)
    return dict(sorted(shards.items()))


def by_shard(groups: dict[str, list]) -> dict[int, dict[str, list]]:
    """The languages' pages (code -> pages) by shard: shard -> code -> pages."""
    shards: dict[int, dict[str, list]] = {}
    for code, group in groups.items():
        for shard, pages in split(group).items():
            shards.setdefault(shard, {})[code] = pages
    return dict(sorted(shards.items()))


def manifest(headers: dict[int, dict]) -> bytes:
    """The manifest (MANIFEST) from each shard's entry file content: for each language of
    the main bundle, the folders of its other shards, in their order."""
    main = headers.get(0, {}).get("languages", {})
    found = {key: [f"{folder(shard)[len(BUNDLE) + 1:]}/" for shard, header in
                   sorted(headers.items()) if shard and key in header.get("languages", {})]
             for key in sorted(main)}
    return json.dumps(found, separators=(",", ":")).encode("utf-8")
