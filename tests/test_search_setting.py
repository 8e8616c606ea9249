"""`search: false` in site.yaml: no search index, no search box; a wrong value is named."""

from __future__ import annotations

from pathlib import Path

from conftest import edit, failed_build, line_of, run_build, soup

from articlesite.cache import Cache
from articlesite.search import search_input


def given_to_search(project: Path, page: str) -> Path:
    """Where the build's store keeps what Pagefind is given of a page (search.given_digest)."""
    cache = Cache(project)
    return cache.store.path(cache.pages[page].search)


def test_a_site_without_search_has_no_index_and_no_box(project: Path):
    # The `project` copy says `search: false` (conftest.copy_project).
    assert run_build(project).returncode == 0
    site = project / "site"
    assert not (site / "pagefind").exists()
    for page in ("index.html", "en/index.html", "ja/ppo-long-horizon.html"):
        html = soup(site / page)
        assert html.select_one("form.search") is None and html.select_one("#search-input") is None
    article = "ja/ppo-long-horizon.html"
    assert not given_to_search(project, article).exists()   # nothing kept for an index
    # Turned on again, the next build makes the index and shows the box.
    edit(project, "content/site.yaml", "search: false", "search: true")
    assert run_build(project).returncode == 0
    assert (site / "pagefind" / "pagefind.js").is_file()
    assert soup(site / article).select_one("form.search") is not None
    # What Pagefind was handed of the article is kept for the next index, as it was given.
    given = given_to_search(project, article).read_text(encoding="utf-8")
    assert given == search_input((site / article).read_text(encoding="utf-8"))


def test_a_search_value_that_is_not_true_or_false_is_named(project: Path):
    edit(project, "content/site.yaml", "search: false", "search: maybe")
    line = line_of(project, "content/site.yaml", "search: maybe")
    assert (f"content/site.yaml:{line}: search must be true or false, not 'maybe' "
            "[key 'search']") in failed_build(project)
