"""Edges that name their ends (`from`, `to`): routed by the build, drawn, described by
the nodes they name, their mistakes reported; and the check of an edge that passes
through a node it does not connect."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check, edit, failed_build, fixture_site, line_of, problems, run_build, soup

from articlesite.geometry.route import Ends, route_edges
from articlesite.load import edge_ends
from articlesite.load.figures import Edge, Figure, Node
from articlesite.render.connections import find_connections

SPEC = "figures/steps.yaml"
ROUTED = """title: steps-title
caption: steps-caption
width: 400
height: 200
nodes:
  - id: act
    box: [20, 30, 140, 60]
    text: act
    link: collect
  - id: learn
    box: [240, 110, 140, 60]
    text: learn
    link: learn
edges:
  - from: act
    to: learn
  - from: learn.left
    to: act.bottom
    class: feedback
"""
NODES = {"act": (20, 30, 140, 60), "learn": (240, 110, 140, 60)}
SENTENCE = {"en": "from “{}” to “{}”", "zh": "从“{}”到“{}”", "ja": "「{}」から「{}」へ"}


def routed_site(root: Path) -> Path:
    fixture_site("sources", root)
    (root / SPEC).write_text(ROUTED, encoding="utf-8")
    return root


ROUTINGS: list[int] = []   # how many edges each call of the router in the build routed


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = routed_site(tmp_path_factory.mktemp("routes") / "project")

    def counted(nodes, edges, *args, **kwargs):
        ROUTINGS.append(len(edges))
        return route_edges(nodes, edges, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(edge_ends, "route_edges", counted)
        result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root / "site"


def test_a_figure_is_routed_once_for_all_its_languages(site: Path):
    # Three languages, one routed figure: routed by the build's check of the specs and
    # when first placed on a page (at most), all its edges at once, never per language.
    assert 1 <= len(ROUTINGS) <= 2 and set(ROUTINGS) == {2}, ROUTINGS


def drawn(site: Path, code: str) -> list[dict[str, str]]:
    """The segments of the figure's edges on a page: their classes and style."""
    figure = soup(site / code / "loop.html").select_one("#figure-steps")
    return [{"class": " ".join(span["class"]), "style": span["style"]}
            for span in figure.select(".edge")]


def style(a, b) -> str:
    """The style figure.html gives a segment from a to b (horizontal or vertical)."""
    (x1, y1), (x2, y2) = a, b
    angle = {(1, 0): 0, (0, 1): 90, (-1, 0): 180, (0, -1): -90}[
        ((x2 > x1) - (x2 < x1), (y2 > y1) - (y2 < y1))]
    return (f"left:{x1:g}px;top:{y1:g}px;width:{abs(x2 - x1) + abs(y2 - y1):g}px;"
            f"transform:rotate({angle}deg)")


def test_routed_edges_are_drawn_along_their_routes_in_every_language(site: Path):
    routes = route_edges(NODES, [Ends("act", "learn"), Ends("learn", "act", "left", "bottom")],
                         [], bounds=(0, 0, 400, 200))
    expected = []
    for route, cls in zip(routes, ("edge", "edge feedback")):
        pairs = list(zip(route.points, route.points[1:]))
        expected += [{"class": cls + (" arrow" if i == len(pairs) - 1 else ""),
                      "style": style(a, b)} for i, (a, b) in enumerate(pairs)]
    assert drawn(site, "en") == expected
    assert drawn(site, "zh") == drawn(site, "ja") == expected
    # Out of act's right side, into learn's left; out of learn's left, into act's bottom.
    assert routes[0].points[0][0] == 160 and routes[0].points[-1][0] == 240
    assert routes[1].points[0][0] == 240 and routes[1].points[-1][1] == 90
    assert len(routes[0].points) == 4       # one jog down: learn is lower


