"""A build on top of the previous one (`build(root, previous=…, changed=…)`, what serve
runs after each save): after an edit to an article's body it renders only that page and
puts it in site/, byte for byte what a clean build writes; after any other edit it
renders what that edit touches, still byte for byte a clean build's site. On the small
fixture site (tests/fixtures/sources)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_same_as_clean_build, edit, fixture_site, snapshot

from articlesite.build import build
from articlesite.cache import Cache
from articlesite.problems import BuildError

ARTICLE = "content/loop"


@pytest.fixture
def served(tmp_path: Path):
    """A built project and what serve keeps of its last build: (root, built, cache)."""
    root = fixture_site("sources", tmp_path / "project").resolve()
    cache = Cache(root)
    return root, build(root, cache=cache), cache


def quick(root: Path, last, cache: Cache, *names: str, written=None):
    """The build after the files `names` (under the article folder) were saved, on top of
    the `last` one, as serve runs it."""
    after = Cache(root, after=cache)
    return build(root, cache=after, previous=last, written=written,
                 changed=[root / ARTICLE / name for name in names]), after


def test_body_edits_render_only_their_pages_as_a_clean_build_would(served, tmp_path):
    root, last, cache = served
    edit(root, f"{ARTICLE}/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    writes = []
    built, cache = quick(root, last, cache, "ja.md", written=writes.append)
    # The ja index shows the page's length, which grew by four characters.
    assert built.incremental and built.rendered == ["ja/index.html", "ja/loop.html"]
    # The edited page is in place (and open pages told) before the index that lists it.
    assert writes == [["ja/loop.html"], ["ja/index.html"]]
    assert "学習（改訂）" in (root / "site/ja/loop.html").read_text("utf-8")
    assert_same_as_clean_build(root, tmp_path)

    # Again, and two languages saved together, on top of a quick rebuild. (Not the source
    # language, en: its sections are what the others are confirmed against.)
    edit(root, f"{ARTICLE}/ja.md", "## 学習（改訂） {#learn}", "## 学習（再改訂） {#learn}")
    edit(root, f"{ARTICLE}/zh.md", "## 学习 {#learn}", "## 再学习 {#learn}")
    built, cache = quick(root, built, cache, "ja.md", "zh.md")
    assert built.incremental and built.rendered == [
        "ja/index.html", "ja/loop.html", "zh/index.html", "zh/loop.html"]
    assert_same_as_clean_build(root, tmp_path / "again")

    # The cache it saved is sound: a full build finds nothing to render.
    assert build(root).rendered == []


def test_a_body_edit_that_keeps_the_length_renders_only_its_page(served, tmp_path):
    root, last, cache = served
    edit(root, f"{ARTICLE}/ja.md", "## 学習 {#learn}", "## 学ぶ {#learn}")
    built, cache = quick(root, last, cache, "ja.md")
    assert built is not None and built.rendered == ["ja/loop.html"]
    assert_same_as_clean_build(root, tmp_path)


def test_dictionary_texts_render_the_pages_showing_them_then_the_view(served, tmp_path):
    root, last, cache = served
    edit(root, "figures/figure-texts.json", '"ja": "学習"', '"ja": "学び"')
    writes = []
    built = build(root, cache=Cache(root, after=cache), previous=last,
                  changed=[root / "figures" / "figure-texts.json"], written=writes.append)
    assert built.incremental
    assert built.rendered == ["ja/loop.html", "translations.html"]
    assert writes == [["ja/loop.html"], ["translations.html"]]  # the page, then the view
    assert_same_as_clean_build(root, tmp_path)


def test_a_dictionary_edit_writes_again_only_the_view_files_it_changed(served):
    """The view's files beside it whose bytes stay are left as they are in site/ (the
    same file); the one holding the edited key's row is replaced."""
    root, last, cache = served
    folder = root / "site" / "translations"
    before = {path.name: path.stat().st_ino for path in folder.iterdir()}
    assert sorted(before) == ["article-loop.js", "keys-0.js"]
    edit(root, "figures/figure-texts.json", '"ja": "学習"', '"ja": "学び"')
    build(root, cache=Cache(root, after=cache), previous=last,
          changed=[root / "figures" / "figure-texts.json"])
    after = {path.name: path.stat().st_ino for path in folder.iterdir()}
    assert [name for name in before if after[name] != before[name]] == ["keys-0.js"]
    assert "学び" in (folder / "keys-0.js").read_text(encoding="utf-8")


