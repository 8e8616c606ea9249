"""What the URLs of an article's images and links point at, resolved while its page is
rendered (the hooks are in markdown.py).

- `fig.png`, `chart.assets/fig.png`, `data/table.csv`: a file in the article's folder, or
  a subfolder, published under site/assets/<slug>/ (assets.py), with its per-language
  variant `fig.ja.png` on the Japanese page when there is one. A missing file stops the
  build.
- `../other/`, `../other`, `../other/index.md`, `../other/en.md` (with an optional
  `#fragment`): the article `other`, in the page's language if it exists in it, else in
  the source language, else the default language, else the first configured language it
  has; such a link says which (hreflang and a small tag). An unknown article stops the
  build.
- `#id`: a section of the page itself; `check` reports an id the page does not have
  (check/ids.py, from the outlines), as it does for `../other/#id`.
- `https://…`, `mailto:…`: left as they are. An image from another site would be a
  request the site promises not to make: it is shown as a link to the image, and `check`
  reports it.
- A site-absolute link that names an article of the project (`/other`, `/other/`,
  `/en/other.html`, `/other/en.md`) is a link to it, as above. Any other (`/learn/x`, as
  written for the site the article came from) goes where site.yaml's `link_base` says
  for the article and the page's language (load/migrated.py), as an absolute link; a
  per-article base (the original page's URL) also takes the relative links that name no
  file of the folder and have no file extension (`./computed`).
- Otherwise an absolute path (`/x.png`) or a path that leaves the article's folder for
  anything but an article stops the build: it would work neither from disk nor on every
  server.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urljoin

from markupsafe import Markup, escape

from .assets import ARTICLE_KEY, Files, site_path

SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass
class Target:
    """A link's new attributes, and what to show after its text (a language tag)."""

    href: str
    hreflang: str | None = None
    tag: str = ""


