"""The theme and diagram-style toggles change what the reader sees, and a reload keeps
the choice."""

from __future__ import annotations

import pytest

from browser.pages import ARTICLE_PAGES

SEEN = """() => {
    const node = document.querySelector(".figure .node");
    return {paper: getComputedStyle(document.documentElement).backgroundColor,
            ink: getComputedStyle(document.body).color,
            node: getComputedStyle(node).backgroundColor,
            radius: getComputedStyle(node).borderTopLeftRadius};
}"""


@pytest.mark.parametrize("system", ["light", "dark"])
@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_theme_toggle_changes_colours_and_is_remembered(visit, path: str, system: str):
    page = visit(path, color_scheme=system)
    toggle = page.locator("#theme-toggle")
    before = page.evaluate(SEEN)
    assert toggle.get_attribute("aria-pressed") == str(system == "dark").lower()
    toggle.click()
    after = page.evaluate(SEEN)
    assert after["paper"] != before["paper"] and after["ink"] != before["ink"]
    assert after["node"] != before["node"]
    assert toggle.get_attribute("aria-pressed") == str(system == "light").lower()
    page.reload()
    assert page.evaluate(SEEN) == after
    assert toggle.get_attribute("aria-pressed") == str(system == "light").lower()


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_diagram_style_toggle_changes_corners_and_is_remembered(visit, path: str):
    page = visit(path)
    toggle = page.locator("#style-toggle")
    assert page.evaluate(SEEN)["radius"] == "9px"
    toggle.click()
    assert page.evaluate(SEEN)["radius"] == "3px"
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    assert page.evaluate(SEEN)["radius"] == "3px"
    toggle.click()
    page.reload()
    assert page.evaluate(SEEN)["radius"] == "9px"
