"""The dictionary texts a large build's workers make into HTML (for the figures on the
article pages) are handed to the build's own process, where the translator's view shows
every text again: the view is the same as when one process makes them all, and this
process does not make again a text the workers made (load/markup.py, parse.py).

On the fixture site "sources" with a second article, spread over two forked workers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import fixture_site

from articlesite import parallel
from articlesite.build import build
from articlesite.load import markup

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the workers need fork()")


def two_articles(root: Path) -> Path:
    shutil.copytree(root / "content" / "loop", root / "content" / "second-loop")
    return root


def files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes()
            for path in sorted((root / "site").rglob("*")) if path.is_file()}


def test_the_workers_texts_reach_the_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    made: list[tuple[str, str | None]] = []   # the texts made in this process
    make = markup._rich_text
    monkeypatch.setattr(markup, "_rich_text", lambda value, lang=None:
                        made.append((value, lang)) or make(value, lang))
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 2)
    # The sources parsed over the cores, the view rendered here (as in a large build,
    # whose render stage has few pages left: build.render_pages)
    spread_work = parallel.map_unordered
    monkeypatch.setattr(parallel, "map_unordered", lambda function, items, count, *more: (
        map(function, items) if getattr(function, "__name__", "") == "render_group"
        else spread_work(function, items, count, *more)))
    spread = two_articles(fixture_site("sources", tmp_path / "spread" / "project"))
    build(spread, clean=True)
    made_spread = set(made)
    monkeypatch.setattr(parallel, "map_unordered", spread_work)

    made.clear()
    markup.forget_shared()
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 10**6)
    alone = two_articles(fixture_site("sources", tmp_path / "alone" / "project"))
    build(alone, clean=True)

    assert files(spread) == files(alone)
    # The figure's canvas texts, set in their phrases ("行動" in Japanese), made by the
    # workers for its pages: here only in the build of one process.
    canvas = ("行動", "ja")
    assert canvas in made and canvas not in made_spread
    assert any(b"copy-figure-steps" in data for data in files(alone).values())
