"""The translator's view's figure copies are a file of the cache's own
(.articlesite-cache/copies), read only by a build that renders the view: an edit to an
article's body neither reads nor writes it; an edit to the dictionary renders the view
from it; a damaged or foreign one is ignored. Each site byte for byte a clean build's.
On the small fixture site."""

from __future__ import annotations

from conftest import assert_same_as_clean_build, built_sources, edit, run_build, set_text

from articlesite import memo

COPIES = ".articlesite-cache/copies"


def test_a_body_edit_leaves_the_copies_unread(tmp_path, monkeypatch):
    root = built_sources(tmp_path)
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
    assert_same_as_clean_build(root, tmp_path)


def test_a_dictionary_edit_renders_the_view_from_the_copies(tmp_path):
    root = built_sources(tmp_path)
    set_text(root, "steps-title", "ja", "二つの段階（改）")
    assert run_build(root).returncode == 0
    assert_same_as_clean_build(root, tmp_path)


def test_a_damaged_copies_file_is_ignored(tmp_path):
    root = built_sources(tmp_path)
    (root / COPIES).write_bytes(b"\x00not marshal")
    set_text(root, "steps-title", "ja", "二つの段階（改）")
    assert run_build(root).returncode == 0
    assert_same_as_clean_build(root, tmp_path)
