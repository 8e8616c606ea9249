"""Every page loads in Chromium standalone: no console error, no request but the page
itself (over HTTP and from disk), and every formula laid out as MathML."""

from __future__ import annotations

import pytest

from browser.pages import ALL_PAGES, ARTICLE_PAGES


@pytest.mark.parametrize("from_disk", [False, True], ids=["http", "file"])
@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_loads_alone(visit, path: str, from_disk: bool):
    page = visit(path, from_disk=from_disk)
    assert page.locator("h1").first.is_visible()
    # The `visit` fixture fails the test on any console error or outside request.


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_every_formula_is_laid_out_as_math(visit, path: str):
    page = visit(path)
    formulas = page.eval_on_selector_all("main math", """all => all.map(m => {
        const box = m.getBoundingClientRect();
        return {display: getComputedStyle(m).display, block: m.getAttribute("display"),
                width: box.width, height: box.height, errors: m.querySelectorAll("merror").length,
                text: m.textContent, em: parseFloat(getComputedStyle(m).fontSize)};
    })""")
    assert formulas
    for formula in formulas:
        assert formula["display"] == ("block math" if formula["block"] == "block" else "math")
        # a lone x-height letter (σ) in Latin Modern Math is 0.44 em tall
        assert formula["width"] > 4 and formula["height"] > 0.35 * formula["em"], formula
        assert formula["errors"] == 0 and "\\" not in formula["text"], formula
