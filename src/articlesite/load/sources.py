"""Everything a build reads, loaded: the site config, the articles, the figure-text
dictionary, the interface strings, the templates, the figure spec files (each parsed when
first needed) and the translations' confirmation record."""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field
from pathlib import Path

from ..memo import Memo
from ..problems import Problems
from .config import Site, load_site
from .confirmed import Record, load_record, record_path
from .content import Article, drop_drafts, load_articles
from .figures import FigureFile, scan_figures
from .sections import SectionRecords, SectionStates, load_records
from .sourcefiles import read_bytes
from .symlinks import check_symlinks
from .texts import Dictionary, load_dictionary


@dataclass
class Sources:
    """Everything a build reads, loaded and checked (figure specs are parsed on demand)."""

    site: Site
    articles: list[Article]
    figures: dict[str, FigureFile]
    dictionary: Dictionary
    strings: Dictionary
    templates: dict[str, str]   # name -> text, for every UTF-8 file in templates/
    confirmed: Record           # the translations' confirmation record (confirmed.py)
    # what each article's translated sections were confirmed against (load/sections.py)
    section_records: SectionRecords = field(default_factory=dict)
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)

    @functools.cached_property
    def sections(self) -> SectionStates:
        """The state of every article's translated sections."""
        return SectionStates(self.site, self.articles, self.section_records, self.memo)


def load_sources(root: Path, problems: Problems, memo: Memo | None = None,
                 drafts: bool = False) -> Sources:
    """Load every source. Problems are collected; BuildError is raised here only when
    something the later stages cannot do without is unusable, so that rendering can
    still find and report the rest. `memo` spares parsing files already parsed by an
    earlier build. Draft sources are left out unless `drafts`."""
    memo = memo or Memo()
    check_symlinks(root, problems)
    site = load_site(root, problems)
    if site is None:   # nothing else can be read without the languages
        problems.raise_if_any()
    assert site is not None
    fallback = {"in_progress": site.in_progress, "fallback": site.source_language}
    dictionary = load_dictionary(root / "figures" / "figure-texts.json", site.codes, problems,
                                 **fallback)
    strings = load_dictionary(root / "templates" / "strings.yaml", site.codes, problems,
                              what="interface strings", **fallback)
    templates = load_templates(root / "templates", problems)
    figures = scan_figures(root, problems)
    articles = load_articles(site, problems, memo)
    if not drafts:
        articles = drop_drafts(articles)
    if dictionary is None or strings is None:
        problems.raise_if_any()
    assert dictionary is not None and strings is not None
    confirmed = load_record(record_path(dictionary), site.codes, problems)
    section_records = load_records(articles, site.codes, problems)
    return Sources(site, articles, figures, dictionary, strings, templates, confirmed,
                   section_records, memo)


def load_templates(folder: Path, problems: Problems) -> dict[str, str]:
    """Every text file under templates/ by name: what Jinja renders from, and what the
    cache keys on (a file that is not UTF-8 cannot be a template, and is left out)."""
    texts = {}
    for path in sorted(folder.rglob("*")):
        data = read_bytes(path, problems) if path.is_file() else None
        with contextlib.suppress(UnicodeDecodeError):
            if data is not None:
                texts[path.relative_to(folder).as_posix()] = data.decode("utf-8")
    return texts
