"""What a build must render: every page with its cache key, and whether the cache holds
it (plan_pages, plan_view). On top of the previous build (serve), only what a change
can touch: the delta between the two builds' sources (compare) and the pages that read
what changed (page_jobs); the others keep their entries.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .cache import (
    Cache,
    Entry,
    KeptBody,
    PageKeys,
    article_key,
    body_key,
    index_key,
    listings_digest,
    view_key,
)
from .load.content import Article, remembered_source
from .load.sections import parse_source
from .load.sourcefiles import SourceChanged
from .load.sources import Sources
from .load.texts import Dictionary
from .memo import OUTLINE, SECTIONS, Memo
from .pages import PageJob, site_pages
from .render import assets
from .translate.view import PATH as VIEW
from .translate.view import Links, figure_links, is_view_file


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
    reusable: dict[PageJob, KeptBody] = field(default_factory=dict)
    page_keys: PageKeys | None = None   # what pages depend on, by template (cache.py)
    # The article pages the parse stage rendered, by path (build.parse), and those of
    # them planned: their key is the page's.
    fresh: dict[str, Entry] = field(default_factory=dict)
    rendered: dict[str, Entry] = field(default_factory=dict)


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
    """The delta from `previous` (the previous build's sources, with the same site_key)
    to `sources`, or None when more changed than a delta covers."""
    if previous is None or previous.figures is not sources.figures or \
            len(previous.articles) != len(sources.articles):
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


def delta_since(sources: Sources, site_key: str, record: dict, changed: set[str],
                memo: Memo, parsed: dict[str, list]) -> Delta | None:
    """The delta from the last good build to `sources`, when only article sources of
    articles it had changed since (`changed`: the names under the project that differ
    from its record, unchanged.Since) and its memo remembers what it parsed of each: the
    command line's quick rebuild, as serve's (compare), the previous sources made again
    from the record's digests and the memo without reading a file. None when more
    changed (a file added or removed, a figure, a template, the dictionary, a listing,
    the sections' states): then the build plans and checks every page. Each edited
    source is parsed, its tokens put in `parsed` by digest."""
    if not changed or record.get("site_key") != site_key:
        return None
    digests, edited = record.get("digests", {}), {}
    for name in changed:
        parts = name.split("/")
        if len(parts) != 3 or parts[0] != "content" or not parts[2].endswith(".md") \
                or name not in digests:
            return None
        edited.setdefault(parts[1], {})[parts[2][:-3]] = digests[name]
    articles = []
    for article in sources.articles:
        was = edited.get(article.slug)
        if was is None:
            articles.append(article)
            continue
        before = dict(article.sources)
        for code, digest in was.items():
            source = article.sources.get(code)
            remembered = None if source is None or not memo.has(SECTIONS, digest) else \
                remembered_source(source.path, code, digest, memo)
            if remembered is None:   # a draft now, or parsed by no build the memo knows
                return None
            before[code] = remembered
        articles.append(dataclasses.replace(article, sources=before))
    previous = dataclasses.replace(sources, articles=articles)
    delta = compare(previous, sources)
    if delta is None or {article.slug for article in delta.articles} != edited.keys():
        return None
    for slug, code in delta.sources:
        source = next(a for a in delta.articles if a.slug == slug).sources[code]
        try:
            parsed.setdefault(source.digest, parse_source(source, memo)[0])
        except SourceChanged:
            return None
    slugs = sorted(edited)
    if previous.sections.key(slugs) != sources.sections.key(slugs):
        return None   # sections' states changed: other pages and the view show them
    return delta


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
    listings: str | None = None
    files = assets.Files(sources.site.root)
    languages = {article.slug: " ".join(article.sources) for article in sources.articles}
    for job in jobs:
        if job.slug is None:
            if listings is None and job.template not in SHOWING_NO_ARTICLE:
                listings = listings_key(sources)
            key = site_page_key(job, sources, plan.page_keys, listings or "")
        else:
            article = articles[job.slug]
            source, notices = article.sources[job.language], \
                sources.sections.notices(article.slug, job.language)
            key = article_key(plan.page_keys.page(job.template), job.language,
                              article.listing().without_counts(),
                              source.digest, article.references_digest, notices)
            plan.bodies[job] = body_key(plan.rendering, job.slug, job.language, source.digest,
                                        article.references_digest, notices)
        plan.keys[job] = key
        fresh = plan.fresh.get(job.path)
        if fresh is not None and fresh.key == key:
            plan.rendered[job.path] = fresh   # its body was kept when it was rendered
            continue
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
            if body is not None and assets.current(body.files, files, languages, cache.store):
                plan.reusable[job] = body
        else:
            plan.cached[job.path] = entry


# The pages that are no article's and show none.
SHOWING_NO_ARTICLE = ("404.html", "robots.txt")


def listings_key(sources: Sources) -> str:
    """What every page listing the articles shows of them (without their lengths)."""
    return listings_digest([(a.slug, [(code, source.meta.uncounted_digest)
                                      for code, source in a.sources.items()])
                            for a in sources.articles])


def site_page_key(job: PageJob, sources: Sources, page_keys: PageKeys, listings: str) -> str:
    """The key of a page that is no article's (the root page, an index, a feed, the
    sitemap, 404.html, robots.txt); `listings` is listings_key's (unused by a page
    SHOWING_NO_ARTICLE)."""
    if job.template in SHOWING_NO_ARTICLE:
        return index_key(page_keys.page(job.template), job.template, job.language, "")
    # An index also shows the length of the version it shows of each article.
    lengths = "" if job.template != "index.html" else listings_digest([
        (a.slug, shown.meta.words, shown.meta.minutes) for a in sources.articles
        for shown in [a.sources[a.shown_in(job.language)]]])
    return index_key(page_keys.page(job.template), job.template, job.language,
                     listings + lengths)


def plan_view(sources: Sources, pages: dict[str, Entry], cache: Cache,
              delta: Delta | None = None, plan: Plan | None = None) -> Plan:
    """The translator's view's plan. The view shows every dictionary text, the
    confirmation record, every figure spec, and links to the figures on the article
    pages: its key covers all of these, so any change to them renders it again. With a
    `delta` that changed no dictionary text, when no page `plan` rendered places other
    figures than it did, the view the previous build left holds."""
    job = PageJob(VIEW, sources.site.default_language)
    entry = cache.pages.get(job.path)
    held = view_files(cache, entry.key, stored=False) if entry is not None else None
    if held is not None and plan is not None and delta is not None \
            and not delta.dictionary_changed \
            and all(stale.path in cache.pages and stale.path in pages
                    and pages[stale.path].figures == cache.pages[stale.path].figures
                    for stale in plan.stale):
        return Plan({job: entry.key}, held, [])
    return _view_plan(sources, cache, plan, figure_links(sources.articles, {
        path: [figure_id for figure_id, _ in entry.figures] for path, entry in pages.items()}))


def plan_view_early(sources: Sources, cache: Cache, plan: Plan) -> Plan | None:
    """The translator's view's plan before the pages of `plan` are rendered, if the view
    must be rendered: the figures each stale article page will place are those its
    source's outline (in the memo) places. The pages rendered, plan_view's key says
    whether this one held (build.render_the_view)."""
    placed = {path: [figure_id for figure_id, _ in entry.figures]
              for path, entry in (plan.cached | plan.rendered).items()}
    articles = {article.slug: article for article in sources.articles}
    for job in plan.stale:
        if job.slug is not None:
            outline = cache.memo.recall(OUTLINE, articles[job.slug].sources[job.language].digest)
            if outline is None:
                return None
            # As a page's entry lists them: each figure once, by id.
            placed[job.path] = sorted({figure_id for figure_id, *_ in outline[1]})
    view = _view_plan(sources, cache, plan, figure_links(sources.articles, placed))
    return view if view.stale else None


def _view_plan(sources: Sources, cache: Cache, plan: Plan, links: Links) -> Plan:
    job = PageJob(VIEW, sources.site.default_language)
    key = view_key(plan.page_keys.page(VIEW), job.path, cache.texts_key(sources.dictionary),
                   sources.confirmed,
                   [(file.id, file.digest) for file in sources.figures.values()], links,
                   sources.sections.key())
    entry = cache.reusable(job.path, key, {}, sources.dictionary)
    held = view_files(cache, key) if entry is not None else None
    if held is None:
        return Plan({job: key}, {}, [job], links)
    return Plan({job: key}, held, [], links)


def view_files(cache: Cache, key: str, stored: bool = True) -> dict[str, Entry] | None:
    """The entries of the view's files (its page and the files beside it) in the cache,
    if all were rendered with this `key` (and, if `stored`, the store holds them)."""
    held = {path: entry for path, entry in cache.pages.items() if is_view_file(path)}
    if VIEW not in held or any(entry.key != key or (stored and not cache.store.holds(entry))
                               for entry in held.values()):
        return None
    return held


def same_keys(previous: Sources | None, sources: Sources) -> bool:
    """Whether the dictionary has the keys it had in the `previous` sources (the figure
    specs were checked against them)."""
    return previous is not None and \
        list(previous.dictionary.texts) == list(sources.dictionary.texts)
