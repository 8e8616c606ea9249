"""The bibliography's state: entries awaiting the author's confirmation, entries no
language cites."""

from __future__ import annotations

from ..load.content import Article
from ..problems import Findings
from ..render.markdown import Outline


def check_bibliography(article: Article, outlines: dict[str, Outline],
                       findings: Findings) -> None:
    """Unconfirmed entries are warnings (they are published, marked as such); an entry no
    language cites is a problem."""
    if article.references_path is None:
        return
    cited = {ref for outline in outlines.values() for ref, _, _ in outline.citations}
    for ref in article.references:
        if ref.unconfirmed:
            findings.add(article.references_path, ref.line, "marked unconfirmed: awaiting the "
                         "author's confirmation", key=ref.id, check="bibliography",
                         warning=True)
        if ref.id not in cited:
            findings.add(article.references_path, ref.line, "no language cites this entry",
                         key=ref.id, check="bibliography")
