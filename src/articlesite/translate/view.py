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
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.resources import files
from typing import TYPE_CHECKING

from markupsafe import Markup

from .. import parallel
from ..load.config import Site
from ..load.content import Article
from ..load.markup import quick_escape as escape
from ..load.markup import rich_text
from .record import SETTLED, Status, status

SECTION_PROBLEMS = ("stale", "missing")   # a section's states a translator must act on

if TYPE_CHECKING:
    from ..load.figures import Figure
    from ..load.sources import Sources
    from ..render.templates import Renderer

PATH = "translations.html"
FOLDER = "translations"   # the view's data files, beside it (view.js loads them)
CHUNK = 25  # figures per unit of work when copies are made over the cores
KEYS_PER_FILE = 250   # rows of keys in each of the view's files of keys
USES_SHOWN = 12       # figures a key's row lists; beyond them, how many others
CANVAS = ("node ", "label ")   # the elements whose texts a figure breaks between phrases

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
    uses: list[Use] = field(default_factory=list)   # the first USES_SHOWN
    cells: list[Cell] = field(default_factory=list)
    more: int = 0   # the figures showing it beyond those in `uses`

    def add_use(self, use: Use) -> None:
        if len(self.uses) < USES_SHOWN:
            self.uses.append(use)
        else:
            self.more += 1

    @property
    def problem(self) -> bool:
        return not self.uses or any(cell.status.state not in SETTLED for cell in self.cells)


@dataclass
class Group:
    """What the view loads at once when a translator opens it: an article (its sections,
    the figures its pages show), a figure no article shows, or the keys no figure shows;
    with the keys its figures show, in the dictionary's order."""

    name: str           # its file's, FOLDER/NAME.js
    label: str          # the article's slug, the figure's id; "" for the unused keys
    slug: str | None    # an article's
    figures: list[str]
    keys: list[str]
    problems: int = 0   # its keys and its sections with a problem
    sections: int = 0   # its article's sections


def is_view_file(path: str) -> bool:
    """Whether a path of the site is the view's: its page or a file beside it."""
    return path == PATH or is_view_data(path)


def is_view_data(path: str) -> bool:
    """Whether a path of the site is one of the files beside the view, which it loads."""
    return path.startswith(f"{FOLDER}/")


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


def translator_view(renderer: Renderer, sources: Sources, links: Links,
                    copies: dict[str, Copy], sections: dict[str, str] | None = None
                    ) -> dict[str, Iterable[str]]:
    """The view's files by path: the page, in pieces (written out as it is rendered), an
    index of the articles and figures and of every key; beside it under FOLDER, each
    group's file (an article's sections and the figures it shows, a figure no article
    shows, the keys no figure shows) and the rows of the keys, KEYS_PER_FILE a file, in
    the dictionary's order. `copies` are view_copies' for every figure; `sections`, the
    tables of the articles' sections made already (Parts.sections), by slug."""
    site, texts = sources.site, sources.dictionary.texts
    table = {key: Row(key) for key in texts}
    phrased: set[str] = set()   # shown on a figure's canvas, broken between phrases there
    for figure_id in sources.figures:
        html = links_html(site, links.get(figure_id, {}))
        for key, element in copies.get(figure_id, ((), ""))[0]:
            if key in table:
                table[key].add_use(Use(figure_id, element, html))
                if element.startswith(CANVAS):
                    phrased.add(key)
    for key, row in table.items():
        row.cells = [Cell(lang.code, rich_text(texts[key].get(lang.code, ""),
                                               lang.lang if key in phrased else None),
                          status(sources, key, lang.code)) for lang in site.languages]
    parts = Parts(renderer, site)
    keys = list(table)
    found = {f"{FOLDER}/keys-{number}.js": parts.data(f"keys-{number}", {"rows": [
        [key, parts.row(table[key])] for key in keys[start:start + KEYS_PER_FILE]]})
        for number, start in enumerate(range(0, len(keys), KEYS_PER_FILE))}
    groups = view_groups(sources, links, copies, table)
    made = sections or {}
    for group in groups:
        slug = group.slug
        found[f"{FOLDER}/{group.name}.js"] = parts.data(group.name, {
            "sections": None if not slug else made[slug] if slug in made else
            parts.sections(slug, sources.sections.table(slug)),
            "figures": [[figure_id, copies[figure_id][1]] for figure_id in group.figures],
            "keys": group.keys})
    size = sum(len(text) for text in found.values())
    script = view_script()
    index = {"keys": keys, "per": KEYS_PER_FILE, "folder": FOLDER,
             "groups": [group.name for group in groups], "size": size,
             "figures": sum(1 for figure_id in sources.figures if figure_id in copies)}
    return {PATH: renderer.page_chunks(
        PATH, "translations.html", site.default_language, groups=groups,
        keys=len(keys), figures=len(sources.figures), measure_script=Markup(script),
        index=Markup(json.dumps(index, ensure_ascii=False).replace("<", "\\u003c")),
        dictionary=sources.dictionary.path.name), **{path: (text,) for path, text in found.items()}}


