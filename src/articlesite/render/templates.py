"""Rendering: Markdown bodies, figures and pages through the Jinja templates."""

from __future__ import annotations

import contextlib
import marshal
import os
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import (
    BaseLoader,
    Environment,
    FileSystemBytecodeCache,
    StrictUndefined,
    Template,
    TemplateError,
    TemplateNotFound,
)
from markupsafe import Markup, escape

from ..load.config import Site
from ..load.content import Article, Listing, newest_first
from ..load.figures import Figure, FigureLibrary
from ..load.markup import quick_escape, rich_text
from ..load.numbering import source_numbered
from ..load.sections import sections_in
from ..load.sourcefiles import CHANGED, SourceChanged, digest
from ..load.texts import Dictionary
from ..pages import Body, Page, PageJob
from ..problems import Problems

if TYPE_CHECKING:
    from ..load.sources import Sources
from . import links, markdown, readers
from .assets import Files, FileStore
from .connections import connections_of, describe
from .dates import long_date, name_list, number
from .figure_form import FigureForm

# What a template's mistake raises: Jinja's own errors, and those of a filter or function
# called the wrong way (`{{ preview_image(site) }}`, `{{ 1 / 0 }}`, `{{ x['missing'] }}`).
TEMPLATE_MISTAKES = (TemplateError, TypeError, ValueError, AttributeError, LookupError,
                     ArithmeticError)


# The functions of Jinja's generated code for a template's body and its macros: in a
# traceback Jinja has not rewritten, their lines are the generated code's.
GENERATED = {"root", "macro"}


@lru_cache(maxsize=4096)  # a figure's coordinates repeat across languages
def px(value: float) -> str:
    """A coordinate as CSS pixels: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return ("0" if text in ("-0", "") else text) + "px"


@lru_cache(maxsize=4096)
def deg(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return ("0" if text == "-0" else text) + "deg"


class TextsLoader(BaseLoader):
    """Templates from texts already read (and hashed for the cache), never the disk again.
    Each build hands over its texts; a template compiled before is kept while its text is
    the same (Jinja asks `uptodate`), so a process that builds again (serve) compiles only
    the templates that changed."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.texts: dict[str, str] = {}

    def get_source(self, environment: Environment, template: str):
        text = self.texts.get(template)
        if text is None:
            raise TemplateNotFound(template)
        return text, str(self.path(template)), lambda: self.texts.get(template) == text

    def path(self, template: str) -> Path:
        """The file a template was read from: the project's override or the theme's."""
        paths = getattr(self.texts, "paths", {})
        return paths.get(template, self.folder / template)


class CompiledTemplates(FileSystemBytecodeCache):
    """Jinja's compiled templates, kept in a folder (cache.compiled_templates). One that
    cannot be written there (the folder deleted meanwhile, a full disk) is compiled
    again by the next process: never a failed build.

    Each file is a line naming the template's source (Jinja's checksum of it) and the
    digest of the compiled code, then the code (marshal): a file whose code is not what
    was written (damaged, or written by anything else) is compiled again, never run.
    (Jinja's own format reads a pickle, and runs whatever code a damaged file holds.)"""

    def load_bytecode(self, bucket) -> None:
        try:
            data = Path(self._get_cache_filename(bucket)).read_bytes()
        except OSError:
            return
        head, _, code = data.partition(b"\n")
        if head != compiled_head(bucket.checksum, code):
            return
        try:
            bucket.code = marshal.loads(code)
        except (EOFError, ValueError, TypeError):
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        code = marshal.dumps(bucket.code)
        target = Path(self._get_cache_filename(bucket))
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        with contextlib.suppress(OSError):
            temporary.write_bytes(compiled_head(bucket.checksum, code) + b"\n" + code)
            os.replace(temporary, target)


def compiled_head(checksum: str, code: bytes) -> bytes:
    """The first line of a compiled template's file (CompiledTemplates)."""
    return f"articlesite-compiled-1 {checksum} {digest(code)}".encode()


class QuickTemplate(Template):
    """A template whose printed values are escaped by quick_escape (load/markup.py): the
    same HTML as markupsafe.escape gives, at less cost. Jinja's compiled code imports
    its `escape` into the template's namespace (from jinja2.runtime, markupsafe's); here
    that name is rebound, in this template's namespace only."""

    @classmethod
    def _from_namespace(cls, environment, namespace, globals):
        if namespace.get("escape") is escape:
            namespace["escape"] = quick_escape
        return super()._from_namespace(environment, namespace, globals)


