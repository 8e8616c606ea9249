"""The check stage's article bodies: each source's Markdown rendered once, by the same
render rules as its page (render/templates.py, Renderer.render_body), for the problems
rendering still finds: nodes linking to no section, formulas MathML cannot be made of,
what the rules of markdown_rules/ report as they render, images and links
(render/links.py); then the `#id` of every link, against the outlines (ids.py). (What
the parse shows, unknown figures and citations among it, the check stage found:
check/marks.py.)

No page template is rendered and nothing is written; each figure placed is checked and
its spec loaded, but not rendered (check/templates.py renders figure.html once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..load.sources import Sources
from ..memo import SECTIONS
from ..pages import Body
from ..problems import Findings
from .ids import Fragments, check_fragments

if TYPE_CHECKING:
    from ..render.markdown import Outline
    from ..render.templates import Renderer


def check_bodies(renderer: Renderer, sources: Sources, outlines: dict[str, Outline],
                 findings: Findings) -> dict[tuple[str, str], Body]:
    """Render every article body once (the renderer holds the tokens the outline stage
    parsed, let go as each is rendered) and report what it found; the bodies, by slug
    and language."""
    bodies: dict[tuple[str, str], Body] = {}
    fragments: dict[tuple[str, str], Fragments] = {}
    for article in sources.articles:
        for language, source in article.sources.items():
            rendered = renderer.render_body(article, language, with_figures=False)
            if rendered is None:
                continue   # its source changed since it was read: reported
            body, refs = rendered
            bodies[article.slug, language] = body
            for line, message in refs.notes:
                findings.add(source.path, line, message, language=language, check="links")
            fragments[article.slug, language] = refs.fragments
    check_fragments(sources.site, sources.articles, outlines, fragments, findings)
    for digest, sections in renderer.sections.items():   # check_sections: not parsed again
        sources.memo.keep(SECTIONS, digest, sections)
    return bodies
