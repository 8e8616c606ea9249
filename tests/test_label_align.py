"""An edge label's box is sized to its longest language; its text lines up toward its
edge (`data-align`), so that a shorter translation stays beside the edge rather than
floating in the middle of the box."""

from __future__ import annotations

from pathlib import Path

from articlesite.geometry.labels import facing
from articlesite.load.figures import FigureFile, load_figure
from articlesite.load.sourcefiles import digest
from articlesite.problems import Problems

PAIR = """title: t
caption: c
width: 400
height: 300
nodes:
  - {id: a, box: [160, 60, 80, 50], text: a}
  - {id: b, box: [160, 180, 80, 50], text: b}
  - {id: c, box: [20, 60, 80, 50], text: c}
edges:
  - {from: a, to: b, label: go, label_box: [100, 20]}
  - {from: b, to: a, label: back, label_box: [100, 20]}
  - {from: c, to: a, label: onto, label_box: [40, 20]}
"""


def test_a_label_beside_a_vertical_run_lines_up_toward_it(tmp_path: Path):
    path = tmp_path / "pair.yaml"
    path.write_text(PAIR)
    problems = Problems(tmp_path)
    figure = load_figure(FigureFile("pair", path, digest(path.read_bytes())), problems)
    assert not problems, problems
    align = {label.text: label.align for label in figure.edge_labels}
    run = {label.text: figure.edges[label.edge].points[0][0] for label in figure.edge_labels}
    boxes = {label.text: (label.x, label.w) for label in figure.edge_labels}
    for key in ("go", "back"):   # the pair's vertical edges, one label each side
        x = boxes[key][0]
        assert align[key] == ("left" if x >= run[key] else "right"), (key, boxes[key], run)
    assert {align["go"], align["back"]} == {"left", "right"}
    assert align["onto"] == "center"   # beside a horizontal run


def test_facing_reads_the_side_of_the_nearest_run():
    route = [(0.0, 0.0), (0.0, 100.0), (200.0, 100.0)]
    assert facing(route, (4.0, 20.0, 60.0, 20.0)) == "left"
    assert facing(route, (-64.0, 20.0, 60.0, 20.0)) == "right"
    assert facing(route, (100.0, 76.0, 60.0, 20.0)) == "center"
    assert facing(route, (-30.0, 20.0, 60.0, 20.0)) == "center"   # on the line
