"""The translator's view, `site/translations.html`: every dictionary key, where it is used,
its text in every language side by side, and its status.

Statuses known from the sources (missing, untranslated, stale) are written at build
time. Overflow needs a browser: the page carries a hidden copy of every figure in every
language and measures them live with `measure.js`, the same code `check` runs in
Chromium; without JavaScript the page says that fit was not measured. The page is
deterministic: it is the same bytes for the same sources.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources import files
from typing import TYPE_CHECKING

from markupsafe import Markup

from . import markdown
from .render import Page, Renderer
from .texts import rich_text
from .translations import OK, Status, status

if TYPE_CHECKING:
    from .build import Sources

PATH = "translations.html"


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


def figure_links(sources: Sources) -> dict[str, dict[str, str]]:
    """figure id -> language -> the first article page that shows it."""
    links: dict[str, dict[str, str]] = {}
    for article in sources.articles:
        for code, source in article.sources.items():
            outline = markdown.outline_of(source.body, source.body_line)
            for figure_id, _, _ in outline.figures:
                links.setdefault(figure_id, {}).setdefault(
                    code, f"{code}/{article.slug}.html#figure-{figure_id}")
    return links


def rows(sources: Sources) -> list[Row]:
    links = figure_links(sources)
    table = {key: Row(key) for key in sources.dictionary.texts}
    for figure in sources.figures.values():
        for key, element, _ in figure.used_keys():
            if key in table:
                table[key].uses.append(Use(figure.id, element, links.get(figure.id, {})))
    for key, row in table.items():
        texts = sources.dictionary.texts[key]
        row.cells = [Cell(code, rich_text(texts.get(code, "")), status(sources, key, code))
                     for code in sources.site.codes]
    return list(table.values())


def render_translator_view(sources: Sources, renderer: Renderer) -> Page:
    site = sources.site
    copies = {code: [renderer.render_figure(spec, code, copy=code)
                     for spec in sources.figures.values()] for code in site.codes}
    script = files("articlesite").joinpath("measure.js").read_text(encoding="utf-8")
    return renderer.page(PATH, "translations.html", site.default_language,
                         rows=rows(sources), copies=copies, measure_script=Markup(script),
                         dictionary=sources.dictionary.path.name)
