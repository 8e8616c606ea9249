"""The outline of each article source (render/markdown.py: headings with their ids and
lines, figures placed, citations, display formulas, the ids its markup gives): what the
check stage works on. Parsed once per source digest: the cache's memo keeps them."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from .. import parallel
from ..cache import OUTLINE
from ..problems import Problems
from .sourcefiles import CHANGED, Memo, SourceChanged

if TYPE_CHECKING:
    from ..render.markdown import Outline
    from .content import Article, Source


def load_outlines(articles: list[Article], memo: Memo, problems: Problems,
                  parsed: dict[str, list] | None = None) -> dict[str, Outline]:
    """The outline of every source of `articles`, by its digest. A source changed since it
    was read is a problem, and has none. The tokens of each source parsed now go to
    `parsed`, if given, by digest (`check` looks at them again); without it, many
    sources are parsed over the cores (their tokens are not kept: rendering, in the
    workers, parses them again); a source whose tokens `parsed` has already is not parsed
    again."""
    from ..render import markdown  # markdown-it: only when a source is parsed
    from ..render.markdown_rules.literal import shown_as_text

    outlines: dict[str, Outline] = {}
    unknown: dict[str, tuple[str, Source]] = {}   # digest -> language, source
    for article in articles:
        for language, source in article.sources.items():
            if source.digest in outlines or source.digest in unknown:
                continue
            plain = memo.recall(OUTLINE, source.digest)
            if plain is not None:
                outlines[source.digest] = markdown.Outline.from_plain(plain)
            else:
                unknown[source.digest] = language, source

    def outline_of(item: tuple[str, tuple[str, Source]]) -> tuple[str, str, tuple | None]:
        digest, (language, source) = item
        tokens = parsed.get(digest) if parsed is not None else None
        if tokens is None:
            try:
                tokens = markdown.parse(source.body)
            except SourceChanged:
                return digest, language, None
            if parsed is not None:
                parsed[digest] = tokens
        outline = markdown.outline(tokens, source.body_line)
        outline.shown_as_text = shown_as_text(tokens, source.body_line)
        return digest, language, outline.plain()

    items = list(unknown.items())
    found = map(outline_of, items) if parsed is not None else \
        parallel.map_unordered(outline_of, items, len(items))
    for digest, language, plain in found:
        if plain is None:
            problems.add(unknown[digest][1].path, None, CHANGED, language=language)
            continue
        memo.keep(OUTLINE, digest, plain)
        outlines[digest] = markdown.Outline.from_plain(plain)
    return outlines


def literal_markup(articles: list[Article], outlines: dict[str, Outline],
                   add: Callable[..., None], declared: Collection[str] = ()) -> None:
    """`add(path, line, message, language=…)` what these articles' sources hold that a
    reader will see as literal markup, or that is shown otherwise than its tool would,
    though the build goes on: a raw HTML tag, a `!!!` line no rule took, an admonition
    kind neither known nor `declared` in site.yaml… (the build names them as warnings,
    `check` under markup)."""
    for article in articles:
        for language, source in article.sources.items():
            outline = outlines.get(source.digest)
            for line, message, *kind in outline.shown_as_text if outline else ():
                if not (kind and kind[0] in declared):
                    add(source.path, line, message, language=language)
