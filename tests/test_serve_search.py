"""`serve` with the search index on: a save made while the index of the previous one is
being made is not kept waiting. That build is given up (Interrupted): the pages it put in
place stay, its index and its cache are not kept, and the next build renders its changes
again and makes the index. On the small fixture site (tests/fixtures/sources: article
`loop` in en, zh and ja) with the search index on. No timing is asserted: only what ends
up in site/ and in the index."""

from __future__ import annotations

import gc
import gzip
import json
import os
from pathlib import Path

import pytest
from conftest import built_with_search, edit, restore_built, snapshot
from test_serve import Server, poll

from articlesite.build import build
from articlesite.cache import FOLDER, Cache
from articlesite.problems import Interrupted
from articlesite.serve.builder import Builder
from articlesite.serve.outcome import BuildState

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


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The fixture site with its search index, built once for this file's tests."""
    return built_with_search(tmp_path_factory)


@pytest.fixture
def root(built: tuple[Path, Path]) -> Path:
    """The site as `built` left it, in a folder of the test's own: the first build of
    each test, and serve's, finds every page in the cache."""
    return restore_built(*built)


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


@pytest.fixture
def builder(root: Path):
    """serve's builder, in this process, after its first build."""
    builder = Builder(root, BuildState())
    try:
        builder.run()
        yield builder
    finally:
        builder.close()
        gc.unfreeze()   # (each build freezes what it keeps)


def test_a_given_up_builds_changes_are_built_again_with_the_next(builder: Builder, capsys):
    site = builder.root / "site"
    edit(builder.root, ZH, "策略行动", "策略迅速行动")
    builder.run([builder.root / ZH], interrupt=lambda: True)
    assert "Search index interrupted by a new change" in capsys.readouterr().out
    assert "迅速行动" in (site / ZH_PAGE).read_text(encoding="utf-8")
    assert "迅速行动" not in indexed(site, ZH_PAGE)
    # The next save is of another file: the build after it has both.
    edit(builder.root, JA, "## 収集 {#collect}", "## 採集 {#collect}")
    builder.run([builder.root / JA])
    assert "迅速行动" in indexed(site, ZH_PAGE) and "採集" in indexed(site, JA_PAGE)
    assert "迅速行动" in (site / ZH_PAGE).read_text(encoding="utf-8")
    assert "採集" in (site / JA_PAGE).read_text(encoding="utf-8")
    assert builder.state.outcome.ok


def test_an_edit_undone_while_its_index_was_made_leaves_the_page_as_it_was(
        builder: Builder):
    site = builder.root / "site"
    before = (site / JA_PAGE).read_bytes()
    edit(builder.root, JA, "## 収集 {#collect}", "## 採集 {#collect}")
    builder.run([builder.root / JA], interrupt=lambda: True)
    assert "採集" in (site / JA_PAGE).read_text(encoding="utf-8")
    edit(builder.root, JA, "## 採集 {#collect}", "## 収集 {#collect}")
    builder.run([builder.root / JA])
    # The page is the one the sources make again (and open pages are told to reload).
    assert (site / JA_PAGE).read_bytes() == before
    assert JA_PAGE in builder.state.outcome.changed
    assert "収集" in indexed(site, JA_PAGE) and "採集" not in indexed(site, JA_PAGE)


def test_two_quick_saves_both_reach_the_served_page_and_the_index(root: Path):
    """The second save is made as soon as the first build's pages are in place (while
    its index is being made, most likely: whether it was given up is not asserted)."""
    site = root / "site"
    with Server(root, "--port", "0") as server:
        events = server.events()
        edit(root, ZH, "策略行动", "策略迅速行动")
        events.until(lambda outcome: outcome["ok"] and ZH_PAGE in (outcome["changed"] or ()))
        edit(root, JA, "## 収集 {#collect}", "## 採集 {#collect}")
        assert poll(lambda: "迅速行动" in indexed(site, ZH_PAGE)
                    and "採集" in indexed(site, JA_PAGE)), server.output()
        assert "迅速行动" in server.get(f"/{ZH_PAGE}")[2]
        assert "採集" in server.get(f"/{JA_PAGE}")[2]
        assert server.stop() == 0
        assert "Traceback" not in server.output()


def test_the_index_files_a_rebuild_took_away_are_still_answered(root: Path):
    """A page that read the search bundle's entry file just before a rebuild put the new
    one in place then asks for the files the old one names (its metadata, index chunks,
    fragments): serve still answers them, though site/ holds the new index alone."""
    site = root / "site"
    with Server(root, "--port", "0") as server:
        events = server.events()
        if events.last["version"].endswith("-0"):   # serve's first build under way
            events.until(lambda outcome: not outcome["version"].endswith("-0"))
        events.close()
        before = {path.relative_to(site).as_posix(): path.read_bytes()
                  for path in (site / "pagefind").rglob("*") if path.is_file()}
        built = server.output().count(f"{JA} changed")
        edit(root, JA, "## 収集 {#collect}", "## 採集 {#collect}")
        assert poll(lambda: server.output().count(f"{JA} changed") > built), server.output()
        assert "採集" in indexed(site, JA_PAGE)
        gone = sorted(path for path in before if not (site / path).exists())
        assert gone
        for path in gone:
            status, _, body = server.get(f"/{path}")
            assert (status, body) == (200, before[path].decode(errors="replace")), path
        assert server.stop() == 0
