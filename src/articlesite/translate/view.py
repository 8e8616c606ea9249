"""The translator's view, `site/translations.html`: every dictionary key, where it is used,
its text in every language side by side, and its status.

Statuses known from the sources (missing, untranslated, stale) are written at build
time. Overflow needs a browser: the page carries one copy of each figure, in no
language (its boxes, without edges, with each text's key); its script, `measure.js`,
makes a copy in every language from the texts in the table and measures them live,
the same code `check` runs in Chromium. Without JavaScript the page says that fit was
not measured. The page is deterministic: it is the same bytes for the same sources.

It also lists every article's sections side by side, in every language, with the state
of each translated section (load/sections.py) and a link to it.

What it shows depends on every dictionary text, the confirmation record, every figure
spec, which article page places which figure (`figure_links`) and the articles' sections
and their states; the build's cache key for it covers exactly these (build.plan_view).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib.resources import files
from typing import TYPE_CHECKING

from markupsafe import Markup

from .. import parallel
from ..load.config import Site
from ..load.content import Article
from ..load.markup import rich_text
from .record import SETTLED, Status, status

if TYPE_CHECKING:
    from ..load.figures import Figure
    from ..load.sources import Sources
    from ..render.templates import Renderer

PATH = "translations.html"
CHUNK = 25  # figures per unit of work when copies are made over the cores

# A figure's copy for the view: the (key, element) of each text it shows, and its HTML.
Copy = tuple[list[tuple[str, str]], str]

Links = dict[str, dict[str, str]]  # figure id -> language -> page#figure


@dataclass
class Use:
    figure: str
    element: str
    links: Markup  # to the figure where an article shows it, in each language (links_html)


@dataclass
class Cell:
    language: str
    text: Markup
    status: Status


@dataclass
class Row:
    key: str
    uses: list[Use] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)

    @property
    def problem(self) -> bool:
        return not self.uses or any(cell.status.state not in SETTLED for cell in self.cells)


def figure_links(articles: list[Article], placed: dict[str, Iterable[str]]) -> Links:
    """For each figure and language, the first article page that shows it; `placed` maps
    each article page's path to the ids of the figures it places."""
    links: Links = {}
    for article in articles:
        for code in article.sources:
            path = f"{code}/{article.slug}.html"
            for figure_id in placed.get(path, ()):
                links.setdefault(figure_id, {}).setdefault(code, f"{path}#figure-{figure_id}")
    return links


def render_translator_view(renderer: Renderer, sources: Sources, links: Links,
                           copies: dict[str, Copy]) -> Iterator[str]:
    """The page, in pieces (it grows with the site: it is written out as it is rendered,
    never held whole); `copies` are view_copies' for every figure."""
    site = sources.site
    table = {key: Row(key) for key in sources.dictionary.texts}
    for figure_id in sources.figures:
        html = links_html(site, links.get(figure_id, {}))
        for key, element in copies.get(figure_id, ((), ""))[0]:
            if key in table:
                table[key].uses.append(Use(figure_id, element, html))
    for key, row in table.items():
        texts = sources.dictionary.texts[key]
        row.cells = [Cell(lang.code, rich_text(texts.get(lang.code, ""), lang.lang),
                          status(sources, key, lang.code)) for lang in site.languages]
    script = files("articlesite.translate").joinpath("measure.js").read_text(encoding="utf-8")
    articles = [(article.slug, sources.sections.table(article.slug))
                for article in sources.articles]
    return renderer.page_chunks(
        PATH, "translations.html", site.default_language, rows=list(table.values()),
        articles=articles,
        copies=[copies[figure_id][1] for figure_id in sources.figures if figure_id in copies],
        measure_script=Markup(script), dictionary=sources.dictionary.path.name)


def links_html(site: Site, links: dict[str, str]) -> Markup:
    """' en ja zh' linking to a figure on each language's page: made once per figure,
    as a shared key's row lists every figure showing it (thousands, in a large site)."""
    link = Markup(' <a href="{}" hreflang="{}">{}</a>')
    return Markup("").join(link.format(links[language.code], language.lang, language.code)
                           for language in site.languages if language.code in links)


def figure_copy(renderer: Renderer, spec: Figure) -> Copy:
    return ([(key, element) for key, element, _ in spec.used_keys()],
            renderer.render_copy(spec))


def view_copies(renderer: Renderer, figure_ids: list[str], made: dict[str, Copy]) -> dict:
    """The copy of each figure whose spec loads: those already `made` (by the workers
    that rendered the pages placing them, or an earlier build), the others made now, over
    the cores when there are many."""
    missing = [figure_id for figure_id in figure_ids if figure_id not in made]
    chunks = [missing[i:i + CHUNK] for i in range(0, len(missing), CHUNK)]
    copies = dict(made)
    for found, clean in parallel.map_unordered(
            functools.partial(_copies_of, renderer), chunks, len(missing)):
        copies.update(found)
        renderer.figures.clean.update(clean)
    return copies


def _copies_of(renderer: Renderer, figure_ids: list[str]) -> tuple[dict, dict]:
    """The copies of these figures, and the digests of the specs that loaded clean, with
    their keys. A spec's problems are not returned: the build reports them when it checks
    every spec (build.check_figures), as `check` does."""
    found = {}
    for figure_id in figure_ids:
        spec = renderer.figures.get(figure_id)
        if spec is not None:
            found[figure_id] = figure_copy(renderer, spec)
    clean, renderer.figures.clean = renderer.figures.clean, {}
    return found, clean
