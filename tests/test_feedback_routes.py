"""A feedback edge (`class: feedback`) runs round rather than across another edge's route
(geometry/grid.py AROUND): its route pays more for a crossing than others' do, in the
build, `check`, `figure layout` and the figure editor alike."""

from __future__ import annotations

from pathlib import Path

from articlesite.figures.routing import route_answer
from articlesite.geometry.crossings import count
from articlesite.geometry.route import Ends, route_edges
from articlesite.load.figures import FigureFile, load_figure
from articlesite.load.sourcefiles import digest
from articlesite.problems import Problems

# A vertical edge from t down to u, and an edge back from r up to l whose shortest route
# runs across it: the way round t is some 250 px longer (a crossing costs 80).
NODES = {"t": (200, 140, 100, 40), "u": (200, 260, 100, 40),
         "r": (400, 200, 80, 40), "l": (20, 120, 80, 40)}
LOOP = """\
title: steps-title
caption: steps-caption
width: 500
height: 400
nodes:
  - {id: t, box: [200, 140, 100, 40], text: act}
  - {id: u, box: [200, 260, 100, 40], text: learn}
  - {id: r, box: [400, 200, 80, 40], text: note}
  - {id: l, box: [20, 120, 80, 40], text: act}
edges:
  - {from: t.bottom, to: u.top}
  - {from: r.left, to: l.right, class: feedback}
"""


def routed(around: bool) -> list:
    edges = [Ends("t", "u", "bottom", "top"), Ends("r", "l", "left", "right", around)]
    return [route.points for route in route_edges(NODES, edges, bounds=(0, 0, 500, 400))]


def test_a_feedback_edge_goes_round_where_another_edge_crosses():
    assert count(routed(False)) == 1
    plain, back = routed(True)
    assert count([plain, back]) == 0
    assert len(back) > 2 and plain == routed(False)[0]


def test_the_build_and_the_editor_route_a_feedback_edge_alike(tmp_path: Path):
    spec = tmp_path / "figures" / "loop.yaml"
    spec.parent.mkdir()
    built = {}
    for word, text in (("feedback", LOOP), ("plain", LOOP.replace(", class: feedback", ""))):
        spec.write_text(text, encoding="utf-8")
        found = Problems(tmp_path)
        figure = load_figure(FigureFile("loop", spec, digest(spec.read_bytes())), found)
        assert not found
        built[word] = [[list(point) for point in edge.points] for edge in figure.edges]
    assert count(built["feedback"]) == 0 and count(built["plain"]) == 1
    request = {"width": 500, "height": 400, "labels": [],
               "nodes": [{"id": node, "box": list(box)} for node, box in NODES.items()],
               "edges": [{"from": "t.bottom", "to": "u.top"},
                         {"from": "r.left", "to": "l.right", "class": "feedback"}]}
    assert [edge["points"] for edge in route_answer(request)["edges"]] == built["feedback"]


# A graph drawn upwards whose feedback edge n4 -> n1 names no side: from the sides that
# face each other its route detours, and it is routed again from the others.
UPWARDS = {"n0": (225, 650, 300, 70), "n1": (315, 550, 120, 40), "n2": (435, 420, 220, 70),
           "n3": (30, 290, 300, 70), "n4": (575, 290, 160, 70), "n5": (95, 420, 300, 70),
           "n6": (135, 160, 80, 70), "n7": (40, 30, 80, 70), "n8": (160, 30, 220, 70)}
UPWARDS_EDGES = [("n0", "n1"), ("n1", "n2"), ("n1", "n3"), ("n1", "n5"), ("n2", "n3"),
                 ("n2", "n4"), ("n3", "n6"), ("n6", "n7"), ("n6", "n8"), ("n4", "n1")]


def test_a_feedback_edge_routed_from_other_sides_still_runs_round():
    """Routed again from other sides, the feedback edge paid for a crossing what the
    edge tried before it paid (an ordinary edge's): its route ran across n2 -> n3."""
    edges = [Ends(a, b, around=(a, b) == ("n4", "n1")) for a, b in UPWARDS_EDGES]
    routes = route_edges(UPWARDS, edges, bounds=(0, 0, 765, 750))
    assert all(route.ok for route in routes)
    assert count([route.points for route in routes]) == 0
