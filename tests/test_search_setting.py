"""`search: false` in site.yaml: no search index, no search box; a wrong value is named."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from conftest import edit, failed_build, line_of, run_build, soup

from articlesite.build import build
from articlesite.cache import Cache, Store
from articlesite.problems import BuildError
from articlesite.search import given_digest, search_input


def test_a_site_without_search_has_no_index_and_no_box(project: Path, tmp_path: Path):
    # The `project` copy says `search: false` (conftest.copy_project).
    assert run_build(project).returncode == 0
    site = project / "site"
    assert not (site / "pagefind").exists()
    for page in ("index.html", "en/index.html", "ja/ppo-long-horizon.html"):
        html = soup(site / page)
        assert html.select_one("form.search") is None and html.select_one("#search-input") is None
    article = "ja/ppo-long-horizon.html"
    assert Cache(project).pages[article].search == ""   # nothing worked out for an index
    # Turned on again, the next build makes the index and shows the box.
    edit(project, "content/site.yaml", "search: false", "search: true")
    assert run_build(project).returncode == 0
    assert (site / "pagefind" / "pagefind.js").is_file()
    assert soup(site / article).select_one("form.search") is not None
    # What Pagefind is handed of a page is stored as the page is rendered (with the index
    # on), named by its digest, the cache entry's; the index links it from there.
    html = (site / article).read_text(encoding="utf-8")
    store = Store(tmp_path / "store")
    store.folder.mkdir()
    stored = store.path(given_digest(html, store))
    assert stored.read_text(encoding="utf-8") == search_input(html) != html
    assert Cache(project).pages[article].search == stored.name.removesuffix(".html")


def test_a_search_value_that_is_not_true_or_false_is_named(project: Path):
    edit(project, "content/site.yaml", "search: false", "search: maybe")
    line = line_of(project, "content/site.yaml", "search: maybe")
    assert (f"content/site.yaml:{line}: search must be true or false, not 'maybe' "
            "[key 'search']") in failed_build(project)


def test_a_missing_pagefind_program_is_named_for_each_language(project: Path):
    edit(project, "content/site.yaml", "search: false", "search: true")
    env = os.environ | {"PAGEFIND_BINARY_PATH": str(project / "no-such-program")}
    result = run_build(project, env=env)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    named = [line.rsplit(" [language ", 1)[-1] for line in result.stderr.splitlines()
             if line.startswith("  site/pagefind: the search index could not be built: "
                                "Pagefind's program was not found")]
    assert sorted(named) == ["'en']", "'ja']", "'zh']"], result.stderr
    assert not (project / "site").exists()


def test_a_pagefind_that_fails_is_named_for_each_language_and_the_site_is_kept(project: Path):
    edit(project, "content/site.yaml", "search: false", "search: true")
    assert run_build(project).returncode == 0
    kept = (project / "site" / "en" / "index.html").read_bytes()
    broken = project / "broken-pagefind"
    broken.write_text("#!/bin/sh\necho 'pagefind: cannot read its dictionary' >&2\nexit 3\n")
    broken.chmod(0o755)
    env = os.environ | {"PAGEFIND_BINARY_PATH": str(broken)}
    # A full build: the Chinese and Japanese services are started before the pages are
    # rendered, the English one when the pages are indexed.
    result = run_build(project, "--clean", env=env)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    named = [line for line in result.stderr.splitlines() if "by Pagefind" in line]
    assert [line.rsplit(": ", 1)[-1] for line in named] == \
        [f"cannot read its dictionary [language '{code}']" for code in ("en", "ja", "zh")], \
        result.stderr
    assert (project / "site" / "en" / "index.html").read_bytes() == kept


def test_the_stages_beside_a_failed_index_do_not_see_part_of_its_problems(
        project: Path, monkeypatch: pytest.MonkeyPatch):
    """The index is made in a thread while the stages after rendering stop at their own
    problems: if those saw the index's problems as it added them, one language's alone
    could be named (a CI run did). They are the build's once the index is waited for."""
    from articlesite import build as stages

    edit(project, "content/site.yaml", "search: false", "search: true")
    broken = project / "broken-pagefind"
    broken.write_text("#!/bin/sh\necho 'pagefind: cannot read its dictionary' >&2\nexit 3\n")
    broken.chmod(0o755)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(broken))
    indexed, seen = threading.Event(), []
    bundle, publish = stages.search_bundle, stages.publish_files

    def search_bundle(*args):
        try:
            return bundle(*args)
        finally:
            indexed.set()

    def publish_files(run, pages, *args):
        assert indexed.wait(30)
        seen.extend(run.problems)   # what this stage's raise_if_any would name
        return publish(run, pages, *args)

    monkeypatch.setattr(stages, "search_bundle", search_bundle)
    monkeypatch.setattr(stages, "publish_files", publish_files)
    with pytest.raises(BuildError) as failed:
        build(project, clean=True)
    assert seen == []
    assert sorted(problem.language for problem in failed.value.problems) == ["en", "ja", "zh"]


def test_a_build_that_fails_beside_the_index_names_only_its_problem(project: Path):
    """The index is made beside the translator's view and the check of the figure specs
    no page places: when that check fails, the build names what it found, Pagefind is
    ended, and nothing of the index is left behind."""
    edit(project, "content/site.yaml", "search: false", "search: true")
    (project / "figures" / "unplaced.yaml").write_text("title: [\n", encoding="utf-8")
    result = run_build(project, "--clean")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "figures/unplaced.yaml:" in result.stderr and "Pagefind" not in result.stderr
    assert not (project / "site").exists()
    assert not list((project / ".articlesite-cache").glob(".search-*"))