def view_groups(sources: Sources, links: Links, copies: dict[str, Copy],
                table: dict[str, Row]) -> list[Group]:
    """The articles in order, each with the figures its pages show (`links`), then each
    figure no article shows, then the keys no figure shows."""
    position = {key: number for number, key in enumerate(table)}
    shown: dict[str, list[str]] = {}   # article slug -> the figures its pages show
    alone = []
    for figure_id in sources.figures:
        if figure_id not in copies:
            continue   # its spec did not load: the build says why
        slugs = {link.split("#")[0].split("/", 1)[1].removesuffix(".html")
                 for link in links.get(figure_id, {}).values()}
        for slug in sorted(slugs):
            shown.setdefault(slug, []).append(figure_id)
        if not slugs:
            alone.append(figure_id)

    def keys_of(figures: list[str]) -> list[str]:
        used = {key for figure_id in figures for key, _ in copies[figure_id][0]}
        return sorted((key for key in used if key in position), key=position.__getitem__)

    groups = []
    for article in sources.articles:
        figures = shown.get(article.slug, [])
        sections = sources.sections.table(article.slug)
        group = Group(f"article-{article.slug}", article.slug, article.slug, figures,
                      keys_of(figures), sections=len(sections))
        group.problems = sum(1 for _, cells in sections
                             if any(cell.state in SECTION_PROBLEMS for cell in cells))
        groups.append(group)
    groups += [Group(f"figure-{figure_id}", figure_id, None, [figure_id],
                     keys_of([figure_id])) for figure_id in alone]
    unused = [key for key, row in table.items() if not row.uses]
    if unused:
        groups.append(Group("unused", "", None, [], unused))
    for group in groups:
        group.problems += sum(1 for key in group.keys if table[key].problem)
    return groups


class Parts:
    """The view's pieces from the theme's macros (translation-rows.html), and its files
    of data: `articlesiteView.add(NAME, DATA)`, a script (a page opened from a file may
    load scripts beside it, not read files)."""

    TEMPLATE = "translation-rows.html"

    def __init__(self, renderer: Renderer, site: Site):
        from ..render.templates import TEMPLATE_MISTAKES  # (Jinja: only when rendering)

        self.renderer, self.site, self.module = renderer, site, None
        self.mistakes = TEMPLATE_MISTAKES
        try:
            self.module = renderer.env.get_template(self.TEMPLATE).module
        except self.mistakes as exc:
            renderer.template_error(self.TEMPLATE, exc)

    def _call(self, macro: str, *args) -> str:
        if self.module is None:
            return ""
        try:
            return str(getattr(self.module, macro)(*args, self.site))
        except self.mistakes as exc:
            self.renderer.template_error(self.TEMPLATE, exc)
            self.module = None
            return ""

    def row(self, row: Row) -> str:
        return self._call("key_row", row)

    def sections(self, slug: str, sections: list) -> str:
        return self._call("sections_table", slug, sections)

    @staticmethod
    def data(name: str, data: dict) -> str:
        return (f"articlesiteView.add({json.dumps(name)}, "
                f"{json.dumps(data, ensure_ascii=False, separators=(',', ':'))});\n")


def view_script() -> str:
    """The view's one inline script: the fit measure and the loader of its files."""
    return "\n".join(files("articlesite.translate").joinpath(name).read_text(
        encoding="utf-8") for name in ("measure.js", "view.js"))


def links_html(site: Site, links: dict[str, str]) -> Markup:
    """' en ja zh' linking to a figure on each language's page: made once per figure,
    as a shared key's row lists every figure showing it (thousands, in a large site)."""
    return Markup("".join(f' <a href="{escape(links[language.code])}" '
                          f'hreflang="{escape(language.lang)}">{escape(language.code)}</a>'
                          for language in site.languages if language.code in links))


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
