"""Everything a build reads, loaded: the site config, the articles, the figure-text
dictionary, the interface strings, the templates, the figure spec files (each parsed when
first needed) and the translations' confirmation record."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..memo import Memo
from ..problems import Problems
from .config import Site, load_site
from .confirmed import Record, load_record, record_path
from .content import Article, drop_drafts, load_articles
from .figures import FigureFile, scan_figures
from .sections import SectionRecords, SectionStates, load_records
from .symlinks import check_symlinks
from .texts import Dictionary
from .theme import Templates, load_figure_texts, load_strings, load_templates


@dataclass
class Sources:
    """Everything a build reads, loaded and checked (figure specs are parsed on demand)."""

    site: Site
    articles: list[Article]
    figures: dict[str, FigureFile]
    dictionary: Dictionary
    strings: Dictionary
    templates: Templates        # name -> text: the theme's files and the project's overrides
    confirmed: Record           # the translations' confirmation record (confirmed.py)
    # what each article's translated sections were confirmed against (load/sections.py)
    section_records: SectionRecords = field(default_factory=dict)
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)

    @functools.cached_property
    def sections(self) -> SectionStates:
        """The state of every article's translated sections."""
        return SectionStates(self.site, self.articles, self.section_records, self.memo)


def load_sources(root: Path, problems: Problems, memo: Memo | None = None,
                 drafts: bool = False,
                 meanwhile: Callable[[Templates], None] | None = None) -> Sources:
    """Load every source. Problems are collected; BuildError is raised here only when
    something the later stages cannot do without is unusable, so that rendering can
    still find and report the rest. `memo` spares parsing files already parsed by an
    earlier build. Draft sources are left out unless `drafts`. `meanwhile(templates)`
    is done while the articles are read over the cores (load_articles)."""
    memo = memo or Memo()
    check_symlinks(root, problems)
    site = load_site(root, problems)
    if site is None:   # nothing else can be read without the languages
        problems.raise_if_any()
    assert site is not None
    fallback = {"in_progress": site.in_progress, "fallback": site.source_language}
    dictionary = load_figure_texts(root, site.codes, problems, **fallback)
    strings = load_strings(root, site.codes, problems, **fallback)
    templates = load_templates(root, problems)
    figures = scan_figures(root, problems, memo.trusted)
    articles = load_articles(site, problems, memo, None if meanwhile is None else
                             functools.partial(meanwhile, templates))
    if not drafts:
        articles = drop_drafts(articles)
    if dictionary is None or strings is None:
        problems.raise_if_any()
    assert dictionary is not None and strings is not None
    confirmed = load_record(record_path(dictionary), site.codes, problems)
    section_records = load_records(articles, site.codes, problems)
    return Sources(site, articles, figures, dictionary, strings, templates, confirmed,
                   section_records, memo)