@dataclass
class PageReferences:
    """Resolves the URLs of one page (an article in one language) and records what they
    read: `files` {root-relative path or "article:<slug>": digest or languages, None if
    absent}, for the cache; `notes` [(line, message)], for `check` only; `fragments`
    [(page, id, line)], the `#id` of each link to a page of the site (None: this page),
    for `check` only (check/ids.py)."""

    slug: str
    language: str
    languages: list[str]                     # the site's codes
    fallback: list[str]                      # source language, then default language
    articles: dict[str, list[str]]           # slug -> the languages it exists in
    names: dict[str, tuple[str, str]]        # code -> (name in its own script, HTML lang)
    reader: Files
    problem: Callable[[int | None, str], None]
    to_root: str = "../"
    base: str | None = None        # site.yaml's link_base for this article and language
    page_base: bool = False        # the base is the article's original page (per article)
    active_published: bool = False   # site.yaml's publish_html_and_svg
    files: dict[str, str | None] = field(default_factory=dict)
    notes: list[tuple[int | None, str]] = field(default_factory=list)
    fragments: list[tuple[str | None, str, int | None]] = field(default_factory=list)

    @property
    def folder(self) -> str:
        return f"content/{self.slug}"

    def note(self, line: int | None, message: str) -> None:
        self.notes.append((line, message))

    # Images ---------------------------------------------------------------------------
    def image(self, src: str, alt: str, title: str | None, line: int | None) -> str:
        extra = f' title="{escape(title)}"' if title else ""
        if not alt.strip():
            self.note(line, f"image '{unquote(src)}' has no alt text: describe "
                               "it for readers who cannot see it, ![what it shows](…)")
        if not src:
            self.problem(line, "an image needs the path of its file: ![what it shows](x.png)")
            return ""
        if src.startswith("data:"):
            return f'<img src="{escape(src)}" alt="{escape(alt)}"{extra}>'
        if src.startswith("//") or SCHEME.match(src):
            self.note(line, f"image '{src}' is on another site: the page shows a "
                               "link to it instead, as the site makes no outside request; "
                               "save it in the article's folder")
            return (f'<a class="external-image" href="{escape(src)}"{extra}>'
                    f'{escape(alt.strip() or src)}</a>')
        found = self._file(src, line, image=True)
        if found is None:
            return f'<img src="" alt="{escape(alt)}"{extra}>'
        url, info = found
        size = ""
        if info.size is not None:
            size = f' width="{info.size[0]}" height="{info.size[1]}"'
        else:
            self.note(line, f"the size of image '{unquote(src)}' cannot be read "
                               "(an SVG needs width and height, or a viewBox)")
        return (f'<img src="{escape(url)}" alt="{escape(alt)}"{extra}{size} loading="lazy" '
                'decoding="async">')

    # Links ----------------------------------------------------------------------------
    def link(self, href: str, line: int | None) -> Target:
        if href.startswith("//") or SCHEME.match(href):
            return Target(href)
        path, hash_, fragment = href.partition("#")
        if not path:
            if hash_ and fragment:
                self.fragments.append((None, unquote(fragment), line))
            return Target(href)
        path = path.split("?", 1)[0]
        if path.startswith("/"):
            return self._site_absolute(href, path, hash_ + fragment, line)
        article = self._article_of(path, line)
        if article is False:
            return Target(href)
        if article is not None:
            return self._article_link(article, hash_ + fragment, line)
        if self._elsewhere(path):
            if self.page_base:
                return Target(urljoin(self.base or "", href))
            self.problem(line, f"link '{unquote(path)}': no such file or folder in the "
                         f"article's folder {self.folder}/; if it is a page of the site the "
                         "article came from, give the article's original page in site.yaml's "
                         f"link_base ({self.slug}: {{{self.language}: https://…}})")
            return Target(href)
        found = self._file(path, line, image=False)
        if found is None:
            return Target(href)
        return Target(found[0] + hash_ + fragment)

    def _article_link(self, slug: str, fragment: str, line: int | None) -> Target:
        have = self.articles[slug]
        self.files[ARTICLE_KEY + slug] = " ".join(have)
        order = [self.language, *self.fallback, *self.languages]
        chosen = next(code for code in order if code in have)
        href = f"{self.to_root}{chosen}/{slug}.html{fragment}"
        if fragment[1:]:
            self.fragments.append((f"{chosen}/{slug}.html", unquote(fragment[1:]), line))
        if chosen == self.language:
            return Target(href)
        name, lang = self.names[chosen]
        # "(English)" to a screen reader; on screen a small tag, without the parentheses.
        return Target(href, chosen, Markup(
            '<span class="link-lang" lang="{}"><span class="visually-hidden"> (</span>{}'
            '<span class="visually-hidden">)</span></span>').format(lang, name))

    def _site_absolute(self, href: str, path: str, fragment: str, line: int | None) -> Target:
        """`/other/`, `/en/other.html`: an article of the project; `/learn/x`: a page of
        the site the article came from, where link_base says."""
        parts = [part for part in unquote(path).split("/") if part]
        sources = {f"{code}.md" for code in self.languages} | {"index.md"}
        slug = None
        if len(parts) == 1:
            slug = parts[0].removesuffix(".html")
        elif len(parts) == 2 and parts[0] in self.languages:
            slug = parts[1].removesuffix(".html")
        elif len(parts) == 2 and parts[1] in sources:
            slug = parts[0]
        if slug in self.articles:
            return self._article_link(slug, fragment, line)
        if slug and (self.reader.root / "content" / slug).is_dir():
            self.problem(line, f"link '{unquote(path)}': article '{slug}' has no page in this "
                         "build (a draft in every language, or its sources have problems)")
            return Target(href)
        if self.base:
            return Target(urljoin(self.base, href))
        self.problem(line, f"'{unquote(path)}' is an absolute path, which works neither from "
                     "disk nor on every server: give the path relative to the article's "
                     f"folder {self.folder}/, or, for a page of the site the article came "
                     f"from, say in site.yaml's link_base where it is ({self.language}: "
                     "https://…)")
        return Target(href)

    def _elsewhere(self, path: str) -> bool:
        """Whether a relative link names a page of the original site: no file extension,
        no file or folder of that name in the article's folder."""
        relative = posixpath.normpath(unquote(path)).rstrip("/")
        if posixpath.splitext(relative)[1] or relative.startswith(".."):
            return False
        chosen, looked = self.reader.choose(self.folder, relative, self.language)
        self.files.update(looked)
        return (self.reader.info(f"{self.folder}/{chosen}") is None
                and not (self.reader.root / self.folder / relative).is_dir())

    # Paths ----------------------------------------------------------------------------
    def _normal(self, url: str, line: int | None) -> list[str] | None:
        """The URL's path, relative to content/, as parts; None after a problem."""
        path = unquote(url)
        if any(ord(char) < 32 for char in path):
            self.problem(line, f"'{url}' is not a usable file name")
            return None
        if path.startswith("/"):
            self.problem(line, f"'{path}' is an absolute path, which works neither from "
                         "disk nor on every server: give the path relative to the "
                         f"article's folder {self.folder}/")
            return None
        normal = posixpath.normpath(f"{self.slug}/{path}")
        if normal == ".." or normal.startswith("../"):
            self.problem(line, f"'{path}' leads out of content/: only files in the "
                         f"article's folder {self.folder}/ are published")
            return None
        return normal.split("/")

    def _article_of(self, url: str, line: int | None) -> str | None | bool:
        """The slug of the article a link's path names, None if it names no article, False
        after a problem."""
        parts = self._normal(url, line)
        if parts is None:
            return False
        sources = {f"{code}.md" for code in self.languages} | {"index.md"}
        if len(parts) == 1 or (len(parts) == 2 and parts[1] in sources):
            if parts[0] not in self.articles:
                shown, folder = unquote(url), self.reader.root / "content" / parts[0]
                why = (f"article '{parts[0]}' has no page in this build (a draft in every "
                       "language, or its sources have problems)" if folder.is_dir() else
                       f"there is no article '{parts[0]}' (no content/{parts[0]}/)")
                self.problem(line, f"link '{shown}': {why}")
                return False
            return parts[0]
        return None

    def _file(self, url: str, line: int | None, image: bool):
        """The URL of a file of the article's folder as this page shows it, and what was
        read of it; None after a problem."""
        parts = self._normal(url, line)
        if parts is None:
            return None
        shown = unquote(url)
        if parts[0] != self.slug or len(parts) == 1:
            what = "image" if image else "link"
            self.problem(line, f"{what} '{shown}' is outside the article's folder "
                         f"{self.folder}/: only files in that folder (or its subfolders) "
                         "are published; a link to another article names its folder, "
                         "../other-article/")
            return None
        relative = "/".join(parts[1:])
        chosen, looked = self.reader.choose(self.folder, relative, self.language)
        self.files.update(looked)
        info = self.reader.info(f"{self.folder}/{chosen}")
        if info is None:
            variant = [name for name in looked if name != f"{self.folder}/{relative}"]
            self.problem(line, f"file '{shown}' not found: no {self.folder}/{relative}"
                         + (f" (nor {variant[0]})" if variant else ""))
            return None
        if image and info.kind is None:
            self.problem(line, f"'{shown}' is not an image a browser shows "
                         "(PNG, JPEG, GIF, WebP, AVIF or SVG)")
            return None
        if info.scripts and not self.active_published:
            self.note(line, f"{'image' if image else 'link'} '{shown}': the build leaves "
                      "the file out of the site, so readers find it missing (an HTML file, "
                      "or an SVG with a script in it, runs scripts when opened, on the "
                      "site's address); if you trust it, set `publish_html_and_svg: true` "
                      "in content/site.yaml")
        return f"{self.to_root}{quote(site_path(self.slug, chosen))}", info


