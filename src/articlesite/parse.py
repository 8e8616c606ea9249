"""The parse stage of a large build: when the memo has no outline of enough sources to
spread them over the cores, the forked workers parse them, an article at a time, and
make of each one's single parse its outline, its sections and its body (what its page
shows between the template's parts). The memo keeps the outlines and sections (the
check stage and the section tracking find them there), the cache the bodies (the render
stage puts them in their pages, planned with the page keys worked out from the sections
now known). Fewer sources are parsed by the check stage in this process, which hands
their tokens on to rendering (load/outlines.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import parallel
from .cache import Cache, KeptBody, StoredCopy, body_key, copy_key, render_key
from .check.marks import spec_links
from .load.content import Article
from .load.outlines import outline_plain
from .load.sections import sections_in
from .load.sourcefiles import CHANGED, SourceChanged
from .load.sources import Sources
from .memo import LINKS, OUTLINE, SECTIONS, SPEC
from .problems import Problem, Problems
from .translate.view import figure_copy

if TYPE_CHECKING:
    from .render.templates import Renderer


@dataclass
class Parsed:
    """What a worker made of one article's sources not parsed before."""

    outlines: dict[str, tuple] = field(default_factory=dict)    # plain, by source digest
    sections: dict[str, list] = field(default_factory=dict)     # by source digest
    changed: list[tuple[Path, str]] = field(default_factory=list)  # changed since read
    bodies: dict[str, KeptBody] = field(default_factory=dict)   # by body_key
    copies: dict[str, StoredCopy] = field(default_factory=dict)  # by copy_key
    specs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # clean, by digest
    links: dict[str, list] = field(default_factory=dict)   # check/marks.py's, by digest
    problems: list[Problem] = field(default_factory=list)


def parse_spread(sources: Sources, articles: list[Article], cache: Cache, problems: Problems,
                 make_renderer: Callable[[], Renderer],
                 parsed: dict[str, list] | None = None) -> None:
    """Parse the sources of `articles` the memo has no outline of (nor `parsed` tokens
    of) over the cores, with their bodies, when there are enough of them; else leave
    them to the check stage."""
    memo = cache.memo

    def new(source) -> bool:
        return memo.recall(OUTLINE, source.digest) is None and \
            not (parsed and source.digest in parsed)

    todo = [article for article in articles if any(map(new, article.sources.values()))]
    count = sum(new(source) for article in todo for source in article.sources.values())
    if parallel.in_process(count, len(todo)):
        return
    renderer = make_renderer()
    renderer.compile_templates()
    rendering = render_key(sources.site, sources.templates, sources.strings)

    def parse_article(article: Article) -> Parsed:
        return parse_one(article, [code for code, source in article.sources.items()
                                   if new(source)], sources, cache, renderer, rendering)

    for done in parallel.map_unordered(parse_article, todo, count):
        for path, language in done.changed:
            problems.add(path, None, CHANGED, language=language)
        for digest, plain in done.outlines.items():
            memo.keep(OUTLINE, digest, plain)
        for digest, found in done.sections.items():
            memo.keep(SECTIONS, digest, found)
        for key, kept in done.bodies.items():
            cache.keep_body(key, kept)
        for key, stored in done.copies.items():
            cache.keep_copy(key, stored)
        for spec, keys in done.specs.items():
            memo.keep(SPEC, spec, list(keys))
        for spec, links in done.links.items():
            memo.keep(LINKS, spec, links)
        problems.extend(done.problems)


def parse_one(article: Article, languages: list[str], sources: Sources, cache: Cache,
              renderer: Renderer, rendering: str) -> Parsed:
    """In a worker: these languages' sources of the article parsed, once each, into
    their outlines, sections and bodies (a body only when rendering it found no
    problem: then its page renders it again, to report them), and the node links of the
    figures they place (the check stage's: then it does not load their specs again)."""
    from .render import markdown  # markdown-it: only when a source is parsed

    done = Parsed()
    found = renderer.collect_problems()
    for language in languages:
        source = article.sources[language]
        try:
            text = source.body
        except SourceChanged:
            done.changed.append((source.path, language))
            continue
        tokens = renderer.parsed[source.digest] = markdown.parse(text)
        done.outlines[source.digest] = outline_plain(tokens, source.body_line)
        done.sections[source.digest] = sections_in(tokens, text, source.body_line)
        # Here, for the notices of the article's other languages (load/sections.py):
        cache.memo.keep(SECTIONS, source.digest, done.sections[source.digest])
    placed: set[str] = set()
    for language in languages:
        source = article.sources[language]
        if source.digest not in done.outlines:
            continue
        before = len(found)
        made = renderer.render_body(article, language,
                                    headings=done.outlines[source.digest][0])
        if made is None or len(found) > before:
            continue
        key = body_key(rendering, article.slug, language, source.digest,
                       article.references_digest,
                       sources.sections.notices(article.slug, language))
        done.bodies[key] = cache.store_body(made[0], sources.dictionary)
        placed.update(made[0].figures)
    done.copies = figure_copies(renderer, placed, sources, cache, rendering)
    for figure_id in placed:
        spec = renderer.figures.get(figure_id) if figure_id in renderer.figures else None
        if spec is not None:
            done.links[renderer.figures.files[figure_id].digest] = spec_links(spec)
    done.specs, renderer.figures.clean = renderer.figures.clean, {}
    renderer.sections = {}
    done.problems = list(found)
    return done


def figure_copies(renderer: Renderer, placed: set[str], sources: Sources, cache: Cache,
                  rendering: str) -> dict[str, StoredCopy]:
    """The translator's view's copies of the figures placed that the cache does not
    hold, stored, by copy_key (their specs are loaded now, for the pages placing them)."""
    copies = {}
    for figure_id in placed:
        file = sources.figures.get(figure_id)
        key = file and copy_key(rendering, file.digest)
        if key is None or cache.stored_copy(key) is not None:
            continue
        spec = renderer.figures.get(figure_id)
        if spec is not None:
            copies[key] = cache.store_copy(figure_copy(renderer, spec))
    return copies

