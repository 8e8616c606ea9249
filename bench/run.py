"""The speed benchmark: articlesite against Hugo on the same synthetic sites, same machine.

    python bench/run.py [--sizes 1,200,1000] [--runs 10,5,3] [--work bench/out]

For each size N it writes the synthetic project (bench/make_synthetic.py), the
equivalent Hugo site (bench/make_hugo.py) and, with `pip install -e '.[bench]'`, the
equivalent MkDocs site with mkdocs-static-i18n (bench/make_mkdocs.py), then times full
builds of each, alternating them, after one warm-up of each and a `sync` before every run:
wall time, CPU time (user + system, the workers included); then one more run of each for peak
memory (the process tree's PSS, which counts pages our forked workers share once,
sampled every 20 ms). Our build is also timed, alternating with the others, on a twin of
the project with `search: false`, to show what the search index (Pagefind) costs.
Our full builds are cold: the project's build cache (.articlesite-cache) is deleted
before each, untimed (`--clean` ignores the cache but keeps Jinja's compiled templates);
`--warm` keeps it, as the runs before issue 36 did.
Then, at the largest N, our rebuilds:
nothing changed; one article edited in one language; one dictionary value edited; the
article page template edited (every article page written again, their bodies reused); the
base page template edited (every page written again, the translator's view too); and
the time from a save to the rebuilt page served over HTTP, in `python build.py serve`
and in `hugo server`. Prints a Markdown table and writes it to WORK/results.md.
Needs Debian's hugo: apt-get install -y hugo.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import functools
import importlib.util
import json
import os
import re
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

import make_hugo  # the bench scripts beside this one
import make_mkdocs
import make_synthetic

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class Run:
    wall: float      # s
    cpu: float       # s, user + system of the process and the children it waited for
    memory: int      # bytes: peak PSS of the process tree, or the largest process RSS
    output: str


def tree_pss(pid: int) -> int:
    """Proportional set size of a process and all its descendants, in bytes: pages the
    processes share (our forked workers share the loaded sources) are counted once."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/smaps_rollup") as rollup:
                total += 1024 * next(int(line.split()[1]) for line in rollup
                                     if line.startswith("Pss:"))
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack.extend(int(child) for child in children.read().split())
        except (OSError, ValueError, StopIteration):
            continue  # the process ended meanwhile
    return total


def measure(command: list[str], *, memory: bool = False, cold: Path | None = None) -> Run:
    """Run a command once, after `sync`: wall and CPU time, and with `memory` the peak
    PSS of its process tree, sampled every 20 ms. (Reading a large process's PSS takes
    milliseconds, so timed runs do not sample; their memory is the largest RSS of any
    one process, from wait4.) With `cold`, a project folder, its build cache is deleted
    first (untimed): `--clean` alone keeps it."""
    if cold is not None:
        shutil.rmtree(cold / ".articlesite-cache", ignore_errors=True)
    os.sync()
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], tree_pss(process.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    if memory:
        sampler.start()
    output = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    if memory:
        sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{output}")
    return Run(wall, usage.ru_utime + usage.ru_stime,
               peak[0] if memory and peak[0] else usage.ru_maxrss * 1024, output)


def ours(project: Path, *flags: str) -> list[str]:
    return [sys.executable, str(REPO / "build.py"), "--root", str(project), *flags]


def hugo(site: Path) -> list[str]:
    return ["hugo", "--source", str(site), "--destination", str(site / "public"), "--quiet"]


def hugo_then_pagefind(site: Path) -> list[str]:
    """Hugo, then Pagefind over Hugo's pages (their <article> marked data-pagefind-body),
    as a Hugo site gets its search: `hugo && pagefind --site public`. Pagefind is the
    program the `pagefind[extended]` wheel ships, run directly (no Python in between)."""
    from pagefind.service import get_executable

    pagefind = [str(get_executable()), "--site", str(site / "public"), "--silent"]
    return ["sh", "-c", f"{shlex.join(hugo(site))} && {shlex.join(pagefind)}"]


def mkdocs(site: Path) -> list[str]:
    return [sys.executable, "-m", "mkdocs", "build", "--quiet", "--config-file",
            str(site / "mkdocs.yml"), "--site-dir", str(site / "site")]


def has_mkdocs() -> bool:
    return importlib.util.find_spec("mkdocs") is not None and \
        importlib.util.find_spec("mkdocs_static_i18n") is not None


def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(run, field) for run in runs)


