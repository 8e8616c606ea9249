"""serve's quick rebuilds, for the edits made most often: an article's body in one
language (or a few, saved together), and texts of the figure-text dictionary.

- Article sources: when the edit changes neither the article's front matter (the
  indexes, feeds and the other languages show it) nor the figures the page places (the
  translator's view links to them), only those pages can differ from the last build,
  and the indexes that show the source's word count and reading time, if they changed.
- The dictionary: when only texts changed (the same keys, in the same order, no problem
  in the file), only the pages that showed a changed text (the cache records which texts
  each page showed) and the translator's view can differ. The pages go first; the view,
  which at a thousand articles takes seconds, follows.

The pages are rendered exactly as a full build renders them, stored in the cache, and
put in site/ one by one, each file replaced in one atomic rename, with no scan of the
other sources and no new site folder. Anything else, or a problem found on the way, is
left to a full build, which also reports the problems with all their context.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable
from pathlib import Path

from .build import (
    Built,
    Sources,
    entry_of,
    page_key,
    plan_view,
    render_view,
    renderer_for,
)
from .cache import Cache, Entry
from .content import load_source
from .pages import PageJob, site_pages
from .problems import Problems
from .search import BUNDLE, refresh, search_bundle
from .texts import load_dictionary

Written = Callable[[list[str]], None]


def quick_build(root: Path, last: Built, cache: Cache, paths: list[Path],
                written: Written | None = None) -> Built | None:
    """Rebuild after `paths` were saved, on top of the `last` good build whose cache is
    `cache`; None when this takes a full build. `written(paths)` follows each change to
    site/, with the paths of the pages it replaced."""
    started = time.perf_counter()
    if last.sources is None or not paths:
        return None
    paths = [path.resolve() for path in paths]
    problems = Problems(root)
    dictionary = paths == [last.sources.dictionary.path.resolve()]
    found = (_dictionary_edit(last.sources, cache, problems) if dictionary
             else _article_edits(last, cache, paths, problems))
    if found is None:
        return None
    sources, jobs = found
    if not all((root / "site" / job.path).is_file() for job in jobs):
        return None  # site/ is not what the last build left
    # With no spec and no dictionary text changed, the specs parsed last time still hold.
    renderer = renderer_for(sources, problems, library=None if dictionary else last.figures)
    entries = {}
    for job in jobs:
        page = renderer.render(job)
        if problems or dict(cache.pages[job.path].figures).keys() != page.figures.keys():
            return None  # a problem, or the view's links to figures would change
        entries[job.path] = entry_of(page, page_key(sources, job, renderer.articles),
                                     sources.dictionary, cache.store)
    cache.memo.kept.update(cache.memo.known)  # the rest of the last build still holds
    pages = cache.pages | entries
    _place(root, entries, cache, written)
    # The search index follows the pages it was made from (search.py).
    old = {path: entry for path, entry in pages.items() if path.startswith(f"{BUNDLE}/")}
    bundle = search_bundle(pages, cache.store, cache.pages, problems, root)
    if problems:
        return None
    refresh(root / "site", old, bundle, cache.store)
    pages = {path: entry for path, entry in pages.items() if path not in old} | bundle
    view = plan_view(sources, pages, cache) if dictionary else None  # else: same links
    if view is not None and view.stale:
        rendered = render_view(sources, view, lambda: renderer, cache, problems)
        if problems:
            return None
        entries |= rendered.pages
        pages |= rendered.pages
        _place(root, rendered.pages, cache, written)
    cache.save(pages, sources.dictionary)
    return Built(len(pages) - len(bundle), sorted(entries), len(sources.site.codes),
                 time.perf_counter() - started, sources, renderer.figures)


def _article_edits(last: Built, cache: Cache, paths: list[Path],
                   problems: Problems) -> tuple[Sources, list[PageJob]] | None:
    """The sources with these article sources read again, and the pages to render."""
    sources = last.sources
    assert sources is not None
    articles = {article.slug: article for article in sources.articles}
    changed: dict[str, dict] = {}
    for path in paths:
        slug, code = path.parent.name, path.stem
        article = articles.get(slug)
        if (path.suffix != ".md" or path.parent.parent != sources.site.root / "content"
                or article is None or code not in article.sources):
            return None
        source = load_source(path, code, problems, cache.memo)
        if source is None or problems:
            return None
        changed.setdefault(slug, {})[code] = source
    counted = set()   # the languages whose index shows a word count that changed
    for slug, new in changed.items():
        old = articles[slug]
        articles[slug] = dataclasses.replace(old, sources=old.sources | new)
        listing, before = articles[slug].listing(), old.listing()
        if listing.without_counts() != before.without_counts():
            return None
        counted |= {language for language in sources.site.codes
                    if listing.sources[listing.shown_in(language)]
                    != before.sources[before.shown_in(language)]}
    sources = dataclasses.replace(sources, articles=[articles[a.slug] for a in sources.articles])
    jobs = [PageJob("index.html", code) for code in sources.site.codes if code in counted]
    jobs += [PageJob("article.html", code, slug) for slug, new in changed.items()
             for code in new]
    return sources, jobs


def _dictionary_edit(sources: Sources, cache: Cache,
                     problems: Problems) -> tuple[Sources, list[PageJob]] | None:
    """The sources with the dictionary read again, and the pages that showed a text
    that changed."""
    old = sources.dictionary
    new = load_dictionary(old.path, sources.site.codes, problems)
    if new is None or problems or list(new.texts) != list(old.texts):
        return None
    changed = {(key, code) for key, texts in new.texts.items() for code, text in texts.items()
               if old.texts[key].get(code) != text}
    if not changed:
        return None
    jobs = [job for job in site_pages(sources.site, sources.articles)
            if job.slug is not None and not changed.isdisjoint(cache.pages[job.path].texts)]
    return dataclasses.replace(sources, dictionary=new), jobs


def _place(root: Path, entries: dict[str, Entry], cache: Cache,
           written: Written | None) -> None:
    """Put stored pages in site/, each file replaced in one atomic rename."""
    if not entries:
        return
    site = root / "site"
    for path, entry in entries.items():
        temporary = site / f".{path.replace('/', '-')}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()  # left by a killed build
        cache.store.place(entry.blob, temporary)
        os.replace(temporary, site / path)
    if written is not None:
        written(sorted(entries))
