"""A language's search index in shards (search_shards.py): each page in one shard by a
stable hash of its path, an edit indexes its page's shard again and nothing else, the
result is the site a clean build makes of the edited project, and a damaged cached file
of a shard is made again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import edit, snapshot
from search_sites import NOTES, built_sharded_site, shard_of, shards_env

from articlesite import search
from articlesite.build import build
from articlesite.cache import FOLDER
from articlesite.load.sourcefiles import digest
from articlesite.search_shards import PAGES_PER_SHARD, split


def pages(count: int, code: str = "en") -> list[tuple[str, str, str]]:
    return [(f"{code}/article-{number}.html", "given", "blob") for number in range(count)]


def test_pages_are_split_by_a_stable_hash_into_shards_none_empty():
    shards = split(pages(1000))
    assert len(shards) == 16 and min(map(len, shards.values())) > 0
    assert sum(map(len, shards.values())) == 1000
    assert split(list(reversed(pages(1000)))).keys() == shards.keys()
    # An article's translations share their shard number; a small language has one.
    assert [sorted(p[0][3:] for p in shard) for shard in split(pages(1000, "ja")).values()] \
        == [sorted(p[0][3:] for p in shard) for shard in shards.values()]
    assert len(split(pages(2 * PAGES_PER_SHARD - 1))) == 1
    assert len(split(pages(2 * PAGES_PER_SHARD))) == 2


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The sharded site, built once: a clean copy for each test."""
    return built_sharded_site(tmp_path_factory.mktemp("shards") / "project")


@pytest.fixture
def root(built: Path, tmp_path: Path, monkeypatch) -> Path:
    shards_env(monkeypatch)
    copy = tmp_path / "project"
    shutil.copytree(built, copy, symlinks=True)
    return copy


def test_each_language_is_in_shards_merged_from_the_manifest(root: Path):
    site = root / "site"
    manifest = json.loads((site / "pagefind" / "articlesite-shards.json").read_text())
    assert set(manifest) == {"en", "ja", "zh-cn"} and all(manifest.values()), manifest
    for key, folders in manifest.items():
        for folder in folders:
            entry = json.loads((site / "pagefind" / folder / "pagefind-entry.json").read_text())
            assert key in entry["languages"]
            # A shard holds its index only: the program's files are the main bundle's.
            assert not list((site / "pagefind" / folder).glob("*.js"))
            assert not list((site / "pagefind" / folder).glob("wasm.*"))
    for code in ("en", "zh", "ja"):
        shards = {shard_of(site, f"{code}/note-{i}.html") for i in range(1, NOTES + 1)}
        assert len(shards) > 1, code
        assert {shard_of(site, f"en/note-{i}.html") for i in range(1, NOTES + 1)} == shards


def test_an_edit_indexes_its_shard_only_and_gives_the_clean_build(root: Path, tmp_path: Path,
                                                                  monkeypatch):
    runs = []
    real = search.index_languages
    monkeypatch.setattr(search, "index_languages", lambda groups, *rest: runs.append(
        (sorted(groups), rest[-1])) or real(groups, *rest))
    site = root / "site"
    edit(root, "content/note-3/ja.md", "ノート3:", "ノート3 改訂:")
    build(root)
    assert runs == [(["ja"], shard_of(site, "ja/note-3.html"))]
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("site", FOLDER))
    build(clean)
    assert snapshot(site) == snapshot(clean / "site")