def rendered(run: Run) -> int:
    match = re.search(r"\((\d+) rendered", run.output)
    return int(match.group(1)) if match else -1


def without_search(project: Path, twin: Path) -> None:
    """A copy of the project's sources whose site.yaml turns the search index off."""
    shutil.rmtree(twin, ignore_errors=True)
    for part in ("content", "figures", "templates"):
        shutil.copytree(project / part, twin / part)
    with (twin / "content" / "site.yaml").open("a", encoding="utf-8") as config:
        config.write("\nsearch: false\n")


def compare(size: int, project: Path, site: Path, runs: int, docs: Path | None,
            warm: bool = False) -> dict:
    """Full builds, ours (with and without the search index), Hugo's and MkDocs' (if
    `docs`) alternating, after a warm-up of each; ours cold (the cache deleted before
    each) unless `warm`."""
    twin = project.with_name(f"{project.name}-no-search")
    without_search(project, twin)
    folders = {} if warm else {"ours": project, "no search": twin}
    commands = {"ours": ours(project, "--clean"), "no search": ours(twin, "--clean"),
                "hugo": hugo(site), "hugo+pagefind": hugo_then_pagefind(site)}
    if docs is not None:
        commands["mkdocs"] = mkdocs(docs)
    for name, command in commands.items():
        measure(command, cold=folders.get(name))
    results: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            results[name].append(measure(command, cold=folders.get(name)))
    pages = 3 * size + 4
    hugo_pages = sum(1 for _ in (site / "public").rglob("*.html"))
    assert hugo_pages == pages, f"Hugo wrote {hugo_pages} pages, we wrote {pages}"
    row = {"N": size, "pages": pages, "runs": runs}
    for name, measured in results.items():
        row[name] = {field: median(measured, field) for field in ("wall", "cpu", "memory")}
    row["ours"]["pss"] = measure(ours(project, "--clean"), memory=True,
                                 cold=folders.get("ours")).memory
    row["no search"]["pss"] = measure(ours(twin, "--clean"), memory=True,
                                      cold=folders.get("no search")).memory
    row["hugo"]["pss"] = measure(hugo(site), memory=True).memory
    row["hugo+pagefind"]["pss"] = measure(hugo_then_pagefind(site), memory=True).memory
    return row