def create_environment(folder: Path) -> Environment:
    env = Environment(loader=TextsLoader(folder), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.template_class = QuickTemplate
    env.filters["px"] = px
    env.filters["deg"] = deg
    env.filters["long_date"] = long_date
    env.filters["name_list"] = name_list
    env.filters["number"] = number
    readers.register(env)
    return env


# The environments (with their compiled templates) of the last projects this process built.
_environments: OrderedDict[Path, Environment] = OrderedDict()


def environment(folder: Path, texts: dict[str, str],
                compiled: Path | None = None) -> Environment:
    """The environment for the templates in `folder`, whose texts are now `texts`; with
    `compiled`, the folder where Jinja keeps what it compiled (cache.compiled_templates):
    a template whose text is the same is read from there, not compiled again."""
    if folder not in _environments:
        _environments[folder] = create_environment(folder)
        if len(_environments) > 2:
            _environments.popitem(last=False)
    env = _environments[folder]
    if compiled is not None:
        env.bytecode_cache = CompiledTemplates(str(compiled))
    env.loader.texts = texts
    return env


def compile_pages(env: Environment) -> None:
    """Compile the templates of the pages (and the figure macro) in `env`, if they are
    not yet. An error is left for rendering to report, with the page it broke (a
    mistake in the figure macro's file outside the macro raises as its module is made)."""
    with contextlib.suppress(*TEMPLATE_MISTAKES):
        for name in ("base.html", "root.html", "index.html", "article.html", "feed.xml"):
            env.get_template(name)
        env.get_template("figure.html").module  # noqa: B018 - defines the macro


def compile_ahead(folder: Path, texts: dict[str, str], compiled: Path | None) -> None:
    """Compile the templates of the pages before a renderer is made, and the macros of
    the translator's view's pieces (a cold build's workers make its tables of sections:
    parse.view_sections): a cold build does it while its workers read the articles
    (build.load), and the renderer made after finds them in the environment (which the
    process keeps: environment)."""
    env = environment(folder, texts, compiled)
    compile_pages(env)
    with contextlib.suppress(*TEMPLATE_MISTAKES):   # (reported where the view uses it)
        env.get_template("translation-rows.html").module  # noqa: B018 - the macros


def renderer_for(sources: Sources, problems: Problems, keep: int = 16,
                 library: FigureLibrary | None = None, drawn: DrawnFigures | None = None,
                 store: FileStore | None = None, parsed: dict[str, list] | None = None,
                 compiled: Path | None = None) -> Renderer:
    """A renderer of these sources; it loads each figure spec when first placed and keeps
    the `keep` most recent (in `library`, if given: one of these same figure files and
    dictionary); the rest as Renderer's."""
    if library is None:
        library = FigureLibrary(sources.figures, sources.dictionary, problems, keep)
    library.problems = problems
    return Renderer(sources.site, sources.articles, library, sources.dictionary,
                    sources.strings, sources.templates, problems, store=store, drawn=drawn,
                    notices=sources.sections.notices, parsed=parsed, compiled=compiled)


class DrawnFigures:
    """What a renderer made of the figures, the most recent kept: each one's HTML in a
    language with the texts it read, each one's form (figure_form.py), and whether forms
    give the macro's HTML (compared once). It holds while the figure specs, the
    dictionary and the templates are what they were: serve hands it from one build to
    the next (build.py)."""

    def __init__(self):
        self.html: OrderedDict[tuple[str, str], tuple[str, frozenset]] = OrderedDict()
        self.forms: OrderedDict[str, FigureForm] = OrderedDict()  # by figure id
        self.forms_hold: bool | None = None


def no_notices(slug: str, language: str) -> tuple[str, ...]:
    return ()


class Renderer:
    """Renders pages one at a time; problems are collected, never raised here.

    `store`: the cache's store, where the files articles reference go (None: they are
    only read); `drawn`: what a renderer made of these same figures with these same
    templates; `notices(slug, language)`: the ids of the sections that carry a stale
    notice; `parsed`: the tokens of sources parsed already (load/outlines.py), by digest,
    each rendered once and then let go; `compiled`: where the compiled templates are
    kept (environment)."""

    def __init__(self, site: Site, articles: list[Article], figures: FigureLibrary,
                 dictionary: Dictionary, strings: Dictionary, templates: dict[str, str],
                 problems: Problems, *, store: FileStore | None = None,
                 drawn: DrawnFigures | None = None,
                 notices: Callable[[str, str], tuple[str, ...]] = no_notices,
                 parsed: dict[str, list] | None = None, compiled: Path | None = None):
        self.site, self.figures, self.problems = site, figures, problems
        self.dictionary, self.strings = dictionary, strings
        self.articles = {article.slug: article for article in articles}
        self.env = environment(site.root / "templates", templates, compiled)
        self.files = Files(site.root, store)  # the files articles reference (assets.py)
        self.drawn = drawn if drawn is not None else DrawnFigures()
        # The sections of each source whose body was rendered, by its digest (for the
        # translator's view and the stale notices: load/sections.py).
        self.sections: dict[str, list] = {}
        self.notices = notices
        self.parsed: dict[str, list] = parsed if parsed is not None else {}

    @cached_property
    def listings(self) -> list[Listing]:
        """What the index pages are given of every article (see content.Listing)."""
        return [article.listing() for article in self.articles.values()]

    @cached_property
    def article_languages(self) -> dict[str, list[str]]:
        """The languages each article exists in, by slug (what its links can go to)."""
        return {slug: list(article.sources) for slug, article in self.articles.items()}

    @cached_property
    def uncounted(self) -> list[Listing]:
        """What the other pages that list articles are given: no word counts."""
        return [listing.without_counts() for listing in self.listings]

    def collect_problems(self) -> Problems:
        """From now on, send this renderer's problems (and its figure library's) to a new
        list, and return it."""
        self.problems = self.figures.problems = Problems(self.site.root)
        return self.problems

    def compile_templates(self) -> None:
        """Compile the templates now, e.g. once before forking workers rather than once in
        each. An error is left for rendering to report, with the page it broke."""
        compile_pages(self.env)

    # Texts ----------------------------------------------------------------------------
    def texts(self, language: str, read: set) -> Callable[[str], Markup]:
        fallbacks = self.dictionary.fallbacks
        source = self.site.language(self.site.source_language)
        lang = self.site.language(language).lang

        texts, noted = self.dictionary.texts, read.add

        def text(key: str, phrased: bool = False) -> Markup:
            """A text as HTML; `phrased` (a figure's canvas): broken only between phrases."""
            noted((key, language))
            values = texts.get(key)
            value = values.get(language, "") if values is not None else ""
            if fallbacks and (key, language) in fallbacks:   # a language in progress
                return Markup('<span data-fallback lang="{}">{}</span>').format(
                    source.lang, rich_text(value, source.lang if phrased else None))
            return rich_text(value, lang if phrased else None)
        return text

    def ui(self, language: str) -> Callable[[str], str]:
        strings = self.strings_of(language)

        def string(key: str) -> str:
            if key not in self.strings.texts:
                self.problems.add(self.strings.path, None, "interface string used by the "
                                  "templates is missing", key=key)
            return strings(key)
        return string

    def strings_of(self, language: str) -> Callable[[str], str]:
        """The interface strings in a language, as `ui` gives them, but that a missing one
        is not reported."""
        return lambda key: self.strings.texts.get(key, {}).get(language, key)

    # Pages ----------------------------------------------------------------------------
    def render(self, job: PageJob, body: Body | None = None) -> Page:
        """A page; for an article page, `body` is its body if the cache still holds it."""
        if job.slug is not None:
            return self.render_article(self.articles[job.slug], job.language, body)
        # Index pages get listings, not articles: see content.Listing. Only the indexes
        # show word counts (see build.page_key).
        listings = self.listings if job.template == "index.html" else self.uncounted
        return Page(job.path, self.page_html(job.path, job.template, job.language,
                                             articles=newest_first(listings, job.language)))

    def page_html(self, path: str, template: str, language: str, **values) -> str:
        try:
            return self.env.get_template(template).render(
                **self._page_values(path, language, values))
        except TEMPLATE_MISTAKES as exc:  # a problem with file and line, not a crash
            self.template_error(template, exc)
            return ""

    def page_chunks(self, path: str, template: str, language: str,
                    **values) -> Iterator[str]:
        """A page as the template renders it, a piece at a time, so that a large page can
        be written out without being held whole. A template error is added to the
        problems and ends the page."""
        try:
            yield from self.env.get_template(template).generate(
                **self._page_values(path, language, values))
        except TEMPLATE_MISTAKES as exc:
            self.template_error(template, exc)

    def _page_values(self, path: str, language: str, values: dict) -> dict:
        return values | {
            "site": self.site, "language": self.site.language(language), "page_path": path,
            "ui": self.ui(language), "to_root": self._to_root(path),
            "article_path": lambda a, code: f"{code}/{a.slug}.html"}

    def _to_root(self, path: str) -> str:
        """How a page's links reach the site's root. The 404 page is served in place of
        any missing path, at any depth: its links start from the site's address, or
        without a base_url from the host's root."""
        if path == "404.html":
            return self.site.base_url or "/"
        return "../" * path.count("/")

    def template_error(self, template: str, exc: Exception) -> None:
        """A template that fails: its file and line (Jinja puts the templates' own lines
        in the traceback), and what went wrong."""
        loader = self.env.loader
        name, line = loader.path(template), None
        names = {str(loader.path(known)): known for known in loader.texts}
        if isinstance(exc, TemplateError) and getattr(exc, "filename", None):
            name, line = Path(exc.filename), getattr(exc, "lineno", None)
        else:
            frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
                      if frame.filename in names]
            if frames:
                name, line = Path(frames[-1].filename), frames[-1].lineno
                if frames[-1].name in GENERATED:   # a macro called from Python: its
                    # frame is Jinja's generated code, not rewritten to the template's
                    line = self.env.get_template(names[frames[-1].filename]) \
                        .get_corresponding_lineno(line)
        kind = "" if isinstance(exc, TemplateError) else f"{type(exc).__name__}: "
        self.problems.add(name, line, f"template error: {kind}{exc}")

    def render_article(self, article: Article, language: str,
                       body: Body | None = None) -> Page:
        """An article page: its body (rendered now unless given) in the page template."""
        source = article.sources[language]
        page = Page(f"{language}/{article.slug}.html", "")
        if body is None:
            rendered = self.render_body(article, language)
            if rendered is None:
                return page
            body = page.body = rendered[0]
        outline = markdown.Outline([markdown.Heading(*heading) for heading in body.headings])
        page.html = self.page_html(  # of the other languages only their listing: as index pages
            page.path, "article.html", language, article=article.listing().without_counts(),
            source=source, body=Markup(body.html), sections=outline.sections,
            numbered=source_numbered(self.site.numbering, source.meta.numbering, body.headings),
            references=article.references, cite_count=body.cite_count,
            extra=source.meta.extra,
        )
        page.figures, page.texts, page.files = body.figures, body.texts, body.files
        return page

    def render_body(self, article: Article, language: str, with_figures: bool = True,
                    headings: list[tuple] | None = None
                    ) -> tuple[Body, links.PageReferences] | None:
        """An article's Markdown in a language, with its figures, as HTML, and what its
        links found (their notes and `#id`s: only `check` reports them, check/bodies.py).
        None if its source changed since it was read (a problem). Its sections, the
        figures and citations it names and what its parse shows to be a mistake were
        checked by the check stage (check/ids.py, check/marks.py).

        Without `with_figures`, each figure placed is checked and its spec loaded, but
        not rendered: `check` needs the problems of a body, not its figures' HTML.
        `headings`: its outline's, as Outline.plain gives them, if the caller has them."""
        source = article.sources[language]
        try:
            text = source.body   # read from the file again: once
        except SourceChanged:
            self.problems.add(source.path, None, CHANGED, language=language)
            return None
        tokens = self.parsed.pop(source.digest, None) or markdown.parse(text)
        if source.digest not in self.sections:   # (the parse stage's are given: parse.py)
            self.sections[source.digest] = sections_in(tokens, text, source.body_line)
        if headings is None:
            headings = [(h.level, h.id, str(h.html), h.line)
                        for h in markdown.outline(tokens, source.body_line).headings]
        numbers = {ref.id: i for i, ref in enumerate(article.references, start=1)}
        body = Body("", list(headings))

        def problem(line: int | None, message: str) -> None:
            self.problems.add(source.path, line, message, language=language)

        figure = self._figure_placer(body, source.language, with_figures)
        refs = links.page_references(self.site, self.articles, self.article_languages,
                                     self.files, article.slug, language, problem)
        reference = self.ui(language)("equation-reference")
        context = markdown.RenderContext(figure, numbers.get, problem, refs,
                                         ui=self.ui(language),
                                         equation_reference=lambda n: reference.format(
                                             number=n),
                                         notice=self._notices(article, language),
                                         cite_count=body.cite_count,
                                         section_numbers=source_numbered(
                                             self.site.numbering, source.meta.numbering,
                                             headings),
                                         admonitions={kind: (look, titles[language])
                                                      for kind, (look, titles)
                                                      in self.site.admonitions.items()})
        body.html = markdown.render(tokens, source.body_line, context)
        body.files = refs.files
        return body, refs

    def _figure_placer(self, body: Body, language: str,
                       with_figures: bool) -> Callable[[str, int], str]:
        """What a body's ```{figure} fence becomes: the figure's HTML (or, without
        `with_figures`, nothing: its spec is loaded, for its problems), noted in `body`."""
        def figure(figure_id: str, line: int) -> str:
            if figure_id not in self.figures:   # the check stage reports it
                body.figures[figure_id] = None
                return ""
            body.figures[figure_id] = self.figures.files[figure_id].digest
            spec = self.figures.get(figure_id)
            if spec is None or not with_figures:
                return ""
            html, read = self._figure(spec, language)
            body.texts |= read
            return html
        return figure

    def _notices(self, article: Article, language: str) -> Callable[[str], str] | None:
        """The notice after each stale section's heading: it links to the section in
        the source language (see load/sections.py)."""
        stale = self.notices(article.slug, language)
        if not stale:
            return None
        base = self.site.source_language
        if base not in article.sources:
            base = next(iter(article.sources))
        macro = self.env.get_template("notice.html").module.stale_notice
        ui = self.ui(language)

        def notice(section_id: str) -> str:
            if section_id not in stale:
                return ""
            return str(macro(f"../{base}/{article.slug}.html#{section_id}",
                             self.site.language(base), ui))
        return notice

    def render_figure(self, spec: Figure, language: str) -> str:
        """A figure in a language, as an article page shows it."""
        return self._figure(spec, language)[0]

    def render_copy(self, spec: Figure) -> str:
        """The translator's view's copy of a figure: in no language (see figure.html)."""
        try:
            macro = self.env.get_template("figure.html").module.figure
            return str(macro(spec, lambda key, phrased=False: "", [],
                             self.ui(self.site.default_language), "copy"))
        except TEMPLATE_MISTAKES as exc:
            self.template_error("figure.html", exc)
            return ""

    def _figure(self, spec: Figure, language: str) -> tuple[str, frozenset]:
        """A figure's HTML in a language, rendered once, and the texts it read."""
        key, drawn = (spec.id, language), self.drawn
        if key not in drawn.html:
            read: set = set()
            text, ui = self.texts(language, read), self.ui(language)
            sentences = describe(connections_of(spec), lambda box: text(box.text),
                                 ui("figure-arrow"), ui("figure-line"),
                                 (ui("figure-arrow-label"), ui("figure-line-label")), text)
            try:
                macro = self.env.get_template("figure.html").module.figure
                if drawn.forms_hold is False:
                    html = str(macro(spec, text, sentences, ui))
                else:
                    html = self._form(spec, macro).fill(text, sentences, ui)
                if drawn.forms_hold is None:
                    # Once, the form is compared with the macro: a project's own
                    # figure.html could change a text as it prints it (a filter), and
                    # then only the macro gives the right HTML.
                    direct = str(macro(spec, text, sentences, self.strings_of(language)))
                    drawn.forms_hold, html = html == direct, direct
            except TEMPLATE_MISTAKES as exc:  # a problem with file and line, not a crash
                self.template_error("figure.html", exc)
                return "", frozenset()
            drawn.html[key] = (html, frozenset(read))
            if len(drawn.html) > 32:
                drawn.html.popitem(last=False)
        return drawn.html[key]

    def _form(self, spec: Figure, macro: Callable) -> FigureForm:
        """The figure's geometry through the macro, once for all its languages."""
        forms = self.drawn.forms
        if spec.id not in forms:
            forms[spec.id] = FigureForm(macro, spec, len(connections_of(spec)))
            if len(forms) > 16:
                forms.popitem(last=False)
        return forms[spec.id]
