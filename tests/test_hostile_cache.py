"""A damaged build cache never reaches the site: every file reused from the cache (a page,
an image an article shows, each file of the search index) is checked against the digest
it was stored under; one deleted or changed is made again, and the site built is the one
a clean build makes.

One project made by `articlesite init` (with an image, and its search index) is built
once for the module; each test damages the cache, builds, and compares the site with
that first build, byte for byte: what a reader would be served."""

from __future__ import annotations

import os
import pickle
import struct
import zlib
from pathlib import Path

import pytest
from conftest import run_build
from jinja2.bccache import bc_magic

from articlesite.cache import FOLDER
from articlesite.cli import main
from articlesite.load.sourcefiles import digest


def png(width: int, height: int) -> bytes:
    """A valid PNG of one grey colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    rows = b"".join(b"\0" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                                                               8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """The project and its site as the first build wrote it."""
    root = tmp_path_factory.mktemp("cache") / "site-project"
    assert main(["init", str(root)]) == 0
    (root / "content/hello/chart.png").write_bytes(png(4, 3))
    english = root / "content/hello/en.md"
    english.write_text(english.read_text("utf-8") + "\n![A grey chart](chart.png)\n", "utf-8")
    assert run_build(root).returncode == 0
    return root, files_of(root / "site")


def files_of(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes()
            for path in sorted(site.rglob("*")) if path.is_file()}


def stored(root: Path, relative: str) -> Path:
    """The cache's copy of the site's file `relative` (the store names it by its digest)."""
    data = (root / "site" / relative).read_bytes()
    return root / FOLDER / "pages" / f"{digest(data)}.html"


def one(site: dict[str, bytes], prefix: str) -> str:
    return next(path for path in site if path.startswith(prefix))


def damage(path: Path, how: str) -> None:
    if how == "deleted":
        path.unlink()
    else:   # the same size, one byte changed: what a disk's error or an edit leaves
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x20
        os.unlink(path)   # (not through the site's hard link)
        path.write_bytes(bytes(data))


def rebuilt(root: Path, clean_site: dict[str, bytes], *args: str,
            env: dict | None = None) -> str:
    result = run_build(root, *args, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    now = files_of(root / "site")
    assert sorted(now) == sorted(clean_site)
    assert [path for path in now if now[path] != clean_site[path]] == []
    return result.stdout


KINDS = {
    "article page": "en/hello.html",
    "index page": "ja/index.html",
    "image": "assets/hello/chart.png",
    "search fragment": "pagefind/fragment/ja_",
    "search word index": "pagefind/index/zh-cn_",
    "search language record": "pagefind/pagefind.en_",
    "search entry file": "pagefind/pagefind-entry.json",
    "search program file": "pagefind/pagefind.js",
}


# Each kind deleted or changed (both, for every kind, took the suite 20 s more; the test
# that damages every stored file does both to each kind).
@pytest.mark.parametrize(("kind", "how"), [(kind, ("deleted", "changed")[number % 2])
                                           for number, kind in enumerate(KINDS)])
def test_a_damaged_cached_file_is_made_again(project, kind: str, how: str):
    root, clean_site = project
    damage(stored(root, one(clean_site, KINDS[kind])), how)
    rebuilt(root, clean_site)


def test_every_stored_file_damaged_at_once_gives_the_same_site(project):
    """Pages, bodies, what the search index was given of each page, the index's files."""
    root, clean_site = project
    for number, path in enumerate(sorted((root / FOLDER / "pages").iterdir())):
        damage(path, "deleted" if number % 2 else "changed")
    rebuilt(root, clean_site)


def test_a_damaged_cache_index_gives_the_same_site(project):
    root, clean_site = project
    index = root / FOLDER / "index"
    index.write_bytes(index.read_bytes()[: len(index.read_bytes()) // 2])
    rebuilt(root, clean_site)


def test_the_site_itself_damaged_is_put_right(project):
    """A file of site/ changed in place (through its hard link, the store's copy with
    it) is not reused: the next build writes the file as it should be."""
    root, clean_site = project
    for relative in (KINDS["article page"], one(clean_site, KINDS["search fragment"])):
        target = root / "site" / relative
        data = bytearray(target.read_bytes())
        data[-2] ^= 0x01
        with target.open("r+b") as out:   # in place: the store's hard link sees it
            out.write(bytes(data))
    rebuilt(root, clean_site)


class Touch:
    """Pickled, it creates a file when unpickled: code a cache file must never run."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return Path.touch, (self.path,)


def test_compiled_templates_damaged_or_forged_are_compiled_again_never_run(project,
                                                                          tmp_path: Path):
    """Jinja's compiled templates are kept across --clean builds: each one changed on disk,
    or replaced by a file in Jinja's own format whose pickle runs code, is compiled again."""
    root, clean_site = project
    ran = tmp_path / "ran"
    forged = bc_magic + pickle.dumps(Touch(ran), protocol=4)
    compiled = sorted((root / FOLDER / "templates").rglob("*.cache"))
    assert compiled
    for number, path in enumerate(compiled):
        if number % 2:
            damage(path, "changed")
        else:
            path.write_bytes(forged)
    # In a process of its own: this one keeps the templates it compiled in memory.
    rebuilt(root, clean_site, "--clean", env=dict(os.environ))
    assert not ran.exists()