@pytest.mark.parametrize("code", ["zh", "en", "ja"])
def test_the_text_alternative_names_the_ends(site: Path, code: str):
    figure = soup(site / code / "loop.html").select_one("#figure-steps")
    found = [li.get_text() for li in figure.select(".visually-hidden li")]
    act = figure.select_one('[data-node="act"] strong').get_text()
    learn = figure.select_one('[data-node="learn"] strong').get_text()
    assert found == [SENTENCE[code].format(act, learn), SENTENCE[code].format(learn, act)]


def test_named_ends_are_what_an_edge_joins_wherever_its_points_lie():
    a, b, c = (Node(n, x, 0, 40, 20, n) for n, x in (("a", 0), ("b", 200), ("c", 100)))
    # Its points end on c, but the edge names b (as a route moved by hand would not).
    edge = Edge(((40, 10), (100, 10)), source="a", target="b")
    figure = Figure("f", Path("f.yaml"), "t", "c", 300, 100, nodes=[a, b, c], edges=[edge])
    assert [(x.source.id, x.target.id) for x in find_connections(figure)] == [("a", "b")]


def test_mistaken_ends_are_listed_at_once_with_their_lines(tmp_path: Path):
    root = routed_site(tmp_path / "project")
    (root / SPEC).write_text(ROUTED + """  - from: lern
    to: act.up
  - from: act
    to: act
  - from: learn
  - points: [[160, 60], [240, 60]]
    to: learn
""", encoding="utf-8")
    listed = failed_build(root)
    at = {needle: line_of(root, SPEC, needle) for needle in ("from: lern", "to: act.up")}
    assert f"figures/steps.yaml:{at['from: lern']}: edge 3: 'from: lern' names no node " \
           "(did you mean 'learn'? nodes: act, learn) [key 'from']" in listed
    assert f"figures/steps.yaml:{at['to: act.up']}: edge 3: 'to: act.up' names an unknown " \
           "side 'up' (sides: top, right, bottom, left) [key 'to']" in listed
    lines = (root / SPEC).read_text(encoding="utf-8").splitlines()
    itself = next(i for i, line in enumerate(lines, 1) if line == "  - from: act"
                  and lines[i] == "    to: act")
    assert f"figures/steps.yaml:{itself}: edge 4 goes from node 'act' to itself" in listed
    assert "edge 5 has 'from' but no 'to': an edge names both its ends" in listed
    assert "edge 6 has both 'points' and 'from'/'to'" in listed
    assert listed.count("\n  figures/") == 5


def test_a_route_that_cannot_avoid_a_box_stops_the_build(tmp_path: Path):
    root = routed_site(tmp_path / "project")
    # Out of learn's bottom, the route needs 10 px below it: the canvas ends 5 px below.
    edit(root, SPEC, "height: 200", "height: 175")
    edit(root, SPEC, "from: learn.left", "from: learn.bottom")
    listed = failed_build(root)
    line = line_of(root, SPEC, "from: learn.bottom")
    assert (f"figures/steps.yaml:{line}: edge 2 from 'learn' (bottom) to 'act' (bottom): no "
            "route keeps 10 px from every other node and label inside the canvas; move the "
            "boxes apart or name other sides") in listed


def test_check_finds_an_edge_through_a_node_it_does_not_connect(tmp_path: Path, capsys):
    root = fixture_site("sources", tmp_path / "project")
    edit(root, SPEC, "edges:", "  - id: middle\n    box: [180, 40, 40, 40]\n    text: act\n"
         "edges:")
    code, report = check(root, capsys)
    found = [f for f in problems(report, "geometry") if "passes through" in f["message"]]
    assert code == 1
    assert [(f["file"], f["line"], f["figure"], f["element"]) for f in found] == [
        (SPEC, line_of(root, SPEC, "points: [[160, 60]"), "steps", "edge 1")]
    assert found[0]["message"] == ("edge 1 passes through node 'middle', which it does not "
                                   "connect (from (160, 60) to (240, 60))")
    # Named by its ends, the same edge goes round the node.
    edit(root, SPEC, "points: [[160, 60], [240, 60]]", "{from: act, to: learn}")
    code, report = check(root, capsys)
    assert not [f for f in report["findings"] if "passes through" in f["message"]], report
