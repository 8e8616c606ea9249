"""The parse stage of a large build: when the memo has no outline of enough sources to
spread them over the cores, the forked workers parse them, an article at a time, and
make of each one's single parse its outline, its sections and its body (what its page
shows between the template's parts). The memo keeps the outlines and sections (the
check stage and the section tracking find them there). In a full build each body is
put in its page there and then, and the page stored: the render stage takes the page's
entry when its key is the one it plans (plan.plan_pages); the memo keeps where the
body is in the page's file. Otherwise (a quick rebuild in serve with many new sources)
the bodies are stored on their own, and the render stage puts them in their pages.
Fewer sources are parsed by the check stage in this process, which hands their tokens
on to rendering (load/outlines.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import parallel
from .cache import (
    Cache,
    Entry,
    KeptBody,
    PageKeys,
    Store,
    StoredCopy,
    article_key,
    body_key,
    copy_key,
    render_key,
    texts_digest,
)
from .check.marks import spec_links
from .load import markup
from .load.content import Article
from .load.outlines import outline_plain
from .load.sections import sections_in
from .load.sourcefiles import CHANGED, SourceChanged
from .load.sources import Sources
from .load.texts import Dictionary
from .memo import LINKS, OUTLINE, SECTIONS, SPEC
from .pages import Page, PageJob, site_pages
from .plan import listings_key, site_page_key
from .problems import Problem, Problems
from .search import given_digest
from .translate.view import Parts, figure_copy

if TYPE_CHECKING:
    from .pages import Body
    from .render.templates import Renderer


@dataclass
class Parsed:
    """What a worker made of one article's sources not parsed before: what the build's
    memo is to keep (outlines, sections, bodies, figure copies, clean specs and their node
    links: see parse_one), by memo key, already checked there (Memo.keep)."""

    kept: dict[str, Any] = field(default_factory=dict)
    pages: dict[str, Entry] = field(default_factory=dict)   # article pages rendered
    changed: list[tuple[Path, str]] = field(default_factory=list)  # changed since read
    # dictionary texts made into HTML here (load/markup.py: the view shows them all)
    texts: dict[tuple[str, str | None], str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # The translator's view's table of the article's sections (translate/view.py), by
    # slug: made here, beside the article, rather than by the view after every article.
    sections: dict[str, str] = field(default_factory=dict)


def parse_spread(sources: Sources, articles: list[Article], cache: Cache, problems: Problems,
                 make_renderer: Callable[[], Renderer],
                 parsed: dict[str, list] | None = None, keys: PageKeys | None = None,
                 pages: dict[str, Entry] | None = None,
                 view: dict[str, str] | None = None) -> None:
    """Parse the sources of `articles` the memo has no outline of (nor `parsed` tokens
    of) over the cores, with their bodies, when there are enough of them; else leave
    them to the check stage. With `keys` (a full build), each body is put in its page
    there and then, stored, and the page's entry added to `pages` (the render stage
    takes it, by its key: plan.plan_pages); else the bodies are stored on their own.
    With `view`, each article's table of sections for the translator's view is made
    too, and added to it by slug (translate.view.translator_view takes them)."""
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
    markup.forget_shared()
    # A full build's other pages too, after the articles: they list the articles
    # (loaded) or show none, and the workers render them beside the last articles
    # rather than this process after all of them.
    others = [job for job in site_pages(sources.site, sources.articles)
              if job.slug is None] if keys is not None and pages is not None else []
    listings = listings_key(sources) if others else ""

    def parse_item(item: Article | PageJob) -> Parsed:
        if isinstance(item, PageJob):
            assert keys is not None
            return render_site_page(item, sources, cache, renderer, keys, listings)
        done = parse_one(item, [code for code, source in item.sources.items()
                                if new(source)], sources, cache, renderer, rendering, keys)
        if view is not None and not done.changed:
            sections = view_sections(item, sources, renderer)
            if sections is not None:
                done.sections[item.slug] = sections
        return done

    for done in parallel.map_unordered(parse_item, [*todo, *others], count):
        for path, language in done.changed:
            problems.add(path, None, CHANGED, language=language)
        memo.take(done.kept)
        markup.share_texts(done.texts)
        problems.extend(done.problems)
        if pages is not None:
            pages.update(done.pages)
        if view is not None:
            view.update(done.sections)


def parse_one(article: Article, languages: list[str], sources: Sources, cache: Cache,
              renderer: Renderer, rendering: str, keys: PageKeys | None = None) -> Parsed:
    """In a worker: these languages' sources of the article parsed, once each, into
    their outlines, sections and bodies (a body only when rendering it found no
    problem: then its page renders it again, to report them), and the node links of the
    figures they place (the check stage's: then it does not load their specs again),
    kept in the worker's memo: what it kept of them goes back (Parsed.kept). With
    `keys`, each body's page too (put_in_page)."""
    from .render import markdown  # markdown-it: only when a source is parsed

    done, memo = Parsed(), cache.memo
    markup.record_texts()
    first = len(memo.kept)   # what the memo keeps from here on is this article's
    found = renderer.collect_problems()
    outlines = {}
    for language in languages:
        source = article.sources[language]
        try:
            text = source.body
        except SourceChanged:
            done.changed.append((source.path, language))
            continue
        tokens = renderer.parsed[source.digest] = markdown.parse(text)
        outlines[source.digest] = outline_plain(tokens, source.body_line)
        memo.keep(OUTLINE, source.digest, outlines[source.digest])
        # (Here also for the notices of the article's other languages: load/sections.py;
        # rendering the body below takes them, not finding them again)
        sections = renderer.sections[source.digest] = sections_in(tokens, text,
                                                                 source.body_line)
        memo.keep(SECTIONS, source.digest, sections)
    placed: set[str] = set()
    for language in languages:
        source = article.sources[language]
        if source.digest not in outlines:
            continue
        before = len(found)
        made = renderer.render_body(article, language, headings=outlines[source.digest][0])
        if made is None or len(found) > before:
            continue
        key = body_key(rendering, article.slug, language, source.digest,
                       article.references_digest,
                       sources.sections.notices(article.slug, language))
        kept = cache.store_body(made[0], sources.dictionary) if keys is None else \
            put_in_page(article, language, made[0], sources, cache, renderer, keys, done)
        if kept is not None:
            cache.keep_body(key, kept)
        placed.update(made[0].figures)
    for key, stored in figure_copies(renderer, placed, sources, cache, rendering).items():
        cache.keep_copy(key, stored)
    for figure_id in placed:
        spec = renderer.figures.get(figure_id) if figure_id in renderer.figures else None
        if spec is not None:
            memo.keep(LINKS, renderer.figures.files[figure_id].digest, spec_links(spec))
    for spec, texts in renderer.figures.clean.items():
        memo.keep(SPEC, spec, list(texts))
    renderer.figures.clean, renderer.sections = {}, {}
    done.kept = memo.kept_since(first)
    done.texts = markup.take_recorded()
    done.problems = list(found)
    return done


def view_sections(article: Article, sources: Sources, renderer: Renderer) -> str | None:
    """In a worker, once the article is parsed (its sections are in the memo here): the
    translator's view's table of its sections; None if the template failed (the view
    then makes it again, and reports why, once)."""
    found = renderer.collect_problems()   # (parse_one's are in its Parsed already)
    html = Parts(renderer, sources.site).sections(article.slug,
                                                  sources.sections.table(article.slug))
    return None if found else html


def render_site_page(job: PageJob, sources: Sources, cache: Cache, renderer: Renderer,
                     keys: PageKeys, listings: str) -> Parsed:
    """In a worker: a page that is no article's (an index, a feed, the root page…)
    rendered and stored, its entry in Parsed.pages with the key the plan gives it
    (plan.site_page_key), unless rendering it found a problem (then the render stage
    renders it again, to report it)."""
    done = Parsed()
    found = renderer.collect_problems()
    page = renderer.render(job)
    if not found:
        done.pages[page.path] = entry_of(page, site_page_key(job, sources, keys, listings),
                                         sources.dictionary, cache.store, sources.site.search)
    done.texts = markup.take_recorded()
    return done


def put_in_page(article: Article, language: str, body: Body, sources: Sources, cache: Cache,
                renderer: Renderer, keys: PageKeys, done: Parsed) -> KeptBody | None:
    """The body's page rendered and stored, its entry in `done.pages`, unless rendering
    it found a problem (then the render stage renders it again, to report it); what the
    memo keeps of the body, inside that page. A body is only ever read back out of its
    page (after an edit to the page's templates): the store holds no copy of its own."""
    found = len(renderer.problems)
    page = renderer.render(PageJob("article.html", language, article.slug), body)
    if len(renderer.problems) > found:
        return None
    source = article.sources[language]
    key = article_key(keys.page("article.html"), language, article.listing().without_counts(),
                      source.digest, article.references_digest,
                      sources.sections.notices(article.slug, language))
    entry = done.pages[page.path] = entry_of(page, key, sources.dictionary, cache.store,
                                             sources.site.search)
    return cache.body_in_page(body, page.html, entry, sources.dictionary)


def figure_copies(renderer: Renderer, placed: set[str], sources: Sources, cache: Cache,
                  rendering: str) -> dict[str, StoredCopy]:
    """The translator's view's copies of the figures placed that the cache does not
    hold, stored, by copy_key (their specs are loaded now, for the pages placing them)."""
    copies = {}
    for figure_id in placed:
        file = sources.figures.get(figure_id)
        key = file and copy_key(rendering, file.digest)
        if key is None or cache.holds_copy(key):
            continue
        spec = renderer.figures.get(figure_id)
        if spec is not None:
            copies[key] = cache.store_copy(figure_copy(renderer, spec))
    return copies


def entry_of(page: Page, key: str, dictionary: Dictionary, store: Store,
             search: bool = True, body: KeptBody | None = None) -> Entry:
    """Store a rendered page (with `search`, what the search index is given of it too);
    its cache entry. Without the index it records no search digest: the search setting
    is part of every page's key, so turning it on renders the pages again. The digest of
    the texts it shows is its `body`'s, when they are the same (an article page's)."""
    texts = tuple(sorted(page.texts))
    digest = body.texts_digest if body is not None and tuple(body.texts) == texts \
        else texts_digest(texts, dictionary)
    return Entry(key, tuple(sorted(page.figures.items())), texts, digest,
                 *store.put(page.html),
                 tuple(sorted(page.files.items())),
                 given_digest(page.html, store) if search else "")
