"""Ids on a page are unique (the Nu Html Checker's rule, and what anchors rely on): a
section id may not take an id the page uses itself, and a figure is placed once. The
check stage (check/ids.py) finds this from the parsed sources and the declared ids."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import copy_project, edit, failed_build, line_of, run_build, soup

from articlesite.check.ids import page_ids
from articlesite.load.outlines import load_outlines
from articlesite.load.sources import load_sources
from articlesite.memo import Memo
from articlesite.problems import Problems

ARTICLE = "content/ppo-long-horizon/en.md"


@pytest.mark.parametrize("taken", ["references", "toc-title", "main", "figure-ppo-update",
                                   "ref-gae", "cite-gae-1", "theme-toggle"])
def test_a_section_id_the_page_already_uses(project: Path, taken: str):
    line = line_of(project, ARTICLE, "{#grpo-dpo}")
    edit(project, ARTICLE, "{#grpo-dpo}", f"{{#{taken}}}")
    assert (f"{ARTICLE}:{line}: section id '{taken}' is already an id of the page"
            in failed_build(project))


def test_a_figure_placed_twice(project: Path):
    line = line_of(project, ARTICLE, "## What GRPO")
    edit(project, ARTICLE, "\n## What GRPO", "\n```{figure} ppo-update\n```\n\n## What GRPO")
    assert f"{ARTICLE}:{line}: figure 'ppo-update' is placed twice" in failed_build(project)


# A section that gives every kind of id the Markdown rules make: footnotes, tabs, a
# labelled formula, and a subsection whose id is made from its text.
EXTRAS = """

## Notes {#notes}

A claim[^a] and another[^b], the first again[^a].

[^a]: The first note.
[^b]: The second note.

=== "One"

    The first tab.

=== "Two"

    The second tab.

$$
a = b \\label{gae}
$$

### A subsection
"""


def test_every_id_of_an_article_page_is_declared(tmp_path: Path):
    """The ids the check stage works out for a page (check/ids.py) are exactly the ids
    the rendered page has: a template or rule that gives a new id must declare it."""
    root = copy_project(tmp_path / "project", search=True)
    with (root / ARTICLE).open("a", encoding="utf-8") as file:
        file.write(EXTRAS)
    result = run_build(root)
    assert result.returncode == 0, result.stdout + result.stderr
    problems = Problems(root)
    sources = load_sources(root, problems)
    outlines = load_outlines(sources.articles, Memo(), problems)
    assert not problems
    checked = 0
    for article in sources.articles:
        for language, source in article.sources.items():
            outline = outlines[source.digest]
            html = soup(root / "site" / language / f"{article.slug}.html")
            on_page = Counter(tag["id"] for tag in html.find_all(id=True))
            expected = Counter(h.id for h in outline.headings if h.id) + \
                page_ids(sources.site, article, outline)
            assert on_page == expected, (language, on_page - expected, expected - on_page)
            checked += 1
    assert checked == 3


@pytest.mark.parametrize("taken", ["fn-1", "fnref-1-2", "footnotes", "tabs-1-2", "eq-gae"])
def test_a_section_id_the_body_markup_already_uses(project: Path, taken: str):
    with (project / ARTICLE).open("a", encoding="utf-8") as file:
        file.write(EXTRAS)
    edit(project, ARTICLE, "## Notes {#notes}", f"## Notes {{#{taken}}}")
    line = line_of(project, ARTICLE, "## Notes")
    assert (f"{ARTICLE}:{line}: section id '{taken}' is already an id of the page"
            in failed_build(project))
