"""The search index in shards against the index in one piece: the same top results?

    python bench/search_ranking.py [ROOT] [--pages N] [--top K] [--queries CODE:QUERY ...]
    python bench/search_ranking.py --stdlib [--pages N] ...

Builds a copy of ROOT (default: the user guide, docs/) twice, into two folders: with
each language's index in one piece, then in shards of N pages or more (default 2: the
guide's ten pages in four shards of two or three, the worst case for Pagefind's
per-index statistics; the build's default is search_shards.PAGES_PER_SHARD). Each site
is served over HTTP on 127.0.0.1, and Pagefind's client in headless Chromium (the
site's own pagefind.js, the shards merged as the search box merges them) runs each
query; the top K pages (default 5) of both are printed, then how many queries give the
same pages in the same order, the same pages, the same first page.

`--stdlib` builds instead a project of one English article per module of Python's
standard library (its packages' modules too, not its tests) that has a docstring of 40
words or more (read from its source, not imported: some 140), with queries on what such
modules do: a larger site of varied texts, where shards hold as many pages as the
build's would.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from articlesite.check.fit import launch
from articlesite.search_shards import PAGES_VARIABLE

# The guide's words and phrases a reader would look for.
QUERIES = ["en:" + query for query in (
    "figure", "translation", "search index", "cache", "serve", "formula", "theme",
    "bibliography", "footnote", "language", "build", "check", "PO file", "XLIFF",
    "Pagefind", "MathML", "edge", "template", "publish", "dictionary", "confirm",
    "citation", "node", "draft", "layout")]
STDLIB_QUERIES = ["en:" + query for query in (
    "file", "socket", "thread", "parse", "encoding", "time zone", "compression",
    "regular expression", "unicode", "process", "email", "url", "archive", "random",
    "date", "debugger", "test", "dictionary", "path", "protocol", "server", "buffer",
    "signal", "import", "format")]

SEARCH = """async ([queries, top]) => {
    const pagefind = await import("/pagefind/pagefind.js");
    await pagefind.options({ excerptLength: 24 });
    await pagefind.init();
    const found = await (await fetch("/pagefind/articlesite-shards.json")).json();
    const lang = document.documentElement.lang.toLowerCase();
    for (const folder of found[lang] || []) {
        await pagefind.mergeIndex("/pagefind/" + folder, { excerptLength: 24 });
    }
    const results = {};
    for (const query of queries) {
        const search = await pagefind.search(query);
        const pages = await Promise.all(search.results.slice(0, top).map(r => r.data()));
        results[query] = pages.map((page, i) =>
            [page.url, Math.round(search.results[i].score * 1000) / 1000]);
    }
    return [results, (found[lang] || []).length + 1];
}"""


def stdlib_project(root: Path) -> Path:
    """A project of one article per documented module of the standard library."""
    import ast
    import re
    import sysconfig

    (root / "content").mkdir(parents=True)
    (root / "content" / "site.yaml").write_text(
        "default_language: en\nsource_language: en\nsearch: true\nlanguages:\n"
        "  - {code: en, name: English, lang: en, title: The standard library}\n")
    library = Path(sysconfig.get_paths()["stdlib"])
    for source in sorted(library.rglob("*.py")):
        parts = source.relative_to(library).with_suffix("").parts
        if parts[0] in ("site-packages", "test", "tests", "idlelib", "lib2to3") or \
                any(part.startswith("test") for part in parts):
            continue
        name = ".".join(part for part in parts if part != "__init__")
        with contextlib.suppress(OSError, SyntaxError, ValueError, UnicodeDecodeError):
            doc = ast.get_docstring(ast.parse(source.read_text("utf-8")))
            words = re.sub(r"[^\w\s.,;()'-]", " ", doc or "").split()
            slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
            if len(words) >= 40 and slug and not (root / "content" / slug).exists():
                (root / "content" / slug).mkdir()
                (root / "content" / slug / "en.md").write_text(
                    f'---\ntitle: "{name}"\ndescription: "The {name} module."\n---\n\n'
                    f"## About {{#about}}\n\n{' '.join(words)}\n", "utf-8")
    return root


@contextlib.contextmanager
def served(site: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def build(root: Path, out: Path, pages: int) -> None:
    env = dict(os.environ, **{PAGES_VARIABLE: str(pages)})
    subprocess.run([sys.executable, str(HERE.parent / "build.py"), "--root", str(root),
                    "build", "--out", str(out)], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def top_results(browser, site: Path, code: str, queries: list[str], top: int):
    with served(site) as base:
        page = browser.new_page()
        page.goto(f"{base}{code}/index.html")
        results = page.evaluate(SEARCH, [queries, top])
        page.close()
        return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=HERE.parent / "docs")
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--queries", nargs="*")
    parser.add_argument("--stdlib", action="store_true")
    args = parser.parse_args()
    args.queries = args.queries or (STDLIB_QUERIES if args.stdlib else QUERIES)
    from playwright.sync_api import sync_playwright

    by_code: dict[str, list[str]] = {}
    for item in args.queries:
        code, query = item.split(":", 1)
        by_code.setdefault(code, []).append(query)
    with tempfile.TemporaryDirectory(prefix="search-ranking-") as work:
        root = Path(work) / "project"
        if args.stdlib:
            stdlib_project(root)
        else:
            shutil.copytree(args.root, root, ignore=shutil.ignore_patterns(
                "site", ".articlesite-cache"))
        print(f"{sum(1 for _ in (root / 'content').glob('*/*.md'))} articles")
        sites = {"one": Path(work) / "one", "shards": Path(work) / "shards"}
        build(root, sites["one"], 1 << 30)
        build(root, sites["shards"], args.pages)
        same_order = same_set = same_first = total = 0
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for code, queries in by_code.items():
                (one, _), (sharded, count) = (top_results(browser, sites[name], code,
                                                          queries, args.top)
                                              for name in ("one", "shards"))
                print(f"{code}: {count} shards")
                for query in queries:
                    a, b = [url for url, _ in one[query]], [url for url, _ in sharded[query]]
                    total += 1
                    same_order += a == b
                    same_set += set(a) == set(b)
                    same_first += a[:1] == b[:1]
                    mark = "=" if a == b else ("~" if set(a) == set(b) else "≠")
                    print(f"  {mark} {query!r}\n      one:    {json.dumps(one[query])}\n"
                          f"      shards: {json.dumps(sharded[query])}")
            browser.close()
    print(f"{total} queries, top {args.top}: same pages in the same order {same_order}, "
          f"same pages {same_set}, same first page {same_first}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
