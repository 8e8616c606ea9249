"""Articles: `content/<slug>/<language>.md` (front matter + Markdown) and a bibliography."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import parallel
from ..memo import REFERENCES, SOURCE, Memo
from ..problems import Problems
from . import wordcount
from .config import Site
from .frontmatter import IMAGE_LINE, URL, FrontMatter, parse_front_matter, sort_key
from .schema import Context, ListOf, Record, Value, flag, one_of, scalar_text
from .sourcefiles import (
    decode,
    digest,
    parse_yaml,
    read_again,
    read_bytes,
    read_source,
)

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*\Z")
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)


@dataclass
class Source:
    """One language's version of an article."""

    path: Path
    language: str
    meta: FrontMatter
    body_line: int   # line of the file where the Markdown body starts (1-based)
    body_start: int  # its offset in the file's text (sourcefiles.text_of), in characters
    digest: str      # of the file's bytes
    image_line: int | None = None   # of the front matter's `image:`, for its problems

    @property
    def title(self) -> str:
        return self.meta.title

    @property
    def description(self) -> str:
        return self.meta.description

    @property
    def body(self) -> str:
        """The Markdown body, read when needed (raises SourceChanged if edited since)."""
        return read_again(self.path, self.digest, self.body_start)


@dataclass
class Reference:
    id: str
    authors: str
    title: str
    venue: str
    year: int | str
    kind: str = "article"        # "article" (title in quotes) or "book" (title in italics)
    url: str | None = None
    note: str | None = None
    unconfirmed: bool = False
    line: int | None = None      # line of the entry's `id` in references.yaml


@dataclass
class Article:
    slug: str
    folder: Path
    sources: dict[str, Source] = field(default_factory=dict)
    references: list[Reference] = field(default_factory=list)
    references_path: Path | None = None
    references_digest: str | None = None

    @property
    def languages(self) -> list[str]:
        return list(self.sources)

    def shown_in(self, language: str) -> str:
        return shown_in(self.sources, language)

    def listing(self) -> Listing:
        return Listing(self.slug, {code: source.meta for code, source in self.sources.items()})


@dataclass(frozen=True)
class Listing:
    """What the index pages show of an article, and all they are given of it: an index
    page's cache key covers exactly this, so an edit to a body leaves the indexes be."""

    slug: str
    sources: dict[str, FrontMatter]

    @property
    def languages(self) -> list[str]:
        return list(self.sources)

    def without_counts(self) -> Listing:
        """What pages other than the indexes are given: word counts and reading times
        left out, so that an edit to a body renders again only what shows them."""
        return Listing(self.slug, {code: meta.uncounted
                                   for code, meta in self.sources.items()})

    def shown_in(self, language: str) -> str:
        return shown_in(self.sources, language)

    def newest_first(self, language: str) -> tuple:
        """The index's order: by the date of the version the index shows, newest first;
        articles without a date after those with one, then by slug."""
        shown = self.sources[self.shown_in(language)]
        when = shown.date and sort_key(shown.date).timestamp()
        return (when is None, -(when or 0), self.slug)


def shown_in(sources: dict, language: str) -> str:
    """The language of the version of an article (its sources by language) that an index
    in `language` shows: its own, or else the article's first."""
    return language if language in sources else next(iter(sources))


def newest_first(listings: list[Listing], language: str) -> list[Listing]:
    return sorted(listings, key=lambda listing: listing.newest_first(language))


def drop_drafts(articles: list[Article]) -> list[Article]:
    """The articles without their draft sources (an article left with none is dropped)."""
    kept = []
    for article in articles:
        sources = {code: source for code, source in article.sources.items()
                   if not source.meta.draft}
        if sources:
            kept.append(Article(article.slug, article.folder, sources, article.references,
                                article.references_path, article.references_digest))
    return kept


