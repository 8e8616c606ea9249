"""`serve` with the search index on: a save made while the index of the previous one is
being made is not kept waiting. That build is given up (Interrupted): the pages it put in
place stay, its index and its cache are not kept, and the next build renders its changes
again and makes the index. On the small fixture site (tests/fixtures/sources: article
`loop` in en, zh and ja) with the search index on. No timing is asserted: only what ends
up in site/ and in the index."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from conftest import edit, fixture_site, snapshot

from articlesite.build import build
from articlesite.cache import FOLDER, Cache
from articlesite.problems import Interrupted

ZH, JA = "content/loop/zh.md", "content/loop/ja.md"
ZH_PAGE, JA_PAGE = "zh/loop.html", "ja/loop.html"


def indexed(site: Path, page: str) -> str:
    """The text Pagefind indexed of `page` (its fragments: gzip-compressed, a signature
    then JSON), without the zero-width spaces that mark where it cut Chinese and Japanese
    into words; "" while it has none."""
    texts = []
    for path in (site / "pagefind" / "fragment").glob("*.pf_fragment"):
        try:
            data = gzip.decompress(path.read_bytes())
        except OSError:
            continue   # replaced meanwhile, in serve
        record = json.loads(data[data.index(b"{"):])
        if record["url"] == f"/{page}":
            texts.append(record["content"].replace("\u200b", ""))
    return "\n".join(texts)


def pagefind_children() -> list[int]:
    """The Pagefind processes this test's process started that still run."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid() and b"pagefind" in command:
            found.append(int(stat.parent.name))
    return found


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project", search=True).resolve()


def test_an_interrupted_build_leaves_its_pages_and_the_previous_index(root: Path):
    site = root / "site"
    cache = Cache(root)
    first = build(root, cache=cache)
    index, saved = snapshot(site / "pagefind"), (root / FOLDER / "index").read_bytes()
    edit(root, JA, "## 収集 {#collect}", "## 採集 {#collect}")
    with pytest.raises(Interrupted):
        build(root, cache=Cache(root, after=cache), previous=first, changed=[root / JA],
              interrupt=lambda: True)
    assert "採集" in (site / JA_PAGE).read_text(encoding="utf-8")
    assert snapshot(site / "pagefind") == index
    assert "収集" in indexed(site, JA_PAGE) and "採集" not in indexed(site, JA_PAGE)
    assert (root / FOLDER / "index").read_bytes() == saved
    assert pagefind_children() == []
    # Built again from the same previous build, the edit is indexed.
    assert build(root, cache=Cache(root, after=cache), previous=first,
                 changed=[root / JA]).incremental
    assert "採集" in indexed(site, JA_PAGE)
