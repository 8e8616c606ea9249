"""The ids an article page gives besides its headings', declared once: the check stage
works them out for each page from these (check/ids.py), the heading rule keeps the ids
it makes off them (render/markdown_rules/headings.py), and tests/test_page_ids.py renders
pages and fails when a page holds an id these do not account for (a template or rule
that gives a new id must be declared here).

Each literal id comes with when a page has it: f(site, article, outline) -> bool.
"""

from __future__ import annotations

from collections.abc import Callable

# Literal ids of the page templates, each with when a page has it.
PAGE_IDS: dict[str, Callable[..., bool]] = {
    "main": lambda site, article, outline: True,                          # base.html
    "theme-toggle": lambda site, article, outline: True,                  # base.html
    "search-input": lambda site, article, outline: site.search,           # base.html
    "style-toggle": lambda site, article, outline: True,                  # article.html
    "toc-title": lambda site, article, outline: bool(outline.sections),   # article.html
    "references": lambda site, article, outline: bool(article.references),  # article.html
}
# Ids made from what a page shows: of the templates (figure.html, article.html) and of
# the Markdown rules (citations, footnotes, tabs, labelled formulas: Outline.ids).
ID_FAMILIES = ("figure-{figure}", "figure-{figure}-title", "figure-{figure}-fit",
               "ref-{reference}", "cite-{reference}-{n}", "footnotes", "fn-{n}",
               "fnref-{n}", "fnref-{n}-{m}", "tabs-{group}-{n}", "eq-{label}")