def page_references(site, articles: dict, languages: dict[str, list[str]], reader: Files,
                    slug: str, language: str,
                    problem: Callable[[int | None, str], None]) -> PageReferences:
    """The resolver for the page of article `slug` in `language` (`languages`: those of
    each article, by slug: worked out once, not once a page); the front matter's
    preview image (`image:`) is published with the page, whether the body shows it or
    not (meta.preview_image gives its URL)."""
    refs = PageReferences(
        slug, language, site.codes, [site.source_language, site.default_language],
        languages, {lang.code: (lang.name, lang.lang) for lang in site.languages}, reader,
        problem)
    refs.active_published = site.publish_html_and_svg
    own = site.link_base.get(slug, {}).get(language)
    refs.base = own or site.link_base.get("", {}).get(language)
    refs.page_base = own is not None
    source = articles[slug].sources.get(language) if slug in articles else None
    if source is not None:
        preview_file(refs, source)
    return refs


def preview_file(refs: PageReferences, source) -> None:
    """Publish the front matter's `image:` (a per-language variant first, as for images
    in the body). A missing file is reported when the source is loaded."""
    image = source.meta.image
    if not image or "://" in image:
        return
    chosen, looked = refs.reader.choose(refs.folder, image, refs.language)
    info = refs.reader.info(f"{refs.folder}/{chosen}")
    if info is None:
        return
    refs.files.update(looked)
    if info.kind is None:
        refs.problem(source.image_line, f"the front matter's image '{image}' is not an "
                     "image a browser shows (PNG, JPEG, GIF, WebP, AVIF or SVG)")
