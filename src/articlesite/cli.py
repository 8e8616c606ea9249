"""The command line: `python build.py [build|…]` and the `articlesite` console script."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .problems import BuildError

# A build that runs longer than this shows a progress line (on a terminal).
PROGRESS_AFTER = 1.0


def main(argv: list[str] | None = None, default_root: Path | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python build.py",
                                     description="Build the multilingual article site.")
    parser.add_argument("--root", type=Path, default=default_root or Path.cwd(),
                        help="the project folder (content/, figures/, templates/); "
                             "default: the folder of build.py, or the current folder")
    parser.add_argument("--clean", action="store_true",
                        help="ignore the build cache (ROOT/.articlesite-cache): a full build")
    commands = parser.add_subparsers(dest="command")
    build_parser = commands.add_parser("build", help="build site/ (the default)")
    build_parser.add_argument("--out", type=Path, help="output folder (default: ROOT/site)")
    args = parser.parse_args(argv)
    return run_build(args.root, getattr(args, "out", None), clean=args.clean)


def run_build(root: Path, out: Path | None, *, clean: bool = False) -> int:
    from .build import build

    try:
        built = build(root, out, clean=clean, progress=ProgressLine())
    except BuildError as error:
        count = len(error.problems)
        print(f"Build failed: {count} problem{'s' if count != 1 else ''}; site/ was left "
              "as it was.", file=sys.stderr)
        for problem in error.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    rendered = len(built.rendered)
    print(f"Built {built.pages} pages in {built.languages} languages into "
          f"{out or root / 'site'} in {built.seconds:.2f} s ({rendered} rendered, "
          f"{built.pages - rendered} unchanged).")
    return 0


class ProgressLine:
    """`Rendering pages: 1200/3003` on stderr, rewritten in place at most ten times a
    second once a build has run for PROGRESS_AFTER seconds; only on a terminal."""

    def __init__(self):
        self.started = time.perf_counter()
        self.shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if (not sys.stderr.isatty() or now - self.started < PROGRESS_AFTER
                or (now - self.shown < 0.1 and done < total)):
            return
        self.shown = now
        print(f"\rRendering pages: {done}/{total}", end="\n" if done == total else "",
              file=sys.stderr, flush=True)
