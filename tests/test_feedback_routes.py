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
