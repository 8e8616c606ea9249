"""CPU time to read one figure spec: YAML parse alone, and parse plus schema check and
transforms (load_figure), per spec, on a project's figures/.

    python bench/spec_parse.py [ROOT] [ROUNDS]

The first round is a fresh process's (nothing remembered yet); the rest are medians.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from articlesite.load.figures import load_figure, scan_figures
from articlesite.load.sourcefiles import parse_yaml
from articlesite.problems import Problems


def per_spec(files: list, step) -> float:
    """CPU milliseconds per spec for one pass over every spec."""
    started = time.process_time()
    for file in files:
        step(file)
    return (time.process_time() - started) * 1000 / len(files)


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    problems = Problems(root)
    files = list(scan_figures(root, problems).values())
    texts = {file.id: file.text for file in files}
    steps = {"parse_yaml": lambda f: parse_yaml(texts[f.id], f.path, problems),
             "load_figure": lambda f: load_figure(f, problems)}
    print(f"{len(files)} specs in {root / 'figures'}")
    for name, step in steps.items():
        first = per_spec(files, step)
        rest = statistics.median(per_spec(files, step) for _ in range(rounds))
        print(f"{name:12} first pass {first:.3f} ms/spec, then {rest:.3f} ms/spec")
    assert not problems, problems


if __name__ == "__main__":
    main()
