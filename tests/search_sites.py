"""A small site whose search index is in shards: the readers fixture (tests/fixtures/
readers) with eight short notes more in zh, en and ja, built with one shard for every page
or two (search_shards.PAGES_VARIABLE), so that each language's index is in several."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import fixture_site

from articlesite.build import build
from articlesite.search_shards import PAGES_VARIABLE

NOTES = 8
# Each note's words, by language: every note holds the first (the search finds them all),
# the note numbered i holds it i times; its second word is its own.
WORDS = {"en": ("lattice", "note {i}"), "zh": ("晶格", "笔记{i}"), "ja": ("格子", "ノート{i}")}


def sharded_site(target: Path) -> Path:
    """The project, in `target` (build it with `shards_env`)."""
    root = fixture_site("readers", target, search=True)
    for i in range(1, NOTES + 1):
        folder = root / "content" / f"note-{i}"
        folder.mkdir()
        for code, (shared, own) in WORDS.items():
            text = " ".join([shared] * i)
            (folder / f"{code}.md").write_text(
                f'---\ntitle: "{own.format(i=i)}"\ndescription: "{shared}"\n'
                f"date: 2024-05-{i:02d}\n---\n\n## {shared} {{#words}}\n\n"
                f"{own.format(i=i)}: {text}.\n", encoding="utf-8")
    return root.resolve()


def shards_env(monkeypatch) -> None:
    """One shard for every page or two, in this test's builds."""
    monkeypatch.setenv(PAGES_VARIABLE, "1")


def built_sharded_site(target: Path) -> Path:
    """The project in `target`, built with its index in shards."""
    with pytest.MonkeyPatch.context() as patch:
        shards_env(patch)
        root = sharded_site(target)
        build(root)
    return root


def shard_of(site: Path, page: str) -> str:
    """The bundle folder (in site/) whose fragments hold `page` (its path in site/)."""
    import gzip
    import json

    for path in sorted((site / "pagefind").rglob("*.pf_fragment")):
        data = gzip.decompress(path.read_bytes())
        if json.loads(data[data.index(b"{"):])["url"] == f"/{page}":
            return path.parent.parent.relative_to(site).as_posix()
    raise AssertionError(f"{page} is in no shard")
