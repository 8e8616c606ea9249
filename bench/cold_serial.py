"""A cold full build's CPU split by what runs beside what: the build's own process while
no pool of workers runs (that CPU is the build's alone, one core working), and the CPU
of the pools (the workers', and this process's while they run). On two idle cores the
wall is about `alone + pools / 2`: a measure the machine's load moves less than the wall.

    python bench/cold_serial.py ROOT [--code DIR]

ROOT is a project (bench/make_synthetic.py N ROOT); its build cache is deleted first, and
it is built with --clean, as `python build.py --root ROOT --clean` builds it. `--code
DIR` builds with the code of another checkout (a `git archive` of an older commit).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import sys
import time
from pathlib import Path


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve() / "src"))
    from articlesite import parallel
    from articlesite.cli import main as command

    pools = {"self": 0.0, "workers": 0.0}
    over_pool = parallel._over_pool

    def timed(*arguments, **options):
        started, workers = time.process_time(), children_cpu()
        try:
            yield from over_pool(*arguments, **options)
        finally:
            pools["self"] += time.process_time() - started
            pools["workers"] += children_cpu() - workers

    parallel._over_pool = timed
    shutil.rmtree(args.root / ".articlesite-cache", ignore_errors=True)
    gc.set_threshold(20_000, 20, 20)   # as the build command sets it (cli.py)
    started = time.perf_counter()
    code = command(["build", "--root", str(args.root), "--clean"])
    wall = time.perf_counter() - started
    alone = time.process_time() - pools["self"]
    pooled = pools["self"] + pools["workers"]
    print(f"alone {alone:.2f} s, pools {pooled:.2f} s (this process {pools['self']:.2f}, "
          f"workers {pools['workers']:.2f}); CPU {alone + pooled:.2f} s; "
          f"alone + pools / 2 = {alone + pooled / 2:.2f} s; wall {wall:.2f} s")
    sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
