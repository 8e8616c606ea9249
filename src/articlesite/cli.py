"""The command line: `python build.py [build|…]` and the `articlesite` console script."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .problems import BuildError


def main(argv: list[str] | None = None, default_root: Path | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python build.py",
                                     description="Build the multilingual article site.")
    parser.add_argument("--root", type=Path, default=default_root or Path.cwd(),
                        help="the project folder (content/, figures/, templates/); "
                             "default: the folder of build.py, or the current folder")
    commands = parser.add_subparsers(dest="command")
    build_parser = commands.add_parser("build", help="build site/ (the default)")
    build_parser.add_argument("--out", type=Path, help="output folder (default: ROOT/site)")
    args = parser.parse_args(argv)
    return run_build(args.root, getattr(args, "out", None))


def run_build(root: Path, out: Path | None) -> int:
    from .build import build

    try:
        built = build(root, out)
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
