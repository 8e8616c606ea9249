"""One article edited in Japanese, then `python build.py`, timed: the edit bench/run.py
makes (article_edit: the middle article), for one or more checkouts of the code,
alternating, each on its own copy of the project (the cache's keys name the code and the
project's folder: build each copy once with its checkout first).

    python bench/edit_build.py [--runs 5] [--rt] CODE:PROJECT [CODE:PROJECT ...]

Prints a line per build: wall, user and system CPU (the build and its children, Pagefind
included), and the load average. With `--rt` each build runs under SCHED_RR (`chrt -r
10`, as root): on a machine shared with other work its processes then take a core
whenever they are ready to run, as on an idle machine (the other work still shares the
memory and caches). Without it, on a busy machine, wall times say more about the others'
work than about the build's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import run as bench  # the bench scripts beside this one


def timed(code: Path, project: Path, number: int, rt: bool) -> tuple[float, float, float]:
    """Edit the article (its text marked with `number`), then time the build."""
    bench.save(bench.article_edit(project, number))
    os.sync()
    command = [sys.executable, str(code / "build.py"), "--root", str(project)]
    if rt:
        command = ["chrt", "-r", "10", *command]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0 or "(2 rendered," not in output:
        raise SystemExit(f"{' '.join(command)}:\n{output}")
    return wall, usage.ru_utime, usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", metavar="CODE:PROJECT")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rt", action="store_true", help="run each build under SCHED_RR")
    args = parser.parse_args()
    trees = [tuple(Path(part).resolve() for part in tree.split(":", 1)) for tree in args.trees]
    results: dict[Path, list[tuple[float, float, float]]] = {code: [] for code, _ in trees}
    number = int(time.time()) % 100_000
    for _ in range(args.runs):
        for code, project in trees:
            number += 1
            load = os.getloadavg()[0]
            wall, user, system = timed(code, project, number, args.rt)
            results[code].append((wall, user, system))
            print(f"{code}: {wall:.2f} s wall, {user:.2f} s user, {system:.2f} s sys "
                  f"(load {load:.1f})", flush=True)
    for code, runs in results.items():
        walls = [wall for wall, _, _ in runs]
        cpus = [user + system for _, user, system in runs]
        print(f"{code}: median {statistics.median(walls):.2f} s wall "
              f"({min(walls):.2f}-{max(walls):.2f}), {statistics.median(cpus):.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
