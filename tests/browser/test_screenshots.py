"""Screenshots for a person to look at, written to test-artifacts/ (not committed):
every page in both themes, every figure in both themes and both diagram styles, and each
article on a phone and in print. They assert little and take a minute of CPU, so the
suite leaves them out: `python -m pytest -m screenshots` writes them."""

from __future__ import annotations

import itertools

import pytest

from browser.pages import ALL_PAGES, ARTICLE_PAGES, STYLES, THEMES, artifact, choose

pytestmark = pytest.mark.screenshots


def name(path: str) -> str:
    return path.removesuffix(".html").replace("/", "-")


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_screenshot(visit, path: str, theme: str):
    page = visit(path, color_scheme=theme)
    shot = artifact(f"page-{name(path)}-{theme}.png")
    page.screenshot(path=shot, full_page=True)
    assert shot.stat().st_size > 10_000


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_figure_screenshots(visit, path: str):
    page = visit(path, height=1500)  # the tallest figure fits: the sticky bar stays off it
    for theme, style in itertools.product(THEMES, STYLES):
        choose(page, theme=theme, style=style)
        for figure in page.locator("figure.figure").all():
            figure_id = figure.get_attribute("id")
            shot = artifact(f"{figure_id}-{name(path).split('-')[0]}-{theme}-{style}.png")
            figure.screenshot(path=shot)
            assert shot.stat().st_size > 10_000


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_phone_and_print_screenshots(visit, path: str):
    page = visit(path, width=390, height=844)
    page.screenshot(path=artifact(f"phone-{name(path)}.png"))
    page.set_viewport_size({"width": 680, "height": 960})
    page.emulate_media(media="print")
    shot = artifact(f"print-{name(path)}.png")
    page.screenshot(path=shot, full_page=True)
    assert shot.stat().st_size > 10_000
