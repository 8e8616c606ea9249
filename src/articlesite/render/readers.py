"""What the templates are given for the files readers, feed readers, search engines and
link previews meet: feeds (feeds.py), the sitemap (sitemap.py) and head metadata
(meta.py)."""

from __future__ import annotations

from jinja2 import Environment

from .feeds import atom_id, feed_entries, feed_updated, rfc3339
from .meta import article_json_ld, og_locale, preview_image
from .sitemap import base_path, sitemap_pages


def register(env: Environment) -> None:
    env.filters.update(rfc3339=rfc3339, og_locale=og_locale)
    env.globals.update(feed_entries=feed_entries, feed_updated=feed_updated,
                       atom_id=atom_id, sitemap_pages=sitemap_pages, base_path=base_path,
                       preview_image=preview_image, article_json_ld=article_json_ld)
