"""Article translations, section by section: which translated sections are out of date.

Beside each article, `content/<slug>/sections.confirmed.json` records, for each
translation and each of its `##` sections, the digest of the source-language section the
translation was confirmed against: `{language: {section id: digest}}`. `python build.py
translations confirm SLUG[#SECTION][:LANG]` and `--sections` write it (and the translator's
view's editor in serve); nothing else does.

A section's digest covers its source text from its heading to the next `##` heading
(trailing white space aside). The state of a translated section:

- ok: its language has a record for the article and the digest recorded is the source
  section's current one;
- stale: its language has a record for the article, and the source section changed
  since (or was added since: the record does not name it);
- unconfirmed: its language has no record for the article at all (translations made
  before sections were tracked): `check` warns once per article and language, and the
  page shows no notice;
- missing: the translation lacks the section (parity reports that).

A stale section carries a notice on its page, in the reader's language, linking to the
same section in the source language.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..memo import SECTIONS, Memo
from ..problems import Problems, command
from .sourcefiles import SourceChanged, parse_json, read_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .config import Site
    from .content import Article, Source

RECORD = "sections.confirmed.json"
OK, STALE, UNCONFIRMED, MISSING = "ok", "stale", "unconfirmed", "missing"

# slug -> language -> section id -> digest of the source section confirmed against
SectionRecords = dict[str, dict[str, dict[str, str]]]


@dataclass(frozen=True)
class Section:
    id: str
    line: int      # of its heading, in the source file
    title: str     # the heading's Markdown, without its {#id}
    digest: str    # of its text, heading included


def sections_of(source: Source, memo: Memo) -> list[Section]:
    """The `##` sections of one language's version of an article (remembered by the
    digest of its file)."""
    found = memo.recall(SECTIONS, source.digest)
    if found is None:
        try:
            found = parse_source(source, memo)[1]
        except SourceChanged:
            return []   # the build reports it
    return [Section(*item) for item in found]


def parse_source(source: Source, memo: Memo) -> tuple[list, list]:
    """A source's body parsed (raises SourceChanged if edited since it was read), and its
    sections, which the memo keeps: a quick rebuild (build.reload_sources) parses an
    edited source once for its sections, its outline and its page."""
    from ..render import markdown  # markdown-it: only when an article is parsed

    body = source.body
    tokens = markdown.parse(body)
    found = sections_in(tokens, body, source.body_line)
    memo.keep(SECTIONS, source.digest, found)
    return tokens, found


def sections_in(tokens: list, body: str, first_line: int) -> list[tuple[str, int, str, str]]:
    """The sections of a body parsed by markdown.parse, as the memo keeps them (the build
    keeps those of the bodies it renders: then they are not parsed twice)."""
    lines = body.splitlines()
    starts = [(i, token.map[0]) for i, token in enumerate(tokens)
              if token.type == "heading_open" and token.tag == "h2" and token.map]
    found = []
    for n, (i, start) in enumerate(starts):
        end = starts[n + 1][1] if n + 1 < len(starts) else len(lines)
        section_id = tokens[i].attrGet("id")
        if not section_id:
            continue   # the build reports a heading without an id
        text = "\n".join(line.rstrip() for line in lines[start:end]).strip()
        found.append((str(section_id), first_line + start, tokens[i + 1].content.strip(),
                      section_digest(text)))
    return found


def section_digest(text: str) -> str:
    """What the record keeps of a section's text: a hash that never changes with the
    build cache's (sourcefiles.digest), since authors commit the record."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()[:16]


def record_path(article: Article) -> Path:
    return article.folder / RECORD


def load_records(articles: list[Article], codes: list[str],
                 problems: Problems) -> SectionRecords:
    records: SectionRecords = {}
    for article in articles:
        path = record_path(article)
        if not path.is_file():
            continue
        text = read_text(path, problems)
        data = None if text is None else parse_json(text, path, problems)
        if data is None:
            continue
        if not (isinstance(data, dict) and all(
                isinstance(entry, dict) and all(isinstance(value, str)
                                                for value in entry.values())
                for entry in data.values())):
            problems.add(path, 1, 'the record must map languages to {section id: digest}; '
                         f'rewrite it with `{command()} translations confirm '
                         f'{article.slug}`')
            continue
        records[article.slug] = {code: dict(entry) for code, entry in data.items()
                                 if code in codes}
    return records


