"""One Atom feed per language (RFC 4287), `site/<lang>/feed.xml`: the articles published
in that language, newest first, each with its title, description, dates, authors and
tags. The template is templates/feed.xml; this module picks and dates the entries.

- Only articles with a `date` are entries: a feed entry needs a date (atom:updated), and
  an undated article is not news. Drafts are never entries, even with --drafts.
- Identifiers: with a `base_url`, an entry's id is the page's absolute URL; without one,
  a `urn:uuid:` made from the page's path, the same on every build. Links are absolute
  with a `base_url`; without one they are relative to the feed, which RFC 4287 allows
  and feed readers resolve against the feed's own address.
- A language still `status: in-progress` has its feed too, linked from its own pages
  only (as every page of it is); no other language's feed lists its articles.
- A feed with no entry says it was updated at 1970-01-01T00:00:00Z: a build has no clock
  (two builds of the same sources are byte-identical).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from ..load.config import Site
from ..load.content import Listing, newest_first
from ..load.frontmatter import FrontMatter, parse_iso

EPOCH = "1970-01-01T00:00:00Z"


@dataclass(frozen=True)
class FeedEntry:
    path: str            # the page's path in site/: "ja/attention.html"
    meta: FrontMatter


def feed_entries(listings: list[Listing], language: str) -> list[FeedEntry]:
    """The language's dated, published articles, newest first."""
    return [FeedEntry(f"{language}/{listing.slug}.html", listing.sources[language])
            for listing in newest_first(listings, language)
            if language in listing.sources and listing.sources[language].date
            and not listing.sources[language].draft]


def rfc3339(iso: str) -> str:
    """An ISO date or date-time as an RFC 3339 date-time (a date: its midnight, UTC)."""
    when = parse_iso(iso)
    return when.isoformat().replace("+00:00", "Z")


def feed_updated(entries: list[FeedEntry]) -> str:
    if not entries:
        return EPOCH
    newest = max(entries, key=lambda entry: parse_iso(entry.meta.newest))
    return rfc3339(newest.meta.newest)


def atom_id(site: Site, path: str) -> str:
    """A permanent identifier for a page or feed: its absolute URL, or a name-based UUID."""
    if site.base_url:
        return site.base_url + path
    return uuid.uuid5(uuid.NAMESPACE_URL, f"articlesite:{path}").urn
