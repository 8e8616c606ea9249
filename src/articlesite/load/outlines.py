"""The outline of each article source (render/markdown.py: headings with their ids and
lines, figures placed, citations, display formulas, the ids its markup gives): what the
check stage works on. Parsed once per source digest: the cache's memo keeps them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cache import OUTLINE
from ..problems import Problems
from .sourcefiles import CHANGED, Memo, SourceChanged

if TYPE_CHECKING:
    from ..render.markdown import Outline
    from .content import Article


def load_outlines(articles: list[Article], memo: Memo, problems: Problems,
                  parsed: dict[str, list] | None = None) -> dict[str, Outline]:
    """The outline of every source of `articles`, by its digest. A source changed since it
    was read is a problem, and has none. The tokens of each source parsed now go to
    `parsed`, if given, by digest (`check` looks at them again)."""
    from ..render import markdown  # markdown-it: only when a source is parsed

    outlines: dict[str, Outline] = {}
    for article in articles:
        for language, source in article.sources.items():
            if source.digest in outlines:
                continue
            plain = memo.recall(OUTLINE, source.digest)
            if plain is not None:
                outlines[source.digest] = markdown.Outline.from_plain(plain)
                continue
            try:
                tokens = markdown.parse(source.body)
            except SourceChanged:
                problems.add(source.path, None, CHANGED, language=language)
                continue
            if parsed is not None:
                parsed[source.digest] = tokens
            outline = markdown.outline(tokens, source.body_line)
            memo.keep(OUTLINE, source.digest, outline.plain())
            outlines[source.digest] = outline
    return outlines
