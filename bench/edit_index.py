"""An edit, published with its search index, as serve builds it: the CPU it costs.

    python bench/edit_index.py DIR [--edits 5]

DIR is a project built before (`python bench/make_synthetic.py N DIR`, then
`python build.py --root DIR`). In this process, as serve's builder does, it builds DIR
on top of the cache with a Pagefind service kept from build to build (its Japanese and
Chinese segmenters loaded), then edits one article in Japanese (bench/run.py's edit) N
times, each built on top of the previous build. For each: the wall time of the build
(its pages are in place early; the build ends with the search index in place), the CPU
of this process and of Pagefind's service over it, and the pages Pagefind was given.
On a machine shared with other work the wall time follows the load; the CPU does not.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

import run

from articlesite import search
from articlesite.build import build
from articlesite.cache import Cache
from articlesite.search_service import Service


def service_cpu(service: Service) -> float:
    """The CPU seconds Pagefind's service process has used so far."""
    process = service._service.process if service._service is not None else None
    if process is None:
        return 0.0
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100   # utime, stime in clock ticks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args()
    root = args.root.resolve()
    given = []
    real = search.index_languages
    search.index_languages = lambda groups, *rest: given.append(
        sum(map(len, groups.values()))) or real(groups, *rest)
    service = Service()
    cache = Cache(root)
    last = build(root, cache=cache, search=service)
    service._warming.join()
    rows = []
    for number in range(args.edits):
        edit = run.article_edit(root, 300 + number)
        given.clear()
        cpu, pagefind, started = time.process_time(), service_cpu(service), time.perf_counter()
        run.save(edit)
        cache = Cache(root, after=cache)
        last = build(root, cache=cache, previous=last, changed=[edit[0]], search=service)
        rows.append((time.perf_counter() - started, time.process_time() - cpu,
                     service_cpu(service) - pagefind, sum(given)))
        print(f"edit {number + 1}: {rows[-1][0]:.2f} s wall, {rows[-1][1]:.2f} s CPU here, "
              f"{rows[-1][2]:.2f} s CPU in Pagefind, {rows[-1][3]} pages indexed", flush=True)
    service.close()
    print("median: " + ", ".join(f"{statistics.median(row[i] for row in rows):.2f} s {what}"
                                 for i, what in ((0, "wall"), (1, "CPU here"),
                                                 (2, "CPU in Pagefind"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
