"""With JavaScript off the article is all there: text, figures and math."""

from __future__ import annotations

import pytest
from conftest import soup

from browser.pages import ARTICLE_PAGES

SHOWN = """() => {
    const shown = el => { const b = el.getBoundingClientRect(); \
        return b.width > 0 && b.height > 0; };
    const count = s => [...document.querySelectorAll(s)].filter(shown).length;
    return {sections: count("main h2[id]"), figures: count("figure.figure"),
            nodes: count(".figure .node"), labels: count(".figure .figure-label"),
            formulas: count("main math"), settings: count(".settings")};
}"""


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_article_figures_and_math_without_javascript(visit, built_site, path: str):
    html = soup(built_site / path)
    page = visit(path, javascript=False)
    assert page.evaluate(SHOWN) == {
        "sections": len(html.select("main h2[id]")),
        "figures": len(html.select("figure.figure")),
        "nodes": len(html.select(".figure .node")),
        "labels": len(html.select(".figure .figure-label")),
        "formulas": len(html.select("main math")),
        "settings": 0,  # the toggles need JavaScript, so they stay hidden
    }
