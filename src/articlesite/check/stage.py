"""The check stage that `build` and `check` both run, on the parsed sources: each
source's outline (parsed once, load/outlines.py), the ids and links of every page
(check/ids.py), the figures and citations it names and what its parse found to be a
mistake (check/marks.py), and what would reach readers as literal markup (warnings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..load.numbering import heading_text, own_numbers
from ..load.outlines import literal_markup, load_outlines
from ..memo import Memo
from ..problems import Problems
from .ids import check_pages
from .marks import check_marks

if TYPE_CHECKING:
    from ..load.config import Site
    from ..load.content import Article
    from ..load.figures import FigureLibrary
    from ..render.markdown import Outline


def check_sources(site: Site, figures: FigureLibrary, articles: list[Article],
                  memo: Memo, problems: Problems, warn: Callable[..., None],
                  parsed: dict[str, list] | None = None) -> dict[str, Outline]:
    """Check these articles: problems go to `problems`, what readers would see as
    literal markup to `warn(path, line, message, language=…)`; `figures`: the specs, a
    spec loaded when the memo lacks its node links. The outlines, by source digest; the
    tokens parsed in this process go to `parsed` (load_outlines)."""
    outlines = load_outlines(articles, memo, problems, parsed)
    check_pages(site, articles, outlines, problems)
    check_marks(site, figures, articles, outlines, memo, problems)
    literal_markup(articles, outlines, warn, site.admonitions)
    return outlines


def numbering_notes(site: Site, articles: list[Article],
                    outlines: dict[str, Outline], problems: Problems) -> list[str]:
    """One note per article whose `##` headings carry their own numbers, so that the page
    adds none (load/numbering.py), unless its front matter says which it wants."""
    notes = []
    for article in articles:
        for source in article.sources.values():
            outline = outlines.get(source.digest)
            if outline is None or source.meta.numbering is not None or not site.numbering:
                continue
            titles = [heading_text(str(h.html)) for h in outline.sections]
            if own_numbers(titles):
                where = problems.relative(source.path)
                notes.append(f"note: {where}: every '##' heading starts with its own number "
                             f"('{titles[0].strip()}'…), so the page adds none; "
                             "`numbering: true` or `false` in its front matter says which "
                             "you want and silences this note")
                break
    return notes
