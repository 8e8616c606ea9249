"""The check stage's page ids: a section id is used once in its article, a figure is
placed once, no section id takes an id the page gives something else, and the `#id` of
a link names an id of the page it leads to. Worked out from the parsed sources (the
outlines loaded by load/outlines.py), never read back from the HTML.

The ids the templates give are declared once, in check/reserved.py.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from ..load.config import Site
from ..load.content import Article
from ..problems import Findings, Problems, did_you_mean, hint
from .reserved import PAGE_IDS

if TYPE_CHECKING:
    from ..render.markdown import Outline

# The `#id` of each link of a page to a page of the site: (page, id, line), the page an
# article's path ("en/other.html"), None for the page itself (links.PageReferences).
Fragments = list[tuple[str | None, str, int | None]]


def page_ids(site: Site, article: Article, outline: Outline) -> Counter:
    """Every id an article page gives besides its headings', with how often."""
    ids = Counter(name for name, shown in PAGE_IDS.items() if shown(site, article, outline))
    for figure_id, _, _ in outline.figures:
        ids.update((f"figure-{figure_id}", f"figure-{figure_id}-title",
                    f"figure-{figure_id}-fit"))
    references = {ref.id for ref in article.references}
    ids.update(f"ref-{ref}" for ref in references)
    cited: Counter = Counter()
    for ref, _, _ in outline.citations:
        if ref in references:   # a citation of no entry is a problem, and gets no id
            cited[ref] += 1
            ids[f"cite-{ref}-{cited[ref]}"] += 1
    ids.update(outline.ids)
    return ids


def check_outline(path: Path, language: str, outline: Outline, problems: Problems) -> None:
    """A section id once per article, a figure placed once."""
    seen: set[str] = set()
    for heading in outline.headings:
        if heading.id and heading.id in seen:
            problems.add(path, heading.line, f"section id '{heading.id}' is used twice",
                         key=heading.id, language=language)
        if heading.id:
            seen.add(heading.id)
    placed: set[str] = set()
    for figure_id, line, _ in outline.figures:
        if figure_id in placed:
            problems.add(path, line, f"figure '{figure_id}' is placed twice: a figure "
                         "appears once per article", key=figure_id, language=language)
        placed.add(figure_id)


def check_page_ids(path: Path, language: str, outline: Outline, taken: Counter,
                   problems: Problems) -> None:
    """A section id must not be one the page itself uses (`taken`: page_ids)."""
    for heading in outline.headings:
        if heading.id and taken[heading.id]:
            problems.add(path, heading.line, f"section id '{heading.id}' is already an id "
                         "of the page (its table of contents, references or a figure): "
                         "choose another", key=heading.id, language=language)


def check_pages(site: Site, articles: list[Article], outlines: dict[str, Outline],
                problems: Problems) -> None:
    """The check stage for every article page (`outlines`: by source digest; a source
    without one could not be read, and was reported)."""
    for article in articles:
        for language, source in article.sources.items():
            outline = outlines.get(source.digest)
            if outline is None:
                continue
            check_outline(source.path, language, outline, problems)
            check_page_ids(source.path, language, outline,
                           page_ids(site, article, outline), problems)


def ids_of_page(site: Site, article: Article, outline: Outline) -> set[str]:
    """Every id of an article page: its headings' and the others (page_ids)."""
    return {h.id for h in outline.headings if h.id} | set(page_ids(site, article, outline))


def check_fragments(site: Site, articles: list[Article], outlines: dict[str, Outline],
                    fragments: dict[tuple[str, str], Fragments], findings: Findings) -> None:
    """`check`: the `#id` of each link names an id of the page it leads to (`fragments`:
    of each article page, by slug and language). A page whose source has no outline
    could not be read, and was reported."""
    by_slug = {article.slug: article for article in articles}
    known: dict[tuple[str, str], set[str] | None] = {}

    def ids_at(slug: str, language: str) -> set[str] | None:
        if (slug, language) not in known:
            article = by_slug[slug]
            outline = outlines.get(article.sources[language].digest)
            known[slug, language] = None if outline is None else \
                ids_of_page(site, article, outline)
        return known[slug, language]

    for (slug, language), found in fragments.items():
        path = by_slug[slug].sources[language].path
        for page, fragment, line in found:
            if page is None:
                ids = ids_at(slug, language)
                message = (f"link to '#{fragment}': this page has no such id "
                           f"({did_you_mean(fragment, ids or ())}section ids are written "
                           "{#id})")
            else:
                language_of, slug_of = page.removesuffix(".html").split("/")
                ids = ids_at(slug_of, language_of)
                message = (f"link to '../{slug_of}/#{fragment}': the article's page in "
                           f"'{language_of}' has no such id"
                           f"{hint(did_you_mean(fragment, ids or ()))}")
            if ids is not None and fragment not in ids:
                findings.add(path, line, message, language=language, check="links")
