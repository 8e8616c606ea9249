"""Figures for readers who cannot see them: a list, in the page's language, of what each
edge connects, read off the transformed geometry."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, soup

from articlesite.load.figures import Edge, Figure, FigureLibrary, Label, Node
from articlesite.load.sources import load_sources
from articlesite.problems import Problems
from articlesite.render.connections import find_connections

SOURCES = load_sources(REPO, Problems(REPO))
FIGURES = FigureLibrary(SOURCES.figures, SOURCES.dictionary, Problems(REPO)).every()


def connections_on_page(site: Path, code: str, figure_id: str) -> list[str]:
    figure = soup(site / code / "ppo-long-horizon.html").select_one(f"#figure-{figure_id}")
    return [li.get_text() for li in figure.select(".visually-hidden li")]


@pytest.mark.parametrize("figure_id", sorted(FIGURES))
def test_every_arrow_of_the_real_figures_is_described(built_site: Path, figure_id: str):
    # In these figures no two arrows join the same pair, so one sentence per edge.
    for code in ("zh", "en", "ja"):
        assert len(connections_on_page(built_site, code, figure_id)) == len(
            FIGURES[figure_id].edges)


@pytest.mark.parametrize(("code", "sentence"), [
    ("en", "from “Actor” to “Tool environment”"),
    ("zh", "从“Actor”到“工具环境”"),
    ("ja", "「Actor」から「ツール環境」へ"),
])
def test_the_list_is_in_the_page_language(built_site: Path, code: str, sentence: str):
    assert sentence in connections_on_page(built_site, code, "training-overview")


def test_an_arrow_ending_at_a_label_names_the_label(built_site: Path):
    # critic-training: GAE's second arrow points at the advantages formula, not a node.
    assert "from “GAE · Build targets” to “A₁ = 3 · A₂ = 1”" in connections_on_page(
        built_site, "en", "critic-training")


def test_a_branch_joining_a_line_inherits_its_ends():
    a, b, c = (Node(n, x, y, 40, 20, n) for n, x, y in (("a", 0, 0), ("b", 200, 0),
                                                         ("c", 100, 40)))
    trunk = Edge(((40, 10), (200, 10)))
    branch = Edge(((120, 40), (120, 10)), arrow=False)  # from c's top up onto the trunk
    figure = Figure("f", Path("f.yaml"), "t", "c", 300, 100, nodes=[a, b, c],
                    edges=[trunk, branch], labels=[Label(500, 500, 10, "far")])
    found = {(x.source.id, x.target.id, x.directed) for x in find_connections(figure)}
    assert found == {("a", "b", True), ("c", "b", False)}
