"""The pages a site has: what each one is, and where it goes in site/."""

from __future__ import annotations

from dataclasses import dataclass

from .config import Site
from .content import Article


@dataclass(frozen=True)
class PageJob:
    """A page to render: the root page, a language's index, or an article in a language."""

    template: str             # root.html, index.html or article.html
    language: str
    slug: str | None = None   # the article's

    @property
    def path(self) -> str:
        if self.template == "root.html":
            return "index.html"
        return f"{self.language}/{self.slug or 'index'}.html"


def site_pages(site: Site, articles: list[Article]) -> list[PageJob]:
    """Every page of the site, in order."""
    jobs = [PageJob("root.html", site.default_language)]
    for language in site.codes:
        jobs.append(PageJob("index.html", language))
        jobs.extend(PageJob("article.html", language, article.slug)
                    for article in articles if language in article.sources)
    return jobs