@pytest.mark.parametrize("name", ["pagefind-entry.json", "fragment/", "index/", "pf_meta"])
def test_a_damaged_cached_file_of_a_shard_is_made_again(root: Path, name: str):
    site = root / "site"
    before = snapshot(site)
    folder = next(iter(json.loads((site / "pagefind" / "articlesite-shards.json")
                                  .read_text())["ja"]))
    path = next(path for path in sorted(before) if path.startswith(f"pagefind/{folder}")
                and name in path)
    stored = root / FOLDER / "pages" / f"{digest(before[path])}.html"
    data = bytearray(stored.read_bytes())
    data[len(data) // 2] ^= 0x20
    stored.unlink()   # (not through the site's hard link)
    stored.write_bytes(bytes(data))
    build(root)
    assert snapshot(site) == before


def test_a_build_starts_pagefind_early_for_the_languages_edited_since_the_last(root: Path):
    """Their edited pages' shards will be indexed: the segmenters load meanwhile."""
    from articlesite.build import edited_languages
    from articlesite.load.sources import load_sources
    from articlesite.problems import Problems

    index = root / FOLDER / "index"
    assert edited_languages(load_sources(root, Problems(root)), index) == []
    edit(root, "content/note-2/ja.md", "ノート2:", "ノート2 改訂:")
    assert edited_languages(load_sources(root, Problems(root)), index) == ["ja"]


def test_pages_fed_ahead_with_one_handed_again_make_the_index_made_afresh(tmp_path: Path):
    """Pagefind's index depends on the order of its pages (the order a fresh folder of
    them lists them in); a page handed again under its URL takes its first version's
    place (fossick_one): the index of pages fed ahead, the edited one in its old
    version, then handed again, is the fresh one's."""
    from articlesite.search_service import Service

    def page(number: int, word: str) -> str:
        return (f'<!DOCTYPE html><html lang="en"><head><title>Note {number}</title></head>'
                f"<body><article data-pagefind-body><h1>Note {number}</h1><p>{word} "
                f"{'lattice ' * number}</p></article></body></html>")

    texts = {(n, word): page(n, word) for n in range(1, 9) for word in ("old", "new")}

    def hand(pages):
        def to(folder: Path) -> None:
            for path, token in pages:
                (folder / path).parent.mkdir(parents=True, exist_ok=True)
                (folder / path).write_text(texts[token], "utf-8")
        return to

    before = [(f"en/note-{n}.html", (n, "old")) for n in range(1, 9)]
    after = [(f"en/note-{n}.html", (n, "new" if n == 3 else "old")) for n in range(1, 9)]
    fresh, fed = Service(), Service()
    try:
        made, failure = fresh.index(after, hand(after), texts.get, tmp_path)
        assert failure is None and any(name.startswith("fragment/") for name in made)
        fed.feed(before, hand(before), tmp_path)
        assert fed.index(after, hand(after), texts.get, tmp_path) == (made, None)
        assert fed._fed is None   # taken
        # Other pages fed: the index is made afresh, the same.
        fed.feed(before[1:], hand(before[1:]), tmp_path)
        assert fed.index(after, hand(after), texts.get, tmp_path) == (made, None)
        # A page handed again at its end, not in its place, gives another index.
        fed.feed(before, hand(before), tmp_path)
        fed._feeding.join()
        index, _ = fed._fed
        fed._service.ask({"type": "DeleteIndex", "index_id": index})
        index = fed._service.add_folder(_folder(tmp_path, hand([p for p in before
                                                                  if p[1][0] != 3])))
        for number in fed._service.add_pages([("en/note-3.html", texts[3, "new"])], index)[1]:
            fed._service.receive(number)
        assert fed._service.files(index) != made
    finally:
        fresh.close()
        fed.close()


def _folder(parent: Path, hand) -> Path:
    folder = parent / "folder"
    hand(folder)
    return folder


def spy_handed(monkeypatch, then=None) -> list[tuple[list[str], int | None]]:
    """The pages handed to Pagefind from now on: a folder's (a new index, None) or pages
    one by one (into the index named)."""
    from articlesite import search_service

    handed = []
    service = search_service.PagefindService
    folder, pages = service.add_folder, service.add_pages

    def note(paths: list[str], index: int | None) -> None:
        handed.append((paths, index))
        if then is not None:
            then(paths, index)

    monkeypatch.setattr(service, "add_folder", lambda self, path: note(sorted(
        p.relative_to(path).as_posix() for p in path.rglob("*.html")), None) or
        folder(self, path))
    monkeypatch.setattr(service, "add_pages", lambda self, given, index=None: note(
        [p for p, _ in given], index) or pages(self, given, index))
    return handed


def test_an_edit_built_by_the_command_line_feeds_its_shard_ahead(root: Path, tmp_path: Path,
                                                                 monkeypatch):
    """`python build.py` after an edit starts Pagefind before it loads anything and hands
    it the edited page's shard as the last build made it; once the page is rendered, it
    hands that page again alone: the site is the clean build's."""
    from conftest import run_build


    assert run_build(root).returncode == 0   # the command line's record
    handed = spy_handed(monkeypatch)
    edit(root, "content/note-3/ja.md", "ノート3:", "ノート3 改訂:")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    site = root / "site"
    assert "ja/note-3.html" in handed[0][0] and handed[0][1] is None   # fed ahead
    assert handed[1:] == [(["ja/note-3.html"], handed[1][1])] and handed[1][1] is not None
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("site", FOLDER))
    build(clean)
    assert snapshot(site) == snapshot(clean / "site")


