"""The build, a list of stages: load the sources (or, after a change, only what changed
since the `previous` build) and their outlines; check them (check/ids.py); plan which
pages must be rendered (the cache, or the previous build, holds the others); render
those, over the cores when there are many, each page streamed to the cache's store as it
is done; then the translator's view, which links to the figures on those pages; check
the figure specs no page needed; then write:
assemble the new site in a fresh folder and swap it in place of site/, or, after a
change, replace only the pages that changed, each in one atomic rename.

There is one build: `serve` calls it after every save with the previous build and the
paths that changed, and it reuses what that build loaded and rendered.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from . import parallel
from .cache import (
    BODY,
    Cache,
    Entry,
    Store,
    StoredCopy,
    article_key,
    body_key,
    copy_key,
    index_key,
    listings_digest,
    render_key,
    texts_digest,
    view_key,
)
from .check.ids import check_pages
from .load.content import Article, load_source
from .load.figures import FigureFile, FigureLibrary
from .load.outlines import literal_markup, load_outlines
from .load.sourcefiles import Memo, SourceChanged
from .load.sources import Sources, load_sources
from .load.texts import Dictionary, load_dictionary
from .pages import Page, PageJob, site_pages
from .problems import Problem, Problems
from .render import assets
from .search import BUNDLE, given_digest, search_bundle
from .translate.sections import SECTIONS, parse_source
from .translate.view import PATH as VIEW
from .translate.view import (
    Links,
    figure_copy,
    figure_links,
    render_translator_view,
    view_copies,
)

if TYPE_CHECKING:
    from .render.templates import DrawnFigures, Renderer


@dataclass
class Plan:
    """Every page with its cache key; which the cache holds and which must be rendered."""

    keys: dict[PageJob, str]
    cached: dict[str, Entry]
    stale: list[PageJob]
    links: Links = field(default_factory=dict)   # the translator's view's: see plan_view
    # What bodies and figure copies depend on (cache.render_key); each article page's
    # body's key, and what the memo keeps of the bodies of stale pages that still hold.
    rendering: str = ""
    bodies: dict[PageJob, str] = field(default_factory=dict)
    reusable: dict[PageJob, tuple] = field(default_factory=dict)


@dataclass
class Rendered:
    pages: dict[str, Entry]
    specs: dict[str, tuple[str, ...]]   # digest of each clean spec loaded -> its keys
    copies: dict[str, StoredCopy] = field(default_factory=dict)  # the view's, by copy_key
    bodies: dict[str, tuple] = field(default_factory=dict)  # article bodies, by body_key
    sections: dict[str, list] = field(default_factory=dict)  # of the sources parsed, by digest

    def update(self, other: Rendered) -> None:
        self.pages.update(other.pages)
        self.specs.update(other.specs)
        self.copies.update(other.copies)
        self.bodies.update(other.bodies)
        self.sections.update(other.sections)


@dataclass
class Built:
    """What a build did, for its summary line, and what the next build can start from."""

    pages: int
    rendered: list[str]   # the paths of the pages rendered; the others came from the cache
    languages: int
    seconds: float
    sources: Sources | None = None   # what it built from (the next build with `previous`)
    figures: FigureLibrary | None = None  # the figure specs it parsed, for the next build
    drawn: DrawnFigures | None = None     # and what it made of them (render/templates.py)
    out: Path | None = None          # where it wrote the site
    incremental: bool = False        # built on top of `previous`, replacing changed pages
    files: int = 0   # files articles reference, published beside the pages (render/assets.py)
    warnings: list[Problem] = field(default_factory=list)   # what readers see as markup

    def summary(self, where: str = "") -> str:
        rendered = len(self.rendered)
        files = f" and {self.files} file{'s' if self.files != 1 else ''}" if self.files \
            else ""
        return (f"Built {self.pages} pages{files} in {self.languages} languages{where} in "
                f"{self.seconds:.2f} s ({rendered} rendered, {self.pages - rendered} "
                "unchanged)")


Written = Callable[[list[str] | None], None]


def build(root: Path, out: Path | None = None, *, clean: bool = False,
          progress: Callable[[int, int], None] | None = None,
          cache: Cache | None = None, written: Written | None = None,
          drafts: bool = False, previous: Built | None = None,
          changed: list[Path] | None = None,
          interrupt: Callable[[], bool] | None = None) -> Built:
    """Build the site under `root` into `out` (default root/site). Raises BuildError.

    `clean` ignores the cache (a full build); `progress(done, total)` follows rendering;
    `cache` is the cache to use, if not the one on disk under `root`; `written(paths)` is
    called as soon as pages are in place, before the cache is saved (serve reloads the
    open pages then), with the paths of the pages replaced (None: the whole site);
    `drafts` includes the sources whose front matter says `draft`.

    `previous` is the last good build of this process with `cache` (saved by it) and
    `changed` the source files saved since: only those are read again, and the pages
    that did not read them are neither planned nor checked again.

    `interrupt()` is asked while the search index is made (the longest step, after the
    pages are in place): when it is true the build raises Interrupted, without putting
    the index in place or saving the cache (serve then builds again: a newer save waits).
    """
    started = time.perf_counter()
    root = root.resolve()
    out = (out or root / "site").resolve()
    problems = Problems(root)
    cache = cache or Cache(root, clean=clean)
    base = previous if previous is not None and previous.out == out and not clean else None
    # A quick rebuild parses only the sources edited: their tokens (by digest) are handed
    # on to the check stage and rendering, not parsed again.
    parsed: dict[str, list] | None = {}
    sources = reload_sources(base.sources, changed, cache, drafts, parsed) \
        if base and changed and base.sources else None
    if sources is None:
        base, parsed = None, None
        sources = load_sources(root, problems, cache.memo, drafts=drafts)
    delta = compare(base.sources, sources) if base is not None else None
    # The check stage, on the parsed sources: what it finds is listed with what rendering
    # finds, at once. A quick rebuild checks the articles it edited (what the others' check
    # reads, the site, the article and its outline, is what passed last time).
    checked = sources.articles if delta is None else delta.articles
    outlines = load_outlines(checked, cache.memo, problems, parsed)
    check_pages(sources.site, checked, outlines, problems)
    warnings = Problems(root)   # printed after the summary: the build goes on
    literal_markup(checked, outlines, warnings.add, sources.site.admonitions)
    # The figure specs the previous build parsed hold while the specs and the dictionary
    # they were checked against are the same; so does what it drew of them (a delta
    # means the templates are the same too).
    library = base.figures if delta is not None and not delta.dictionary_changed else None
    drawn = base.drawn if library is not None else None
    make_renderer = functools.cache(functools.partial(renderer_for, sources, problems,
                                                      library=library, drawn=drawn,
                                                      store=cache.store, parsed=parsed))
    jobs = page_jobs(sources, cache, delta)
    plan = Plan({}, {}, [], rendering=render_key(sources.site, sources.templates,
                                                  sources.strings))
    if delta is not None:   # the pages not planned keep their entries
        planned = {job.path for job in jobs}
        plan.cached = {path: entry for path, entry in cache.pages.items()
                       if path not in planned and path != VIEW}
    # On top of a previous build (serve), the edited articles' pages are planned, rendered
    # and put in place first, then the indexes and feeds that list them: the page an
    # author is looking at reloads without waiting for an index of a thousand articles.
    phases = [jobs] if base is None else \
        [[job for job in jobs if job.slug], [job for job in jobs if not job.slug]]
    rendered, replace = Rendered({}, {}), base is not None
    for phase in phases:
        stale = len(plan.stale)
        plan_pages(sources, cache, phase, plan)
        part = render_pages(plan, plan.stale[stale:], make_renderer, sources, cache,
                            problems, progress)
        rendered.update(part)
        # Replace pages one at a time only where site/ is what the previous build left.
        replace = replace and all((out / path).is_file() for path in part.pages)
        if replace and not problems:
            place_pages(out, part.pages, cache.store, written)
    for key, stored in rendered.copies.items():
        cache.keep_copy(key, stored)
    for key, kept in rendered.bodies.items():
        cache.memo.keep(BODY, key, kept)
    for source, sections in rendered.sections.items():
        cache.memo.keep(SECTIONS, source, sections)
    pages = plan.cached | rendered.pages
    view = plan_view(sources, pages, cache, delta, plan)
    rendered_view = render_view(sources, view, make_renderer, cache, problems,
                                plan.rendering)
    for spec, keys in (rendered.specs | rendered_view.specs).items():
        cache.memo.keep("spec", spec, list(keys))
    if delta is None or (delta.dictionary_changed and not same_keys(base, sources)):
        check_figures(sources.figures, sources.dictionary, cache.memo, problems)
    problems.raise_if_any()
    pages = {path: entry for path, entry in (pages | view.cached | rendered_view.pages).items()
             if not assets.is_published_file(path)}
    files = assets.store_entries(pages, cache.pages, cache.store, root, problems)
    problems.raise_if_any()
    pages |= files
    # The search index, made from the finished pages (search.py).
    pages = {path: entry for path, entry in pages.items() if not path.startswith(f"{BUNDLE}/")}
    bundle = search_bundle(pages, cache.store, cache.pages, problems, root,
                           sources.site.codes, interrupt) \
        if sources.site.search else {}
    problems.raise_if_any()
    pages |= bundle
    same_files = files == {path: entry for path, entry in cache.pages.items()
                           if assets.is_published_file(path)}
    if replace and same_files:
        place_pages(out, rendered_view.pages, cache.store, written)
        place_bundle(out, {path: entry for path, entry in cache.pages.items()
                           if path.startswith(f"{BUNDLE}/")}, bundle, cache.store)
    else:
        write_site(pages, cache.store, out)
        if written is not None:
            written(None)
    if base is not None:
        cache.memo.kept.update(cache.memo.known)  # what was not read again still holds
    cache.save(pages, sources.dictionary)
    if rendered.pages or rendered_view.pages:
        library, drawn = make_renderer().figures, make_renderer().drawn
    return Built(len(pages) - len(files) - len(bundle),
                 sorted(rendered.pages | rendered_view.pages), len(sources.site.codes),
                 time.perf_counter() - started, sources,
                 library, drawn, out, replace and same_files, len(files),
                 sorted(warnings, key=lambda warning: (warning.file, warning.line or 0)))


def warm_up(built: Built) -> None:
    """Render one article's pages in this process, and let them go. A full build renders
    in forked workers; serve's first quick rebuild, in this process, would otherwise also
    pay for what they loaded: the templates compiled, each language's locale data, the
    parser. (At N=200 the first edit's page was in place after 238 ms, now 90 ms, most
    of it loading the edited article's figure specs.)"""
    if built.sources is None or not built.sources.articles:
        return
    sources, article = built.sources, built.sources.articles[0]
    # Its own figure library: what it loads is not handed to the next build.
    renderer = renderer_for(sources, Problems(sources.site.root), drawn=built.drawn)
    for language in article.sources:
        with contextlib.suppress(SourceChanged):   # saved since: the next build sees it
            renderer.render(PageJob("article.html", language, article.slug))


def reload_sources(sources: Sources, changed: list[Path], cache: Cache,
                   drafts: bool, parsed: dict[str, list]) -> Sources | None:
    """The previous build's sources with the `changed` files read again, when these are
    article sources the site already has, or the dictionary; None when anything else
    changed, or a changed file has a problem: then everything is loaded again (and its
    problems reported with all their context). Each article source read is parsed, its
    tokens put in `parsed` by digest."""
    problems = Problems(sources.site.root)
    paths = [path.resolve() for path in changed]
    if paths == [sources.dictionary.path.resolve()]:
        old = sources.dictionary
        new = load_dictionary(old.path, sources.site.codes, problems,
                              in_progress=sources.site.in_progress,
                              fallback=sources.site.source_language)
        if (new is None or problems or list(new.texts) != list(old.texts)
                or new.fallbacks != old.fallbacks):
            return None
        return dataclasses.replace(sources, dictionary=new)
    articles = {article.slug: article for article in sources.articles}
    edited: dict[str, dict] = {}
    for path in paths:
        slug, code = path.parent.name, path.stem
        article = articles.get(slug)
        if (path.suffix != ".md" or path.parent.parent != sources.site.root / "content"
                or article is None or code not in article.sources):
            return None
        source = load_source(path, code, problems, cache.memo)
        if source is None or problems or (source.meta.draft and not drafts):
            return None
        try:
            parsed[source.digest] = parse_source(source, cache.memo)[0]
        except SourceChanged:
            return None
        edited.setdefault(slug, {})[code] = source
    for slug, new_sources in edited.items():
        old = articles[slug]
        articles[slug] = dataclasses.replace(old, sources=old.sources | new_sources)
    edited_sources = dataclasses.replace(   # whose sections are those parsed above
        sources, articles=[articles[a.slug] for a in sources.articles], memo=cache.memo)
    if edited_sources.sections.key(edited) != sources.sections.key(edited):
        return None   # sections' states changed: other pages and the view show them
    return edited_sources


def same_keys(previous: Built, sources: Sources) -> bool:
    """Whether the dictionary has the keys it had (the figure specs were checked against
    them)."""
    return previous.sources is not None and \
        list(previous.sources.dictionary.texts) == list(sources.dictionary.texts)


@dataclass
class Delta:
    """What changed since the previous build, when the site, its templates, its figure
    specs and every article's listing are what they were: the articles and sources read
    again and the dictionary texts that differ. Only pages that read these can differ."""

    articles: list[Article]          # each article read again (its sources or references)
    sources: list[tuple[str, str]]   # (slug, language) of each source read again
    texts: set[tuple[str, str]]      # (key, language) of each dictionary text changed
    dictionary_changed: bool


def compare(previous: Sources | None, sources: Sources) -> Delta | None:
    """The delta from `previous` (the previous build's sources) to `sources`, or None
    when more changed than a delta covers."""
    if previous is None or previous.key != sources.key or previous.figures is not \
            sources.figures or len(previous.articles) != len(sources.articles):
        return None
    articles, edited = [], []
    for before, after in zip(previous.articles, sources.articles, strict=True):
        if before is after:
            continue
        articles.append(after)
        # (A change of length alone is covered: the indexes showing it are planned.)
        if before.slug != after.slug or \
                before.listing().without_counts() != after.listing().without_counts():
            return None
        edited += [(after.slug, code) for code, source in after.sources.items()
                   if before.sources.get(code) is not source]
    return Delta(articles, edited, changed_texts(previous.dictionary, sources.dictionary),
                 previous.dictionary is not sources.dictionary)


def page_jobs(sources: Sources, cache: Cache, delta: Delta | None = None) -> list[PageJob]:
    """The pages to plan: every page; with a `delta` from the previous build (whose pages
    `cache` holds), only those that read what changed (the others keep their entries)."""
    if delta is None:
        return site_pages(sources.site, sources.articles)
    articles = {article.slug: article for article in sources.articles}
    jobs = [PageJob("article.html", code, slug) for slug, code in delta.sources]
    # The indexes that show an edited source: they show its length.
    jobs += [PageJob("index.html", code) for code in sources.site.codes
             if any(articles[slug].shown_in(code) == language
                    for slug, language in delta.sources)]
    if delta.texts:
        showing = {path for path, entry in cache.pages.items()
                   if entry.texts and not delta.texts.isdisjoint(entry.texts)}
        jobs += [job for job in site_pages(sources.site, sources.articles)
                 if job.path in showing and job not in jobs]
    return jobs


def plan_pages(sources: Sources, cache: Cache, jobs: list[PageJob], plan: Plan) -> None:
    """Add these pages to the plan: each one's cache key, and whether the cache holds
    it."""
    articles = {article.slug: article for article in sources.articles}
    listings = None
    files = assets.Files(sources.site.root)
    languages = {article.slug: " ".join(article.sources) for article in sources.articles}
    for job in jobs:
        if job.template in ("404.html", "robots.txt"):   # they show no article
            key = index_key(sources.page_key(job.template), job.template, job.language, "")
        elif job.slug is None:
            listings = listings or listings_digest(
                [(a.slug, [(code, source.meta.uncounted_digest)
                           for code, source in a.sources.items()]) for a in sources.articles])
            # An index also shows the length of the version it shows of each article.
            lengths = "" if job.template != "index.html" else listings_digest([
                (a.slug, shown.meta.words, shown.meta.minutes) for a in sources.articles
                for shown in [a.sources[a.shown_in(job.language)]]])
            key = index_key(sources.page_key(job.template), job.template, job.language,
                            listings + lengths)
        else:
            article = articles[job.slug]
            source, notices = article.sources[job.language], \
                sources.sections.notices(article.slug, job.language)
            key = article_key(sources.page_key(job.template), job.language,
                              article.listing().without_counts(),
                              source.digest, article.references_digest, notices)
            plan.bodies[job] = body_key(plan.rendering, job.slug, job.language, source.digest,
                                        article.references_digest, notices)
        plan.keys[job] = key
        entry = cache.reusable(job.path, key, sources.figures, sources.dictionary)
        if entry is not None and not assets.current(entry.files, files, languages,
                                                    cache.store):
            entry = None
        # A body the cache keeps is recalled even for a page it holds: then it is kept
        # for the next build (after a change to the page templates, say).
        body = cache.reusable_body(plan.bodies[job], sources.figures, sources.dictionary) \
            if job in plan.bodies else None
        if entry is None:
            plan.stale.append(job)
            if body is not None and assets.current(body[-1], files, languages, cache.store):
                plan.reusable[job] = body
        else:
            plan.cached[job.path] = entry


def changed_texts(before: Dictionary, after: Dictionary) -> set[tuple[str, str]]:
    """The (key, language) of every text that differs between two dictionaries."""
    if before is after:
        return set()
    changed = set()
    for key in before.texts.keys() | after.texts.keys():
        was, now = before.texts.get(key, {}), after.texts.get(key, {})
        if was != now:   # (most entries are equal: compared whole first)
            changed.update((key, code) for code in was.keys() | now.keys()
                           if was.get(code) != now.get(code))
    return changed


def renderer_for(sources: Sources, problems: Problems, keep: int = 16,
                 library: FigureLibrary | None = None, drawn: DrawnFigures | None = None,
                 store: Store | None = None,
                 parsed: dict[str, list] | None = None) -> Renderer:
    """A renderer of these sources; it loads each figure spec when first placed and keeps
    the `keep` most recent (in `library`, if given: one of these same figure files and
    dictionary; `drawn`: what a renderer made of them with these same templates); the
    files articles reference go to `store` (none: only read); `parsed`: sources' tokens
    already parsed, by digest."""
    from .render.templates import Renderer  # Jinja, markdown-it and math-core: only when needed

    if library is None:
        library = FigureLibrary(sources.figures, sources.dictionary, problems, keep)
    library.problems = problems
    renderer = Renderer(sources.site, sources.articles, library, sources.dictionary,
                        sources.strings, sources.templates, problems)
    renderer.files.store = store
    if drawn is not None:
        renderer.drawn = drawn
    renderer.notices = sources.sections.notices
    if parsed is not None:
        renderer.parsed = parsed
    return renderer


def render_pages(plan: Plan, stale: list[PageJob], make_renderer: Callable[[], Renderer],
                 sources: Sources, cache: Cache, problems: Problems,
                 progress: Callable[[int, int], None] | None = None) -> Rendered:
    """Render these `stale` pages of the plan into the store, an article's languages
    together (they share its figures), over the cores when there are many. Each page is
    written as soon as it is rendered; only its cache entry comes back, with the
    translator's view's copies of the figures it placed, while their specs are loaded
    (unless the memo has them), its body (cache.keep_body) and its sections
    (translate/sections.py: not parsed again)."""
    if not stale:
        return Rendered({}, {})
    renderer = make_renderer()
    renderer.compile_templates()

    def render_group(jobs: list[PageJob]) -> tuple[int, Rendered, list]:
        found = renderer.collect_problems()
        entries, placed, bodies = {}, {}, {}
        for job in jobs:
            kept = plan.reusable.get(job)
            page = renderer.render(job, cache.load_body(kept) if kept else None)
            placed.update(page.figures)
            if not found:
                entries[page.path] = entry_of(page, plan.keys[job], sources.dictionary,
                                              cache.store, sources.site.search)
                if page.body is not None:
                    bodies[plan.bodies[job]] = cache.keep_body(page.body, sources.dictionary)
        copies = {}
        for figure_id in placed:
            file = sources.figures.get(figure_id)
            key = file and copy_key(plan.rendering, file.digest)
            if key is None or cache.stored_copy(key) is not None:
                continue
            spec = renderer.figures.get(figure_id)
            if spec is not None:
                copies[key] = cache.store_copy(figure_copy(renderer, spec))
        part = Rendered(entries, renderer.figures.clean, copies, bodies, renderer.sections)
        renderer.figures.clean, renderer.sections = {}, {}
        return len(jobs), part, list(found)

    groups: dict[str, list[PageJob]] = {}
    for job in stale:
        groups.setdefault(job.slug or job.path, []).append(job)
    rendered, done, total = Rendered({}, {}), 0, len(stale)
    for count, part, found in parallel.map_unordered(render_group, list(groups.values()),
                                                     total):
        rendered.update(part)
        problems.extend(found)
        done += count
        if progress is not None:
            progress(done, total)
    return rendered


def entry_of(page: Page, key: str, dictionary: Dictionary, store: Store,
             search: bool = True) -> Entry:
    """Store a rendered page (with `search`, what the search index is given of it too);
    its cache entry."""
    texts = tuple(sorted(page.texts))
    return Entry(key, tuple(sorted(page.figures.items())), texts,
                 texts_digest(texts, dictionary), *store.put(page.html),
                 tuple(sorted(page.files.items())),
                 given_digest(page.html, store if search else None))


def plan_view(sources: Sources, pages: dict[str, Entry], cache: Cache,
              delta: Delta | None = None, plan: Plan | None = None) -> Plan:
    """The translator's view's plan. The view shows every dictionary text, the
    confirmation record, every figure spec, and links to the figures on the article
    pages: its key covers all of these, so any change to them renders it again. With a
    `delta` that changed no dictionary text, when no page `plan` rendered places other
    figures than it did, the view the previous build left holds."""
    job = PageJob(VIEW, sources.site.default_language)
    entry = cache.pages.get(job.path)
    if entry is not None and plan is not None and delta is not None \
            and not delta.dictionary_changed \
            and all(stale.path in cache.pages and stale.path in pages
                    and pages[stale.path].figures == cache.pages[stale.path].figures
                    for stale in plan.stale):
        return Plan({job: entry.key}, {job.path: entry}, [])
    links = figure_links(sources.articles, {
        path: [figure_id for figure_id, _ in entry.figures] for path, entry in pages.items()})
    key = view_key(sources.page_key(VIEW), job.path, cache.texts_key(sources.dictionary),
                   sources.confirmed,
                   [(file.id, file.digest) for file in sources.figures.values()], links,
                   sources.sections.key())
    entry = cache.reusable(job.path, key, {}, sources.dictionary)
    if entry is None:
        return Plan({job: key}, {}, [job], links)
    return Plan({job: key}, {job.path: entry}, [], links)


def render_view(sources: Sources, plan: Plan, make_renderer: Callable[[], Renderer],
                cache: Cache, problems: Problems, rendering: str) -> Rendered:
    """Render the translator's view into the store if it is stale, streamed. The copies of
    the figures the memo holds are kept for the next build in any case; their HTML is
    read from the store only when the view is rendered (`rendering`: their render_key)."""
    remembered = {}
    for figure_id, file in sources.figures.items():
        stored = cache.stored_copy(copy_key(rendering, file.digest))
        if stored is not None:
            remembered[figure_id] = stored
    rendered = Rendered({}, {})
    for job in plan.stale:
        renderer = make_renderer()
        found = renderer.collect_problems()
        made = {}
        for figure_id, stored in remembered.items():
            copy = cache.load_copy(stored)
            if copy is not None:
                made[figure_id] = copy
        copies = view_copies(renderer, list(sources.figures), made)
        for figure_id in copies.keys() - made.keys():
            cache.keep_copy(copy_key(rendering, sources.figures[figure_id].digest),
                            cache.store_copy(copies[figure_id]))
        stored = cache.store.put_chunks(
            render_translator_view(renderer, sources, plan.links, copies))
        if not found:
            rendered.pages[job.path] = Entry(plan.keys[job], (), (),
                                             texts_digest((), sources.dictionary), *stored)
        rendered.specs, renderer.figures.clean = renderer.figures.clean, {}
        problems.extend(found)
    return rendered


def check_figures(figures: dict[str, FigureFile], dictionary: Dictionary, memo: Memo,
                  problems: Problems) -> None:
    """Check every spec: one the memo knows clean only against the dictionary, any other
    by loading it."""
    library = FigureLibrary(figures, dictionary, problems, keep=0)
    for file in figures.values():
        keys = memo.recall("spec", file.digest)
        if keys is None or not all(key in dictionary for key in keys):
            library.get(file.id)
    for spec, keys in library.clean.items():
        memo.keep("spec", spec, list(keys))


def place_bundle(out: Path, old: dict[str, Entry], new: dict[str, Entry],
                 store: Store) -> None:
    """Put a new search bundle in place of the old in `out`: its new files first, then the
    entry file that names them, then the old files go (pages need no reload for it)."""
    entry_file = f"{BUNDLE}/pagefind-entry.json"
    changed = {path: entry for path, entry in new.items() if old.get(path) != entry}
    for batch in ({p: e for p, e in changed.items() if p != entry_file},
                  {p: e for p, e in changed.items() if p == entry_file}):
        for path in batch:
            (out / path).parent.mkdir(parents=True, exist_ok=True)
        place_pages(out, batch, store, None)
    for path in old.keys() - new.keys():
        (out / path).unlink(missing_ok=True)


def place_pages(out: Path, entries: dict[str, Entry], store: Store,
                written: Written | None) -> None:
    """Put stored pages in `out`, each file replaced in one atomic rename (a server killed
    between two renames leaves pages of both builds; the next build puts it right)."""
    if not entries:
        return
    for path, entry in entries.items():
        temporary = out / f".{path.replace('/', '-')}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()  # left by a killed build
        store.place(entry.blob, temporary)
        os.replace(temporary, out / path)
    if written is not None:
        written(sorted(entries))


def write_site(pages: dict[str, Entry], store: Store, out: Path) -> None:
    """Assemble the pages into a fresh folder beside `out`, then swap it in whole (unless
    `out` already is exactly these pages)."""
    out = out.resolve()
    remove_leftovers(out)
    if holds_exactly(out, pages, store):
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-{os.getpid()}-", dir=out.parent))
    try:
        folders = {fresh}
        for path, entry in pages.items():
            relative = PurePosixPath(path)
            if relative.is_absolute() or ".." in relative.parts:
                raise ValueError(f"page path escapes the site folder: {path}")
            target = fresh / relative
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            store.place(entry.blob, target)
        fresh.chmod(0o755)
        swap_in(fresh, out)
    finally:
        if fresh.exists():
            shutil.rmtree(fresh, ignore_errors=True)


def holds_exactly(out: Path, pages: dict[str, Entry], store: Store) -> bool:
    """Whether `out` holds these pages and nothing else, each the very file in the store."""
    folders, files = {"."}, {}
    for page in pages:
        folders.update(parent.as_posix() for parent in PurePosixPath(page).parents)
    for folder, subfolders, names in os.walk(out):
        here = Path(folder).relative_to(out).as_posix()
        if any(f"{here}/{name}".removeprefix("./") not in folders for name in subfolders):
            return False
        for name in names:
            files[f"{here}/{name}".removeprefix("./")] = os.path.join(folder, name)
    if files.keys() != pages.keys():
        return False
    for path, entry in pages.items():
        try:
            here, stored = os.stat(files[path]), os.stat(store.path(entry.blob))
        except OSError:
            return False
        if (here.st_ino, here.st_dev) != (stored.st_ino, stored.st_dev):
            return False
    return True


def remove_leftovers(out: Path) -> None:
    """Remove what builds that were killed left beside `out`: their folders are named
    after their process id, and that process is gone."""
    for kind in ("new", "old"):
        for folder in out.parent.glob(f".{out.name}.{kind}-*"):
            pid = folder.name.removeprefix(f".{out.name}.{kind}-").split("-")[0]
            if pid.isdigit() and not _running(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, under another user
    return True


_RENAME_EXCHANGE = 2


def swap_in(fresh: Path, out: Path) -> None:
    """Put `fresh` where `out` is. `out` is whole before and after, even if killed mid-way.

    On Linux both names are exchanged in one atomic renameat2() call; elsewhere the old
    folder is moved aside first, which leaves a brief moment with no `out`.
    """
    if not out.exists():
        os.rename(fresh, out)
        return
    import ctypes  # only here: a first build, or serve's quick rebuilds, never swap
    import ctypes.util

    libc_name = ctypes.util.find_library("c")
    renameat2 = getattr(ctypes.CDLL(libc_name, use_errno=True), "renameat2", None) \
        if libc_name else None
    if renameat2 is not None:
        at_fdcwd = -100
        if renameat2(at_fdcwd, os.fsencode(fresh), at_fdcwd, os.fsencode(out),
                     _RENAME_EXCHANGE) == 0:
            shutil.rmtree(fresh)  # now holds the previous site
            return
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    os.rename(out, old)
    os.rename(fresh, out)
    shutil.rmtree(old)
