"""axe-core, injected into every page, light and dark and in both diagram styles: no
violation of any rule it runs."""

from __future__ import annotations

import pytest
from conftest import REPO, require

from browser.pages import ALL_PAGES, ARTICLE_PAGES, THEMES, choose

AXE = REPO / "node_modules/axe-core/axe.min.js"


def axe(page, context: str = "document",
        options: str = "{resultTypes: ['violations']}") -> dict:
    """axe's results; by default every node only of the violations (of the rules that
    pass, one node each: what makes a run slow on a large page)."""
    require(AXE.is_file(), "node_modules/axe-core", "node_modules")
    if not page.evaluate("typeof axe === 'object'"):   # not yet in this document
        page.add_script_tag(path=str(AXE))
    return page.evaluate(f"axe.run({context}, {options})")


def violations(results: dict) -> list[str]:
    return [f"{v['id']} ({v['impact']}): {v['help']} -> "
            + "; ".join(n["target"][0] for n in v["nodes"][:5]) for v in results["violations"]]


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", ALL_PAGES)
def test_axe_finds_no_violation(visit, path: str, theme: str):
    """Every page, whole; an article's page also with its nodes' text on their fill and
    in the engineering style (on the same visit: a page load costs more than a look)."""
    page = visit(path, color_scheme=theme)
    results = axe(page)
    ran = sum(len(results[kind]) for kind in ("violations", "passes", "incomplete",
                                              "inapplicable"))
    assert ran >= 50  # the default rule set ran, not an empty one
    assert violations(results) == []
    if path in ARTICLE_PAGES:
        node_text_contrast_on_the_dotted_fill(page)
        no_violation_in_engineering_style(page)


def no_violation_in_engineering_style(page) -> None:
    choose(page, style="engineering")
    # The style changes the figures and the toggle's state in the bar, nothing else (the
    # rest of the page is checked in the blog style above).
    assert page.locator("#style-toggle[aria-pressed=true]").count() == 1
    assert violations(axe(page, "{include: [['.figure'], ['.bar']]}")) == []


def node_text_contrast_on_the_dotted_fill(page) -> None:
    # axe cannot judge text over the dot texture ("incomplete": background could not be
    # determined). Without the dots, every node's text must pass on the fill beneath.
    page.add_style_tag(content=".figure .node{background-image:none!important}")
    results = axe(page, "{include: [['.figure .node']]}", "{runOnly: ['color-contrast']}")
    assert results["passes"] and violations(results) == []
    undecided = [n["target"][0] for v in results["incomplete"] for n in v["nodes"]
                 if any("background" in check["message"] for check in n["any"])]
    assert undecided == []
