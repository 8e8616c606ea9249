"""The check stage's marks of a body that name what is not there, or can only be a
mistake, found on the outlines (never while rendering): a figure placed that no spec
defines, a citation of no entry of the bibliography, and what the parse found
(markdown.parse_problems: a `##` heading without an id, a directive no rule knows…)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..load.content import Article
from ..problems import Problems

if TYPE_CHECKING:
    from ..load.config import Site
    from ..render.markdown import Outline


def check_marks(site: Site, figures: dict, articles: list[Article],
                outlines: dict[str, Outline], problems: Problems) -> None:
    """Every source's marks (`figures`: the figure files, by id; `outlines`: by source
    digest, a source without one could not be read, and was reported)."""
    known = ", ".join(sorted(figures)) or "none"
    for article in articles:
        references = {ref.id for ref in article.references}
        for language, source in article.sources.items():
            outline = outlines.get(source.digest)
            if outline is None:
                continue
            for line, message in outline.problems:
                problems.add(source.path, line, message, language=language)
            for figure_id, line, _ in outline.figures:
                if figure_id and figure_id not in figures and not \
                        (site.root / "figures" / f"{figure_id}.yaml").is_file():
                    # (a file there was refused, unreadable or badly named: reported)
                    problems.add(source.path, line, f"unknown figure '{figure_id}' "
                                 f"(figures: {known})", key=figure_id, language=language)
            for ref, line, _ in outline.citations:
                if ref not in references:
                    problems.add(source.path, line, f"citation '@{ref}' has no entry in "
                                 "the bibliography (references.yaml)", language=language)
