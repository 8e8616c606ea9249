"""Articles: `content/<slug>/<language>.md` (front matter + Markdown) and a bibliography."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .config import Site
from .problems import Problems
from .sourcefiles import check_fields, line_of, load_yaml, parse_yaml, read_text

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)


@dataclass
class Source:
    """One language's version of an article."""

    path: Path
    language: str
    title: str
    description: str
    body: str
    body_line: int  # line of the file where the Markdown body starts (1-based)


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

    @property
    def languages(self) -> list[str]:
        return list(self.sources)


def load_articles(site: Site, problems: Problems) -> list[Article]:
    articles = []
    for folder in sorted(p for p in (site.root / "content").iterdir() if p.is_dir()):
        if folder.name.startswith((".", "_")):
            continue
        if not SLUG.match(folder.name):
            problems.add(folder, None, f"article folder '{folder.name}' must be named with "
                         "lower-case letters, digits and hyphens (it becomes the page's URL)")
            continue
        article = Article(folder.name, folder)
        for code in site.codes:
            path = folder / f"{code}.md"
            if path.is_file():
                source = load_source(path, code, problems)
                if source is not None:
                    article.sources[code] = source
        for path in sorted(folder.glob("*.md")):
            if path.stem not in site.codes:
                problems.add(path, None, f"'{path.name}' is not named after a configured "
                             f"language ({', '.join(site.codes)})", language=path.stem)
        references = folder / "references.yaml"
        if references.is_file():
            article.references_path = references
            article.references = load_references(references, problems)
        if article.sources:
            articles.append(article)
    return articles


def load_source(path: Path, language: str, problems: Problems) -> Source | None:
    text = read_text(path, problems)
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
    if not check_fields(meta, path, problems, what="front matter",
                        required=("title", "description")):
        return None
    for key in ("title", "description"):
        if not isinstance(meta[key], str) or not meta[key].strip():
            problems.add(path, line_of(meta, key), f"'{key}' must be non-empty text",
                         key=key, language=language)
    body_line = text[:match.end()].count("\n") + 1
    return Source(path, language, str(meta["title"]), str(meta["description"]),
                  text[match.end():], body_line)


REFERENCE_FIELDS = ("authors", "title", "venue", "year")


def load_references(path: Path, problems: Problems) -> list[Reference]:
    data = load_yaml(path, problems)
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

