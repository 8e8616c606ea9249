"""Time to build an article of many footnotes: a project made by `articlesite init` (zh,
en, ja) whose English article gets N footnotes, each referred to once (and every tenth
twice), built without the search index and without the cache (`--clean`).

    python bench/footnotes.py [N] [ROUNDS]

Prints the median wall time of a build over ROUNDS (default 3) for N (default 4000)
footnotes, and for N/4 beside it: a build whose time grows near-linearly with the notes
takes about four times as long for four times as many. Before issue 34, 4000 footnotes
took 31 s (each note's back-link counted the references by scanning every token).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def project(folder: Path, notes: int) -> Path:
    root = folder / f"notes-{notes}"
    subprocess.run([sys.executable, "-m", "articlesite", "init", str(root)], check=True,
                   capture_output=True, env={"PYTHONPATH": str(SRC)})
    config = root / "content" / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "search: false\n",
                      encoding="utf-8")
    article = root / "content" / "hello" / "en.md"
    text = "".join(f"Sentence {i} with a note.[^n{i}]" + (f" Again.[^n{i}]" if i % 10 == 0
                                                          else "") + "\n\n"
                   for i in range(notes))
    text += "".join(f"[^n{i}]: Note {i}, with *emphasis*.\n" for i in range(notes))
    article.write_text(article.read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")
    return root


def build_time(root: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "articlesite", "--root", str(root), "build",
                    "--clean"], check=True, capture_output=True,
                   env={"PYTHONPATH": str(SRC)})
    return time.perf_counter() - started


def main() -> None:
    notes = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as folder:
        for count in (notes // 4, notes):
            root = project(Path(folder), count)
            times = [build_time(root) for _ in range(rounds)]
            print(f"{count:6} footnotes: {statistics.median(times):6.2f} s "
                  f"(median of {rounds} builds)")


if __name__ == "__main__":
    main()