def load_articles(site: Site, problems: Problems, memo: Memo | None = None,
                  meanwhile: Callable[[], None] | None = None) -> list[Article]:
    """Every article folder under content/; `memo` spares parsing files seen before. A
    build that remembers nothing (the first, or --clean) reads, parses and counts the
    words of every source: over the cores when there are many (parallel.py), while this
    process does `meanwhile()` (done first otherwise)."""
    memo = memo or Memo()
    folders = article_folders(site.root / "content", problems, reserved_slugs(site.codes))
    count = 0 if memo.known else len(folders) * len(site.codes)
    if parallel.in_process(count, len(folders)):
        if meanwhile is not None:
            meanwhile()
        loaded = (load_article(site, folder, problems, memo) for folder in folders)
        return [article for article in loaded if article is not None]

    def load(folder: Path) -> tuple[str, Article | None, list, dict]:
        """In a worker: the article, its problems and what the memo kept of it."""
        found, first = Problems(problems.root), len(memo.kept)
        article = load_article(site, folder, found, memo)
        return folder.name, article, list(found), memo.kept_since(first)

    done = {}
    for name, article, found, kept in parallel.map_unordered(load, folders, count,
                                                             meanwhile):
        memo.take(kept)
        done[name] = article, found
    articles = []
    for folder in folders:   # in the order of their names, as in one process
        article, found = done[folder.name]
        problems.extend(found)
        if article is not None:
            articles.append(article)
    return articles


# What the site's own pages and folders are named: an article of that name would replace
# a language's index (index.html), or stand for a page it is not.
SITE_NAMES = ("index", "404", "feed", "search", "translations", "sitemap", "robots",
              "pagefind")


def reserved_slugs(codes: list[str]) -> frozenset[str]:
    """The slugs no article may have: the site's own pages' names and the languages'."""
    return frozenset(SITE_NAMES) | frozenset(codes)


def article_folders(content: Path, problems: Problems,
                    reserved: frozenset[str] = frozenset()) -> list[Path]:
    """The folders under content/ that are articles, by name (none named in `reserved`)."""
    folders = []
    for folder in sorted((p for p in content.iterdir() if p.is_dir()), key=lambda p: p.name):
        if folder.name.startswith((".", "_")):
            continue
        if not SLUG.match(folder.name):
            problems.add(folder, None, f"article folder '{folder.name}' must be named with "
                         "lower-case letters, digits and hyphens (it becomes the page's URL)")
            continue
        if folder.name in reserved:
            problems.add(folder, None, f"article folder '{folder.name}' has the name of one "
                         f"of the site's own pages or languages ({', '.join(sorted(reserved))}"
                         "): rename the folder")
            continue
        folders.append(folder)
    return folders


def load_article(site: Site, folder: Path, problems: Problems, memo: Memo) -> Article | None:
    """An article folder's sources and bibliography; None if it has no source."""
    article = Article(folder.name, folder)
    names = {entry.name for entry in os.scandir(folder) if _is_file(entry)}
    for code in site.codes:
        if f"{code}.md" in names:
            source = load_source(folder / f"{code}.md", code, problems, memo)
            if source is not None:
                article.sources[code] = source
    for name in sorted(names):
        if name.endswith(".md") and name[:-3] not in site.codes:
            problems.add(folder / name, None, f"'{name}' is not named after a configured "
                         f"language ({', '.join(site.codes)})", language=name[:-3])
    if "references.yaml" in names:
        references = article.references_path = folder / "references.yaml"
        loaded = load_references(references, problems, memo)
        if loaded is not None:
            article.references, article.references_digest = loaded
    return article if article.sources else None


def _is_file(entry: os.DirEntry) -> bool:
    """Whether a folder's entry is a file; a link in a loop is none (load/symlinks.py
    reports it)."""
    try:
        return entry.is_file()
    except OSError:
        return False


def load_source(path: Path, language: str, problems: Problems,
                memo: Memo | None = None) -> Source | None:
    memo = memo or Memo()
    hashed, data = memo.trusted_digest(SOURCE, path), None   # (unchanged: not read)
    if hashed is None:
        data = read_bytes(path, problems)
        if data is None:
            return None
        hashed = digest(data)
    head = memo.parse(
        SOURCE, hashed, lambda: _front_matter(path, data, language, problems), problems)
    if head is None:
        return None
    fields, body_line, body_start = head
    if fields is None:  # reported: its body is rendered only for its own problems
        meta = FrontMatter(title=path.name, description="")
        return Source(path, language, meta, body_line, body_start, hashed)
    image_line = fields.get(IMAGE_LINE)
    meta = _meta(fields)
    if meta.image and "://" not in meta.image and not (path.parent / meta.image).is_file():
        problems.add(path, image_line, f"the front matter's image '{meta.image}' is not a "
                     f"file in {path.parent.name}/", key="image", language=language)
    return Source(path, language, meta, body_line, body_start, hashed, image_line)


