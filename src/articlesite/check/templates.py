"""The check stage's templates: every template the pages use, compiled, and each page
template rendered once (with the first page that uses it), as are figure.html's figure
and the translator's view: a mistake in one is reported with its file and line, as the
build reports it (render/templates.py, Renderer.template_error), without rendering every
page. A mistake that shows only with what some other page holds is left to the build.
"""

from __future__ import annotations

from jinja2 import TemplateError
from jinja2.meta import find_referenced_templates

from ..load.sources import Sources
from ..pages import Body, site_pages
from ..problems import plural
from ..render.templates import Renderer
from ..translate.view import PATH as VIEW
from ..translate.view import figure_copy, translator_view

# The templates the build loads by name (pages.PageJob, Renderer); they name the others.
LOADED = ("root.html", "index.html", "article.html", "feed.xml", "404.html", "sitemap.xml",
          "robots.txt", VIEW, "figure.html", "notice.html")


def check_templates(renderer: Renderer, sources: Sources,
                    bodies: dict[tuple[str, str], Body]) -> str:
    """Compile and render the templates (`bodies`: the article bodies the check stage
    rendered, by slug and language); what was done, in a few words."""
    compiled = compile_templates(renderer)
    pages = render_each_once(renderer, sources, bodies)
    return (f"{plural(len(compiled), 'template')} compiled, each page template rendered on "
            f"one page only ({', '.join(pages)})")


def compile_templates(renderer: Renderer) -> list[str]:
    """Compile the templates the build loads and every one they name; the names. A name
    with no file is left to rendering, which reports it with the line naming it."""
    texts = renderer.env.loader.texts
    todo, done = list(LOADED), []
    while todo:
        name = todo.pop(0)
        if name in done or name not in texts:
            continue
        done.append(name)
        try:
            renderer.env.get_template(name)
        except TemplateError as exc:
            renderer.template_error(name, exc)
            continue
        if "{%" in texts[name]:   # else it names none (as the styles and scripts)
            todo += [named for named in find_referenced_templates(
                renderer.env.parse(texts[name])) if named is not None]
    return done


def render_each_once(renderer: Renderer, sources: Sources,
                     bodies: dict[tuple[str, str], Body]) -> list[str]:
    """Render the first page of each template (an article page with its body rendered
    already), a figure in the default language and as the translator's view copies it,
    and the view with that copy (and every dictionary text); the paths of the pages."""
    shown: dict[str, str] = {}
    for job in site_pages(sources.site, sources.articles):
        body = bodies.get((job.slug, job.language))
        if job.template in shown or (job.slug is not None and body is None):
            continue
        renderer.render(job, body)
        shown[job.template] = job.path
    figure = next((spec for figure_id in sources.figures
                   if (spec := renderer.figures.get(figure_id)) is not None), None)
    copies = {}
    if figure is not None:   # a mistake in figure.html is reported by the renderer
        renderer.render_figure(figure, sources.site.default_language)
        copies[figure.id] = figure_copy(renderer, figure)
    for chunks in translator_view(renderer, sources, {}, copies).values():
        "".join(chunks)
    return [*shown.values(), VIEW]
