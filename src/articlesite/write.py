"""Writing the site: into a fresh folder beside it, swapped in place of the old one in
one atomic exchange (renameat2 on Linux), so that a failed or killed build never leaves
a half-written site/; or, after a change, only the pages that changed, each replaced in
one atomic rename. Every file comes from the cache's store (hard links, or copies)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import NoReturn

from .cache import FOLDER as CACHE_FOLDER
from .cache import Entry, Store
from .problems import BuildError, Problem
from .problems import command as command_name
from .search import BUNDLE, ENTRY_NAME, MANIFEST

# The file every build leaves in the folder it wrote: a later build replaces only a folder
# that holds it (or an empty one), never a folder of someone's files.
MARKER = ".articlesite-output"
MARKER_TEXT = ("This folder was written by articlesite: each build replaces all of it.\n"
               "Keep nothing else here.\n")
# The project's own folders, which no build may write into.
SOURCE_FOLDERS = ("content", "figures", "templates", CACHE_FOLDER)

# Called with the paths of the pages put in place (None: the whole site).
Written = Callable[[list[str] | None], None]


def place_bundle(out: Path, old: dict[str, Entry], new: dict[str, Entry],
                 store: Store, retired: Path | None = None) -> None:
    """Put a new search bundle in place of the old in `out`: its new files first, then the
    entry files that name them (one a shard), then the manifest that names the shards,
    then the old files go (into `retired`, if given: see retire), and the shard folders
    left empty."""
    changed = {path: entry for path, entry in new.items() if old.get(path) != entry}
    last = (lambda path: path.endswith(f"/{ENTRY_NAME}"), lambda path: path == MANIFEST)
    for batch in ({p: e for p, e in changed.items() if not any(is_(p) for is_ in last)},
                  *({p: e for p, e in changed.items() if is_(p)} for is_ in last)):
        for path in batch:
            (out / path).parent.mkdir(parents=True, exist_ok=True)
        place_pages(out, batch, store, None)
    gone = old.keys() - new.keys()
    if retired is not None:
        retire(out, sorted(gone), retired)
    for path in gone:
        (out / path).unlink(missing_ok=True)
    for folder in sorted({PurePosixPath(path).parent for path in gone}, key=str, reverse=True):
        while folder.parts[:1] == (BUNDLE,) and len(folder.parts) > 1:
            with contextlib.suppress(OSError):   # (not empty: kept)
                (out / folder).rmdir()
            folder = folder.parent


# serve's builds keep the files they took out of the search bundle for this long, outside
# site/ (RETIRED in the cache's folder), and serve answers a request for one from there:
# a page that read the bundle's entry file just before a build put a new one in place
# (or loaded the index and searches after the build) asks for the files the old one
# names, its metadata, index chunks and fragments. Given a 404 for the metadata of the
# main bundle or of a shard, Pagefind's client finds nothing at all ("Pagefind: WASM
# Error (No pointer)"); for an index chunk, it misses that chunk's pages.
RETIRED = "retired-bundle"
RETIRED_FOR = 30 * 60.0   # seconds


def retire(out: Path, paths: list[str], retired: Path, keep: bool = False) -> None:
    """Move the bundle files `paths` out of `out` into a folder of `retired` named after
    the time (`keep`: link them there, left in `out` for a site swapped out whole), and
    delete the folders retired longer than RETIRED_FOR ago. (A file that cannot be moved
    there is left to the caller to delete.)"""
    now = time.time_ns()
    folder = retired / str(now)
    for path in paths:
        with contextlib.suppress(OSError):   # gone already, or on another file system
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (os.link if keep else os.replace)(out / path, folder / path)
    with contextlib.suppress(OSError):
        for older in retired.iterdir():
            if older.name.isdigit() and now - int(older.name) > RETIRED_FOR * 1e9:
                shutil.rmtree(older, ignore_errors=True)


def retired_file(retired: Path, path: str) -> Path | None:
    """The newest retired copy of the bundle file `path` (a path in site/ whose parts
    were checked), if one is kept (retire)."""
    try:
        folders = sorted((f for f in retired.iterdir() if f.name.isdigit()),
                         key=lambda f: int(f.name), reverse=True)
    except OSError:
        return None
    for folder in folders:
        if (folder / path).is_file():
            return folder / path
    return None


def place_pages(out: Path, entries: dict[str, Entry], store: Store,
                written: Written | None) -> None:
    """Put stored pages in `out`, each file replaced in one atomic rename (a server killed
    between two renames leaves pages of both builds; the next build puts it right)."""
    if not entries:
        return
    for path, entry in entries.items():
        if _same_file(store.path(entry.blob), out / path):
            continue   # rendered again into the very bytes the store kept: in place already
        temporary = out / f".{path.replace('/', '-')}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()  # left by a killed build
        store.place(entry.blob, temporary)
        os.replace(temporary, out / path)
    if written is not None:
        written(sorted(entries))


def _same_file(stored: Path, target: Path) -> bool:
    """Whether `target` is the stored file itself (a hard link to it). Renaming a link
    over another link to the same file does nothing: the temporary link would stay."""
    try:
        return os.path.samefile(stored, target)
    except OSError:
        return False


def check_out(root: Path, out: Path, *, default: bool) -> None:
    """Refuse (BuildError) an output folder that a build must not replace: one that holds
    the project or lies inside its sources, a file, or a folder of files that no build
    wrote (it has no MARKER). ROOT/site, the default, is accepted without the marker
    when it is a real folder (not a link): builds before the marker wrote it. `default`:
    not given with --out (the messages name --out otherwise)."""
    root, where = root.resolve(), out.resolve()
    if where == root or root.is_relative_to(where):
        _refuse(out, default, f"the output folder holds the project ({root}), and a build "
                              "replaces its output folder whole")
    for name in SOURCE_FOLDERS:
        if where.is_relative_to(root / name):
            _refuse(out, default, f"the output folder is inside the project's {name}/, "
                                  "which a build never writes")
    if where.exists() and not where.is_dir():
        _refuse(out, default, "the output folder is a file, not a folder: move the file "
                              "away")
    own_site = where == root / "site" and not (root / "site").is_symlink()
    if not where.exists() or (where / MARKER).is_file() or own_site:
        return
    try:
        empty = next(where.iterdir(), None) is None
    except OSError as error:
        _refuse(out, default, f"the output folder cannot be read ({error.strerror})")
    if not empty:
        _refuse(out, default, f"the folder holds files that no build wrote (it has no "
                              f"{MARKER}), and a build replaces its output folder whole: "
                              "empty it yourself if they can go")


def _refuse(out: Path, default: bool, why: str) -> NoReturn:
    raise BuildError([Problem(str(out) if default else f"--out {out}", None,
                              f"{why}; nothing was written. Choose another output folder "
                              f"with `{command_name()} build --out DIR`: an absent or empty "
                              "folder, or one a build wrote")])


def write_site(pages: dict[str, Entry], store: Store, out: Path,
               retired: Path | None = None) -> None:
    """Make `out` hold exactly these pages, each the very file in the store (a hard
    link). When few of its files differ (IN_PLACE), those alone are replaced, each in one
    atomic rename, in an order that never lets a page name a file not yet there
    (in_place_order); the files the site no longer has then go. Otherwise the pages are
    assembled into a fresh folder beside `out`, swapped in whole (the search bundle's
    files it drops kept in `retired` first, if given, as in place). A file already the
    right link is left as it is."""
    out = out.resolve()
    remove_leftovers(out)
    found = differences(out, pages, store)
    if found is not None:
        wrong, extra = found
        if len(wrong) + len(extra) <= max(IN_PLACE, len(pages) // 10):
            update_in_place(out, {path: pages[path] for path in wrong}, extra, store,
                            retired)
            return
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-{os.getpid()}-", dir=out.parent))
    try:
        folders = {fresh}
        for path, entry in pages.items():
            relative = PurePosixPath(path)
            if relative.is_absolute() or ".." in relative.parts:
                raise ValueError(f"page path escapes the site folder: {path}")
            target = fresh / relative
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            store.place(entry.blob, target)
        (fresh / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        fresh.chmod(0o755)
        if retired is not None and (out / BUNDLE).is_dir():   # (the old site goes whole)
            retire(out, sorted(set(_files(out, f"{BUNDLE}/")) - pages.keys()), retired,
                   keep=True)
        swap_in(fresh, out)
    finally:
        if fresh.exists():
            shutil.rmtree(fresh, ignore_errors=True)


# Replaced in place, up to this many files or a tenth of the site's, whichever is more;
# beyond, the site is assembled afresh and swapped in whole (a template edit, say).
IN_PLACE = 200


def differences(out: Path, pages: dict[str, Entry], store: Store
                ) -> tuple[list[str], list[str]] | None:
    """The pages `out` does not hold as the very file in the store, and the files and
    folders it holds that are no page's (folders end with "/"); None when `out` is no
    site a build wrote (no MARKER), or a page's place is a folder there. One listing of
    the store's folder and of the site's: a folder's listing gives each file's inode."""
    stored = {entry.name: entry.inode() for entry in os.scandir(store.folder)}
    here: dict[str, int | None] = {}   # None: a folder
    pending = [""]
    try:
        while pending:
            folder = pending.pop()
            for entry in os.scandir(out / folder if folder else out):
                name = f"{folder}/{entry.name}" if folder else entry.name
                if entry.is_dir(follow_symlinks=False):
                    here[name] = None
                    pending.append(name)
                else:
                    here[name] = entry.inode()
    except OSError:
        return None
    if here.get(MARKER) is None:
        return None
    needed = {"."}   # the folders pages go in, and theirs (as PurePosixPath.parents)
    for page in pages:
        folder = page.rpartition("/")[0]
        while folder and folder not in needed:
            needed.add(folder)
            folder = folder.rpartition("/")[0]
    wrong = []
    for path, entry in pages.items():
        inode = here.get(path, 0)
        if inode is None or path in needed:
            return None   # a folder where a page goes, or a page where a folder goes
        if inode != stored.get(f"{entry.blob}.html"):
            wrong.append(path)
    extra = [name + ("/" if inode is None else "") for name, inode in here.items()
             if name not in pages and name != MARKER and (inode is not None or
                                                           name not in needed)]
    if any(name.rstrip("/") in pages or name in needed for name in extra):
        return None
    return wrong, extra


def in_place_order(path: str) -> tuple[int, str]:
    """The order files are put in place: the files pages load first (the search bundle's
    files, the translator's view's), then the pages, then the search bundle's entry
    files, its manifest, and the translator's view's page last."""
    if path == MANIFEST:
        return 3, path
    if path.startswith(f"{BUNDLE}/"):
        return (2 if path.endswith(f"/{ENTRY_NAME}") else 0), path
    if path.startswith("translations/"):
        return 0, path
    return (4 if path == "translations.html" else 1), path


def update_in_place(out: Path, changed: dict[str, Entry], extra: list[str],
                    store: Store, retired: Path | None = None) -> None:
    """Replace the `changed` pages in `out` (in in_place_order), then delete the `extra`
    files and folders (a folder only once none of its files is a page); the search
    bundle's files among them into `retired`, if given (retire)."""
    for path in sorted(changed, key=in_place_order):
        relative = PurePosixPath(path)
        if relative.is_absolute() or ".." in relative.parts:
            raise ValueError(f"page path escapes the site folder: {path}")
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        place_pages(out, {path: changed[path]}, store, None)
    if retired is not None:   # (differences lists a folder's files too: each once here)
        retire(out, sorted({file for name in extra if name.startswith(f"{BUNDLE}/")
                            for file in _files(out, name)}), retired)
    for name in sorted(extra, key=lambda name: (name.endswith("/"), name)):
        if name.endswith("/"):
            shutil.rmtree(out / name, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                (out / name).unlink()


def _files(out: Path, name: str) -> list[str]:
    """The file `name` in `out`, or the files under the folder `name` ("…/")."""
    if not name.endswith("/"):
        return [name]
    return [path.relative_to(out).as_posix() for path in (out / name).rglob("*")
            if path.is_file()]


def remove_leftovers(out: Path) -> None:
    """Remove what builds that were killed left beside `out`: their folders are named
    after their process id, and that process is gone."""
    for kind in ("new", "old"):
        for folder in out.parent.glob(f".{out.name}.{kind}-*"):
            pid = folder.name.removeprefix(f".{out.name}.{kind}-").split("-")[0]
            if pid.isascii() and pid.isdigit() and not _running(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, under another user
    return True


_RENAME_EXCHANGE = 2


def swap_in(fresh: Path, out: Path) -> None:
    """Put `fresh` where `out` is. `out` is whole before and after, even if killed mid-way.

    On Linux both names are exchanged in one atomic renameat2() call; elsewhere the old
    folder is moved aside first, which leaves a brief moment with no `out`.
    """
    if not out.exists():
        os.rename(fresh, out)
        return
    import ctypes  # only here: a first build, or serve's quick rebuilds, never swap
    import ctypes.util

    libc_name = ctypes.util.find_library("c")
    renameat2 = getattr(ctypes.CDLL(libc_name, use_errno=True), "renameat2", None) \
        if libc_name else None
    if renameat2 is not None:
        at_fdcwd = -100
        if renameat2(at_fdcwd, os.fsencode(fresh), at_fdcwd, os.fsencode(out),
                     _RENAME_EXCHANGE) == 0:
            shutil.rmtree(fresh)  # now holds the previous site
            return
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    os.rename(out, old)
    os.rename(fresh, out)
    shutil.rmtree(old)