def _meta(fields: dict) -> FrontMatter:
    return FrontMatter(**{key: tuple(value) if key in ("authors", "tags") else value
                          for key, value in fields.items() if key != IMAGE_LINE})


def remembered_source(path: Path, language: str, digest: str, memo: Memo) -> Source | None:
    """The source whose file had this digest, as the memo remembers what an earlier build
    parsed of it, without reading the file (which may have changed since); None if the
    memo has no usable front matter of it."""
    head = memo.recall(SOURCE, digest)
    if head is None or head[0] is None:
        return None
    fields, body_line, body_start = head
    return Source(path, language, _meta(fields), body_line, body_start, digest,
                  fields.get(IMAGE_LINE))


def _front_matter(path: Path, data: bytes, language: str, problems: Problems) -> list | None:
    """[front matter fields, first line and character offset of the body (in the text
    of sourcefiles.text_of)], or None if unusable. Fields are None when the front matter
    has a problem: the body is still rendered, to report its problems at the same time."""
    text = decode(data, path, problems)
    if text is None:
        return None
    match = FRONT_MATTER.match(text)
    if not match:
        problems.add(path, 1, "the file must start with YAML front matter between '---' lines",
                     language=language)
        return None
    head = text[:match.end()]
    meta = parse_yaml(match.group(1) or "", path, problems, first_line=2)
    if meta is None and match.group(1):
        return [None, head.count("\n") + 1, len(head)]
    meta = meta if meta is not None else {}
    fields = parse_front_matter(meta, path, language, problems)
    if fields is not None:
        characters, words = wordcount.counts(text[match.end():])
        fields["words"] = characters + words
        fields["minutes"] = wordcount.reading_minutes(characters, words, language)
    return [fields, head.count("\n") + 1, len(head)]


def _slug(value: Any) -> str:
    slug = str(value)
    if not SLUG.match(slug):
        raise ValueError
    return slug


def _url(value: Any) -> str:
    if not isinstance(value, str) or not URL.match(value):
        raise ValueError
    return value


def _year(value: Any) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError
    if isinstance(value, int) and not -9999 <= value <= 9999:   # 400 digits is no year
        raise ValueError
    return value


REFERENCE = Record(
    "a bibliography entry", key_field="id",
    id=Value(_slug, "reference id '{value}' must be lower-case letters, digits and hyphens"),
    authors=Value(scalar_text, "'{key}' must be text"),
    title=Value(scalar_text, "'{key}' must be text"),
    venue=Value(scalar_text, "'{key}' must be text"),
    year=Value(_year, "'{key}' must be a year (a number, or text such as 'in press')"),
    kind=Value(one_of("article", "book"), "'kind' must be article or book", required=False,
               default="article"),
    url=Value(_url, "'url' must start with http:// or https://", required=False),
    note=Value(scalar_text, "'{key}' must be text", required=False),
    unconfirmed=Value(flag, "'{key}' must be true or false", required=False, default=False))
BIBLIOGRAPHY = ListOf(REFERENCE, "the bibliography must be a list of entries")


def load_references(path: Path, problems: Problems, memo: Memo | None = None
                    ) -> tuple[list[Reference], str] | None:
    """The bibliography and the digest of its file."""
    memo = memo or Memo()
    digest, text = memo.trusted_digest(REFERENCES, path), ""   # (unchanged: not read)
    if digest is None:
        source = read_source(path, problems)
        if source is None:
            return None
        text, digest = source
    entries = memo.parse(REFERENCES, digest, lambda: [
        vars(ref) for ref in _parse_references(path, text, problems)], problems)
    return [Reference(**entry) for entry in entries], digest


def _parse_references(path: Path, text: str, problems: Problems) -> list[Reference]:
    data = parse_yaml(text, path, problems)
    if data is None:
        return []
    references: list[Reference] = []
    for entry in Context(path, problems).read(BIBLIOGRAPHY, data) or []:
        # An entry with a wrong optional field is still listed (its citations resolve).
        if not all(name in entry for name in ("id", "authors", "title", "venue", "year")):
            continue
        ref_id = entry["id"]
        if ref_id in [r.id for r in references]:
            problems.add(path, entry.line_of("id"), f"reference '{ref_id}' is listed twice",
                         key=ref_id)
            continue
        references.append(Reference(**{"kind": "article", "url": None, "note": None,
                                       "unconfirmed": False, **entry},
                                    line=entry.line_of("id")))
    return references
