"""The build, a list of stages (build() calls them in order):

- load: the sources, or after a change only what changed since the `previous` build
  (load/reload.py);
- parse: when many sources are new to the memo, each parsed once over the cores, an
  article at a time, for its outline, its sections and its body (parse.py);
- check: each source's outline and sections (parsed now if the parse stage did not),
  the pages' ids and links, what readers would see as markup (check/stage.py, shared
  with `check`);
- plan: which pages must be rendered (plan.py: the cache, or the previous build, holds
  the others);
- render: those pages, over the cores when there are many, each streamed to the cache's
  store as it is done (on top of a previous build, put in place at once); a full build
  renders the translator's view beside them, its links taken from the outlines;
- index: the search index, from the finished pages (search.py), in a thread beside the
  two stages after (Pagefind's service, search_service.py, was started with the load
  stage when it has word segmenters to load that take long);
- the translator's view, which links to the figures on those pages (unless the one
  rendered beside them has the same links), and the check of the figure specs no page
  needed; the files the articles reference;
- write: the new site in a fresh folder swapped in place of site/, or, after a change,
  only the pages that changed, each in one atomic rename (write.py);
- save: the cache records the build, and deletes the stored files it left unused in a
  thread (what a process that ends at once leaves, the next build deletes while it
  loads: cache.py).

There is one build: `serve` calls it after every save with the previous build and the
paths that changed, and it reuses what that build loaded and rendered.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import parallel
from .cache import (
    Cache,
    Entry,
    KeptBody,
    PageKeys,
    StoredCopy,
    copy_key,
    render_key,
    store_files,
    texts_digest,
)
from .check.stage import check_sources, numbering_notes
from .load.config import Site
from .load.figures import FigureFile, FigureLibrary
from .load.reload import reload_sources
from .load.sourcefiles import SourceChanged
from .load.sources import Sources, load_sources
from .load.texts import Dictionary
from .memo import BODY, COPY, OUTLINE, SECTIONS, SOURCE, SPEC, Memo
from .pages import PageJob
from .parse import entry_of, figure_copies, parse_spread
from .plan import (
    Delta,
    Plan,
    compare,
    delta_since,
    page_jobs,
    plan_pages,
    plan_view,
    plan_view_early,
    same_keys,
)
from .problems import LEFT_OUT, Interrupted, Problem, Problems
from .render import assets
from .search import BUNDLE, early_service, feed_ahead, search_bundle
from .search_service import Service
from .translate.view import PATH as VIEW
from .translate.view import (
    is_view_data,
    is_view_file,
    translator_view,
    view_copies,
)
from .unchanged import (
    Since,
    Unsure,
    forget,
    record,
    scan_inputs,
    scan_site,
    summary_line,
    trusted_digests,
)
from .write import RETIRED, Written, check_out, place_bundle, place_pages, write_site

if TYPE_CHECKING:
    from .render.templates import DrawnFigures, Renderer


@dataclass
class Rendered:
    pages: dict[str, Entry]
    specs: dict[str, tuple[str, ...]]   # digest of each clean spec loaded -> its keys
    copies: dict[str, StoredCopy] = field(default_factory=dict)  # the view's, by copy_key
    bodies: dict[str, KeptBody] = field(default_factory=dict)  # article bodies, by body_key
    sections: dict[str, list] = field(default_factory=dict)  # of the sources parsed, by digest
    in_place: bool = False   # the pages were put in place in site/ as they were rendered
    # The translator's view rendered beside the pages, with its plan (build.render).
    view: tuple[Plan, Rendered] | None = None

    def update(self, other: Rendered) -> None:
        self.pages.update(other.pages)
        self.specs.update(other.specs)
        self.copies.update(other.copies)
        self.bodies.update(other.bodies)
        self.sections.update(other.sections)
        self.view = other.view or self.view


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
    notes: list[str] = field(default_factory=list)   # said once, after the warnings
    notes_of: list[tuple[str, str]] = field(default_factory=list)   # each with its slug

    def summary(self, where: str = "") -> str:
        return summary_line(self.pages, len(self.rendered), self.files, self.languages,
                            where, self.seconds)


@dataclass
class Run:
    """One build's settings, and what all its stages share."""

    root: Path
    out: Path                      # where the site is written
    problems: Problems             # every problem found, raised once a stage needs it
    cache: Cache
    progress: Callable[[int, int], None] | None = None
    written: Written | None = None
    interrupt: Callable[[], bool] | None = None


