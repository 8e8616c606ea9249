"""The outline of each article source (render/markdown.py: headings with their ids and
lines, figures placed, citations, display formulas, the ids its markup gives): what the
check stage works on. Parsed once per source digest: the cache's memo keeps them."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from ..memo import OUTLINE, SECTIONS, Memo
from ..problems import Problems
from .sections import sections_in
from .sourcefiles import CHANGED, SourceChanged

if TYPE_CHECKING:
    from ..render.markdown import Outline
    from .content import Article, Source


def load_outlines(articles: list[Article], memo: Memo, problems: Problems,
                  parsed: dict[str, list] | None = None) -> dict[str, Outline]:
    """The outline of every source of `articles`, by its digest, and its sections (which
    the memo keeps: load/sections.py finds them there, not parsed again). A source
    changed since it was read is a problem, and has none. The tokens of each source
    parsed now go to `parsed`, if given, by digest (rendering and `check` take them from
    there); a source whose tokens `parsed` has already is not parsed again. (A build
    with many sources to parse parses them over the cores first: parse.py.)"""
    from ..render import markdown  # markdown-it: only when a source is parsed

    outlines: dict[str, Outline] = {}
    for article in articles:
        for language, source in article.sources.items():
            if source.digest in outlines:
                continue
            plain = memo.recall(OUTLINE, source.digest)
            if plain is None:
                plain = parse_outline(source, memo, parsed)
                if plain is None:
                    problems.add(source.path, None, CHANGED, language=language)
                    continue
                memo.keep(OUTLINE, source.digest, plain)
            outlines[source.digest] = markdown.Outline.from_plain(plain)
    return outlines


def parse_outline(source: Source, memo: Memo, parsed: dict[str, list] | None) -> tuple | None:
    """A source's outline in plain values, from its tokens in `parsed` or parsed now
    (then its tokens go to `parsed` and its sections to the memo); None if the source
    changed since it was read."""
    from ..render import markdown

    tokens = parsed.get(source.digest) if parsed is not None else None
    if tokens is None:   # (else parsed before, build.reload_sources: the memo has them)
        try:
            body = source.body
        except SourceChanged:
            return None
        tokens = markdown.parse(body)
        memo.keep(SECTIONS, source.digest, sections_in(tokens, body, source.body_line))
        if parsed is not None:
            parsed[source.digest] = tokens
    return outline_plain(tokens, source.body_line)


def outline_plain(tokens: list, first_line: int) -> tuple:
    """The outline of a body parsed by markdown.parse, as the memo keeps it."""
    from ..render import markdown
    from ..render.markdown_rules.literal import find_literal_markup, shown_as_text

    outline = markdown.outline(tokens, first_line)
    literals = find_literal_markup(tokens, first_line)   # for both: the longest look
    outline.shown_as_text = shown_as_text(literals)
    outline.problems = markdown.parse_problems(tokens, first_line, literals)
    return outline.plain()


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
