"""Articles: `content/<slug>/<language>.md` (front matter + Markdown) and a bibliography."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..problems import Problems
from . import wordcount
from .config import Site
from .frontmatter import FrontMatter, parse_front_matter, sort_key
from .sourcefiles import (
    Memo,
    check_fields,
    decode,
    digest,
    line_of,
    parse_yaml,
    read_again,
    read_bytes,
    read_source,
)

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)


@dataclass
class Source:
    """One language's version of an article."""

    path: Path
    language: str
    meta: FrontMatter
    body_line: int   # line of the file where the Markdown body starts (1-based)
    body_start: int  # its offset in the file, in bytes
    digest: str      # of the file's bytes

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
        return Listing(self.slug, {code: meta.without_counts()
                                   for code, meta in self.sources.items()})

    def shown_in(self, language: str) -> str:
        """The language of the version an index in `language` shows: its own, or else
        the article's first."""
        return language if language in self.sources else next(iter(self.sources))

    def newest_first(self, language: str) -> tuple:
        """The index's order: by the date of the version the index shows, newest first;
        articles without a date after those with one, then by slug."""
        shown = self.sources[self.shown_in(language)]
        when = shown.date and sort_key(shown.date).timestamp()
        return (when is None, -(when or 0), self.slug)


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


def load_articles(site: Site, problems: Problems, memo: Memo | None = None) -> list[Article]:
    """Every article folder under content/; `memo` spares parsing files seen before."""
    memo = memo or Memo()
    articles = []
    folders = (p for p in (site.root / "content").iterdir() if p.is_dir())
    for folder in sorted(folders, key=lambda p: p.name):  # names sort faster than paths
        if folder.name.startswith((".", "_")):
            continue
        if not SLUG.match(folder.name):
            problems.add(folder, None, f"article folder '{folder.name}' must be named with "
                         "lower-case letters, digits and hyphens (it becomes the page's URL)")
            continue
        article = Article(folder.name, folder)
        names = {entry.name for entry in os.scandir(folder) if entry.is_file()}
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
        if article.sources:
            articles.append(article)
    return articles


def load_source(path: Path, language: str, problems: Problems,
                memo: Memo | None = None) -> Source | None:
    data = read_bytes(path, problems)
    if data is None:
        return None
    hashed = digest(data)
    head = (memo or Memo()).parse(
        "source", hashed, lambda: _front_matter(path, data, language, problems), problems)
    if head is None:
        return None
    fields, body_line, body_start = head
    meta = FrontMatter(**{key: tuple(value) if key in ("authors", "tags") else value
                          for key, value in fields.items()})
    if meta.image and "://" not in meta.image and not (path.parent / meta.image).is_file():
        head = data[:body_start].decode("utf-8").splitlines()
        line = next((n for n, text in enumerate(head, 1) if text.startswith("image:")), None)
        problems.add(path, line, f"the front matter's image '{meta.image}' is not a file in "
                     f"{path.parent.name}/", key="image", language=language)
    return Source(path, language, meta, body_line, body_start, hashed)


def _front_matter(path: Path, data: bytes, language: str, problems: Problems) -> list | None:
    """[front matter fields, first line and byte offset of the body], or None if
    unusable."""
    text = decode(data, path, problems)
    if text is None:
        return None
    match = FRONT_MATTER.match(text)
    if not match:
        problems.add(path, 1, "the file must start with YAML front matter between '---' lines",
                     language=language)
        return None
    meta = parse_yaml(match.group(1) or "", path, problems, first_line=2)
    if meta is None and match.group(1):
        return None
    meta = meta if meta is not None else {}
    fields = parse_front_matter(meta, path, language, problems)
    if fields is None:
        return None
    head = text[:match.end()]
    characters, words = wordcount.counts(text[match.end():])
    fields["words"] = characters + words
    fields["minutes"] = wordcount.reading_minutes(characters, words, language)
    return [fields, head.count("\n") + 1, len(head.encode("utf-8"))]


REFERENCE_FIELDS = ("authors", "title", "venue", "year")


def load_references(path: Path, problems: Problems, memo: Memo | None = None
                    ) -> tuple[list[Reference], str] | None:
    """The bibliography and the digest of its file."""
    source = read_source(path, problems)
    if source is None:
        return None
    text, digest = source
    entries = (memo or Memo()).parse("references", digest, lambda: [
        vars(ref) for ref in _parse_references(path, text, problems)], problems)
    return [Reference(**entry) for entry in entries], digest


def _parse_references(path: Path, text: str, problems: Problems) -> list[Reference]:
    data = parse_yaml(text, path, problems)
    if data is None:
        return []
    if not isinstance(data, list):
        problems.add(path, 1, "the bibliography must be a list of entries")
        return []
    references: list[Reference] = []
    for entry in data:
        if not check_fields(entry, path, problems, what="a bibliography entry",
                            required=("id", *REFERENCE_FIELDS),
                            optional=("kind", "url", "note", "unconfirmed")):
            continue
        ref_id = str(entry["id"])
        if not SLUG.match(ref_id):
            problems.add(path, line_of(entry, "id"), f"reference id '{ref_id}' must be "
                         "lower-case letters, digits and hyphens", key=ref_id)
            continue
        if ref_id in [r.id for r in references]:
            problems.add(path, line_of(entry, "id"), f"reference '{ref_id}' is listed twice",
                         key=ref_id)
            continue
        kind = entry.get("kind", "article")
        if kind not in ("article", "book"):
            problems.add(path, line_of(entry, "kind"), "'kind' must be article or book",
                         key=ref_id)
        url = entry.get("url")
        if url is not None and not re.match(r"^https?://", str(url)):
            problems.add(path, line_of(entry, "url"), "'url' must start with http:// or "
                         "https://", key=ref_id)
            url = None
        references.append(Reference(
            ref_id, str(entry["authors"]), str(entry["title"]), str(entry["venue"]),
            entry["year"], kind, url, entry.get("note"), entry.get("unconfirmed") is True,
            line_of(entry, "id")))
    return references

