"""The build, a list of stages: load and check the sources; plan which pages must be
rendered (the cache holds the others); render those, over the cores when there are many,
each page streamed to the cache's store as it is done; then the translator's view, which
links to the figures on those pages; check the figure specs no page needed; then
assemble the new site in a fresh folder and swap it in place of site/."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
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
from .cache import Cache, Entry, Store, StoredCopy, key_of, site_key, texts_digest
from .config import Site, load_site
from .content import Article, drop_drafts, load_articles
from .figures import FigureFile, FigureLibrary, scan_figures
from .pages import Page, PageJob, site_pages
from .problems import Problems
from .sourcefiles import Memo, read_bytes
from .texts import Dictionary, load_dictionary
from .translations import Record, load_record, record_path
from .translator_view import PATH as VIEW
from .translator_view import (
    Links,
    figure_copy,
    figure_links,
    render_translator_view,
    view_copies,
)

if TYPE_CHECKING:
    from .render import Renderer


@dataclass
class Sources:
    """Everything a build reads, loaded and checked (figure specs are parsed on demand)."""

    site: Site
    articles: list[Article]
    figures: dict[str, FigureFile]
    dictionary: Dictionary
    strings: Dictionary
    templates: dict[str, str]   # name -> text, for every UTF-8 file in templates/
    confirmed: Record           # the translations' confirmation record (translations.py)

    @functools.cached_property
    def key(self) -> str:
        """What every page depends on (cache.site_key)."""
        return site_key(self.site, self.templates, self.strings)

    def copy_key(self, figure: FigureFile) -> str:
        """The memo's key of a figure's copy for the translator's view."""
        return key_of(self.key, figure.digest)


@dataclass
class Plan:
    """Every page with its cache key; which the cache holds and which must be rendered."""

    keys: dict[PageJob, str]
    cached: dict[str, Entry]
    stale: list[PageJob]
    links: Links = field(default_factory=dict)   # the translator's view's: see plan_view


@dataclass
class Rendered:
    pages: dict[str, Entry]
    specs: dict[str, tuple[str, ...]]   # digest of each clean spec loaded -> its keys
    copies: dict[str, StoredCopy] = field(default_factory=dict)  # the view's, by copy_key


@dataclass
class Built:
    """What a build did, for its summary line."""

    pages: int
    rendered: list[str]   # the paths of the pages rendered; the others came from the cache
    languages: int
    seconds: float
    sources: Sources | None = None   # what it built from (serve's quick rebuilds start there)
    figures: FigureLibrary | None = None  # a quick rebuild's figure specs, for the next one

    def summary(self, where: str = "") -> str:
        rendered = len(self.rendered)
        return (f"Built {self.pages} pages in {self.languages} languages{where} in "
                f"{self.seconds:.2f} s ({rendered} rendered, {self.pages - rendered} "
                "unchanged)")


def build(root: Path, out: Path | None = None, *, clean: bool = False,
          progress: Callable[[int, int], None] | None = None,
          cache: Cache | None = None, written: Callable[[], None] | None = None,
          drafts: bool = False) -> Built:
    """Build the site under `root` into `out` (default root/site). Raises BuildError.

    `clean` ignores the cache (a full build); `progress(done, total)` follows rendering;
    `cache` is the cache to use, if not the one on disk under `root`; `written()` is
    called as soon as the new site is in place, before the cache is saved (serve reloads
    the open pages then); `drafts` includes the sources whose front matter says `draft`.
    """
    started = time.perf_counter()
    root = root.resolve()
    problems = Problems(root)
    cache = cache or Cache(root, clean=clean)
    sources = load_sources(root, problems, cache.memo, drafts=drafts)
    make_renderer = functools.cache(functools.partial(renderer_for, sources, problems))
    plan = plan_pages(sources, cache)
    rendered = render_pages(plan, make_renderer, sources, cache, problems, progress)
    for copy_key, stored in rendered.copies.items():
        cache.keep_copy(copy_key, stored)
    view = plan_view(sources, plan.cached | rendered.pages, cache)
    rendered_view = render_view(sources, view, make_renderer, cache, problems)
    for spec, keys in (rendered.specs | rendered_view.specs).items():
        cache.memo.keep("spec", spec, list(keys))
    check_figures(sources.figures, sources.dictionary, cache.memo, problems)
    problems.raise_if_any()
    pages = plan.cached | rendered.pages | view.cached | rendered_view.pages
    write_site(pages, cache.store, out or root / "site")
    if written is not None:
        written()
    cache.save(pages, sources.dictionary)
    return Built(len(pages), sorted(rendered.pages | rendered_view.pages),
                 len(sources.site.codes), time.perf_counter() - started, sources)


def load_sources(root: Path, problems: Problems, memo: Memo | None = None,
                 drafts: bool = False) -> Sources:
    """Load every source. Problems are collected; BuildError is raised here only when
    something the later stages cannot do without is unusable, so that rendering can
    still find and report the rest. `memo` spares parsing files already parsed by an
    earlier build. Draft sources are left out unless `drafts`."""
    memo = memo or Memo()
    site = load_site(root, problems)
    problems.raise_if_any()
    assert site is not None
    dictionary = load_dictionary(root / "figures" / "figure-texts.json", site.codes, problems)
    strings = load_dictionary(root / "templates" / "strings.yaml", site.codes, problems,
                              what="interface strings")
    templates = load_templates(root / "templates", problems)
    figures = scan_figures(root, problems)
    articles = load_articles(site, problems, memo)
    if not drafts:
        articles = drop_drafts(articles)
    if dictionary is None or strings is None:
        problems.raise_if_any()
    assert dictionary is not None and strings is not None
    confirmed = load_record(record_path(dictionary), site.codes, problems)
    return Sources(site, articles, figures, dictionary, strings, templates, confirmed)


