"""The check stage's marks of a body that name what is not there, or can only be a
mistake, found on the outlines (never while rendering): a figure placed that no spec
defines, a node of a figure placed that links to no section of the page, a citation of
no entry of the bibliography, and what the parse found (markdown.parse_problems: a `##`
heading without an id, a directive no rule knows…)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..load.content import Article
from ..load.figures import FigureLibrary
from ..memo import LINKS, Memo
from ..problems import Problems, did_you_mean, hint

if TYPE_CHECKING:
    from ..load.config import Site
    from ..render.markdown import Outline


def check_marks(site: Site, figures: FigureLibrary, articles: list[Article],
                outlines: dict[str, Outline], memo: Memo, problems: Problems) -> None:
    """Every source's marks (`outlines`: by source digest, a source without one could
    not be read, and was reported; the node links of each spec are loaded from
    `figures` unless the memo has them)."""
    known = ", ".join(sorted(figures.files)) or "none"
    for article in articles:
        references = {ref.id for ref in article.references}
        for language, source in article.sources.items():
            outline = outlines.get(source.digest)
            if outline is None:
                continue
            for line, message in outline.problems:
                problems.add(source.path, line, message, language=language)
            sections = {heading.id for heading in outline.sections if heading.id}
            for figure_id, line, _ in outline.figures:
                if figure_id in figures:
                    for node, link, at in node_links(figures, figure_id, memo):
                        if link not in sections:
                            problems.add(figures.files[figure_id].path, at,
                                         f"node '{node}' links to '#{link}', which is not a "
                                         f"section of {source.path.name} "
                                         f"({did_you_mean(link, sections)}sections: "
                                         f"{', '.join(sorted(sections)) or 'none'})", key=link,
                                         language=language)
                elif figure_id and not \
                        (site.root / "figures" / f"{figure_id}.yaml").is_file():
                    # (a file there was refused, unreadable or badly named: reported)
                    problems.add(source.path, line, f"unknown figure '{figure_id}' "
                                 f"({did_you_mean(figure_id, figures.files)}figures: {known})",
                                 key=figure_id, language=language)
            for ref, line, _ in outline.citations:
                if ref not in references:
                    problems.add(source.path, line, f"citation '@{ref}' has no entry in "
                                 "the bibliography (references.yaml)"
                                 f"{hint(did_you_mean(ref, references))}", language=language)


def node_links(figures: FigureLibrary, figure_id: str, memo: Memo) -> list[tuple]:
    """The nodes of a figure that link to a section: id, link, line (none if its spec
    has problems, reported by loading it)."""
    file = figures.files[figure_id]
    links = memo.recall(LINKS, file.digest)
    if links is None:
        spec = figures.get(figure_id)
        if spec is None:
            return []
        links = spec_links(spec)
        memo.keep(LINKS, file.digest, links)
    return links


def spec_links(spec) -> list[tuple]:
    """What the memo keeps of a loaded spec's node links (LINKS)."""
    return [(node.id, node.link, node.line) for node in spec.nodes if node.link]
