"""`search: false` in site.yaml: no search index, no search box; a wrong value is named."""

from __future__ import annotations

from pathlib import Path

from conftest import edit, failed_build, line_of, run_build, soup


def test_a_site_without_search_has_no_index_and_no_box(project: Path):
    # The `project` copy says `search: false` (conftest.copy_project).
    assert run_build(project).returncode == 0
    site = project / "site"
    assert not (site / "pagefind").exists()
    for page in ("index.html", "en/index.html", "ja/ppo-long-horizon.html"):
        html = soup(site / page)
        assert html.select_one("form.search") is None and html.select_one("#search-input") is None
    # Turned on again, the next build makes the index and shows the box.
    edit(project, "content/site.yaml", "search: false", "search: true")
    assert run_build(project).returncode == 0
    assert (site / "pagefind" / "pagefind.js").is_file()
    assert soup(site / "ja/ppo-long-horizon.html").select_one("form.search") is not None


def test_a_search_value_that_is_not_true_or_false_is_named(project: Path):
    edit(project, "content/site.yaml", "search: false", "search: maybe")
    line = line_of(project, "content/site.yaml", "search: maybe")
    assert (f"content/site.yaml:{line}: search must be true or false, not 'maybe' "
            "[key 'search']") in failed_build(project)
