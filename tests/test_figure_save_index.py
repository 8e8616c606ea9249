"""A figure's geometry is not what the search index reads: a node moved (as serve's
figure editor saves it) re-renders the pages that show the figure, but Pagefind is not
run again, the longest part of such a rebuild (bench/serve_figure_save.py times it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit, fixture_site, snapshot

from articlesite import search
from articlesite.build import build


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project", search=True).resolve()


def test_a_node_moved_keeps_the_index_and_a_text_changed_makes_it_again(root, monkeypatch):
    built = build(root)
    runs = []
    real = search.index_languages
    monkeypatch.setattr(search, "index_languages",
                        lambda groups, *rest: runs.append(sorted(groups)) or
                        real(groups, *rest))
    index = snapshot(root / "site" / "pagefind")
    spec = root / "figures" / "steps.yaml"
    edit(root, "figures/steps.yaml", "box: [240, 30, 140, 60]", "box: [236, 34, 150, 60]")
    moved = build(root, previous=built, changed=[spec])
    assert {"en/loop.html", "zh/loop.html", "ja/loop.html"} <= set(moved.rendered)
    assert "left:236px" in (root / "site" / "en" / "loop.html").read_text("utf-8")
    assert runs == [] and snapshot(root / "site" / "pagefind") == index
    edit(root, "figures/figure-texts.json", '"Learn"', '"Learn more"')
    build(root, previous=moved, changed=[root / "figures" / "figure-texts.json"])
    assert runs == [["en"]]
