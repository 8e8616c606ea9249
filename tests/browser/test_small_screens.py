"""Figures on every screen: at 1400 px a tall figure is shown whole, with no scroll box
inside; at 390 px each figure says it scrolls sideways and can be fitted to the width
(with a touch, a key, or with JavaScript off), its text still selectable and its text
alternative still there; and the header stays within 60 px, whatever the number of
languages, its switcher and toggles folded into a menu."""

from __future__ import annotations

import pytest

from browser.pages import ARTICLE_PAGES, READER_PAGES, THEMES, screenshot
from browser.test_axe import axe, violations

SCROLLS_INSIDE = """() => [...document.querySelectorAll(".figure-scroll")].map(box => ({
    vertical: box.scrollHeight > box.clientHeight + 1,
    horizontal: box.scrollWidth > box.clientWidth + 1,
    canvasWidth: box.querySelector(".canvas").getBoundingClientRect().width,
    boxWidth: box.clientWidth}))"""


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_no_figure_scrolls_inside_at_1400_px(visit, path: str):
    page = visit(path, width=1400, height=900)
    boxes = page.evaluate(SCROLLS_INSIDE)
    assert boxes and not any(box["vertical"] or box["horizontal"] for box in boxes), boxes
    assert page.locator(".figure-tools:visible").count() == 0   # nothing to hint at


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_at_390_px_figures_hint_at_scrolling_and_fit_to_width(visit, path: str,
                                                               javascript: bool):
    page = visit(path, width=390, height=844, javascript=javascript)
    figures = page.locator(".figure")
    for index in range(figures.count()):
        figure = figures.nth(index)
        box = figure.locator(".figure-scroll")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth + 1")
        assert not box.evaluate("b => b.scrollHeight > b.clientHeight + 1")
        hint = figure.locator(".scroll-hint")
        assert hint.is_visible() and "⟷" in hint.inner_text()
        switch = figure.locator(".figure-tools label")
        assert switch.is_visible()
        switch.click()
        fitted = box.evaluate("""b => ({
            canvas: b.querySelector(".canvas").getBoundingClientRect().width,
            box: b.clientWidth, scrolls: b.scrollWidth > b.clientWidth + 1})""")
        assert not fitted["scrolls"] and fitted["canvas"] <= fitted["box"] + 1, fitted
        # The text is still text: selectable, and the text alternative is still there.
        node = figure.locator(".node strong").first
        assert node.evaluate("n => getComputedStyle(n).userSelect") != "none"
        assert figure.locator(".visually-hidden li").count() > 0
        if index == 0:
            screenshot(figure, f"fit-{path.replace('/', '-')}-"
                               f"{'js' if javascript else 'nojs'}.png")
        switch.click()
        assert box.evaluate("b => b.scrollWidth > b.clientWidth + 1")   # back to 1:1


@pytest.mark.parametrize("path", ARTICLE_PAGES[:1])
def test_fit_to_width_by_keyboard_and_by_touch(chromium, visit, path: str):
    page = visit(path, width=390, height=844)
    toggle = page.locator(".fit-toggle").first
    toggle.focus()
    page.keyboard.press("Space")
    assert toggle.is_checked()
    outline = page.locator(".figure-tools label").first.evaluate(
        "l => getComputedStyle(l).outlineStyle")
    assert outline != "none"   # the focus is seen on the switch's label
    page.keyboard.press("Space")
    assert not toggle.is_checked()

    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                   is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(page.url)
        phone.locator(".figure-tools label").first.tap()
        assert phone.locator(".fit-toggle").first.is_checked()
    finally:
        context.close()


@pytest.mark.parametrize("path", READER_PAGES)
def test_header_at_390_px_is_at_most_60_px(visit, path: str):
    """With the site's three languages, then with eight in the switcher (more than the
    real site has: the list's entries copied), with and without JavaScript."""
    for javascript in (True, False):
        page = visit(path, width=390, height=844, javascript=javascript)
        for languages in (3, 8):
            page.evaluate("""n => {
                const list = document.querySelector(".switcher ul");
                if (!list) return;
                while (list.children.length < n) list.append(list.lastElementChild.cloneNode(true));
            }""", languages)
            height = page.evaluate(
                "document.querySelector('.bar').getBoundingClientRect().height")
            assert height <= 60, (path, languages, javascript, height)
            if page.locator(".switcher").count():
                assert not page.locator(".switcher a").first.is_visible()
                page.locator(".menu summary").click()
                assert page.locator(".switcher a").first.is_visible()
                assert page.evaluate(
                    "document.querySelector('.bar').getBoundingClientRect().height") <= 60
                page.locator(".menu summary").click()   # closed again


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_axe_at_390_px_with_the_menu_open_and_a_figure_fitted(visit, path: str, theme: str):
    page = visit(path, width=390, height=844, color_scheme=theme)
    page.locator(".menu summary").click()
    page.locator(".figure-tools label").first.click()
    # The header, the figures and the display formulas (the wide ones scroll sideways).
    assert page.evaluate("""[...document.querySelectorAll('.math-display')]
        .some(box => box.scrollWidth > box.clientWidth)""")
    assert violations(axe(page, "{include: [['.bar'], ['.figure'], ['.math-display']]}")) \
        == []


def test_a_figure_that_fits_shows_no_scroll_hint(chromium, tmp_path):
    """The small fixture site's figure (400 px wide) fits a 1000 px window: no hint nor
    fit switch; at 390 px it does not fit, and both appear."""
    from conftest import fixture_site, run_build
    root = fixture_site("sources", tmp_path / "project")
    assert run_build(root).returncode == 0
    page = chromium.new_page(viewport={"width": 1000, "height": 800})
    try:
        page.goto((root / "site" / "ja" / "loop.html").as_uri())
        assert page.locator(".figure[data-fits]").count() == 1
        assert page.locator(".figure-tools:visible").count() == 0
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("!document.querySelector('.figure').hasAttribute('data-fits')")
        assert page.locator(".figure .scroll-hint").is_visible()
    finally:
        page.close()