def search_table(full: list[dict]) -> str:
    """Our full builds with and without the search index, against Hugo's (which makes none)."""
    mib = 1024 * 1024
    lines = [("| N | ours wall | without search | search's share of the wall | without search "
             "/ Hugo wall | ours CPU | without search CPU | ours peak memory | without "
             "search peak memory | without search / Hugo memory |"),
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in full:
        us, bare, them = row["ours"], row["no search"], row["hugo"]
        lines.append(
            f"| {row['N']} | {us['wall']:.2f} s | {bare['wall']:.2f} s | "
            f"{1 - bare['wall'] / us['wall']:.0%} | {bare['wall'] / them['wall']:.2f} | "
            f"{us['cpu']:.2f} s | {bare['cpu']:.2f} s | {us['pss'] / mib:.0f} MiB | "
            f"{bare['pss'] / mib:.0f} MiB | {bare['pss'] / them['pss']:.2f} |")
    return "\n".join(lines) + "\n"


def verdict(value: float, bound: float, at_most: bool = True) -> str:
    """A ratio against its target from issue 23: met or not."""
    met = value <= bound if at_most else value >= bound
    return f"{value:.2f} ({'≤' if at_most else '≥'} {bound:g}: {'met' if met else 'missed'})"


def targets_table(full: list[dict]) -> str:
    """Each size against issue 23's targets: with the search index, against Hugo followed
    by Pagefind over Hugo's pages (wall and peak memory); without it, against Hugo alone;
    MkDocs against ours."""
    mib = 1024 * 1024
    lines = [("| N | ours wall | Hugo, then Pagefind | ratio | ours peak memory | the pair's "
              "peak | ratio | ours without search | Hugo | ratio | MkDocs / ours |"),
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in full:
        us, pair, bare, them = (row[name] for name in ("ours", "hugo+pagefind", "no search",
                                                       "hugo"))
        mkdocs = (verdict(row["mkdocs"]["wall"] / us["wall"], 2, at_most=False)
                  if "mkdocs" in row and row["N"] >= 200 else
                  f"{row['mkdocs']['wall'] / us['wall']:.2f}" if "mkdocs" in row else "")
        lines.append(
            f"| {row['N']} | {us['wall']:.2f} s | {pair['wall']:.2f} s "
            f"({pair['cpu']:.1f} s CPU) | {verdict(us['wall'] / pair['wall'], 1.0)} | "
            f"{us['pss'] / mib:.0f} MiB | {pair['pss'] / mib:.0f} MiB | "
            f"{verdict(us['pss'] / pair['pss'], 1.0)} | {bare['wall']:.2f} s | "
            f"{them['wall']:.2f} s | "
            f"{verdict(bare['wall'] / them['wall'], 5 if row['N'] < 200 else 3)} | {mkdocs} |")
    return "\n".join(lines) + "\n"


def mkdocs_table(full: list[dict]) -> str:
    """MkDocs with mkdocs-static-i18n on the same content, against ours."""
    lines = [("| N | MkDocs wall | MkDocs CPU | MkDocs wall / ours | MkDocs CPU / ours "
             "| MkDocs wall / ours without search | MkDocs CPU / ours without search |"),
             "|---|---|---|---|---|---|---|"]
    for row in full:
        if "mkdocs" in row:
            them, us, bare = row["mkdocs"], row["ours"], row["no search"]
            lines.append(f"| {row['N']} | {them['wall']:.2f} s | {them['cpu']:.2f} s | "
                         f"{them['wall'] / us['wall']:.2f} | {them['cpu'] / us['cpu']:.2f} | "
                         f"{them['wall'] / bare['wall']:.2f} | "
                         f"{them['cpu'] / bare['cpu']:.2f} |")
    return "\n".join(lines) + "\n"


# An edit is made in two steps: its new text (which may take milliseconds to work out:
# the dictionary is 1 MB of JSON at N = 1000), then the save, from which a save-to-page
# time is measured.
Edit = tuple[Path, str]   # the file, its new text


def save(edit: Edit) -> None:
    path, text = edit
    path.write_text(text, encoding="utf-8")


def body_edit(path: Path, marker: str, body_after: str) -> Edit:
    """Add `marker` after the body's first full stop (front matter left alone)."""
    text = path.read_text(encoding="utf-8")
    start = text.index(body_after) + len(body_after)
    stop = text.index("。", start) + 1
    return path, text[:stop] + marker + text[stop:]


def article_edit(project: Path, number: int) -> Edit:
    path = project / "content" / make_synthetic.slug(middle_article(project)) / "ja.md"
    return body_edit(path, f"（編集 {number}）", "\n---\n")


def dictionary_edit(project: Path, number: int) -> Edit:
    path = project / "figures" / "figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    key = f"ppo-title-{middle_article(project):04d}"
    texts[key]["ja"] = f"{texts[key]['ja'].split('（編集')[0]}（編集 {number}）"
    return path, json.dumps(texts, ensure_ascii=False, indent=2) + "\n"


def template_edit(project: Path, number: int) -> Edit:
    """A change to the page template every article page is rendered with."""
    return marked(project / "templates" / "article.html", "nav", "toc", number)


def base_edit(project: Path, number: int) -> Edit:
    """A change to the page template every page extends (its skip link)."""
    return marked(project / "templates" / "base.html", "a", "skip", number)


def marked(path: Path, tag: str, name: str, number: int) -> Edit:
    """The template with the first <tag class="name"> marked data-edit="number"."""
    return path, re.sub(rf'<{tag}(?: data-edit="\d+")? class="{name}"',
                        f'<{tag} data-edit="{number}" class="{name}"',
                        path.read_text(encoding="utf-8"), count=1)


def middle_article(project: Path) -> int:
    """The article edited: the one in the middle."""
    count = sum(1 for p in (project / "content").iterdir() if p.is_dir())
    return (count + 1) // 2


def rebuilds(project: Path, runs: int) -> dict:
    """Our rebuilds after no change, one article edited, one dictionary value edited,
    the article page template edited (every article page written again), the base one
    (every page)."""
    measure(ours(project, "--clean"))
    rows = {}
    for name, change in (("nothing changed", None),
                         ("one article edited in one language", article_edit),
                         ("one dictionary value edited", dictionary_edit),
                         ("the article page template edited", template_edit),
                         ("the base page template edited", base_edit)):
        measured = []
        for number in range(runs):
            if change is not None:
                save(change(project, number))
            measured.append(measure(ours(project)))
        rows[name] = {"wall": median(measured, "wall"), "cpu": median(measured, "cpu"),
                      "memory": median(measured, "memory"),
                      "rendered": rendered(measured[-1])}
    return rows


def served(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8", "replace")


def build_events(base: str, page: str):
    """The build events of `python build.py serve`, as the EventSource of the open page
    `page` (its path in site/) gets them (the first is the state when it connects)."""
    with urllib.request.urlopen(f"{base}__articlesite/events?page={page}",
                                timeout=120) as response:
        for line in response:
            if line.startswith(b"data: "):
                yield json.loads(line[6:])


def entry_files(site: Path) -> dict[Path, tuple[int, int]]:
    """The search bundle's entry files (one a shard), each with its inode and mtime: a
    shard indexed again gets a new one, put in place after the files it names."""
    found = {}
    bundle = site / "pagefind"
    for path in [bundle / "pagefind-entry.json",
                 *(shard / "pagefind-entry.json" for shard in bundle.glob("shard-*"))]:
        with contextlib.suppress(OSError):
            stat = path.stat()
            found[path] = (stat.st_ino, stat.st_mtime_ns)
    return found


def index_in_place(site: Path, before: dict, started: float, ended) -> float:
    """Seconds from `started` (the save) to the search index in place: to the moment the
    last of the entry files that changed since `before` was seen replaced (polled every
    5 ms until `ended()`, the build's summary line, which comes after the cache is
    saved), or to the summary line when no entry file changed."""
    seen: dict[Path, float] = {}
    while True:
        done = ended()
        now = time.perf_counter()
        for path, stamp in entry_files(site).items():
            if before.get(path) != stamp and path not in seen:
                seen[path] = now - started
        if done:
            return max(seen.values(), default=now - started)
        time.sleep(0.005)


def built_since(log: Path, builds: int) -> bool:
    """Whether serve's log has a build's summary line after the first `builds`."""
    return log.read_text("utf-8").count("\nBuilt ") > builds


def save_to_ready_serve(project: Path, runs: int) -> dict:
    """From the save of a source to the rebuilt page served over HTTP by `python build.py
    serve`, as an open page sees it: the build event that tells it to reload, then the
    page fetched again (and checked to hold the edit), with the pages rendered (from the
    serve log)."""
    log = project / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(ours(project, "serve", "--port", "0"), stdout=out,
                                  stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 600
        while not (found := re.search(r"at (http://[\d.]+:\d+/)", log.read_text("utf-8"))):
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"serve did not start:\n{log.read_text('utf-8')}")
            time.sleep(0.1)
        base = found.group(1)
        path = f"ja/{make_synthetic.slug(middle_article(project))}.html"
        page = base + path
        time.sleep(1.0)
        results = {}
        for name, change, first in (("one article edited", article_edit, 100),
                                    ("one dictionary value edited", dictionary_edit, 200)):
            times, rendered, indexed, summary = [], [], [], []
            for number in range(first, first + runs):
                builds = log.read_text("utf-8").count("\nBuilt ")
                events = build_events(base, path)
                next(events)  # the state before the save
                edit = change(project, number)
                before = entry_files(project / "site")
                started = time.perf_counter()
                save(edit)
                while not (next(events)["ok"] and f"（編集 {number}）" in served(page)):
                    if time.perf_counter() - started > 120:
                        raise SystemExit(f"{name}: no new page after 120 s")
                times.append(time.perf_counter() - started)
                events.close()
                indexed.append(index_in_place(project / "site", before, started,
                                              functools.partial(built_since, log, builds)))
                summary.append(time.perf_counter() - started)
                text = log.read_text("utf-8")
                rendered.append(int(re.findall(r"\((\d+) rendered", text)[-1]))
                time.sleep(0.5)
            results[name] = {"time": statistics.median(times), "rendered": rendered[-1],
                             "indexed": statistics.median(indexed),
                             "summary": statistics.median(summary)}
        return results
    finally:
        server.terminate()
        server.wait()


def save_to_ready_hugo(site: Path, runs: int) -> float | None:
    """From the save of a source to the rebuilt page on disk, in `hugo server`."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served, log = site / "public-serve", site / "hugo-server.log"
    shutil.rmtree(served, ignore_errors=True)
    with log.open("wb") as out:
        server = subprocess.Popen(
            ["hugo", "server", "--source", str(site), "--destination", str(served),
             "--renderToDisk", "--port", str(port), "--bind", "127.0.0.1",
             "--disableLiveReload"], stdout=out, stderr=subprocess.STDOUT)
    try:
        source = sorted((site / "content" / "ja").glob("*.md"))[len(
            list((site / "content" / "ja").glob("*.md"))) // 2]
        page = served / "ja" / f"{source.stem}.html"
        # Its first build done and its watcher started (a save made while the pages are
        # still being written, as at N = 1000, is never seen).
        deadline = time.monotonic() + 120
        while "Web Server is available" not in log.read_text("utf-8", "replace"):
            if time.monotonic() > deadline or server.poll() is not None:
                return None
            time.sleep(0.05)
        time.sleep(1.0)
        times = []
        for number in range(runs):
            marker = f"（保存 {number}, {time.time_ns()}）"   # not in the page before
            edit = body_edit(source, marker, "\n\n")
            started = time.perf_counter()
            save(edit)
            while marker not in page.read_text(encoding="utf-8", errors="replace"):
                if time.perf_counter() - started > 30:
                    return None
                time.sleep(0.001)
            times.append(time.perf_counter() - started)
            time.sleep(0.5)
        return statistics.median(times)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(served, ignore_errors=True)


def table(full: list[dict], again: dict, size: int, serve: dict,
          hugo_serve: float | None) -> str:
    mib = 1024 * 1024
    lines = [("| N | pages | runs | ours wall | Hugo wall | ratio | ours ms/page "
              "| Hugo ms/page | ours CPU | Hugo CPU | ours peak memory | Hugo peak memory "
              "| memory ratio |"),
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in full:
        us, them, pages = row["ours"], row["hugo"], row["pages"]
        lines.append(
            f"| {row['N']} | {pages} | {row['runs']} | {us['wall']:.2f} s | "
            f"{them['wall']:.2f} s | {us['wall'] / them['wall']:.2f} | "
            f"{us['wall'] / pages * 1000:.1f} | {them['wall'] / pages * 1000:.1f} | "
            f"{us['cpu']:.2f} s | {them['cpu']:.2f} s | {us['pss'] / mib:.0f} MiB | "
            f"{them['pss'] / mib:.0f} MiB | {us['pss'] / them['pss']:.2f} |")
    ours_full = next(row["ours"]["wall"] for row in full if row["N"] == size)
    hugo_full = next(row["hugo"]["wall"] for row in full if row["N"] == size)
    lines += ["", (f"Rebuilds at N = {size} ({3 * size + 4} pages), ours. Hugo has no "
                   f"incremental build: each of its builds is a full one, {hugo_full:.2f} s."),
              "", ("| rebuild | wall | share of our full build | CPU | largest RSS "
                   "| pages rendered |"), "|---|---|---|---|---|---|"]
    for name, row in again.items():
        lines.append(f"| {name} | {row['wall']:.2f} s | {row['wall'] / ours_full:.0%} | "
                     f"{row['cpu']:.2f} s | {row['memory'] / mib:.0f} MiB | "
                     f"{row['rendered']} |")
    lines += ["", f"Save to page ready at N = {size}:", "",
              "| change | time | pages rendered | search index in place |",
              "|---|---|---|---|"]
    for name, row in serve.items():
        lines.append(f"| `python build.py serve`, {name} | {row['time'] * 1000:.0f} ms | "
                     f"{row['rendered']} | {row['indexed'] * 1000:.0f} ms |")
    shown = f"{hugo_serve * 1000:.0f} ms" if hugo_serve is not None else "did not finish"
    lines.append(f"| `hugo server --renderToDisk`, one article edited | {shown} | | |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,200,1000")
    parser.add_argument("--runs", default="10,5,5",
                        help="runs of each full build, per size (rebuilds: the last + 2)")
    parser.add_argument("--work", type=Path, default=BENCH / "out")
    parser.add_argument("--warm", action="store_true",
                        help="full builds keep the build cache (--clean alone): by default "
                             "it is deleted before each, a cold build")
    parser.add_argument("--full-only", action="store_true",
                        help="only the full builds (no rebuilds, no save-to-page times)")
    args = parser.parse_args()
    if shutil.which("hugo") is None:
        print("hugo is not installed: apt-get install -y hugo", file=sys.stderr)
        return 2
    sizes = [int(size) for size in args.sizes.split(",")]
    runs = [int(count) for count in args.runs.split(",")]
    # The package's bytecode, as an install writes it (pip compiles what it installs):
    # where PYTHONDONTWRITEBYTECODE is set, as in this machine's shells, every run would
    # otherwise compile its modules again (some 80 ms of CPU at N=1).
    compileall.compile_dir(REPO / "src", quiet=1)
    load = os.getloadavg()[0]
    version = subprocess.run(["hugo", "version"], capture_output=True, text=True,
                             check=True).stdout
    print(f"{version.strip()}; Python {sys.version.split()[0]}; {os.cpu_count()} cores",
          flush=True)
    full = []
    for size, count in zip(sizes, runs, strict=True):
        project, site = args.work / f"ours-{size}", args.work / f"hugo-{size}"
        make_synthetic.make(size, project)
        make_hugo.make(project, site)
        docs = args.work / f"mkdocs-{size}" if has_mkdocs() else None
        if docs is not None:
            make_mkdocs.make(project, docs)
        full.append(compare(size, project, site, count, docs, args.warm))
        print(json.dumps(full[-1]), flush=True)
    kind = "warm: the build cache kept" if args.warm else "cold: the build cache deleted first"
    result = (f"Issue 23's targets, full builds ({kind}; ratios from this run):\n\n"
              + targets_table(full))
    if not args.full_only:
        largest = args.work / f"ours-{sizes[-1]}"
        again = rebuilds(largest, runs[-1] + 2)
        print(json.dumps(again), flush=True)
        serve = save_to_ready_serve(largest, runs[-1] + 2)
        print(json.dumps(serve), flush=True)
        hugo_serve = save_to_ready_hugo(args.work / f"hugo-{sizes[-1]}", runs[-1] + 2)
        result += "\n" + table(full, again, sizes[-1], serve, hugo_serve)
    result += ("\nOur full builds without the search index (`search: false`), timed in the "
               "same runs:\n\n" + search_table(full))
    if any("mkdocs" in row for row in full):
        result += ("\nMkDocs with mkdocs-static-i18n (bench/make_mkdocs.py), full builds:\n\n"
                   + mkdocs_table(full))
    else:
        result += "\nMkDocs was not measured: pip install -e '.[bench]'.\n"
    result += (f"\nMachine: {os.cpu_count()} cores; load average (1 min) {load:.1f} at the "
               f"start, {os.getloadavg()[0]:.1f} at the end; {version.strip()}; Python "
               f"{sys.version.split()[0]}.\n")
    (args.work / "results.md").write_text(result, encoding="utf-8")
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