@dataclass
class Loaded:
    """The load stage's output: the sources, and what a quick rebuild starts from."""

    sources: Sources
    keys: PageKeys                 # what every page, and each template's, depends on
    base: Built | None             # the previous build this one is made on top of
    delta: Delta | None            # what changed since `base`, if a delta covers it
    # The tokens of the sources parsed in this process, by digest, handed on from loading
    # (a quick rebuild parses the sources edited) or the check stage to rendering, which
    # lets each go once rendered.
    parsed: dict[str, list]
    # The article pages the parse stage rendered (a full build), by path: the render
    # stage takes each whose key is the one it plans (plan.plan_pages).
    fresh: dict[str, Entry] = field(default_factory=dict)
    # The translator's view's table of each article's sections, by slug, made beside the
    # article pages in a cold build (parse.view_sections); the view makes the others.
    sections: dict[str, str] = field(default_factory=dict)
    # The last good build's record (unchanged.py) the delta is from, when the command
    # line's build is on top of that build (plan.delta_since), and the article sources
    # read again: the pages of their old versions, by path (their memo's results go).
    record: dict | None = None
    replaced: dict[str, str] = field(default_factory=dict)


def build(root: Path, out: Path | None = None, *, clean: bool = False,
          progress: Callable[[int, int], None] | None = None,
          cache: Cache | None = None, written: Written | None = None,
          drafts: bool = False, previous: Built | None = None,
          changed: list[Path] | None = None,
          interrupt: Callable[[], bool] | None = None,
          search: Service | None = None, remember: bool = False,
          since: Since | None = None, started: Service | None = None) -> Built:
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
    `search` is a Pagefind service kept across builds (serve's): its word segmenters
    stay loaded, so an edit's shard is indexed without loading them again; the build
    leaves it running (it stops it only when it fails or is given up while indexing).

    With `remember`, the build leaves the record of what it read (unchanged.py) for the
    next; `since` is what the command line found changed since the last good build
    (unchanged.since_last), its scan of the inputs taken before this build read any; and
    `started` a Pagefind service it started for this build (search_service.EarlyService,
    closed by the build), to which the build hands the edited pages' shard at once.
    """
    try:
        return _build(root, out, clean, progress, cache, written, drafts, previous, changed,
                      interrupt, search, remember, since, started)
    finally:
        if started is not None:
            started.close()


def _build(root: Path, out: Path | None, clean: bool,
           progress: Callable[[int, int], None] | None, cache: Cache | None,
           written: Written | None, drafts: bool, previous: Built | None,
           changed: list[Path] | None, interrupt: Callable[[], bool] | None,
           search: Service | None, remember: bool, since: Since | None,
           started: Service | None) -> Built:
    started_at = time.perf_counter()
    root = root.resolve()
    check_out(root, out or root / "site", default=out is None)
    out = (out or root / "site").resolve()
    run = Run(root, out, Problems(root), cache or Cache(root, clean=clean), progress,
              written, interrupt)
    base = previous if previous is not None and previous.out == out and not clean else None
    inputs = read_inputs(root, out, None if clean else run.cache.memo, since) \
        if remember else None
    run.cache.delete_superseded()   # in a thread, beside loading
    # Pagefind is handed the edited pages' shard as the last build left it, ahead of the
    # index stage: at once by the command line (its service started before the build),
    # once the edited pages are in place in serve (not to slow them down).
    ahead = None
    if started is not None or (search is not None and base is not None and changed):
        ahead = functools.partial(
            feed_ahead, started or search, dict(run.cache.pages), run.cache.store,
            edited_pages(root, since.changed if since and since.changed is not None
                         else [path.relative_to(root).as_posix()
                               for path in changed or () if path.is_relative_to(root)]))
        if started is not None:
            ahead()
    loaded = load(run, base, changed, drafts, since)
    with contextlib.closing(search_service(run, loaded, search, started)) as service:
        renderers = Renderers.of(run, loaded)
        run.cache.store.settle()   # before workers that write to the store are forked
        parse(run, loaded, renderers)
        warnings, notes = check(run, loaded, renderers)
        plan, phases = plan_site(run, loaded)
        rendered = render(run, loaded, plan, phases, renderers,
                          ahead if started is None and loaded.base is not None else None)
        with index(run, loaded, plan.cached | rendered.pages, service) as indexed:
            view, pages = render_the_view(run, loaded, plan, rendered, renderers)
            pages, files = publish_files(run, pages, loaded.sources.site, warnings)
            if loaded.base is None and run.interrupt is None:
                # What the cache records but the bundle, while Pagefind still works.
                keep_memo(run.cache, loaded, pages)
                run.cache.save_ahead(pages | files, loaded.sources.dictionary)
            bundle = indexed()
    incremental = write(run, pages | files | bundle, files, bundle, rendered, view)
    save(run, loaded, pages | files | bundle)
    figures, drawn = renderers.kept(bool(rendered.pages or view.pages))
    built = Built(sum(not is_view_data(path) for path in pages),
                  sorted(path for path in rendered.pages | view.pages
                         if not is_view_data(path)),
                  len(loaded.sources.site.codes), time.perf_counter() - started_at,
                  loaded.sources, figures, drawn, out, incremental, len(files), warnings,
                  loaded.keys.site, [note for _, note in notes], notes)
    if inputs is not None:
        remember_build(built, root, drafts, inputs)
    return built


def remember_build(built: Built, root: Path, drafts: bool, inputs: dict[str, tuple]) -> None:
    """The record of a good build, for the next to see whether it has anything to do
    (unchanged.py), with the digests it took of the sources."""
    site = built.sources.site
    record(root, built.out, drafts, inputs, (built.pages, built.languages, built.files),
           [tuple(vars(warning).values()) for warning in built.warnings], built.notes,
           source_digests(built.sources), list(site.codes) if site.search else None,
           {"site_key": built.site_key, "notes_of": built.notes_of})


def read_inputs(root: Path, out: Path, memo: Memo | None, since: Since | None = None
                ) -> dict[str, tuple] | None:
    """What every file the build may read is trusted by, taken before it reads any
    (unchanged.py: `since`'s scan, if the command line took one), and the digests of the
    sources unchanged since the last build took them (the memo's `trusted`: not read
    again); the record of the last build goes meanwhile: a build that fails leaves
    none."""
    if since is not None and since.inputs is not None:
        inputs = since.inputs
    else:
        try:
            inputs = scan_inputs(root, out)
        except Unsure:
            inputs = None
    if inputs is not None and memo is not None:   # (--clean trusts nothing)
        memo.trusted = trusted_digests(root, inputs, since.record if since else None)
    forget(root)
    return inputs


def edited_pages(root: Path, names: Iterable[str]) -> list[str]:
    """The paths in the site of the article pages of these files (names under `root`)
    that are article sources (content/SLUG/CODE.md)."""
    pages = []
    for name in sorted(names):
        parts = name.split("/")
        if len(parts) == 3 and parts[0] == "content" and parts[2].endswith(".md"):
            pages.append(PageJob("article.html", parts[2][:-3], parts[1]).path)
    return pages


def source_digests(sources: Sources) -> dict[str, str]:
    """The digest of each article source, bibliography and figure spec, by path."""
    digests = {str(file.path): file.digest for file in sources.figures.values()}
    for article in sources.articles:
        digests.update((str(source.path), source.digest) for source in article.sources.values())
        if article.references_path is not None and article.references_digest is not None:
            digests[str(article.references_path)] = article.references_digest
    return digests


def load(run: Run, base: Built | None, changed: list[Path] | None, drafts: bool,
         since: Since | None = None) -> Loaded:
    """The load stage: every source, or on top of `base` only the `changed` files (when
    nothing else changed), and the delta from `base`'s sources; or, the command line's
    build, the delta from the last good build, when only article sources changed since
    (`since`: plan.delta_since)."""
    parsed: dict[str, list] = {}
    sources = reload_sources(base.sources, changed, run.cache.memo, drafts, parsed) \
        if base and changed and base.sources else None
    if sources is None:
        base, parsed = None, {}
        sources = load_sources(run.root, run.problems, run.cache.memo, drafts=drafts,
                               meanwhile=compile_meanwhile(run) if not run.cache.pages else None)
    keys = PageKeys(sources.site, sources.templates, sources.strings)
    delta = compare(base.sources, sources) \
        if base is not None and base.site_key == keys.site else None
    if base is None and since is not None and since.record is not None and \
            since.changed and run.cache.pages and as_recorded(run, since.record):
        delta = delta_since(sources, keys.site, since.record, since.changed, run.cache.memo,
                            parsed)
        if delta is not None:
            replaced = {}
            for slug, code in delta.sources:
                path = PageJob("article.html", code, slug).path
                entry = run.cache.pages.get(path)
                replaced[path] = entry.blob if entry is not None else ""
            return Loaded(sources, keys, None, delta, parsed, record=since.record,
                          replaced=replaced)
        parsed.clear()
    return Loaded(sources, keys, base, delta, parsed)


def compile_meanwhile(run: Run) -> Callable[[dict[str, str]], None]:
    """What a build that renders every page (its cache holds none) does in this process
    while the workers read the articles: the page templates compiled (Jinja and
    markdown-it imported), not after them, while the other core would wait."""
    def compile_templates(templates: dict[str, str]) -> None:
        from .render.templates import compile_ahead

        compile_ahead(run.root / "templates", templates, run.cache.compiled_templates())
    return compile_templates


def as_recorded(run: Run, record: dict) -> bool:
    """Whether site/ holds exactly what the last good build wrote (its `record`), and the
    stored file of every page it kept is still as it was written (the search bundle's
    are checked by search.py): then a build on top of it may plan only what changed (a
    page edited by hand, or its stored file, and every page is planned again)."""
    try:
        if scan_site(run.out) != record.get("site"):
            return False
    except Unsure:
        return False
    store = run.cache.store
    return all(store.holds(entry) for path, entry in run.cache.pages.items()
               if not path.startswith(f"{BUNDLE}/"))


def parse(run: Run, loaded: Loaded, renderers: Renderers) -> None:
    """The parse stage, when there are many sources to parse (parse.py): over the cores,
    each source's outline, sections and body from one parse, for the stages after; in a
    full build, each body's page too, there and then (one message per article, and no
    body stored but inside its page)."""
    sources, delta = loaded.sources, loaded.delta
    full = loaded.base is None and delta is None
    parse_spread(sources, sources.articles if delta is None else delta.articles, run.cache,
                 run.problems, renderers.make, loaded.parsed,
                 loaded.keys if full else None, loaded.fresh if full else None,
                 loaded.sections if full and not run.cache.pages else None)


def check(run: Run, loaded: Loaded, renderers: Renderers
          ) -> tuple[list[Problem], list[tuple[str, str]]]:
    """The check stage, on the parsed sources: what it finds is listed with what rendering
    finds, at once. A quick rebuild checks the articles it edited (what the others' check
    reads, the site, the article and its outline, is what passed last time). Returns the
    warnings (what reaches readers as literal markup) and the notes, printed after the
    summary, each with its article's slug. On top of the last good build's record, those
    of the articles not checked are that build's (a full build's are every article's)."""
    sources, delta = loaded.sources, loaded.delta
    checked = sources.articles if delta is None else delta.articles
    found = Problems(run.root)
    outlines = check_sources(sources.site, renderers.figures, checked, run.cache.memo,
                             run.problems, found.add, loaded.parsed)
    notes = [(article.slug, note) for article in checked
             for note in numbering_notes(sources.site, [article], outlines, run.problems)]
    warnings = list(found)
    if loaded.record is not None:
        slugs = {article.slug for article in checked}
        folders = tuple(f"content/{slug}/" for slug in slugs)
        kept = (Problem(*fields) for fields in loaded.record["warnings"])
        warnings += [warning for warning in kept if not warning.message.startswith(LEFT_OUT)
                     and not warning.file.startswith(folders)]
        order = {article.slug: number for number, article in enumerate(sources.articles)}
        notes = sorted([(slug, note) for slug, note in loaded.record["notes_of"]
                        if slug not in slugs and slug in order] + notes,
                       key=lambda pair: order.get(pair[0], -1))
    return sorted(warnings, key=lambda warning: (warning.file, warning.line or 0)), notes


def plan_site(run: Run, loaded: Loaded) -> tuple[Plan, list[list[PageJob]]]:
    """The plan stage: the pages to plan (after a change, those it touches: the others
    keep their entries), in the phases they are rendered in. On top of a previous build
    (serve), the edited articles' pages are planned, rendered and put in place first,
    then the indexes and feeds that list them: the page an author is looking at reloads
    without waiting for an index of a thousand articles."""
    sources, cache, delta = loaded.sources, run.cache, loaded.delta
    jobs = page_jobs(sources, cache, delta)
    plan = Plan({}, {}, [], rendering=render_key(sources.site, sources.templates,
                                                  sources.strings), page_keys=loaded.keys,
                fresh=loaded.fresh)
    if delta is not None:   # the pages not planned keep their entries
        planned = {job.path for job in jobs}
        plan.cached = {path: entry for path, entry in cache.pages.items()
                       if path not in planned and not is_view_file(path)}
    if loaded.base is None:
        return plan, [jobs]
    return plan, [[job for job in jobs if job.slug], [job for job in jobs if not job.slug]]


@dataclass
class Renderers:
    """The build's renderer, made when first needed (a build that renders nothing loads
    no template), and its figures (the check stage loads from them the specs whose node
    links it needs): those the previous build parsed and drew, while the specs and the
    dictionary they were checked against are the same (a delta means the templates are
    the same too)."""

    make: Callable[[], Renderer]
    figures: FigureLibrary
    drawn: DrawnFigures | None

    @classmethod
    def of(cls, run: Run, loaded: Loaded) -> Renderers:
        base, delta, sources = loaded.base, loaded.delta, loaded.sources
        reuse = base is not None and delta is not None and not delta.dictionary_changed \
            and base.figures
        library = base.figures if reuse else \
            FigureLibrary(sources.figures, sources.dictionary, run.problems)
        library.problems = run.problems
        drawn = base.drawn if reuse else None
        make = functools.cache(functools.partial(
            make_renderer_for, loaded.sources, run.problems, library=library, drawn=drawn,
            store=run.cache.store, parsed=loaded.parsed,
            compiled=run.cache.compiled_templates()))
        return cls(make, library, drawn)

    def kept(self, rendered: bool) -> tuple[FigureLibrary | None, DrawnFigures | None]:
        """The figures and drawings the next build may start from."""
        if not rendered:
            return self.figures, self.drawn
        return self.make().figures, self.make().drawn


def render(run: Run, loaded: Loaded, plan: Plan, phases: list[list[PageJob]],
           renderers: Renderers, placed: Callable[[], None] | None = None) -> Rendered:
    """The render stage, phase by phase: plan the phase's pages, render the stale ones
    into the store, and on top of a previous build put them in place in site/ at once
    (only where site/ is what the previous build left). What the memo keeps of them is
    kept for the next build. `placed()` is called once the first phase is done."""
    sources, cache = loaded.sources, run.cache
    rendered = Rendered({}, {}, in_place=loaded.base is not None)
    for phase in phases:
        stale = len(plan.stale)
        plan_pages(sources, cache, phase, plan)
        # A full build renders the translator's view beside the pages, when it knows
        # before them which figures they place (plan_view_early).
        view = plan_view_early(sources, cache, plan) \
            if loaded.base is None and loaded.delta is None and plan.stale else None
        part = render_pages(plan, plan.stale[stale:], renderers.make, sources, cache,
                            run.problems, run.progress, view)
        rendered.update(part)
        rendered.pages.update(plan.rendered)   # by the parse stage (a full build)
        rendered.in_place = rendered.in_place and all((run.out / path).is_file()
                                                      for path in part.pages)
        if rendered.in_place and not run.problems:
            place_pages(run.out, part.pages, cache.store, run.written)
        if placed is not None:
            placed()
            placed = None
    for key, stored in rendered.copies.items():
        cache.keep_copy(key, stored)
    for key, kept in rendered.bodies.items():
        cache.keep_body(key, kept)
    for source, sections in rendered.sections.items():
        cache.memo.keep(SECTIONS, source, sections)
    return rendered


def render_the_view(run: Run, loaded: Loaded, plan: Plan, rendered: Rendered,
                    renderers: Renderers) -> tuple[Rendered, dict[str, Entry]]:
    """The translator's view, which links to the figures on the pages; then the check of
    the figure specs no page needed. The view rendered, and every page's entry."""
    sources, cache, delta = loaded.sources, run.cache, loaded.delta
    pages = plan.cached | rendered.pages
    view_plan = plan_view(sources, pages, cache, delta, plan)
    early = rendered.view
    if early is not None and view_plan.keys == early[0].keys:   # it held: see render
        view = early[1]   # (its copies were kept with the pages')
        remembered_copies(sources, cache, plan.rendering)   # asked here, the memo keeps them
    elif not view_plan.stale:   # it holds: no renderer made (Jinja is not even loaded),
        view = Rendered({}, {})   # the copies not read (the memo's file of them stays)
    else:
        view, found = render_view(sources, view_plan, renderers.make(), cache,
                                  plan.rendering, loaded.sections)
        run.problems.extend(found)
        for key, stored in view.copies.items():
            cache.keep_copy(key, stored)
    for spec, keys in (rendered.specs | view.specs).items():
        cache.memo.keep(SPEC, spec, list(keys))
    if delta is None or (delta.dictionary_changed and (
            loaded.base is None or not same_keys(loaded.base.sources, sources))):
        check_figures(sources.figures, sources.dictionary, cache.memo, run.problems)
    run.problems.raise_if_any()
    return view, pages | view_plan.cached | view.pages


def publish_files(run: Run, pages: dict[str, Entry], site: Site, warnings: list[Problem]
                  ) -> tuple[dict[str, Entry], dict[str, Entry]]:
    """The pages (without any search bundle's files) and the files articles reference,
    published beside them, each with its entry. An HTML file or an SVG with a script (one
    that runs scripts when opened) is left out, with a warning, unless site.yaml says."""
    pages = {path: entry for path, entry in pages.items()
             if not assets.is_published_file(path) and not path.startswith(f"{BUNDLE}/")}
    left_out: list[str] | None = None if site.publish_html_and_svg else []
    files = store_files(pages, run.cache.pages, run.cache.store, run.root, run.problems,
                        left_out)
    run.problems.raise_if_any()
    notes = Problems(run.root)
    for relative in sorted(left_out or ()):
        notes.add(run.root / relative, None, f"{LEFT_OUT}an HTML file, or an SVG with a "
                  "script in it, runs scripts when opened, on the site's address; if you "
                  "trust it, set `publish_html_and_svg: true` in content/site.yaml")
    warnings.extend(notes)
    return pages, files


def search_service(run: Run, loaded: Loaded, kept: Service | None,
                   started: Service | None = None) -> Service | Kept:
    """Pagefind's service for the index stage, started now when it has word segmenters
    to load that take long, to load them while the pages are rendered
    (search.early_service). Not on top of a previous build of the same site: that one
    indexed its languages (looking through its 6500 cache entries at N=1000 would cost a
    quick rebuild 2-4 ms before its page is written). A service `kept` across builds is
    started at once with every such segmenter, and not closed by this build. One
    `started` for this build (by the command line) is the one used (closed by it)."""
    if started is not None:
        if loaded.sources.site.search:
            return started
        started.close()
    if kept is not None:
        if loaded.sources.site.search:
            kept.warm(loaded.sources.site.codes)
        return Kept(kept)
    if not loaded.sources.site.search or loaded.delta is not None:
        return Service()
    return early_service(loaded.sources.site.codes, run.cache.pages,
                         edited_languages(loaded.sources, run.cache.folder / "index"))


def edited_languages(sources: Sources, index: Path) -> list[str]:
    """The languages of the article sources saved since the cache's index was (all of
    them when the figure texts were): their pages will likely be indexed again, so the
    service loads their segmenters while the sources are checked and the pages
    rendered (an edit in Japanese at N=1000 waited about a second for its dictionary).
    A few thousand stat calls: some 10 ms at N=1000."""
    try:
        saved = index.stat().st_mtime
        if (sources.site.root / "figures" / "figure-texts.json").stat().st_mtime > saved:
            return list(sources.site.codes)
    except OSError:
        return []
    edited = set()
    for article in sources.articles:
        for code, source in article.sources.items():
            with contextlib.suppress(OSError):
                if code not in edited and source.path.stat().st_mtime > saved:
                    edited.add(code)
    return sorted(edited)


class Kept:
    """A service kept across builds (serve's), as the build uses it: closing it at the
    build's end leaves it running."""

    def __init__(self, service: Service):
        self.service = service

    def __getattr__(self, name: str):
        return getattr(self.service, name)

    def close(self) -> None:
        pass


@contextlib.contextmanager
def index(run: Run, loaded: Loaded, pages: dict[str, Entry],
          service: Service) -> Iterator[Callable[[], dict[str, Entry]]]:
    """The index stage: the search index, made from the finished pages (search.py), in a
    thread of its own beside the stages after (the translator's view, which Pagefind
    does not read, and the files published). Gives the function that waits for the
    index's files, asking `run.interrupt()` every 50 ms meanwhile (Interrupted); if the
    build fails or is interrupted, Pagefind is ended and the thread waited for."""
    if not loaded.sources.site.search:
        yield dict
        return
    from concurrent.futures import ThreadPoolExecutor, wait  # (only a build that indexes)

    pool = ThreadPoolExecutor(1, thread_name_prefix="index")
    # Its problems are its own until it is waited for: the stages beside it stop at
    # theirs, and would otherwise name some of a failed index's languages only.
    found = Problems(run.root)
    indexing = pool.submit(search_bundle, pages, run.cache.store, dict(run.cache.pages),
                           found, run.root, loaded.sources.site.codes, service)
    pool.shutdown(wait=False)   # its thread ends with the index

    def indexed() -> dict[str, Entry]:
        while True:
            try:
                bundle = indexing.result(timeout=None if run.interrupt is None else 0.05)
                break
            except TimeoutError:
                if run.interrupt():
                    raise Interrupted from None
        run.problems.extend(found)
        run.problems.raise_if_any()
        return bundle
    try:
        yield indexed
    finally:
        if not indexing.done():
            service.stop()
        wait([indexing])


def write(run: Run, site: dict[str, Entry], files: dict[str, Entry],
          bundle: dict[str, Entry], rendered: Rendered, view: Rendered) -> bool:
    """The write stage: the whole `site` into a fresh folder swapped in place of the old,
    or, when the pages rendered are in place already and the files published are what
    they were, the view and the search bundle put in place the same way. Whether the
    site was changed in place."""
    cache = run.cache
    same_files = files == {path: entry for path, entry in cache.pages.items()
                           if assets.is_published_file(path)}
    # serve's builds (which tell open pages what they wrote) keep the files they take out
    # of the search bundle a while, outside site/: open pages may still ask for them
    retired = cache.folder / RETIRED if run.written is not None else None
    if rendered.in_place and same_files:
        place_view(run.out, view.pages, site, cache, run.written)
        place_bundle(run.out, {path: entry for path, entry in cache.pages.items()
                               if path.startswith(f"{BUNDLE}/")}, bundle, cache.store,
                     retired)
        return True
    write_site(site, cache.store, run.out, retired)
    if run.written is not None:
        run.written(None)
    return False


def place_view(out: Path, view: dict[str, Entry], site: dict[str, Entry], cache: Cache,
               written: Written | None) -> None:
    """Put a `view` rendered again in place: the files beside it first (those whose bytes
    changed: place_pages leaves the others be), then the page that loads them, which
    alone is said `written` (open pages reload); the files the `site` no longer has go."""
    files = {path: entry for path, entry in view.items() if is_view_data(path)}
    for path in files:
        (out / path).parent.mkdir(parents=True, exist_ok=True)
    place_pages(out, files, cache.store, None)
    place_pages(out, {path: entry for path, entry in view.items() if path == VIEW},
                cache.store, written)
    for path in cache.pages:
        if is_view_data(path) and path not in site:
            (out / path).unlink(missing_ok=True)


def save(run: Run, loaded: Loaded, site: dict[str, Entry]) -> None:
    """The save stage: the cache records the build (and what was not read again, on top
    of a previous build, still holds)."""
    keep_memo(run.cache, loaded, site)
    run.cache.save(site, loaded.sources.dictionary)


def keep_memo(cache: Cache, loaded: Loaded, pages: dict[str, Entry]) -> None:
    """What the memo keeps for the next build: on top of a previous build, what was not
    read again still holds; on top of the last good build's record, that too, but what
    it parsed of the old versions of the sources read again (a full build keeps only
    what it recalled), and their pages' bodies (`pages`: this build's)."""
    memo = cache.memo
    if loaded.base is not None:
        memo.kept.update(memo.known)
    elif loaded.record is not None:
        memo.kept = memo.known | memo.kept
        digests, current = loaded.record.get("digests", {}), set()
        articles = {article.slug: article for article in loaded.delta.articles}
        for slug, code in loaded.delta.sources:
            current.add(articles[slug].sources[code].digest)
        old = {digests.get(f"content/{slug}/{code}.md") for slug, code in loaded.delta.sources}
        memo.forget((SOURCE, OUTLINE, SECTIONS), old - current)
        blobs = set(loaded.replaced.values()) - {
            pages[path].blob for path in loaded.replaced if path in pages}
        if blobs:
            memo.forget_where(BODY, lambda value: KeptBody._make(value).blob in blobs)


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
                 progress: Callable[[int, int], None] | None = None,
                 view: Plan | None = None) -> Rendered:
    """Render these `stale` pages of the plan into the store, an article's languages
    together (they share its figures), over the cores when there are many. Each page is
    written as soon as it is rendered; only its cache entry comes back, with the
    translator's view's copies of the figures it placed, while their specs are loaded
    (unless the memo has them), its body (cache.keep_body) and its sections
    (load/sections.py: not parsed again). With a `view` plan, the translator's view is
    rendered too, first (the longest piece of work), and it makes the copies."""
    if not stale:
        return Rendered({}, {})
    renderer = make_renderer()
    renderer.compile_templates()

    def render_group(jobs: list[PageJob] | Plan) -> tuple[int, Rendered, list]:
        if isinstance(jobs, Plan):
            made, found = render_view(sources, jobs, renderer, cache, plan.rendering)
            return 0, Rendered({}, made.specs, made.copies, view=(jobs, made)), found
        found = renderer.collect_problems()
        entries, placed, bodies = {}, {}, {}
        for job in jobs:
            kept = plan.reusable.get(job)
            body = cache.load_body(kept) if kept else None
            page = renderer.render(job, body)
            placed.update(page.figures)
            if not found:
                entry = entries[page.path] = entry_of(page, plan.keys[job],
                                                      sources.dictionary, cache.store,
                                                      sources.site.search, kept)
                if page.body is not None or body is not None:   # kept where it now is
                    bodies[plan.bodies[job]] = cache.body_in_page(
                        page.body or body, page.html, entry, sources.dictionary)
        copies = {} if view else \
            figure_copies(renderer, set(placed), sources, cache, plan.rendering)
        part = Rendered(entries, renderer.figures.clean, copies, bodies, renderer.sections)
        renderer.figures.clean, renderer.sections = {}, {}
        return len(jobs), part, list(found)

    groups: dict[str, list[PageJob]] = {}
    for job in stale:
        groups.setdefault(job.slug or job.path, []).append(job)
    rendered, done, total = Rendered({}, {}), 0, len(stale)
    work = ([view] if view else []) + list(groups.values())
    for count, part, found in parallel.map_unordered(render_group, work, total):
        rendered.update(part)
        problems.extend(found)
        done += count
        if progress is not None:
            progress(done, total)
    return rendered