def test_figures_drawn_before_are_drawn_again_after_a_dictionary_edit(served, tmp_path):
    """A quick rebuild reuses the figures an earlier build drew, but not once the
    dictionary changed: the edited text shows in the figure."""
    root, last, cache = served
    edit(root, f"{ARTICLE}/ja.md", "## 学習 {#learn}", "## 学ぶ {#learn}")
    built, cache = quick(root, last, cache, "ja.md")
    assert built.drawn is last.drawn and built.drawn.html   # handed on, and used
    edit(root, "figures/figure-texts.json", '"ja": "学習"', '"ja": "学び"')
    built = build(root, cache=Cache(root, after=cache), previous=built,
                  changed=[root / "figures" / "figure-texts.json"])
    assert built.drawn is not last.drawn
    assert "学び" in (root / "site/ja/loop.html").read_text("utf-8")
    assert_same_as_clean_build(root, tmp_path)


def test_a_site_folder_changed_by_hand_is_written_whole(served, tmp_path):
    root, last, cache = served
    (root / "site" / "ja" / "loop.html").unlink()
    (root / "site" / "en" / "index.html").unlink()
    edit(root, f"{ARTICLE}/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    built, _ = quick(root, last, cache, "ja.md")
    assert not built.incremental and built.rendered == ["ja/index.html", "ja/loop.html"]
    assert_same_as_clean_build(root, tmp_path)


@pytest.mark.parametrize("change, rendered", [
    # A title is shown by its page, its language's index and feed, the language chooser,
    # and the other languages' pages of the article (their language switcher).
    ("title", ["en/feed.xml", "en/index.html", "en/loop.html", "index.html", "ja/feed.xml",
               "ja/index.html", "ja/loop.html", "zh/feed.xml", "zh/index.html",
               "zh/loop.html"]),
    ("figure removed", ["ja/loop.html", "translations.html"]),
    ("dictionary key added", ["translations.html"]),
])
def test_other_edits_render_what_they_touch_as_a_clean_build_would(served, tmp_path, change,
                                                                    rendered):
    root, last, cache = served
    name = "ja.md"
    if change == "title":
        edit(root, f"{ARTICLE}/ja.md", "title: 学習ループ", "title: 新・学習ループ")
    elif change == "figure removed":
        edit(root, f"{ARTICLE}/ja.md", "```{figure} steps\n```\n", "")
    else:
        name = "../../figures/figure-texts.json"
        edit(root, name.removeprefix("../../"), "{", '{\n  "spare": {"zh": "备用", '
             '"en": "spare", "ja": "予備"},')
    built, _ = quick(root, last, cache, name)
    assert built.rendered == rendered
    assert_same_as_clean_build(root, tmp_path)


@pytest.mark.parametrize("change", ["unknown figure", "dictionary text emptied",
                                    "unknown language"])
def test_a_broken_edit_leaves_the_site_as_it_was(served, change):
    root, last, cache = served
    site = snapshot(root / "site")
    if change == "unknown figure":
        edit(root, f"{ARTICLE}/ja.md", "```{figure} steps", "```{figure} step")
        name = "ja.md"
    elif change == "unknown language":
        name = "de.md"
        (root / ARTICLE / name).write_text("---\ntitle: T\ndescription: D\n---\n",
                                           encoding="utf-8")
    else:
        name = "../../figures/figure-texts.json"
        edit(root, name.removeprefix("../../"), '"ja": "学習"', '"ja": ""')
    with pytest.raises(BuildError) as failed:
        quick(root, last, cache, name)
    assert len(failed.value.problems) == 1
    assert snapshot(root / "site") == site   # untouched
