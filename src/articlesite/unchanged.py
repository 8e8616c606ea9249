"""A build with nothing to do: every file a build reads is what it was when the last good
build read it, and site/ still holds exactly what that build wrote. Then `build` says
so from the record that build left (ROOT/.articlesite-cache/inputs), without loading
the cache's index, a source or a template.

The rule a file is trusted by, as Make, Hugo and Git trust a file: its size, its
modification time, its inode, and its change time (ctime), which no program can set
back: a file edited to the same size with its modification time restored (`touch -r`)
has a new ctime, so it is read again. A file changed within RACY seconds of the scan
(a second edit in the same clock tick would keep every one of those) is not trusted by
its times: the record keeps the digest of its bytes, and the next build hashes it.

The same rule holds for site/: each file there must still be the very file the build
linked from the cache's store (same inode, size and times; an edit through the link, or
a file replaced, deleted or added by hand, and the build is a full one, which puts it
right). Only the standard library here: the command line asks this before importing
the build (whose imports alone cost more than this whole check).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import marshal
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .problems import plural

CACHE_FOLDER = ".articlesite-cache"   # cache.FOLDER (that module imports far more)
RECORD = "inputs"
FORMAT = 2
RACY = 2.0   # seconds: a file changed this close to the scan is trusted by its digest
THEME = Path(__file__).resolve().parent / "theme"
LIBRARIES = ("jinja2", "markupsafe", "markdown-it-py", "mdit-py-plugins", "math-core",
             "pyyaml", "pygments", "babel", "imagesize", "pagefind")


@functools.cache
def code_fingerprint() -> str:
    """The generator's own code (its modules and the scripts it puts in pages) and the
    libraries that shape its output. Taken once a process, at its first build: the code
    that runs, whatever the disk says later."""
    from importlib.metadata import PackageNotFoundError, version

    package = Path(__file__).parent
    files = sorted(p for p in package.rglob("*") if p.suffix in (".py", ".js"))
    parts = [sys.version, *(f"{path.relative_to(package).as_posix()}:"
                            f"{_digest(path.read_bytes())}" for path in files)]
    for library in LIBRARIES:
        with contextlib.suppress(PackageNotFoundError):
            parts.append(f"{library}={version(library)}")
    return _digest("\n".join(parts).encode())


def _digest(data: bytes) -> str:
    """As sourcefiles.digest (SHA-256 cut to 128 bits, in hex)."""
    return hashlib.sha256(data).hexdigest()[:32]


class Unsure(Exception):
    """Something in the tree no record can vouch for (a symbolic link, an unreadable
    folder): the build does its full work."""


def scan_inputs(root: Path, out: Path,
                content: Callable[[dict[str, tuple]], None] | None = None
                ) -> dict[str, tuple]:
    """Every file and folder under `root` a build may read (all of it but the output
    folder, the cache, .git and the folders killed builds left beside the output) and
    the theme's files, each with what it is trusted by (see the module's text). Raises
    Unsure on a symbolic link or an unreadable folder. The project's content/ is scanned
    first: `content(found)` is called with what was found in it, before the rest."""
    skipped = {str(out), str(root / CACHE_FOLDER), str(root / ".git")}
    scan = Scan(skipped, f".{out.name}.", str(out.parent), time.time_ns())
    scan.first, scan.then = str(root / "content"), content
    for base, label in ((root, ""), (THEME, "theme:")):
        scan.folder(str(base), str(base), label)
    return scan.found


class Scan:
    """One scan of the inputs (scan_inputs)."""

    def __init__(self, skipped: set[str], leftovers: str, beside: str, now: int):
        self.skipped, self.leftovers, self.beside = skipped, leftovers, beside
        self.now = now
        self.found: dict[str, tuple] = {}
        self.first: str | None = None   # the folder scanned first, and then called
        self.then: Callable[[dict[str, tuple]], None] | None = None

    def folder(self, base: str, folder: str, label: str) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError as error:
            raise Unsure(str(error)) from None
        if folder == base and self.first is not None:
            entries.sort(key=lambda entry: entry.path != self.first)
        for entry in entries:
            if entry.path in self.skipped or entry.name == "__pycache__" or \
                    (folder == self.beside and entry.name.startswith(self.leftovers)):
                continue
            if entry.is_symlink():
                raise Unsure(entry.path)
            name = label + entry.path[len(base) + 1:]
            if entry.is_dir():
                self.found[name + "/"] = ()
                self.folder(base, entry.path, label)
                if entry.path == self.first and self.then is not None:
                    self.then(self.found)
            else:
                self.found[name] = signature(entry.path, entry.stat(), self.now)


def signature(path: str, stat: os.stat_result, now: int) -> tuple:
    """What a file is trusted by: (size, mtime, ctime, inode), or, changed within RACY
    seconds of `now`, the digest of its bytes."""
    if now - max(stat.st_mtime_ns, stat.st_ctime_ns) < RACY * 1e9:
        try:
            with open(path, "rb") as file:
                return ("digest", _digest(file.read()))
        except OSError as error:
            raise Unsure(str(error)) from None
    return (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)


def changed_inputs(recorded: dict[str, tuple], inputs: dict[str, tuple], root: Path
                   ) -> set[str]:
    """The names of the files and folders that differ between the `recorded` inputs and
    `inputs`, a scan taken now: added, removed, or trusted by other values. A file the
    record trusts by its digest (it changed just before that scan) is hashed: if its
    bytes are those, it is the same."""
    changed = {name for name in inputs.keys() | recorded.keys()
               if inputs.get(name) != recorded.get(name)}
    for name in list(changed):
        was, now = recorded.get(name, ()), inputs.get(name, ())
        if was[:1] == ("digest",) and len(now) == 4:   # trusted by its times now
            path = THEME / name[len("theme:"):] if name.startswith("theme:") else root / name
            with contextlib.suppress(OSError):
                if _digest(path.read_bytes()) == was[1]:
                    changed.discard(name)
    return changed


def scan_site(out: Path) -> dict[str, tuple]:
    """Every file and folder of the site: each file's inode, size and times (the very
    file of the store it was linked from, untouched since)."""
    found: dict[str, tuple] = {}
    pending, start = [str(out)], len(str(out)) + 1
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as error:
            raise Unsure(str(error)) from None
        for entry in entries:
            name = entry.path[start:]
            if entry.is_symlink():
                raise Unsure(entry.path)
            if entry.is_dir():
                found[name + "/"] = ()
                pending.append(entry.path)
            else:
                stat = entry.stat()
                found[name] = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    return found


def options(root: Path, out: Path, drafts: bool) -> tuple:
    """What else a build depends on: where it reads and writes, its settings, the
    environment variables this program and Pagefind read, the code."""
    environment = sorted((name, value) for name, value in os.environ.items()
                         if name.startswith(("ARTICLESITE_", "PAGEFIND_")))
    return (FORMAT, code_fingerprint(), str(root), str(out), drafts, environment)


def trusted_digests(root: Path, inputs: dict[str, tuple], data: dict | None = None
                    ) -> dict[str, str]:
    """The digests the last good build took of the files that are, by `inputs` (this
    build's scan), unchanged since: by path. None of a file trusted by its digest only
    (changed just before this scan): it is read. `data`: the record, if read already."""
    try:
        if data is None:
            data = load_marshal(root / CACHE_FOLDER / RECORD)
        if data["options"][:1] != (FORMAT,) or data["options"][2] != str(root):
            return {}
        before, digests = data["inputs"], data["digests"]
    except (OSError, ValueError, EOFError, KeyError, TypeError, IndexError):
        return {}
    return {f"{root}/{name}": digest for name, digest in digests.items()
            if name in inputs and inputs[name] == before.get(name)
            and inputs[name][:1] != ("digest",)}


def record(root: Path, out: Path, drafts: bool, inputs: dict[str, tuple],
           summary: tuple, warnings: list[tuple], notes: list[str],
           hashed: dict[str, str] | None = None, search: list[str] | None = None,
           more: dict | None = None) -> None:
    """After a good build that read `inputs` (scanned before it read anything) and wrote
    the whole of `out`: what the next build compares. `hashed`: the digest the build
    took of each source, by path, for the next build to trust (trusted_digests); one
    of a file scanned by its digest only if it is that digest (the file did not change
    between the scan and the build's reading). `search`: the languages the site indexes
    (None: no search index), for the next build to start Pagefind before it loads
    anything (search_service.early_service); `more`: what else the build keeps for the
    next (the key every page depends on, the notes by article: build.py)."""
    start = len(str(root)) + 1
    digests = {}
    for path, digest in (hashed or {}).items():
        name = path[start:]
        scanned = inputs.get(name)
        if scanned is not None and (scanned[:1] != ("digest",) or scanned[1] == digest):
            digests[name] = digest
    folder = root / CACHE_FOLDER
    path = folder / RECORD
    try:
        site = scan_site(out)
        index = cache_files(folder)
    except (Unsure, OSError):
        forget(root)
        return
    data = {"options": options(root, out, drafts), "inputs": inputs, "site": site,
            "index": index,
            "summary": summary, "warnings": warnings, "notes": notes, "digests": digests,
            "search": search, **(more or {})}
    temporary = folder / f".{RECORD}.{os.getpid()}.tmp"
    temporary.write_bytes(marshal.dumps(data))
    os.replace(temporary, path)


def load_marshal(path: Path) -> object:
    """A marshal file's data, read without the cyclic garbage collector running: the
    cache's index is a million small tuples and strings, none in a cycle, and the
    collections their making set off cost a third of the reading (some 0.1 s at N =
    1000); the record, ten thousand. Raises OSError, ValueError, EOFError, TypeError."""
    data = path.read_bytes()
    collecting = gc.isenabled()
    gc.disable()
    try:
        return marshal.loads(data)
    finally:
        if collecting:
            gc.enable()


def cache_files(folder: Path) -> tuple:
    """What the cache's index and bundle files (cache.py) are trusted by: each one's
    inode, size and modification time (the bundle's None if there is none). Raises
    OSError if there is no index."""
    index = os.stat(folder / "index")
    try:
        bundle = os.stat(folder / "bundle")
        bundled = (bundle.st_ino, bundle.st_size, bundle.st_mtime_ns)
    except OSError:
        bundled = None
    return (index.st_ino, index.st_size, index.st_mtime_ns, bundled)


def forget(root: Path) -> None:
    """No record: the next build does its full work (a build under way, or one that
    could not vouch for what it read)."""
    with contextlib.suppress(OSError):
        os.unlink(root / CACHE_FOLDER / RECORD)


class Since:
    """What changed since the last good build (its record), as the command line sees it
    before a build: `record`, the record, if the last build ran with the same options
    (settings, code, where it read and wrote) and its cache index is still the one it
    saved (else None); `inputs`, this scan of the inputs, taken before the build reads
    any (None: Unsure); `changed`, the names of the inputs that differ from the record
    (None without a record); `nothing`, whether there is nothing to do: no input
    changed and site/ holds exactly what the last build wrote."""

    def __init__(self, record: dict | None, inputs: dict[str, tuple] | None,
                 changed: set[str] | None, nothing: bool = False):
        self.record, self.inputs, self.changed, self.nothing = record, inputs, changed, nothing


def since_last(root: Path, out: Path, drafts: bool,
               content: Callable[[dict, set[str]], None] | None = None) -> Since:
    """What changed since the last good build (Since): one scan of the inputs, and of
    site/ when no input changed. `content(record, changed)` is called with the last
    build's record and the names in content/ that changed, before the scan goes on
    through the rest (search_service.EarlyService)."""
    folder = root / CACHE_FOLDER
    try:
        data = load_marshal(folder / RECORD)
        if data["options"] != options(root, out, drafts) or \
                data["index"] != cache_files(folder):
            data = None
    except (OSError, ValueError, EOFError, KeyError, TypeError):
        data = None

    def scanned(found: dict[str, tuple]) -> None:
        recorded = {name: trusted for name, trusted in data["inputs"].items()
                    if name.startswith("content/")}
        content(data, changed_inputs(recorded, found, root))

    try:
        inputs = scan_inputs(root, out, None if data is None or content is None or
                             not isinstance(data.get("inputs"), dict) else scanned)
    except Unsure:
        return Since(None, None, None)
    if data is None:
        return Since(None, inputs, None)
    try:
        changed = changed_inputs(data["inputs"], inputs, root)
        nothing = not changed and scan_site(out) == data["site"]
    except (KeyError, TypeError, AttributeError, Unsure):
        return Since(None, inputs, None)
    return Since(data, inputs, changed, nothing)


def unchanged(root: Path, out: Path, drafts: bool) -> dict | None:
    """The record of the last good build, if nothing it read or wrote changed since."""
    since = since_last(root, out, drafts)
    return since.record if since.nothing else None


def summary_line(pages: int, rendered: int, files: int, languages: int, where: str,
                 seconds: float) -> str:
    """A build's summary line (build.Built.summary)."""
    files_part = f" and {plural(files, 'file')}" if files else ""
    return (f"Built {plural(pages, 'page')}{files_part} in "
            f"{plural(languages, 'language')}{where} in {seconds:.2f} s ({rendered} "
            f"rendered, {pages - rendered} unchanged)")

