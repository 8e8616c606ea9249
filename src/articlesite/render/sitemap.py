"""`sitemap.xml` (the sitemaps.org protocol) and `robots.txt`, written only when
`content/site.yaml` gives a `base_url`: a sitemap must list absolute URLs, and robots.txt
exists to point at it.

Every published page is listed (the language chooser, each language's index, each
article in each language it exists in), with `xhtml:link` hreflang alternates: for an
article, only the languages it exists in, plus x-default; for the indexes, every
language. `lastmod` is an article's `updated` date, else its `date`; an index's is the
newest of the articles it lists. Drafts, the 404 page and the translator's view are not
listed; nor are the pages of a language still `status: in-progress` (README, "Adding a
language"): no finished page names them, so the sitemap, which speaks for the finished
site, does not either, and no hreflang alternate points to them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ..load.config import Site
from ..load.content import Listing
from ..load.frontmatter import parse_iso


@dataclass
class SitemapPage:
    path: str
    lastmod: str | None = None
    alternates: list[tuple[str, str]] = field(default_factory=list)  # hreflang, path


def sitemap_pages(site: Site, listings: list[Listing]) -> list[SitemapPage]:
    finished = site.shown_codes()
    published = [(listing, {code: meta for code, meta in listing.sources.items()
                            if not meta.draft and code in finished}) for listing in listings]
    published = [(listing, sources) for listing, sources in published if sources]
    indexes = [(site.language(code).lang, f"{code}/index.html") for code in finished]
    indexes.append(("x-default", "index.html"))

    def newest(dates: list[str | None]) -> str | None:
        known = [d for d in dates if d]
        return max(known, key=parse_iso) if known else None

    pages = [SitemapPage("index.html", newest(
        [meta.newest for _, sources in published for meta in sources.values()]), indexes)]
    for code in finished:
        shown = [sources.get(code) or next(iter(sources.values())) for _, sources in published]
        pages.append(SitemapPage(f"{code}/index.html",
                                 newest([meta.newest for meta in shown]), indexes))
    for listing, sources in published:
        default = site.default_language if site.default_language in sources \
            else next(iter(sources))
        alternates = [(site.language(code).lang, f"{code}/{listing.slug}.html")
                      for code in sources]
        alternates.append(("x-default", f"{default}/{listing.slug}.html"))
        pages.extend(SitemapPage(f"{code}/{listing.slug}.html", meta.newest, alternates)
                     for code, meta in sources.items())
    return pages


def base_path(site: Site) -> str:
    """The path part of the base URL ("/articles/"), for robots.txt's rules."""
    return urlsplit(site.base_url).path or "/"
