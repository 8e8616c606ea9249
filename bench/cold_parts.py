"""The CPU of each part of a cold build's per-page work, each part alone, in one process
(no workers: on a shared machine the parts of one build cannot be timed apart reliably).

    python bench/cold_parts.py ROOT [--parts specs,figures,...] [--runs 5] [--code DIR]

ROOT is a project (bench/make_synthetic.py N ROOT). `--code DIR` measures the code of
another checkout (a `git archive` of an older commit), to compare the two at the same
minutes. Each part is timed `--runs` times, every time from a cold start (the figure
texts made into HTML afresh, nothing drawn yet), and the least CPU is printed:

- specs: every figure spec loaded (load_figure: YAML, schema, routes, transforms);
- figures: every figure drawn in every language (Renderer._figure: the macro's form,
  filled in per language, the connection sentences, the dictionary texts);
- copies: the translator's view's copy of every figure (the macro again, copy mode);
- markdown: every source's body parsed (markdown-it and the site's rules);
- bodies: every body rendered to HTML, its figures given (already drawn);
- pages: every article page around its body (the page templates).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

PARTS = ("specs", "figures", "copies", "markdown", "bodies", "pages")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--parts", default=",".join(PARTS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve() / "src"))
    gc.set_threshold(20_000, 20, 20)   # as the build command sets it (cli.py)

    from articlesite.load import markup
    from articlesite.load.figures import FigureLibrary, load_figure
    from articlesite.load.sources import load_sources
    from articlesite.pages import PageJob
    from articlesite.problems import Problems
    from articlesite.render import markdown
    from articlesite.render.templates import DrawnFigures, renderer_for

    root = args.root.resolve()
    problems = Problems(root)
    sources = load_sources(root, problems)
    languages = list(sources.site.codes)
    files = list(sources.figures.values())
    specs = {file.id: load_figure(file, problems) for file in files}

    def renderer():
        """A renderer from a cold start: no text made into HTML, no figure drawn."""
        for cache in (markup.pieces, markup.plain_text, markup._rich_text):
            cache.cache_clear()
        markup.forget_shared()
        markup.record_texts()   # as in a build's worker
        markup.take_recorded()
        library = FigureLibrary(sources.figures, sources.dictionary, problems,
                                keep=len(files))
        made = renderer_for(sources, problems, library=library, drawn=DrawnFigures())
        made.drawn.forms_hold = True   # (compared once a build: not what is timed)
        made.compile_templates()
        return made

    def with_bodies():
        """A renderer whose figures are drawn and whose sources are parsed."""
        made = renderer()
        made.figures._loaded.update(specs)
        drawn = {(spec.id, code): made._figure(spec, code)
                 for spec in specs.values() for code in languages}
        made._figure = lambda spec, code: drawn[spec.id, code]
        for article in sources.articles:
            for source in article.sources.values():
                made.parsed[source.digest] = markdown.parse(source.body)
        return made

    def bodies_rendered():
        made = with_bodies()
        return made, [(article, code, made.render_body(article, code)[0])
                      for article in sources.articles for code in article.sources]

    texts = [source.body for article in sources.articles
             for source in article.sources.values()]
    parts = {
        "specs": (lambda: None, lambda _: [load_figure(file, problems) for file in files]),
        "figures": (renderer, lambda made: [made._figure(spec, code) for spec in specs.values()
                                            for code in languages]),
        "copies": (renderer, lambda made: [made.render_copy(spec) for spec in specs.values()]),
        "markdown": (lambda: None, lambda _: [markdown.parse(text) for text in texts]),
        "bodies": (with_bodies, lambda made: [made.render_body(article, code)
                                              for article in sources.articles
                                              for code in article.sources]),
        "pages": (bodies_rendered, lambda state: [
            state[0].render(PageJob("article.html", code, article.slug), body)
            for article, code, body in state[1]]),
    }
    total = 0.0
    for name in args.parts.split(","):
        prepare, work = parts[name]
        least = float("inf")
        for _ in range(args.runs):
            state = prepare()
            gc.collect()
            started = time.process_time()
            work(state)
            least = min(least, time.process_time() - started)
        total += least
        print(f"{name:10} {least * 1000:7.0f} ms", flush=True)
    print(f"{'in all':10} {total * 1000:7.0f} ms ({len(problems)} problems)")


if __name__ == "__main__":
    main()
