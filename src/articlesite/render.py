"""Rendering: Markdown bodies, figures and pages through the Jinja templates."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError
from markupsafe import Markup

from . import markdown
from .config import Site
from .connections import describe, find_connections
from .content import Article
from .figures import Figure, Label, Node
from .problems import Problems
from .texts import Dictionary, rich_text

_ID = re.compile(r'\sid="([^"]*)"')


@dataclass
class Page:
    """One output file: its path inside site/ and its HTML."""

    path: str
    html: str


def px(value: float) -> str:
    """A coordinate as CSS pixels: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return ("0" if text in ("-0", "") else text) + "px"


def deg(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return ("0" if text == "-0" else text) + "deg"


def create_environment(templates: Path) -> Environment:
    env = Environment(loader=FileSystemLoader(templates), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters["px"] = px
    env.filters["deg"] = deg
    return env


class Renderer:
    """Renders every page of a site; problems are collected, never raised here."""

    def __init__(self, site: Site, figures: dict[str, Figure], dictionary: Dictionary,
                 strings: Dictionary, problems: Problems):
        self.site, self.figures, self.problems = site, figures, problems
        self.dictionary, self.strings = dictionary, strings
        self.env = create_environment(site.root / "templates")
        self._figure_cache: dict[tuple[str, str, str], str] = {}

    # Texts ----------------------------------------------------------------------------
    def texts(self, language: str) -> Callable[[str], Markup]:
        def text(key: str) -> Markup:
            return rich_text(self.dictionary.texts.get(key, {}).get(language, ""))
        return text

    def ui(self, language: str) -> Callable[[str], str]:
        def string(key: str) -> str:
            entry = self.strings.texts.get(key)
            if entry is None:
                self.problems.add(self.strings.path, None, "interface string used by the "
                                  "templates is missing", key=key)
                return key
            return entry.get(language, key)
        return string

    # Pages ----------------------------------------------------------------------------
    def render_site(self, articles: list[Article]) -> list[Page]:
        pages = [self.page("index.html", "root.html", self.site.default_language,
                           articles=articles)]
        for language in self.site.codes:
            pages.append(self.page(f"{language}/index.html", "index.html", language,
                                   articles=articles))
            for article in articles:
                if language in article.sources:
                    pages.append(self.render_article(article, language))
        return pages

    def page(self, path: str, template: str, language: str, **values) -> Page:
        depth = path.count("/")
        values.update(
            site=self.site, language=self.site.language(language), ui=self.ui(language),
            to_root="../" * depth, article_path=lambda a, code: f"{code}/{a.slug}.html",
        )
        try:
            html = self.env.get_template(template).render(**values)
        except TemplateError as exc:
            line = getattr(exc, "lineno", None)
            name = getattr(exc, "filename", None) or self.site.root / "templates" / template
            self.problems.add(name, line, f"template error: {exc}")
            html = ""
        return Page(path, html)

    def render_article(self, article: Article, language: str) -> Page:
        source = article.sources[language]
        tokens = markdown.parse(source.body)
        outline = markdown.outline(tokens, source.body_line)
        sections = {h.id for h in outline.sections if h.id}
        self._check_sections(source.path, language, outline)
        numbers = {ref.id: i for i, ref in enumerate(article.references, start=1)}

        def problem(line: int | None, message: str) -> None:
            self.problems.add(source.path, line, message, language=language)

        def figure(figure_id: str, line: int) -> str:
            if figure_id not in self.figures:
                if (self.site.root / "figures" / f"{figure_id}.yaml").is_file():
                    return ""  # the spec itself failed to load; that is reported already
                known = ", ".join(sorted(self.figures)) or "none"
                self.problems.add(source.path, line, f"unknown figure '{figure_id}' "
                                  f"(figures: {known})", key=figure_id, language=language)
                return ""
            spec = self.figures[figure_id]
            for node in spec.nodes:
                if node.link and node.link not in sections:
                    self.problems.add(spec.path, node.line, f"node '{node.id}' links to "
                                      f"'#{node.link}', which is not a section of "
                                      f"{source.path.name}", key=node.link, language=language)
            return self.render_figure(spec, language)

        context = markdown.RenderContext(figure, numbers.get, problem)
        body = markdown.render(tokens, source.body_line, context)
        page = self.page(
            f"{language}/{article.slug}.html", "article.html", language,
            article=article, source=source, body=Markup(body), sections=outline.sections,
            references=article.references, cite_count=context.cite_count,
        )
        self._check_page_ids(page, source.path, language, outline)
        return page

    def _check_sections(self, path: Path, language: str, outline: markdown.Outline) -> None:
        seen: set[str] = set()
        for heading in outline.headings:
            if heading.id and heading.id in seen:
                self.problems.add(path, heading.line, f"section id '{heading.id}' is used "
                                  "twice", key=heading.id, language=language)
            if heading.id:
                seen.add(heading.id)
        placed: set[str] = set()
        for figure_id, line, _ in outline.figures:
            if figure_id in placed:
                self.problems.add(path, line, f"figure '{figure_id}' is placed twice: a "
                                  "figure appears once per article", key=figure_id,
                                  language=language)
            placed.add(figure_id)

    def _check_page_ids(self, page: Page, path: Path, language: str,
                        outline: markdown.Outline) -> None:
        """A section id must not be one the page itself uses (references, figure-…)."""
        on_page = Counter(_ID.findall(page.html))
        in_source = Counter(h.id for h in outline.headings if h.id)
        for heading in outline.headings:
            if heading.id and on_page[heading.id] > in_source[heading.id]:
                self.problems.add(path, heading.line, f"section id '{heading.id}' is already "
                                  "an id of the page (its table of contents, references or "
                                  "a figure): choose another", key=heading.id,
                                  language=language)

    def render_figure(self, spec: Figure, language: str, copy: str = "") -> str:
        """A figure in a language; `copy` names a copy for the translator's view."""
        key = (spec.id, language, copy)
        if key not in self._figure_cache:
            ui = self.ui(language)
            sentences = describe(find_connections(spec), self.box_name(language),
                                 ui("figure-arrow"), ui("figure-line"))
            macro = self.env.get_template("figure.html").module.figure
            self._figure_cache[key] = str(macro(spec, self.texts(language), sentences, ui,
                                                copy))
        return self._figure_cache[key]

    def box_name(self, language: str) -> Callable[[Node | Label], Markup]:
        """A node's or label's text in `language`."""
        text = self.texts(language)
        return lambda box: text(box.text)