def render_view(sources: Sources, plan: Plan, renderer: Renderer, cache: Cache,
                rendering: str, sections: dict[str, str] | None = None
                ) -> tuple[Rendered, list[Problem]]:
    """Render the translator's view into the store if it is stale, streamed, with the
    problems found. The copies of the figures the memo holds are kept for the next build
    in any case, and read from the store only when the view is rendered (`rendering`:
    their render_key); the others are made (over the cores, outside a worker) and
    stored, for the next build to keep (Rendered.copies, by copy_key)."""
    remembered = remembered_copies(sources, cache, rendering)
    rendered, found = Rendered({}, {}), renderer.collect_problems()
    if not plan.stale:
        return rendered, []
    made = {}
    for figure_id, stored in remembered.items():
        copy = cache.load_copy(stored)
        if copy is not None:
            made[figure_id] = copy
    copies = view_copies(renderer, list(sources.figures), made)
    for figure_id in copies.keys() - made.keys():
        rendered.copies[copy_key(rendering, sources.figures[figure_id].digest)] = \
            cache.store_copy(copies[figure_id])
    job, digest = plan.stale[0], texts_digest((), sources.dictionary)
    for path, chunks in translator_view(renderer, sources, plan.links, copies,
                                        sections).items():
        # (A data file stored with the same bytes stays the same file: not written again.)
        stored = cache.store.put_chunks(chunks) if path == VIEW else \
            cache.store.put("".join(chunks))
        if not found:
            rendered.pages[path] = Entry(plan.keys[job], (), (), digest, *stored)
    rendered.specs, renderer.figures.clean = renderer.figures.clean, {}
    return rendered, list(found)


def remembered_copies(sources: Sources, cache: Cache, rendering: str) -> dict[str, StoredCopy]:
    """The view's figure copies the memo holds, by figure id: asked of it in this
    process, the memo keeps them for the next build."""
    remembered = {}
    for figure_id, file in sources.figures.items():
        stored = cache.stored_copy(copy_key(rendering, file.digest))
        if stored is not None:
            remembered[figure_id] = stored
    cache.memo.sweep(COPY)   # every copy still current was asked for: the others go
    return remembered


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
