"""A build on top of the previous one (`build(root, previous=…, changed=…)`, what serve
runs after each save): after an edit to an article's body it renders only that page and
puts it in site/, byte for byte what a clean build writes; after any other edit it
renders what that edit touches, still byte for byte a clean build's site."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import copy_project, edit, snapshot

from articlesite.build import build
from articlesite.cache import Cache
from articlesite.problems import BuildError

ARTICLE = "content/ppo-long-horizon"


@pytest.fixture
def served(tmp_path: Path):
    """A built project and what serve keeps of its last build: (root, built, cache)."""
    root = copy_project(tmp_path / "project").resolve()
    cache = Cache(root)
    return root, build(root, cache=cache), cache


def quick(root: Path, last, cache: Cache, *names: str):
    """The build after the files `names` (under the article folder) were saved, on top of
    the `last` one, as serve runs it."""
    after = Cache(root, after=cache)
    return build(root, cache=after, previous=last,
                 changed=[root / ARTICLE / name for name in names]), after


def assert_same_as_clean_build(root: Path, tmp_path: Path) -> None:
    build(root, tmp_path / "clean", clean=True)
    assert snapshot(root / "site") == snapshot(tmp_path / "clean")


def test_body_edits_render_only_their_pages_as_a_clean_build_would(served, tmp_path):
    root, last, cache = served
    edit(root, f"{ARTICLE}/ja.md", "## GRPO と DPO", "## GRPO と DPO（改訂）")
    built, cache = quick(root, last, cache, "ja.md")
    # The ja index shows the page's length, which grew by two characters.
    assert built.incremental and built.rendered == ["ja/index.html", "ja/ppo-long-horizon.html"]
    assert "GRPO と DPO（改訂）" in (root / "site/ja/ppo-long-horizon.html").read_text("utf-8")
    assert_same_as_clean_build(root, tmp_path)

    # Again, and two languages saved together, on top of a quick rebuild.
    edit(root, f"{ARTICLE}/en.md", "## What GRPO and DPO change", "## What GRPO and DPO change now")
    edit(root, f"{ARTICLE}/zh.md", "## GRPO 与 DPO 改变了什么", "## GRPO 与 DPO 又改变了什么")
    built, cache = quick(root, built, cache, "en.md", "zh.md")
    assert built.incremental and built.rendered == [
        "en/index.html", "en/ppo-long-horizon.html", "zh/index.html", "zh/ppo-long-horizon.html"]
    assert_same_as_clean_build(root, tmp_path / "again")

    # The cache it saved is sound: a full build finds nothing to render.
    assert build(root).rendered == []


def test_a_body_edit_that_keeps_the_length_renders_only_its_page(served, tmp_path):
    root, last, cache = served
    edit(root, f"{ARTICLE}/ja.md", "## GRPO と DPO", "## DPO と GRPO")
    built, cache = quick(root, last, cache, "ja.md")
    assert built is not None and built.rendered == ["ja/ppo-long-horizon.html"]
    assert_same_as_clean_build(root, tmp_path)


def test_dictionary_texts_render_the_pages_showing_them_then_the_view(served, tmp_path):
    root, last, cache = served
    edit(root, "figures/figure-texts.json", '"ja": "教師あり', '"ja": "教師付き')
    writes = []
    built = build(root, cache=Cache(root, after=cache), previous=last,
                  changed=[root / "figures" / "figure-texts.json"], written=writes.append)
    assert built.incremental
    assert built.rendered == ["ja/ppo-long-horizon.html", "translations.html"]
    assert writes == [["ja/ppo-long-horizon.html"], ["translations.html"]]  # page, then view
    assert_same_as_clean_build(root, tmp_path)


def test_a_site_folder_changed_by_hand_is_written_whole(served, tmp_path):
    root, last, cache = served
    (root / "site" / "ja" / "ppo-long-horizon.html").unlink()
    (root / "site" / "en" / "index.html").unlink()
    edit(root, f"{ARTICLE}/ja.md", "## GRPO と DPO", "## GRPO と DPO（改訂）")
    built, _ = quick(root, last, cache, "ja.md")
    assert not built.incremental and built.rendered == ["ja/index.html",
                                                         "ja/ppo-long-horizon.html"]
    assert_same_as_clean_build(root, tmp_path)


@pytest.mark.parametrize("change, rendered", [
    ("title", ["en/feed.xml", "en/index.html", "en/ppo-long-horizon.html", "index.html",
               "ja/feed.xml", "ja/index.html", "ja/ppo-long-horizon.html", "zh/feed.xml",
               "zh/index.html", "zh/ppo-long-horizon.html"]),
    ("figure removed", ["ja/ppo-long-horizon.html", "translations.html"]),
    ("dictionary key added", ["translations.html"]),
])
def test_other_edits_render_what_they_touch_as_a_clean_build_would(served, tmp_path, change,
                                                                    rendered):
    root, last, cache = served
    name = "ja.md"
    if change == "title":
        edit(root, f"{ARTICLE}/ja.md", 'title: "PPO', 'title: "新・PPO')
    elif change == "figure removed":
        edit(root, f"{ARTICLE}/ja.md", "```{figure} ppo-update\n```\n", "")
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
        edit(root, f"{ARTICLE}/ja.md", "```{figure} ppo-update", "```{figure} ppo-updat")
        name = "ja.md"
    elif change == "unknown language":
        name = "de.md"
        (root / ARTICLE / name).write_text("---\ntitle: T\ndescription: D\n---\n",
                                           encoding="utf-8")
    else:
        name = "../../figures/figure-texts.json"
        edit(root, name.removeprefix("../../"), '"ja": "教師あり学習 SFT"', '"ja": ""')
    with pytest.raises(BuildError) as failed:
        quick(root, last, cache, name)
    assert len(failed.value.problems) == 1
    assert snapshot(root / "site") == site   # untouched
