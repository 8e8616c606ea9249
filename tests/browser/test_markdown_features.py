"""The Markdown features in Chromium, on the fixture site tests/fixtures/markdown (every
feature, in zh, en and ja): axe-core finds no violation in light and dark at 1400 and 390
px; tabs work without JavaScript and from the keyboard, and with JavaScript choose the
same label in every group; collapsible admonitions open; footnotes link both ways; code
colours follow the theme. Screenshots of every language, theme and width go to
test-artifacts/ for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_markdown_features import built_fixture_site

from browser.conftest import serving, visitor
from browser.pages import THEMES, screenshot
from browser.test_axe import axe, violations

LANGUAGES = ("zh", "en", "ja")
WIDTHS = (1400, 390)
PAGE = "{}/features.html"


@pytest.fixture(scope="module")
def features_site(tmp_path_factory) -> Path:
    return built_fixture_site(tmp_path_factory.mktemp("markdown-browser") / "project")


@pytest.fixture(scope="module")
def features_server(features_site):
    with serving(features_site) as url:
        yield url


@pytest.fixture
def open_features(chromium, features_server, features_site):
    with visitor(chromium, features_server, features_site) as open_page:
        yield open_page


def visible(page, selector: str) -> bool:
    return page.locator(selector).is_visible()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_no_violation_and_the_page_fits(open_features, language, theme, width):
    page = open_features(PAGE.format(language), width=width, color_scheme=theme)
    screenshot(page, f"markdown-{language}-{theme}-{width}.png", full_page=True)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert violations(axe(page)) == []
    # and with every collapsible block open and the other tabs shown
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    page.locator("label.tab-label", has_text="C++").first.click()
    assert violations(axe(page)) == []


def test_tabs_switch_without_javascript(open_features):
    page = open_features(PAGE.format("en"), javascript=False)
    first, second = page.locator("div.tabs").nth(0), page.locator("div.tabs").nth(1)
    assert first.locator(".tab-panel").nth(0).is_visible()
    assert not first.locator(".tab-panel").nth(1).is_visible()
    first.locator("label", has_text="C++").click()
    assert first.locator(".tab-panel").nth(1).is_visible()
    assert not first.locator(".tab-panel").nth(0).is_visible()
    assert second.locator(".tab-panel").nth(0).is_visible()  # no script: no syncing


def test_tabs_work_from_the_keyboard(open_features):
    page = open_features(PAGE.format("en"))
    group = page.locator("div.tabs").nth(0)
    group.locator("input.tab-input").nth(0).focus()
    page.keyboard.press("ArrowRight")
    assert group.locator("input.tab-input").nth(1).is_checked()
    assert group.locator(".tab-panel").nth(1).is_visible()
    label = group.locator("label.tab-label").nth(1)
    assert label.evaluate("l => getComputedStyle(l).outlineStyle") != "none"  # focus shown


def test_choosing_a_tab_chooses_the_same_label_in_every_group(open_features):
    page = open_features(PAGE.format("ja"))
    first, second = page.locator("div.tabs").nth(0), page.locator("div.tabs").nth(1)
    first.locator("label", has_text="C++").click()
    assert second.locator("input.tab-input").nth(1).is_checked()
    assert second.locator(".tab-panel").nth(1).is_visible()
    first.locator("label", has_text="テキスト").click()  # a label the other group lacks
    assert second.locator("input.tab-input").nth(1).is_checked()


def test_collapsible_admonitions_open_and_close(open_features):
    page = open_features(PAGE.format("zh"))
    closed = page.locator("details.admonition").nth(0)
    assert not closed.locator("p").first.is_visible()
    closed.locator("summary").click()
    assert closed.locator("p").first.is_visible()
    assert page.locator("details.admonition").nth(1).locator("p").first.is_visible()


def test_footnotes_link_to_the_note_and_back(open_features):
    page = open_features(PAGE.format("en"))
    page.locator("sup.footnote-ref a").first.click()
    page.wait_for_function("location.hash === '#fn-1'")
    assert page.locator("#fn-1").is_visible()
    page.locator("#fn-1 a.backref").nth(1).click()
    page.wait_for_function("location.hash === '#fnref-1-2'")


@pytest.mark.parametrize(("theme", "keyword"), [("light", "rgb(139, 47, 158)"),
                                                ("dark", "rgb(224, 163, 240)")])
def test_code_colours_follow_the_theme(open_features, theme, keyword):
    page = open_features(PAGE.format("en"), color_scheme=theme)
    colour = "document.querySelector('.highlight .k').computedStyleMap ? " \
             "getComputedStyle(document.querySelector('.highlight .k')).color : ''"
    assert page.evaluate(colour) == keyword
    page.locator("#theme-toggle").click()   # the reader's choice overrides the system's
    other = "rgb(224, 163, 240)" if theme == "light" else "rgb(139, 47, 158)"
    assert page.evaluate(colour) == other
