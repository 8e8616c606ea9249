"""What a page's head tells search engines and link previews: a canonical link, Open
Graph and Twitter card metadata, and JSON-LD `Article` data (templates/head-meta.html).

URLs in these must be absolute (a preview is fetched by another site), so the canonical
link, `og:url` and a preview image in the article's folder need `base_url`; without it
they are left out. An image given as an http(s) URL is used as it is.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from babel.core import get_global

from ..load.config import Language, Site
from ..load.frontmatter import FrontMatter
from .assets import site_path, variant_name
from .dates import locale_of
from .feeds import rfc3339


@lru_cache(maxsize=64)
def og_locale(lang: str) -> str:
    """An HTML lang as Open Graph's language_TERRITORY: zh-CN -> zh_CN, en -> en_US,
    ja -> ja_JP (for a language alone, the territory CLDR finds likeliest)."""
    locale = locale_of(lang)
    if locale is None:
        return lang.replace("-", "_")
    if locale.territory:
        return f"{locale.language}_{locale.territory}"
    likely = get_global("likely_subtags").get(locale.language, locale.language).split("_")
    territory = next((part for part in likely[1:] if len(part) == 2 and part.isupper()), None)
    return f"{locale.language}_{territory}" if territory else locale.language


def preview_image(site: Site, slug: str, meta: FrontMatter, code: str) -> str | None:
    """The absolute URL of the article's preview image in language `code`, where there
    is one: the file links.preview_file publishes (its variant for the language first)."""
    if not meta.image:
        return None
    if "://" in meta.image:
        return meta.image
    if not site.base_url:
        return None
    variant = variant_name(meta.image, code)
    chosen = variant if (site.root / "content" / slug / variant).is_file() else meta.image
    return site.base_url + quote(site_path(slug, chosen))


def article_json_ld(site: Site, language: Language, path: str, slug: str,
                    meta: FrontMatter) -> dict:
    """schema.org Article data for an article page (the template writes it with tojson,
    which escapes '<' so that no text can close the script element)."""
    data: dict = {"@context": "https://schema.org", "@type": "Article",
                  "headline": meta.title, "description": meta.description,
                  "inLanguage": language.lang}
    if meta.date:
        data["datePublished"] = rfc3339(meta.date)
        data["dateModified"] = rfc3339(meta.newest)
    if meta.authors:
        data["author"] = [{"@type": "Person", "name": name} for name in meta.authors]
    if meta.tags:
        data["keywords"] = list(meta.tags)
    image = preview_image(site, slug, meta, language.code)
    if image:
        data["image"] = image
    if site.base_url:
        data["url"] = data["mainEntityOfPage"] = site.base_url + path
    if meta.words:
        data["wordCount"] = meta.words
    return data
