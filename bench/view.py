"""The translator's view of a project: the CPU its rendering takes (the figure copies
taken from the cache, as a rebuild takes them) and the sizes of its files. The project is
built first (nothing is rendered if the cache holds it all: the cache is this code's).

    python bench/view.py DIR [--runs 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from articlesite import build as stages
from articlesite.cache import Cache, PageKeys, render_key
from articlesite.load.sources import load_sources
from articlesite.plan import Plan, plan_view
from articlesite.problems import Problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = args.root.resolve()
    print(stages.build(root).summary())
    problems = Problems(root)
    cache = Cache(root)
    sources = load_sources(root, problems, cache.memo)
    renderer = stages.make_renderer_for(sources, problems, store=cache.store)
    rendering = render_key(sources.site, sources.templates, sources.strings)
    plan = Plan({}, {}, [], rendering=rendering,
                page_keys=PageKeys(sources.site, sources.templates, sources.strings))
    view = plan_view(sources, cache.pages, cache, None, plan)
    view.stale = list(view.keys)
    for _ in range(args.runs):
        started = time.process_time()
        rendered, _ = stages.render_view(sources, view, renderer, cache, rendering)
        seconds = time.process_time() - started
        sizes = sorted((entry.size, path) for path, entry in rendered.pages.items())
        page = next(size for size, path in sizes if "/" not in path)
        print(f"view: {seconds:.2f} s of CPU; its page {page:,} bytes, "
              f"{len(sizes) - 1} files beside it, {sum(s for s, _ in sizes) - page:,} bytes, "
              f"the largest {sizes[-1][0]:,} bytes")


if __name__ == "__main__":
    main()
