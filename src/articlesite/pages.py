"""The pages a site has: what each one is, where it goes in site/, and what it read."""

from __future__ import annotations

from dataclasses import dataclass, field

from .load.config import Site
from .load.content import Article

# Written at the root of site/: 404.html always; sitemap.xml and robots.txt only with a
# base_url (sitemap.py).
SITE_FILES = ("404.html", "sitemap.xml", "robots.txt")


@dataclass(frozen=True)
class PageJob:
    """A page to render: the root page, a language's index, an article in a language, or
    the translator's view."""

    template: str             # root.html, index.html, article.html, translations.html,
                              # or one of the files readers and robots meet (SITE_FILES,
                              # feed.xml)
    language: str
    slug: str | None = None   # the article's

    @property
    def path(self) -> str:
        if self.template == "root.html":
            return "index.html"
        if self.template in ("translations.html", *SITE_FILES):
            return self.template
        if self.template == "feed.xml":
            return f"{self.language}/feed.xml"
        return f"{self.language}/{self.slug or 'index'}.html"


@dataclass
class Body:
    """An article page's body: its Markdown rendered, with its figures, and what the page
    around it needs of it: its headings (level, id, HTML, line: the table of contents,
    the page's checks), how often each reference is cited, and what it read (as Page).
    A change to the page's templates leaves it as it is: the build then reuses it from the
    cache (cache.Cache.reusable_body, load_body)."""

    html: str
    headings: list[tuple[int, str | None, str, int]] = field(default_factory=list)
    cite_count: dict[str, int] = field(default_factory=dict)
    figures: dict[str, str | None] = field(default_factory=dict)
    texts: set[tuple[str, str]] = field(default_factory=set)
    files: dict[str, str | None] = field(default_factory=dict)


@dataclass
class Page:
    """One output file: its path inside site/ and its HTML, with what it read beyond its
    article's sources, for the cache: the figures it placed (id -> spec digest, None if no
    such spec), the dictionary texts shown ((key, language) pairs) and the files and
    articles its images and links looked at (links.PageReferences.files)."""

    path: str
    html: str
    figures: dict[str, str | None] = field(default_factory=dict)
    texts: set[tuple[str, str]] = field(default_factory=set)
    files: dict[str, str | None] = field(default_factory=dict)
    body: Body | None = None   # an article page's body, when it was rendered (not reused)


def site_pages(site: Site, articles: list[Article]) -> list[PageJob]:
    """Every page of the site in order, but the translator's view (planned after them:
    build.plan_view)."""
    jobs = [PageJob("root.html", site.default_language),
            PageJob("404.html", site.default_language)]
    if site.base_url:
        jobs += [PageJob("sitemap.xml", site.default_language),
                 PageJob("robots.txt", site.default_language)]
    for language in site.codes:
        jobs.append(PageJob("index.html", language))
        jobs.append(PageJob("feed.xml", language))
        jobs.extend(PageJob("article.html", language, article.slug)
                    for article in articles if language in article.sources)
    return jobs
