"""What one page's pieces cost: CPU time (user + system) per operation, in one process.

    python bench/operations.py PROJECT [--figures 40]

On a project folder (e.g. one written by bench/make_synthetic.py), for the first
`--figures` figure specs the articles place: loading a spec; finding what its edges
join; the figure through the Jinja macro, per language; its form made once and filled
per language (render/figure_form.py); the translator's view's copy of it; then, for every
article page, the whole page. Prints milliseconds per operation (medians are not taken:
each is the total CPU time over all items divided by their number, which a shared
machine disturbs less than wall time).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from articlesite.load.sources import load_sources
from articlesite.pages import PageJob
from articlesite.problems import Problems
from articlesite.render.connections import describe, find_connections
from articlesite.render.figure_form import FigureForm
from articlesite.render.templates import renderer_for
from articlesite.translate.view import figure_copy


def timed(results: dict[str, tuple[float, int]], name: str, count: int = 1):
    """A context that adds the CPU time of its block to `results[name]`."""
    class Timer:
        def __enter__(self):
            self.started = time.process_time()

        def __exit__(self, *_):
            spent, done = results.get(name, (0.0, 0))
            results[name] = (spent + time.process_time() - self.started, done + count)
    return Timer()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--figures", type=int, default=40)
    args = parser.parse_args(argv)
    root = args.project.resolve()
    problems = Problems(root)
    sources = load_sources(root, problems)
    renderer = renderer_for(sources, problems, keep=0)
    renderer.compile_templates()
    macro = renderer.env.get_template("figure.html").module.figure
    codes = sources.site.codes
    placed = [line.split()[-1] for article in sources.articles
              for source in article.sources.values()
              for line in source.body.splitlines() if line.startswith("```{figure}")]
    figure_ids = list(dict.fromkeys(placed))[:args.figures]
    results: dict[str, tuple[float, int]] = {}
    for figure_id in figure_ids:
        with timed(results, "figure spec: load (per figure)"):
            spec = renderer.figures.get(figure_id)
        with timed(results, "connections: find (per figure)"):
            connections = find_connections(spec)
        spec.connections = connections
        for code in codes:
            read: set = set()
            text, ui = renderer.texts(code, read), renderer.ui(code)
            with timed(results, "connections: sentences (per figure, language)"):
                sentences = describe(connections, lambda box, text=text: text(box.text),
                                     ui("figure-arrow"), ui("figure-line"))
            with timed(results, "figure: Jinja macro (per figure, language)"):
                direct = str(macro(spec, text, sentences, ui))
            if code == codes[0]:
                with timed(results, "figure: make its form (per figure)"):
                    form = FigureForm(macro, spec, len(sentences))
            with timed(results, "figure: fill the form (per figure, language)"):
                filled = form.fill(text, sentences, ui)
            if filled != direct:
                print(f"the form differs from the macro: {figure_id} in {code}",
                      file=sys.stderr)
                return 1
        with timed(results, "figure: translator's view copy (per figure)"):
            figure_copy(renderer, spec)
    renderer = renderer_for(sources, problems, keep=16)
    renderer.compile_templates()
    for article in sources.articles:
        for code in article.sources:
            with timed(results, "article page: render (per page)"):
                renderer.render(PageJob("article.html", code, article.slug))
    for name, (spent, count) in results.items():
        print(f"{name:50} {1000 * spent / count:8.3f} ms  ({count}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
