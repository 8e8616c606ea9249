"""The outline of each article source (render/markdown.py: headings with their ids and
lines, figures placed, citations, display formulas, the ids its markup gives): what the
check stage works on. Parsed once per source digest: the cache's memo keeps them."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from .. import parallel
from ..memo import OUTLINE, SECTIONS, Memo
from ..problems import Problems
from .sections import sections_in
from .sourcefiles import CHANGED, SourceChanged

if TYPE_CHECKING:
    from ..render.markdown import Outline
    from .content import Article, Source


def load_outlines(articles: list[Article], memo: Memo, problems: Problems,
                  parsed: dict[str, list] | None = None,
                  spread: bool = False) -> dict[str, Outline]:
    """The outline of every source of `articles`, by its digest, and its sections (which
    the memo keeps: load/sections.py finds them there, not parsed again). A source
    changed since it was read is a problem, and has none. The tokens of each source
    parsed now go to `parsed`, if given, by digest (rendering and `check` take them from
    there); a source whose tokens `parsed` has already is not parsed again. With
    `spread`, many sources are parsed over the cores: their tokens stay in the workers,
    and rendering parses those sources again."""
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

    items = list(unknown.items())
    here = not spread or parallel.in_process(len(items), len(items))
    keep = parsed if here else None   # a worker's tokens would only fill its memory

    def outline_of(item: tuple[str, tuple[str, Source]]) -> tuple[str, str, tuple | None,
                                                                   list | None]:
        digest, (language, source) = item
        tokens = parsed.get(digest) if parsed is not None else None
        sections = None   # parsed before (build.reload_sources): the memo has them
        if tokens is None:
            try:
                body = source.body
            except SourceChanged:
                return digest, language, None, None
            tokens = markdown.parse(body)
            sections = sections_in(tokens, body, source.body_line)
            if keep is not None:
                keep[digest] = tokens
        outline = markdown.outline(tokens, source.body_line)
        outline.shown_as_text = shown_as_text(tokens, source.body_line)
        return digest, language, outline.plain(), sections

    found = map(outline_of, items) if here else \
        parallel.map_unordered(outline_of, items, len(items))
    for digest, language, plain, sections in found:
        if plain is None:
            problems.add(unknown[digest][1].path, None, CHANGED, language=language)
            continue
        memo.keep(OUTLINE, digest, plain)
        if sections is not None:
            memo.keep(SECTIONS, digest, sections)
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
