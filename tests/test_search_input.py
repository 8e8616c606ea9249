"""What the search index is given of each page (search.search_input): the page's head and
the article, the one element marked data-pagefind-body. Pagefind makes the same index of
that as of the whole page, and a change to the rest of a page (a template's table of
contents, say) does not make Pagefind index the language again. On the small fixture
site (tests/fixtures/sources: article `loop` in en, zh and ja) with the search index on."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import built_with_search, edit, restore_built, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st
from test_serve_search import indexed

from articlesite import search
from articlesite.build import build
from articlesite.cache import Cache
from articlesite.search import search_input


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The fixture site with its search index, built once for this file's tests."""
    return built_with_search(tmp_path_factory)


@pytest.fixture
def root(built: tuple[Path, Path]) -> Path:
    """The site as `built` left it, in a folder of the test's own (the tests build it
    again first: nothing to do)."""
    return restore_built(*built)


def test_pagefind_makes_the_same_index_of_the_whole_pages(root: Path, tmp_path: Path):
    build(root)
    site = root / "site"
    made = snapshot(site / "pagefind")
    for code in ("en", "zh", "ja"):
        whole = tmp_path / code
        shutil.copytree(site / code, whole / code)
        subprocess.run([sys.executable, "-m", "pagefind", "--site", str(whole),
                        "--output-subdir", "pagefind", "--silent"], check=True)
        own = {name: data for name, data in snapshot(whole / "pagefind").items()
               if name != "pagefind-entry.json"}
        assert any(name.startswith("fragment/") for name in own)
        assert {name: made.get(name) for name in own} == own, code


def test_what_is_given_leaves_out_the_rest_of_the_page(root: Path):
    build(root)
    page = (root / "site" / "ja" / "loop.html").read_text("utf-8")
    given = search_input(page)
    assert len(given) < len(page)
    assert '<html lang="ja"' in given and "<title>" in given
    assert "<article data-pagefind-body>" in given and "学習ループ" in given
    assert 'class="toc"' in page and 'class="toc"' not in given
    assert "<style" in page and "<style" not in given
    # A page that marks other parts for Pagefind outside the article is given whole; a
    # skipped part that marks something is kept.
    marked = page.replace('<header class="bar"', '<header data-pagefind-meta="x" class="bar"')
    assert marked != page and search_input(marked) == marked
    marked = page.replace('class="toc"', 'class="toc" data-pagefind-filter="part"', 1)
    assert 'data-pagefind-filter="part"' in search_input(marked)


@pytest.fixture
def index_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The languages of each Pagefind run from now on (search.index_languages)."""
    runs = []
    real = search.index_languages
    monkeypatch.setattr(search, "index_languages",
                        lambda groups, *rest: runs.append(sorted(groups)) or
                        real(groups, *rest))
    return runs


def test_a_change_outside_the_article_does_not_index_again(root: Path, index_runs: list):
    build(root)
    index_runs.clear()   # (the first build's run)
    index = snapshot(root / "site" / "pagefind")
    edit(root, "templates/article.html", '<nav class="toc"', '<nav data-edit="1" class="toc"')
    assert "ja/loop.html" in build(root).rendered
    assert index_runs == [] and snapshot(root / "site" / "pagefind") == index
    # A change inside the article indexes its language again.
    edit(root, "content/loop/ja.md", "## 収集 {#collect}", "## 採集 {#collect}")
    build(root)
    assert index_runs == [["ja"]]


def test_a_change_to_the_pages_pagefind_leaves_out_does_not_index_again(root: Path,
                                                                         index_runs: list):
    """A language's index page marks no data-pagefind-body, so Pagefind leaves it out of
    the index: an edit of base.html, which changes it too, indexes nothing again."""
    build(root)
    index_runs.clear()   # (the first build's run)
    index = snapshot(root / "site" / "pagefind")
    edit(root, "templates/base.html", '<a class="skip"', '<a data-edit="1" class="skip"')
    assert {"en/index.html", "ja/loop.html"} <= set(build(root).rendered)
    assert 'data-edit="1"' in (root / "site" / "en" / "index.html").read_text("utf-8")
    assert index_runs == [] and snapshot(root / "site" / "pagefind") == index


def test_what_pagefind_is_given_is_kept_for_the_next_build(root: Path):
    """What Pagefind is given of each page stays in the store with the page: a template
    edit that leaves the article's text as it was stores no new copy of it."""
    build(root)
    store = Cache(root).store
    before = {path.name for path in store.folder.iterdir()}
    edit(root, "templates/article.html", '<nav class="toc"', '<nav data-edit="1" class="toc"')
    assert "ja/loop.html" in build(root).rendered
    entries = Cache(root).pages
    for page in ("en/loop.html", "zh/loop.html", "ja/loop.html"):
        given = store.path(entries[page].search)
        assert given.name in before and given.read_text("utf-8") == \
            search_input((root / "site" / page).read_text("utf-8"))


def test_one_language_indexed_again_gives_the_index_of_a_clean_build(root: Path,
                                                                       tmp_path: Path):
    """The languages are indexed in one Pagefind run and its files told apart by
    language: after one language is indexed again, the others' files kept from the
    cache, the bundle is the one a clean build makes."""
    build(root)
    edit(root, "content/loop/ja.md", "## 収集 {#collect}", "## 採集 {#collect}")
    build(root)
    again = snapshot(root / "site" / "pagefind")
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("site", ".articlesite-cache"))
    build(clean, clean=True)
    assert again == snapshot(clean / "site" / "pagefind")
    assert {name.removeprefix("fragment/").split("_")[0] for name in again
            if name.startswith("fragment/")} == \
        {"en", "ja", "zh-cn"}


def test_a_figures_labels_are_indexed_but_not_its_controls_or_text_alternative(root: Path):
    build(root)
    page = root / "site" / "en" / "loop.html"
    html = page.read_text("utf-8")
    assert "Fit to width" in html and "What the diagram connects:" in html
    text = indexed(root / "site", "en/loop.html")
    assert "Two steps" in text and "Learn" in text
    assert "Fit to width" not in text and "Scroll sideways" not in text
    assert "What the diagram connects" not in text


# Elements as the scanner meets them: start and end tags of two names that share a prefix,
# self-closing tags, styles and scripts in any case, text between.
PIECES = ["<div>", "</div>", "<div class='a'>", "<divx>", "</divx>", "<div/>", "x",
          "<style>p{}</style>", "<SCRIPT>1</script >", "<style>", "</STYLE>", "</div"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14))
def test_element_ends_and_styles_are_found_as_by_the_reference_expressions(pieces):
    """The string scanner (written for speed) agrees with the plain regular expressions it
    replaced: where an element ends, and the text without its styles and scripts."""
    html = "<div>" + "".join(pieces)
    depth, expected = 0, None
    for tag in re.finditer(r"<(/?)div[\s/>]", html):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            expected = html.find(">", tag.start()) + 1 or None
            break
    assert search.element_end(html, 0) == expected
    assert search.without_styles_and_scripts(html) == re.sub(
        r"<(style|script)\b.*?</\1\s*>", "", html, flags=re.DOTALL | re.IGNORECASE)
