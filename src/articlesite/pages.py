"""The pages a site has: what each one is, where it goes in site/, and what it read."""

from __future__ import annotations

from dataclasses import dataclass, field

from .load.config import Site
from .load.content import Article


@dataclass(frozen=True)
class PageJob:
    """A page to render: the root page, a language's index, an article in a language, or
    the translator's view."""

    template: str             # root.html, index.html, article.html or translations.html
    language: str
    slug: str | None = None   # the article's

    @property
    def path(self) -> str:
        if self.template == "root.html":
            return "index.html"
        if self.template == "translations.html":
            return self.template
        return f"{self.language}/{self.slug or 'index'}.html"


@dataclass
class Page:
    """One output file: its path inside site/ and its HTML, with what it read beyond its
    article's sources, for the cache: the figures it placed (id -> spec digest, None if no
    such spec) and the dictionary texts shown ((key, language) pairs)."""

    path: str
    html: str
    figures: dict[str, str | None] = field(default_factory=dict)
    texts: set[tuple[str, str]] = field(default_factory=set)


def site_pages(site: Site, articles: list[Article]) -> list[PageJob]:
    """Every page of the site in order, but the translator's view (planned after them:
    build.plan_view)."""
    jobs = [PageJob("root.html", site.default_language)]
    for language in site.codes:
        jobs.append(PageJob("index.html", language))
        jobs.extend(PageJob("article.html", language, article.slug)
                    for article in articles if language in article.sources)
    return jobs
