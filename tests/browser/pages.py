"""What the browser tests visit: every page of the real site, and its figures' specs."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import REPO

from articlesite.load.figures import FigureLibrary
from articlesite.load.sources import load_sources
from articlesite.pages import site_pages
from articlesite.problems import Problems
from articlesite.translate.view import PATH as TRANSLATOR_VIEW

SOURCES = load_sources(REPO, Problems(REPO))
SPECS = FigureLibrary(SOURCES.figures, SOURCES.dictionary, Problems(REPO)).every()
ARTICLES = SOURCES.articles
LANGUAGES = SOURCES.site.codes
ARTICLE_PAGES = [f"{code}/{article.slug}.html" for article in ARTICLES
                 for code in article.languages]
# What a reader is sent to: the language chooser, each language's index, the articles.
READER_PAGES = ["index.html", *(f"{code}/index.html" for code in LANGUAGES), *ARTICLE_PAGES]
# Every page site/ holds, the translator's view included.
ALL_PAGES = [*(job.path for job in site_pages(SOURCES.site, ARTICLES)
               if job.path.endswith(".html")), TRANSLATOR_VIEW]
STYLES = ("blog", "engineering")
THEMES = ("light", "dark")
ARTIFACTS = Path(os.environ.get("ARTICLESITE_ARTIFACTS", REPO / "test-artifacts"))


def artifact(name: str) -> Path:
    """Where a screenshot for a person to look at goes (not committed)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def screenshots_wanted() -> bool:
    """Whether the tests that look at pages also write screenshots of them: when asked,
    with `-m screenshots` (conftest sets the variable) or ARTICLESITE_SCREENSHOTS=1. A
    full-page PNG costs Chromium about 0.8 s of CPU: the suite's thirty took 25 s."""
    return os.environ.get("ARTICLESITE_SCREENSHOTS") == "1"


def screenshot(target, name: str, **options) -> None:
    """A screenshot of a page or an element as artifact `name`, when wanted."""
    if screenshots_wanted():
        target.screenshot(path=str(artifact(name)), **options)


def choose(page, *, theme: str | None = None, style: str | None = None) -> None:
    """Make the reader's choices as the toggles remember them, then reload."""
    page.evaluate("""([theme, style]) => {
        if (theme) localStorage.setItem("articlesite-theme", theme);
        if (style) localStorage.setItem("articlesite-diagram-style", style);
    }""", [theme, style])
    page.reload()
