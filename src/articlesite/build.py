"""The build: load and check everything, render every page, then swap in the new site/."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .config import Site, load_site
from .content import Article, load_articles
from .figures import Figure, load_figures
from .problems import Problems
from .render import Page, Renderer
from .texts import Dictionary, load_dictionary
from .translations import Record, load_record, record_path
from .translator_view import render_translator_view


@dataclass
class Sources:
    """Everything a build reads, loaded and checked."""

    site: Site
    articles: list[Article]
    figures: dict[str, Figure]
    dictionary: Dictionary
    strings: Dictionary
    confirmed: Record  # the translations' confirmation record (translations.py)


def load_sources(root: Path, problems: Problems) -> Sources:
    """Load every source. Problems are collected; BuildError is raised here only when
    something the later stages cannot do without is unusable, so that rendering can
    still find and report the rest."""
    site = load_site(root, problems)
    problems.raise_if_any()
    assert site is not None
    dictionary = load_dictionary(root / "figures" / "figure-texts.json", site.codes, problems)
    strings = load_dictionary(root / "templates" / "strings.yaml", site.codes, problems,
                              what="interface strings")
    figures = load_figures(root, problems)
    articles = load_articles(site, problems)
    if dictionary is None or strings is None:
        problems.raise_if_any()
    assert dictionary is not None and strings is not None
    check_figure_keys(figures, dictionary, problems)
    confirmed = load_record(record_path(dictionary), site.codes, problems)
    return Sources(site, articles, figures, dictionary, strings, confirmed)


def check_figure_keys(figures: dict[str, Figure], dictionary: Dictionary,
                      problems: Problems) -> None:
    for figure in figures.values():
        for key, element, line in figure.used_keys():
            if key and key not in dictionary:
                problems.add(figure.path, line, f"{element} uses a key that "
                             f"{dictionary.path.name} lacks", key=key)


def render_pages(sources: Sources, problems: Problems) -> list[Page]:
    renderer = Renderer(sources.site, sources.figures, sources.dictionary, sources.strings,
                        problems)
    pages = renderer.render_site(sources.articles)
    pages.append(render_translator_view(sources, renderer))
    problems.raise_if_any()
    return pages


def build(root: Path, out: Path | None = None) -> list[Page]:
    """Build the site under `root` into `out` (default root/site). Raises BuildError."""
    root = root.resolve()
    problems = Problems(root)
    pages = render_pages(load_sources(root, problems), problems)
    write_site(pages, out or root / "site")
    return pages


def write_site(pages: list[Page], out: Path) -> None:
    """Write pages into a fresh folder beside `out`, then swap it in whole."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(out)
    fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-{os.getpid()}-", dir=out.parent))
    try:
        for page in pages:
            target = (fresh / page.path).resolve()
            if not target.is_relative_to(fresh):
                raise ValueError(f"page path escapes the site folder: {page.path}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(page.html, encoding="utf-8")
        fresh.chmod(0o755)
        swap_in(fresh, out)
    finally:
        if fresh.exists():
            shutil.rmtree(fresh, ignore_errors=True)


def remove_leftovers(out: Path) -> None:
    """Remove what builds that were killed left beside `out`: their folders are named
    after their process id, and that process is gone."""
    for kind in ("new", "old"):
        for folder in out.parent.glob(f".{out.name}.{kind}-*"):
            pid = folder.name.removeprefix(f".{out.name}.{kind}-").split("-")[0]
            if pid.isdigit() and not _running(int(pid)):
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
