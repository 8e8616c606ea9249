"""Full-text search: the Pagefind bundle (`site/pagefind/`), built from the finished
pages at build time by the Pagefind program the `pagefind[extended]` wheel ships (the
extended build segments Chinese and Japanese into words). Pagefind keeps one index per
`<html lang>`, so a page searches its own language only (templates/search.js).

Only articles are indexed (their `<article>` carries data-pagefind-body); the table of
contents is left out. The bundle is kept in the build cache like a page: it is made again
only when an HTML page changed, and put in place with the pages.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .cache import Entry, Store, key_of
from .problems import Problems

BUNDLE = "pagefind"


def pagefind_version() -> str:
    try:
        return version("pagefind")
    except PackageNotFoundError:
        return ""


def indexed_pages(pages: dict[str, Entry]) -> list[tuple[str, str]]:
    """The pages Pagefind reads (it indexes the articles among them): every HTML page but
    the translator's view."""
    return sorted((path, entry.blob) for path, entry in pages.items()
                  if path.endswith(".html") and path != "translations.html"
                  and not path.startswith(f"{BUNDLE}/"))


def search_bundle(pages: dict[str, Entry], store: Store, cached: dict[str, Entry],
                  problems: Problems, root: Path) -> dict[str, Entry]:
    """The bundle's files (path in site/ -> stored entry) for these pages: the cached
    ones if they were made from the same pages, else made again."""
    key = key_of(pagefind_version(), indexed_pages(pages))
    known = {path: entry for path, entry in cached.items() if path.startswith(f"{BUNDLE}/")}
    if known and all(entry.key == key and store.holds(entry) for entry in known.values()):
        return known
    with tempfile.TemporaryDirectory(prefix=".search-", dir=store.folder.parent) as work:
        folder = Path(work)
        for path, blob in indexed_pages(pages):
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            store.place(blob, target)
        result = subprocess.run(
            [sys.executable, "-m", "pagefind", "--site", str(folder), "--output-subdir",
             BUNDLE, "--silent"], capture_output=True, text=True, check=False)
        bundle = folder / BUNDLE
        if result.returncode != 0 or not (bundle / "pagefind.js").is_file():
            reason = (result.stderr or result.stdout).strip().splitlines()
            problems.add(root / "site" / BUNDLE, None, "the search index could not be "
                         "built by Pagefind (is `pagefind[extended]` installed? "
                         f"pip install -e .): {reason[-1] if reason else 'no output'}")
            return {}
        entries = {}
        for path in sorted(bundle.rglob("*")):
            if path.is_file():
                data = path.read_bytes()
                if path.name == "pagefind-entry.json":   # its languages in a fixed order:
                    entry = json.loads(data)              # two builds are byte-identical
                    entry["languages"] = dict(sorted(entry["languages"].items()))
                    data = json.dumps(entry, ensure_ascii=False,
                                      separators=(",", ":")).encode("utf-8")
                stored = store.put_bytes(data)
                entries[path.relative_to(folder).as_posix()] = Entry(key, (), (), "", *stored)
        return entries

