"""Loading again after a save (serve): the previous build's sources with only the files
saved read again, when that is all that changed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..memo import Memo
from ..problems import Problems
from .content import load_source
from .sections import parse_source
from .sourcefiles import SourceChanged
from .sources import Sources
from .texts import load_dictionary


def reload_sources(sources: Sources, changed: list[Path], memo: Memo,
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
                or new.fallbacks != old.fallbacks or new.same != old.same):
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
        source = load_source(path, code, problems, memo)
        if source is None or problems or (source.meta.draft and not drafts):
            return None
        try:
            parsed[source.digest] = parse_source(source, memo)[0]
        except SourceChanged:
            return None
        edited.setdefault(slug, {})[code] = source
    for slug, new_sources in edited.items():
        old = articles[slug]
        articles[slug] = dataclasses.replace(old, sources=old.sources | new_sources)
    edited_sources = dataclasses.replace(   # whose sections are those parsed above
        sources, articles=[articles[a.slug] for a in sources.articles], memo=memo)
    if edited_sources.sections.key(edited) != sources.sections.key(edited):
        return None   # sections' states changed: other pages and the view show them
    return edited_sources