def test_a_quick_rebuild_feeds_its_shard_once_its_page_is_in_place(root: Path,
                                                                    tmp_path: Path,
                                                                    monkeypatch):
    """serve's quick rebuild hands Pagefind the edited page's shard once that page is in
    place (not to slow it down), then that page again alone: the clean build's site."""
    from articlesite.cache import Cache
    from articlesite.search_service import Service

    service = Service()
    try:
        cache = Cache(root)
        first = build(root, cache=cache, search=service)
        events = []
        handed = spy_handed(monkeypatch, lambda paths, index: events.append(
            ("handed", paths, index)))
        edit(root, "content/note-3/ja.md", "ノート3:", "ノート3 改訂:")
        build(root, cache=Cache(root, after=cache), previous=first, search=service,
              changed=[root / "content/note-3/ja.md"],
              written=lambda paths: events.append(("written", paths)))
        assert events[0] == ("written", ["ja/note-3.html"])
        assert "ja/note-3.html" in handed[0][0] and handed[0][1] is None   # fed ahead
        assert handed[1:] == [(["ja/note-3.html"], handed[1][1])]   # again, into it
        assert handed[1][1] is not None
    finally:
        service.close()
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("site", FOLDER))
    build(clean)
    assert snapshot(root / "site") == snapshot(clean / "site")


def test_the_command_line_starts_pagefind_once_it_has_scanned_content(monkeypatch):
    """The command line starts Pagefind with the segmenters of the languages whose
    article sources changed as soon as its scan of the project has been through
    content/ (before figures/, templates/ and the theme); the whole scan then says
    whether that holds (a figure text changed: every language), or which to start."""
    from articlesite.search_service import EarlyService, Service

    warmed = []
    monkeypatch.setattr(Service, "warm", lambda self, languages=(): warmed.append(
        (self, list(languages))))
    monkeypatch.setattr(Service, "close", lambda self: None)
    languages = ["en", "zh", "ja"]
    record = {"search": languages}
    early = EarlyService()
    early.content(record, {"content/a/ja.md"})
    started = early.service
    assert warmed == [(started, ["ja"])]
    # English has no segmenter to load: what was started holds.
    assert early.settle(languages, {"content/a/ja.md", "content/b/en.md"}) is started
    assert early.settle(languages, {"content/a/zh.md"}) not in (started, None)
    assert warmed[-1][1] == ["zh"]
    assert early.settle(languages, {"templates/base.html"}) is None
    early.content({"search": None}, {"content/a/ja.md"})
    assert early.service is None   # (no index)


@pytest.mark.parametrize("racy", [0.0, 1e9])
def test_a_build_with_nothing_to_do_starts_no_pagefind(tmp_path: Path, monkeypatch, racy):
    """Not even for a source the last build trusted by its digest only (changed within
    RACY seconds of its scan): its bytes are the same."""
    from conftest import fixture_site, run_build

    from articlesite import unchanged
    from articlesite.search_service import Service

    monkeypatch.setattr(unchanged, "RACY", racy)
    root = fixture_site("sources", tmp_path / "project", search=True).resolve()
    assert run_build(root).returncode == 0
    monkeypatch.setattr(unchanged, "RACY", 0.0)
    started = []
    monkeypatch.setattr(Service, "warm", lambda self, languages=(): started.append(languages))
    assert "(0 rendered" in run_build(root).stdout
    assert started == []
