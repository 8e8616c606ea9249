"""How long `serve` takes to rebuild after one save of a figure spec, as the figure
editor saves it (a node moved by a pixel), on a small site.

    python bench/serve_figure_save.py [ROOT] [--saves N] [--figure ID]

ROOT's content/, figures/ and templates/ (default: this repository's, 12 pages in three
languages, with its search index) are copied into a temporary folder (nothing of ROOT is
written) and served by `python build.py serve` on a free port. After its first build,
the figure's spec (default: the first in figures/) is saved N times (default 20), each
time with the first node's x moved by one pixel, written beside it and renamed over it
as an editor does; the next save waits for the rebuild. Printed per save: the build's
own time (from serve's summary line) and the time from the save to that line; then
the median and the worst of each. The goal is every rebuild under 1 s.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"^Built .* in ([\d.]+) s \(.*: (?:.*) changed\.$", re.MULTILINE)
GOAL_S = 1.0


def serve(root: Path) -> tuple[subprocess.Popen, Path]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = root / "serve.log"
    process = subprocess.Popen([sys.executable, str(REPO / "build.py"), "--root", str(root),
                                "serve", "--port", str(port)],
                               stdout=log.open("wb"), stderr=subprocess.STDOUT)
    wait_for(log, process, lambda text: "Serving " in text, 180)
    return process, log


def wait_for(log: Path, process: subprocess.Popen, done, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while True:
        text = log.read_text(encoding="utf-8", errors="replace")
        if done(text):
            return text
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"serve stopped or took too long:\n{text}")
        time.sleep(0.005)


def save_moved(spec: Path, step: int) -> None:
    """The spec with its first box's x moved by one pixel, saved as an editor saves."""
    text = spec.read_text(encoding="utf-8")
    found = re.search(r"box: \[(-?\d+(?:\.\d+)?)", text)
    if found is None:
        raise SystemExit(f"{spec.name} has no node with a box to move")
    x = float(found.group(1)) + (1 if step % 2 == 0 else -1)
    moved = f"{text[:found.start(1)]}{x:g}{text[found.end(1):]}"
    aside = spec.with_name(f".{spec.name}.saving")
    aside.write_text(moved, encoding="utf-8")
    os.replace(aside, spec)


def measure(root: Path, figure: str | None, saves: int) -> list[tuple[float, float]]:
    specs = sorted((root / "figures").glob("*.yaml"))
    spec = root / "figures" / f"{figure}.yaml" if figure else specs[0]
    process, log = serve(root)
    timings = []
    try:
        for step in range(saves):
            seen = len(SUMMARY.findall(log.read_text(encoding="utf-8", errors="replace")))
            started = time.perf_counter()
            save_moved(spec, step)
            text = wait_for(log, process, lambda t, seen=seen: len(SUMMARY.findall(t)) > seen, 60)
            waited = time.perf_counter() - started
            built = float(SUMMARY.findall(text)[seen])
            timings.append((built, waited))
            print(f"save {step + 1:2}: built in {built:.2f} s, {waited:.2f} s from the save",
                  flush=True)
            time.sleep(0.3)   # as a person between two drags
    finally:
        process.terminate()
        process.wait(timeout=30)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=REPO)
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--figure", help="the figure id (default: the first spec)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="serve-figure-save-") as work:
        root = Path(work)
        for part in ("content", "figures", "templates"):
            if (args.root / part).is_dir():
                shutil.copytree(args.root / part, root / part)
        timings = measure(root, args.figure, args.saves)
    for name, values in (("build", [b for b, _ in timings]),
                         ("save to summary", [w for _, w in timings])):
        print(f"{name}: median {statistics.median(values):.2f} s, worst {max(values):.2f} s "
              f"over {len(values)} saves (goal: every one under {GOAL_S:g} s)")


if __name__ == "__main__":
    main()
