"""What the browser tests visit: every page of the real site, and its figures' specs."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import REPO

from articlesite.config import load_site
from articlesite.content import load_articles
from articlesite.figures import load_figures
from articlesite.problems import Problems

_problems = Problems(REPO)
SITE = load_site(REPO, _problems)
ARTICLES = load_articles(SITE, _problems)
SPECS = load_figures(REPO, _problems)
LANGUAGES = SITE.codes
ARTICLE_PAGES = [f"{code}/{article.slug}.html" for article in ARTICLES
                 for code in article.languages]
ALL_PAGES = ["index.html", *(f"{code}/index.html" for code in LANGUAGES), *ARTICLE_PAGES]
STYLES = ("openai-blog", "engineering")
THEMES = ("light", "dark")
ARTIFACTS = Path(os.environ.get("ARTICLESITE_ARTIFACTS", REPO / "test-artifacts"))


def artifact(name: str) -> Path:
    """Where a screenshot for a person to look at goes (not committed)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def choose(page, *, theme: str | None = None, style: str | None = None) -> None:
    """Make the reader's choices as the toggles remember them, then reload."""
    page.evaluate("""([theme, style]) => {
        if (theme) localStorage.setItem("articlesite-theme", theme);
        if (style) localStorage.setItem("articlesite-diagram-style", style);
    }""", [theme, style])
    page.reload()
