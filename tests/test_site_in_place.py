"""`python build.py` after a small change replaces in site/ only the files that changed
(write.write_site): every other file stays the very file it was (a hard link into the
cache's store, untouched), and the site is byte for byte what a clean build writes; a
file or folder no page needs goes. On the small fixture site."""

from __future__ import annotations

from pathlib import Path

from conftest import assert_same_as_clean_build, built_sources, edit, run_build

from articlesite import write
from articlesite.cache import Entry, Store


def inodes(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_ino for p in site.rglob("*")
            if p.is_file()}


def test_an_edit_replaces_only_the_pages_it_changed(tmp_path):
    root = built_sources(tmp_path)
    site = root / "site"
    before, folder = inodes(site), site.stat().st_ino
    edit(root, "content/loop/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    stray = site / "en" / "stray.html"
    stray.write_text("not built", "utf-8")
    (site / "old-folder" / "deep").mkdir(parents=True)
    (site / "old-folder" / "deep" / "x.txt").write_text("x", "utf-8")
    assert run_build(root).returncode == 0
    after = inodes(site)
    changed = sorted(path for path in after if before.get(path) != after[path])
    assert changed == ["ja/index.html", "ja/loop.html"]
    assert site.stat().st_ino == folder   # not a fresh folder swapped in
    assert not stray.exists() and not (site / "old-folder").exists()
    assert_same_as_clean_build(root, tmp_path)


def test_many_changes_swap_a_fresh_folder_in(tmp_path, monkeypatch):
    monkeypatch.setattr(write, "IN_PLACE", 0)   # a tenth of this small site: 1 file
    root = built_sources(tmp_path)
    site = root / "site"
    folder = site.stat().st_ino
    edit(root, "content/loop/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    assert run_build(root).returncode == 0
    assert site.stat().st_ino != folder
    assert_same_as_clean_build(root, tmp_path)


def test_the_search_files_serve_takes_out_of_site_in_place_are_kept_aside(tmp_path):
    """serve's builds (a folder for retired files given) move the search bundle's files
    that go out of site/ aside, where serve finds them for a page that loaded the old
    index; the other files that go are deleted."""
    site, retired = tmp_path / "site", tmp_path / "retired"
    for name in ("en/old.html", "pagefind/index/ja_a.pf_index",
                 "pagefind/shard-1/pagefind.ja_b.pf_meta", "pagefind/shard-1/index/ja_c.pf_index"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(name, "utf-8")
    write.update_in_place(site, {}, ["en/old.html", "pagefind/index/ja_a.pf_index",
                                     "pagefind/shard-1/"], Store(tmp_path / "store"), retired)
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == [
        "en", "pagefind", "pagefind/index"]
    for name in ("pagefind/index/ja_a.pf_index", "pagefind/shard-1/pagefind.ja_b.pf_meta",
                 "pagefind/shard-1/index/ja_c.pf_index"):
        assert write.retired_file(retired, name).read_text("utf-8") == name
    assert write.retired_file(retired, "en/old.html") is None


def test_the_search_files_a_whole_new_site_drops_are_kept_aside(tmp_path, monkeypatch):
    """A serve build that changes too much for in place swaps a fresh folder in: the old
    site's search files the new one lacks are kept aside all the same (a page that loaded
    the old index still finds them), the rest of the old site goes."""
    monkeypatch.setattr(write, "IN_PLACE", 0)
    store, site, retired = Store(tmp_path / "store"), tmp_path / "site", tmp_path / "retired"
    store.folder.mkdir()

    def entry(text: str) -> Entry:
        stored = store.put(text)
        return Entry(text, (), (), "", *stored)
    old = {name: entry(name) for name in ("en/a.html", "pagefind/pagefind-entry.json",
                                          "pagefind/index/en_old.pf_index")}
    write.write_site(old, store, site, retired)
    new = {"en/a.html": entry("changed"), "pagefind/pagefind-entry.json": entry("new entry"),
           "pagefind/index/en_new.pf_index": entry("new index")}
    write.write_site(new, store, site, retired)
    assert (site / "en/a.html").read_text("utf-8") == "changed"
    assert not (site / "pagefind/index/en_old.pf_index").exists()
    kept = write.retired_file(retired, "pagefind/index/en_old.pf_index")
    assert kept is not None and kept.read_text("utf-8") == "pagefind/index/en_old.pf_index"
    assert write.retired_file(retired, "pagefind/pagefind-entry.json") is None
