"""serve's quick rebuild, for the edit an author makes most: the body of an article in
one language (or a few, saved together).

When every file saved is an existing article source, and the edit changes neither the
article's title or description (the indexes and the other languages show them) nor the
figures the page places (the translator's view links to them), then only those pages
can differ from the last build. They are rendered exactly as a full build renders them,
stored in the cache, and put in site/ one by one, each file replaced in one atomic
rename, with no scan of the other sources and no new site folder. Anything else, or a
problem found on the way, is left to a full build, which also reports the problems with
all their context.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable
from pathlib import Path

from .build import Built, article_key, entry_of, renderer_for
from .cache import Cache
from .content import load_source
from .pages import PageJob
from .problems import Problems


def quick_build(root: Path, last: Built, cache: Cache, paths: list[Path],
                written: Callable[[], None] | None = None) -> Built | None:
    """Rebuild after `paths` were saved, on top of the `last` good build whose cache is
    `cache`; None when this takes a full build."""
    started = time.perf_counter()
    sources = last.sources
    if sources is None or not paths:
        return None
    problems = Problems(root)
    articles = {article.slug: article for article in sources.articles}
    changed: dict[str, dict] = {}
    for path in (path.resolve() for path in paths):
        slug, code = path.parent.name, path.stem
        article = articles.get(slug)
        if (path.suffix != ".md" or path.parent.parent != root / "content" or article is None
                or code not in article.sources):
            return None
        source = load_source(path, code, problems, cache.memo)
        if source is None or problems:
            return None
        changed.setdefault(slug, {})[code] = source
    for slug, new in changed.items():
        old = articles[slug]
        articles[slug] = dataclasses.replace(old, sources=old.sources | new)
        if articles[slug].listing() != old.listing():
            return None
    sources = dataclasses.replace(sources, articles=[articles[a.slug] for a in sources.articles])
    library = last.figures  # no spec and no dictionary text changed: keep those parsed
    renderer = renderer_for(sources, problems, library=library if library is not None and
                            library.files is sources.figures and
                            library.dictionary is sources.dictionary else None)
    entries = {}
    for slug, new in changed.items():
        for code in new:
            job = PageJob("article.html", code, slug)
            page = renderer.render(job)
            if problems or dict(cache.pages[job.path].figures).keys() != page.figures.keys():
                return None
            entries[job.path] = entry_of(page, article_key(sources, articles[slug], code),
                                         sources.dictionary, cache.store)
    site = root / "site"
    for path, entry in entries.items():
        temporary = site / f".{path.replace('/', '-')}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()  # left by a killed build
        cache.store.place(entry.blob, temporary)
        os.replace(temporary, site / path)
    if written is not None:
        written()
    pages = cache.pages | entries
    cache.memo.kept.update(cache.memo.known)  # the rest of the last build still holds
    cache.save(pages, sources.dictionary)
    return Built(len(pages), sorted(entries), len(sources.site.codes),
                 time.perf_counter() - started, sources, renderer.figures)
