"""The build cache, ROOT/.articlesite-cache/: rendered pages by content hash, across runs.

A page is reused only when everything its HTML depends on is what it was:

- its key: this code and its libraries, the site configuration, every template byte and
  interface string, and the page's own sources (for an article page, its source, the
  bibliography and the article's listing; for an index page, the listings it shows);
- what it read while it was rendered: each figure spec's digest, and each dictionary
  text its figures showed, in its language.

The stored HTML is a file named after its own digest, hard-linked into the new site; it is
reused only while its size and modification time are what they were when written, so an
edit made to it through site/ is never copied into a new build. Deleting the folder is
always safe.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .config import Site
from .figures import FigureFile
from .sourcefiles import Memo, digest
from .texts import Dictionary

FOLDER = ".articlesite-cache"
FORMAT = 1
LIBRARIES = ("jinja2", "markupsafe", "markdown-it-py", "mdit-py-plugins", "latex2mathml",
             "pyyaml")


def code_fingerprint() -> str:
    """The generator's own code and the libraries that shape its output."""
    parts = [sys.version]
    for path in sorted(Path(__file__).parent.glob("*.py")):
        parts.append(f"{path.name}:{digest(path.read_bytes())}")
    for library in LIBRARIES:
        with contextlib.suppress(PackageNotFoundError):
            parts.append(f"{library}={version(library)}")
    return digest("\n".join(parts).encode())


# Taken when the package is imported: the code that runs, whatever the disk says later.
CODE = code_fingerprint()


def key_of(*parts: object) -> str:
    """A digest of values: strings, numbers, None, containers and dataclasses of them,
    whose repr() is exact and deterministic."""
    return digest(repr(parts).encode())


def site_key(site: Site, templates: dict[str, str], strings: Dictionary) -> str:
    """What every page depends on: configuration, templates and interface strings."""
    return key_of(CODE, str(site.root), site.languages, site.default_language,
                  site.source_language, site.base_url, sorted(templates.items()),
                  strings.texts)


def texts_digest(texts: tuple[tuple[str, str], ...], dictionary: Dictionary) -> str:
    return key_of([dictionary.texts.get(key, {}).get(language) for key, language in texts])


@dataclass(frozen=True)
class Entry:
    """A rendered page in the cache: its key, what it read, and its stored HTML."""

    key: str
    figures: tuple[tuple[str, str | None], ...]   # figure id, spec digest (None: absent)
    texts: tuple[tuple[str, str], ...]            # dictionary key, language
    texts_digest: str                             # of those texts' values
    blob: str                                     # digest of the HTML, its name in store
    size: int
    mtime_ns: int


class Store:
    """HTML files named after their digest."""

    def __init__(self, folder: Path):
        self.folder = folder

    def put(self, html: str) -> tuple[str, int, int]:
        """Write a page; return its digest, size and modification time."""
        data = html.encode("utf-8")
        blob = digest(data)
        path = self.folder / f"{blob}.html"
        temporary = self.folder / f".{blob}.{os.getpid()}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, path)
        stat = path.stat()
        return blob, stat.st_size, stat.st_mtime_ns

    def holds(self, entry: Entry) -> bool:
        try:
            stat = (self.folder / f"{entry.blob}.html").stat()
        except OSError:
            return False
        return (stat.st_size, stat.st_mtime_ns) == (entry.size, entry.mtime_ns)

    def place(self, blob: str, target: Path) -> None:
        """Put a stored page at `target`: a hard link, or a copy across file systems."""
        source = self.folder / f"{blob}.html"
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)

    def keep_only(self, blobs: set[str]) -> None:
        for item in os.scandir(self.folder):
            if item.name.removesuffix(".html") not in blobs:
                with contextlib.suppress(OSError):
                    os.unlink(item.path)


class Cache:
    """The pages and parsed files of the last successful build."""

    def __init__(self, root: Path, *, clean: bool = False):
        self.folder = root / FOLDER
        self.store = Store(self.folder / "pages")
        self.pages: dict[str, Entry] = {}
        self.memo = Memo()
        self.store.folder.mkdir(parents=True, exist_ok=True)
        if not clean:
            self._load()

    def _load(self) -> None:
        try:
            data = json.loads((self.folder / "index.json").read_text(encoding="utf-8"))
            if data["format"] != FORMAT or data["code"] != CODE:
                return
            pages = {path: Entry(row[0], tuple(map(tuple, row[1])),
                                 tuple(zip(row[2][::2], row[2][1::2])), *row[3:])
                     for path, row in data["pages"].items()}
            self.pages, self.memo = pages, Memo(data["parsed"])
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable: start afresh

    def reusable(self, path: str, key: str, figures: dict[str, FigureFile],
                 dictionary: Dictionary) -> Entry | None:
        """The cached page, if nothing it depends on changed and its HTML is intact."""
        entry = self.pages.get(path)
        if entry is None or entry.key != key:
            return None
        for figure_id, spec in entry.figures:
            file = figures.get(figure_id)
            if (file.digest if file else None) != spec:
                return None
        if texts_digest(entry.texts, dictionary) != entry.texts_digest:
            return None
        return entry if self.store.holds(entry) else None

    def save(self, pages: dict[str, Entry]) -> None:
        """Record a successful build and delete stored pages it no longer uses."""
        if pages == self.pages and self.memo.kept == self.memo.known:
            return
        rows = {path: [entry.key, entry.figures, [part for pair in entry.texts for part in pair],
                       entry.texts_digest, entry.blob, entry.size, entry.mtime_ns]
                for path, entry in pages.items()}
        data = {"format": FORMAT, "code": CODE, "pages": rows, "parsed": self.memo.kept}
        temporary = self.folder / f".index.{os.getpid()}.tmp"
        temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, self.folder / "index.json")
        self.store.keep_only({entry.blob for entry in pages.values()})
