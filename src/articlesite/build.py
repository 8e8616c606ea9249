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
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import parallel
from .cache import (
    Cache,
    Entry,
    KeptBody,
    PageKeys,
    Store,
    StoredCopy,
    copy_key,
    render_key,
    store_files,
    texts_digest,
)
from .check.ids import check_pages
from .load.figures import FigureFile, FigureLibrary
from .load.outlines import literal_markup, load_outlines
from .load.reload import reload_sources
from .load.sourcefiles import SourceChanged, digest
from .load.sources import Sources, load_sources
from .load.texts import Dictionary
from .memo import SECTIONS, SPEC, Memo
from .pages import Page, PageJob
from .plan import Plan, compare, page_jobs, plan_pages, plan_view, same_keys
from .problems import Problem, Problems
from .render import assets
from .search import BUNDLE, search_bundle, search_input
from .translate.view import PATH as VIEW
from .translate.view import (
    figure_copy,
    render_translator_view,
    view_copies,
)
from .write import Written, place_bundle, place_pages, write_site

if TYPE_CHECKING:
    from .render.templates import DrawnFigures, Renderer


@dataclass
class Rendered:
    pages: dict[str, Entry]
    specs: dict[str, tuple[str, ...]]   # digest of each clean spec loaded -> its keys
    copies: dict[str, StoredCopy] = field(default_factory=dict)  # the view's, by copy_key
    bodies: dict[str, KeptBody] = field(default_factory=dict)  # article bodies, by body_key
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
    site_key: str = ""   # what every page depended on (cache.site_key)

    def summary(self, where: str = "") -> str:
        rendered = len(self.rendered)
        files = f" and {self.files} file{'s' if self.files != 1 else ''}" if self.files \
            else ""
        return (f"Built {self.pages} pages{files} in {self.languages} languages{where} in "
                f"{self.seconds:.2f} s ({rendered} rendered, {self.pages - rendered} "
                "unchanged)")


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
    sources = reload_sources(base.sources, changed, cache.memo, drafts, parsed) \
        if base and changed and base.sources else None
    if sources is None:
        base, parsed = None, None
        sources = load_sources(root, problems, cache.memo, drafts=drafts)
    page_keys = PageKeys(sources.site, sources.templates, sources.strings)
    delta = compare(base.sources, sources) \
        if base is not None and base.site_key == page_keys.site else None
    # The check stage, on the parsed sources: what it finds is listed with what rendering
    # finds, at once. A quick rebuild checks the articles it edited (what the others' check
    # reads, the site, the article and its outline, is what passed last time).
    checked = sources.articles if delta is None else delta.articles
    outlines = load_outlines(checked, cache.memo, problems, parsed)
    check_pages(sources.site, checked, outlines, problems)
    warnings = Problems(root)   # printed after the summary: the build goes on
    literal_markup(checked, outlines, warnings.add)
    # The figure specs the previous build parsed hold while the specs and the dictionary
    # they were checked against are the same; so does what it drew of them (a delta
    # means the templates are the same too).
    library = base.figures if delta is not None and not delta.dictionary_changed else None
    drawn = base.drawn if library is not None else None
    make_renderer = functools.cache(functools.partial(make_renderer_for, sources, problems,
                                                      library=library, drawn=drawn,
                                                      store=cache.store, parsed=parsed))
    jobs = page_jobs(sources, cache, delta)
    plan = Plan({}, {}, [], rendering=render_key(sources.site, sources.templates,
                                                  sources.strings), page_keys=page_keys)
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
        cache.keep_body(key, kept)
    for source, sections in rendered.sections.items():
        cache.memo.keep(SECTIONS, source, sections)
    pages = plan.cached | rendered.pages
    view = plan_view(sources, pages, cache, delta, plan)
    rendered_view = render_view(sources, view, make_renderer, cache, problems,
                                plan.rendering)
    for spec, keys in (rendered.specs | rendered_view.specs).items():
        cache.memo.keep(SPEC, spec, list(keys))
    if delta is None or (delta.dictionary_changed and not same_keys(base.sources, sources)):
        check_figures(sources.figures, sources.dictionary, cache.memo, problems)
    problems.raise_if_any()
    pages = {path: entry for path, entry in (pages | view.cached | rendered_view.pages).items()
             if not assets.is_published_file(path)}
    files = store_files(pages, cache.pages, cache.store, root, problems)
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
                 sorted(warnings, key=lambda warning: (warning.file, warning.line or 0)),
                 page_keys.site)


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
    renderer = make_renderer_for(sources, Problems(sources.site.root), drawn=built.drawn)
    for language in article.sources:
        with contextlib.suppress(SourceChanged):   # saved since: the next build sees it
            renderer.render(PageJob("article.html", language, article.slug))


def make_renderer_for(sources: Sources, problems: Problems, **options) -> Renderer:
    """render.templates.renderer_for, imported only when a page is rendered: Jinja,
    markdown-it and math-core are not loaded by a build that renders nothing."""
    from .render.templates import renderer_for

    return renderer_for(sources, problems, **options)


def render_pages(plan: Plan, stale: list[PageJob], make_renderer: Callable[[], Renderer],
                 sources: Sources, cache: Cache, problems: Problems,
                 progress: Callable[[int, int], None] | None = None) -> Rendered:
    """Render these `stale` pages of the plan into the store, an article's languages
    together (they share its figures), over the cores when there are many. Each page is
    written as soon as it is rendered; only its cache entry comes back, with the
    translator's view's copies of the figures it placed, while their specs are loaded
    (unless the memo has them), its body (cache.keep_body) and its sections
    (load/sections.py: not parsed again)."""
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
                                              cache.store)
                if page.body is not None:
                    bodies[plan.bodies[job]] = cache.store_body(page.body, sources.dictionary)
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


def entry_of(page: Page, key: str, dictionary: Dictionary, store: Store) -> Entry:
    """Store a rendered page; its cache entry."""
    texts = tuple(sorted(page.texts))
    return Entry(key, tuple(sorted(page.figures.items())), texts,
                 texts_digest(texts, dictionary), *store.put(page.html),
                 tuple(sorted(page.files.items())),
                 digest(search_input(page.html).encode("utf-8")))


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
        keys = memo.recall(SPEC, file.digest)
        if keys is None or not all(key in dictionary for key in keys):
            library.get(file.id)
    for spec, keys in library.clean.items():
        memo.keep(SPEC, spec, list(keys))
