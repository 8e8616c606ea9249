"""The floor of an incremental build: `python build.py` with nothing changed, or after
one article edited in one language (bench/run.py's article_edit), timed in CPU (user +
system), the build's own Python process apart from what it started (Pagefind).

    python bench/floor.py ROOT [--edit] [--runs 3] [--code DIR]

ROOT is a built project (bench/make_synthetic.py N ROOT, then one build). `--code DIR`
runs another checkout's build.py (e.g. a `git worktree` of main) on the same machine at
the same time, to compare before and after side by side: each checkout needs a project
of its own (the cache's keys name the code and the project's folder). Prints one line a
run: wall, the build process's CPU, its children's CPU (Pagefind), and the summary.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHILD = "--child"


def child(build: Path, root: Path) -> None:
    """Run the build command line in this process; its CPU and its children's, as JSON
    on the last line of stderr."""
    sys.path.insert(0, str(build.parent / "src"))
    sys.argv = [str(build), "--root", str(root)]
    from articlesite.cli import main  # (the checkout's own, put first above)

    code = main(["--root", str(root)])
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print(json.dumps({"cpu": own.ru_utime + own.ru_stime,
                      "children": children.ru_utime + children.ru_stime}), file=sys.stderr)
    sys.exit(code)


def run_once(build: Path, root: Path) -> str:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, CHILD, str(build), str(root)],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    usage = json.loads(done.stderr.strip().splitlines()[-1])
    return (f"wall {wall:.2f} s, build CPU {usage['cpu']:.2f} s, Pagefind CPU "
            f"{usage['children']:.2f} s: {done.stdout.strip()}")


def main() -> None:
    if sys.argv[1:2] == [CHILD]:
        child(Path(sys.argv[2]), Path(sys.argv[3]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--edit", action="store_true", help="edit one article first")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--code", type=Path, default=HERE.parent,
                        help="the checkout whose build.py runs")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    import run  # bench/run.py: the edit

    for number in range(args.runs):
        if args.edit:
            run.save(run.article_edit(args.root, int(time.time()) % 10000 + number))
            os.sync()
        print(run_once(args.code.resolve() / "build.py", args.root.resolve()), flush=True)


if __name__ == "__main__":
    main()
