"""The translator's view, `site/translations.html`: every dictionary key, where it is used,
its text in every language side by side, and its status.

Statuses known from the sources (missing, untranslated, stale) are written at build
time. Overflow needs a browser: the page carries a hidden copy of every figure in every
language and measures them live with `measure.js`, the same code `check` runs in
Chromium; without JavaScript the page says that fit was not measured. The page is
deterministic: it is the same bytes for the same sources.

What it shows depends on every dictionary text, the confirmation record, every figure
spec and which article page places which figure (`figure_links`); the build's cache key
for it covers exactly these (build.plan_view).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.resources import files
from typing import TYPE_CHECKING

from markupsafe import Markup

from .content import Article
from .pages import Page
from .texts import rich_text
from .translations import OK, Status, status

if TYPE_CHECKING:
    from .build import Sources
    from .render import Renderer

PATH = "translations.html"

Links = dict[str, dict[str, str]]  # figure id -> language -> page#figure


@dataclass
class Use:
    figure: str
    element: str
    links: dict[str, str]  # language -> page#figure, where an article shows the figure


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
        return not self.uses or any(cell.status.state != OK for cell in self.cells)


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


def render_translator_view(renderer: Renderer, sources: Sources, links: Links) -> Page:
    """The page; each figure spec is loaded once, through the renderer's library."""
    site = sources.site
    table = {key: Row(key) for key in sources.dictionary.texts}
    copies: dict[str, list[str]] = {code: [] for code in site.codes}
    for figure_id in sources.figures:
        spec = renderer.figures.get(figure_id)
        if spec is None:
            continue  # its problems are reported
        for key, element, _ in spec.used_keys():
            if key in table:
                table[key].uses.append(Use(figure_id, element, links.get(figure_id, {})))
        for code in site.codes:
            copies[code].append(renderer.render_figure(spec, code, copy=code))
    for key, row in table.items():
        texts = sources.dictionary.texts[key]
        row.cells = [Cell(code, rich_text(texts.get(code, "")), status(sources, key, code))
                     for code in site.codes]
    script = files("articlesite").joinpath("measure.js").read_text(encoding="utf-8")
    return Page(PATH, renderer.page_html(
        PATH, "translations.html", site.default_language, rows=list(table.values()),
        copies=copies, measure_script=Markup(script), dictionary=sources.dictionary.path.name))
