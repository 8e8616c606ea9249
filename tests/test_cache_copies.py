"""The translator's view's figure copies are a file of the cache's own
(.articlesite-cache/copies), read only by a build that renders the view: an edit to an
article's body neither reads nor writes it; an edit to the dictionary renders the view
from it; a damaged or foreign one is ignored. Each site byte for byte a clean build's.
On the small fixture site."""

from __future__ import annotations

from pathlib import Path

from conftest import edit, fixture_site, run_build, set_text, snapshot

import articlesite.build
from articlesite import memo

COPIES = ".articlesite-cache/copies"


def built(tmp_path: Path) -> Path:
    root = fixture_site("sources", tmp_path / "project").resolve()
    assert run_build(root).returncode == 0
    return root


def assert_clean(root: Path, tmp_path: Path) -> None:
    articlesite.build.build(root, tmp_path / "clean", clean=True)
    assert snapshot(root / "site") == snapshot(tmp_path / "clean")


def test_a_body_edit_leaves_the_copies_unread(tmp_path, monkeypatch):
    root = built(tmp_path)
    before = (root / COPIES).stat()
    loaded = []
    load_part = memo.Memo.load_part
    monkeypatch.setattr(memo.Memo, "load_part",
                        lambda self, kind: loaded.append(kind) or load_part(self, kind))
    edit(root, "content/loop/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    assert run_build(root).returncode == 0
    assert loaded == []
    after = (root / COPIES).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert_clean(root, tmp_path)


def test_a_dictionary_edit_renders_the_view_from_the_copies(tmp_path):
    root = built(tmp_path)
    set_text(root, "steps-title", "ja", "二つの段階（改）")
    assert run_build(root).returncode == 0
    assert_clean(root, tmp_path)


def test_a_damaged_copies_file_is_ignored(tmp_path):
    root = built(tmp_path)
    (root / COPIES).write_bytes(b"\x00not marshal")
    set_text(root, "steps-title", "ja", "二つの段階（改）")
    assert run_build(root).returncode == 0
    assert_clean(root, tmp_path)