def load_templates(folder: Path, problems: Problems) -> dict[str, str]:
    """Every text file under templates/ by name: what Jinja renders from, and what the
    cache keys on (a file that is not UTF-8 cannot be a template, and is left out)."""
    texts = {}
    for path in sorted(folder.rglob("*")):
        data = read_bytes(path, problems) if path.is_file() else None
        with contextlib.suppress(UnicodeDecodeError):
            if data is not None:
                texts[path.relative_to(folder).as_posix()] = data.decode("utf-8")
    return texts


def plan_pages(sources: Sources, cache: Cache) -> Plan:
    common = sources.key
    listings = key_of([article.listing() for article in sources.articles])
    articles = {article.slug: article for article in sources.articles}
    plan = Plan({}, {}, [])
    for job in site_pages(sources.site, sources.articles):
        if job.slug is None:
            key = key_of(common, job.template, job.language, listings)
        else:
            key = article_key(sources, articles[job.slug], job.language)
        plan.keys[job] = key
        entry = cache.reusable(job.path, key, sources.figures, sources.dictionary)
        if entry is None:
            plan.stale.append(job)
        else:
            plan.cached[job.path] = entry
    return plan


def article_key(sources: Sources, article: Article, language: str) -> str:
    """An article page's cache key: see cache.py."""
    return key_of(sources.key, "article.html", language, article.listing(),
                  article.sources[language].digest, article.references_digest)


def renderer_for(sources: Sources, problems: Problems, keep: int = 16,
                 library: FigureLibrary | None = None) -> Renderer:
    """A renderer of these sources; it loads each figure spec when first placed and keeps
    the `keep` most recent (in `library`, if given: one of these same figure files and
    dictionary)."""
    from .render import Renderer  # Jinja, markdown-it and latex2mathml: only when needed

    if library is None:
        library = FigureLibrary(sources.figures, sources.dictionary, problems, keep)
    library.problems = problems
    return Renderer(sources.site, sources.articles, library, sources.dictionary,
                    sources.strings, sources.templates, problems)


def render_pages(plan: Plan, make_renderer: Callable[[], Renderer], sources: Sources,
                 cache: Cache, problems: Problems,
                 progress: Callable[[int, int], None] | None = None) -> Rendered:
    """Render the stale pages into the store, an article's languages together (they share
    its figures), over the cores when there are many. Each page is written as soon as it
    is rendered; only its cache entry comes back, with the translator's view's copies of
    the figures it placed, while their specs are loaded (unless the memo has them)."""
    if not plan.stale:
        return Rendered({}, {})
    renderer = make_renderer()
    renderer.compile_templates()

    def render_group(jobs: list[PageJob]) -> tuple[int, dict[str, Entry], list, dict, dict]:
        found = renderer.collect_problems()
        entries, placed = {}, {}
        for job in jobs:
            page = renderer.render(job)
            placed.update(page.figures)
            if not found:
                entries[page.path] = entry_of(page, plan.keys[job], sources.dictionary,
                                              cache.store)
        copies = {}
        for figure_id in placed:
            file = sources.figures.get(figure_id)
            copy_key = file and sources.copy_key(file)
            if copy_key is None or cache.stored_copy(copy_key) is not None:
                continue
            spec = renderer.figures.get(figure_id)
            if spec is not None:
                copies[copy_key] = cache.store_copy(figure_copy(renderer, spec))
        specs, renderer.figures.clean = renderer.figures.clean, {}
        return len(jobs), entries, list(found), specs, copies

    groups: dict[str, list[PageJob]] = {}
    for job in plan.stale:
        groups.setdefault(job.slug or job.path, []).append(job)
    rendered, done, total = Rendered({}, {}), 0, len(plan.stale)
    for count, entries, found, specs, copies in parallel.map_unordered(
            render_group, list(groups.values()), total):
        rendered.pages.update(entries)
        rendered.specs.update(specs)
        rendered.copies.update(copies)
        problems.extend(found)
        done += count
        if progress is not None:
            progress(done, total)
    return rendered


def entry_of(page: Page, key: str, dictionary: Dictionary, store: Store) -> Entry:
    """Store a rendered page; its cache entry."""
    texts = tuple(sorted(page.texts))
    return Entry(key, tuple(sorted(page.figures.items())), texts,
                 texts_digest(texts, dictionary), *store.put(page.html))


def plan_view(sources: Sources, pages: dict[str, Entry], cache: Cache) -> Plan:
    """The translator's view's plan. The view shows every dictionary text, the
    confirmation record, every figure spec, and links to the figures on the article
    pages: its key covers all of these, so any change to them renders it again."""
    links = figure_links(sources.articles, {
        path: [figure_id for figure_id, _ in entry.figures] for path, entry in pages.items()})
    job = PageJob(VIEW, sources.site.default_language)
    key = key_of(sources.key, job.path,
                 sources.dictionary.texts, sources.confirmed,
                 [(file.id, file.digest) for file in sources.figures.values()], links)
    entry = cache.reusable(job.path, key, {}, sources.dictionary)
    if entry is None:
        return Plan({job: key}, {}, [job], links)
    return Plan({job: key}, {job.path: entry}, [], links)


def render_view(sources: Sources, plan: Plan, make_renderer: Callable[[], Renderer],
                cache: Cache, problems: Problems) -> Rendered:
    """Render the translator's view into the store if it is stale, streamed. The copies of
    the figures the memo holds are kept for the next build in any case; their HTML is
    read from the store only when the view is rendered."""
    remembered = {}
    for figure_id, file in sources.figures.items():
        stored = cache.stored_copy(sources.copy_key(file))
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
            cache.keep_copy(sources.copy_key(sources.figures[figure_id]),
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