def write_record(article: Article, record: dict[str, dict[str, str]],
                 codes: list[str]) -> Path:
    """One section a line, languages in the site's order, sections in the article's."""
    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    entries = []
    for code in (c for c in codes if record.get(c)):
        lines = [f"    {dump(section)}: {dump(value)}" for section, value in record[code].items()]
        entries.append(f"  {dump(code)}: {{\n" + ",\n".join(lines) + "\n  }")
    path = record_path(article)
    path.write_text("{\n" + ",\n".join(entries) + "\n}\n", encoding="utf-8")
    return path


@dataclass(frozen=True)
class Cell:
    language: str
    state: str              # OK, STALE, UNCONFIRMED or MISSING; "source" for the source
    section: Section | None


class SectionStates:
    """The state of every translated section of every article, worked out when asked."""

    def __init__(self, site: Site, articles: list[Article], records: SectionRecords,
                 memo: Memo):
        self.site, self.records, self.memo = site, records, memo
        self.articles = {article.slug: article for article in articles}
        # Worked out once each, by (slug, language), for as long as these sources live.
        self._sections: dict[tuple[str, str], tuple[Section, ...]] = {}
        self._digests: dict[tuple[str, str], dict[str, str]] = {}
        self._notices: dict[tuple[str, str], tuple[str, ...]] = {}
        self._tables: dict[str, list[tuple[str, list[Cell]]]] = {}   # by slug
        self._key: list | None = None   # of every article

    def sections(self, slug: str, language: str) -> tuple[Section, ...]:
        if (slug, language) not in self._sections:
            source = self.articles[slug].sources.get(language)
            self._sections[slug, language] = \
                tuple(sections_of(source, self.memo)) if source else ()
        return self._sections[slug, language]

    def digests(self, slug: str, language: str) -> dict[str, str]:
        """The digest of each section of a version, by the section's id."""
        if (slug, language) not in self._digests:
            self._digests[slug, language] = {s.id: s.digest
                                             for s in self.sections(slug, language)}
        return self._digests[slug, language]

    def source_language(self, slug: str) -> str:
        """The language translations of this article are made from."""
        article = self.articles[slug]
        source = self.site.source_language
        return source if source in article.sources else next(iter(article.sources))

    def state(self, slug: str, language: str, section_id: str) -> str:
        base = self.source_language(slug)
        if language == base:
            return "source"
        if section_id not in self.digests(slug, language):
            return MISSING
        record = self.records.get(slug, {}).get(language)
        if record is None:
            return UNCONFIRMED
        current = self.digests(slug, base)
        if section_id not in current:
            return OK   # not in the source: parity reports it
        return OK if record.get(section_id) == current[section_id] else STALE

    def notices(self, slug: str, language: str) -> tuple[str, ...]:
        """The ids of the sections of this page that carry a stale notice."""
        if (slug, language) not in self._notices:
            self._notices[slug, language] = self._stale(slug, language)
        return self._notices[slug, language]

    def _stale(self, slug: str, language: str) -> tuple[str, ...]:
        if language == self.source_language(slug) or \
                self.records.get(slug, {}).get(language) is None:
            return ()   # the source, or a translation never confirmed: nothing is stale
        return tuple(s.id for s in self.sections(slug, language)
                     if self.state(slug, language, s.id) == STALE)

    def table(self, slug: str) -> list[tuple[str, list[Cell]]]:
        """Every section of the article (the source's order, then any only a translation
        has), with a cell per language. (Worked out once: the view's plan and the view
        each ask for every article's.)"""
        if slug not in self._tables:
            self._tables[slug] = self._table(slug)
        return self._tables[slug]

    def _table(self, slug: str) -> list[tuple[str, list[Cell]]]:
        base = self.source_language(slug)
        ids = [s.id for s in self.sections(slug, base)]
        for code in self.site.codes:
            ids += [s.id for s in self.sections(slug, code) if s.id not in ids]
        by_id = {code: {s.id: s for s in reversed(self.sections(slug, code))}
                 for code in self.site.codes}   # reversed: the first of an id is kept
        rows = []
        for section_id in ids:
            cells = []
            for code in self.site.codes:
                found = by_id[code].get(section_id)
                state = MISSING if found is None else self.state(slug, code, section_id)
                cells.append(Cell(code, state, found))
            rows.append((section_id, cells))
        return rows

    def key(self, slugs: Iterable[str] | None = None) -> list:
        """What the translator's view shows of the sections (its cache key covers it):
        their ids and states, of every article or of those named. Not their titles: then
        an edit to a heading, the most common kind, leaves the view as it is (serve's
        quick rebuild needs that)."""
        if slugs is None:
            if self._key is None:
                self._key = self.key(self.articles)
            return self._key
        return [(slug, [(section_id, [(cell.language, cell.state) for cell in cells])
                        for section_id, cells in self.table(slug)])
                for slug in slugs]
