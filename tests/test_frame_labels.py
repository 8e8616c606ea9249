"""A group's frame holds the labels of the edges between its members: frames are made
from the members' boxes before the labels are placed, so the build grows a frame for
them afterwards (load/groups.py `holding_labels`), where that meets no other node,
frame or route; else the frame stays as it was (and no node comes inside it)."""

from __future__ import annotations

from pathlib import Path

from articlesite.geometry.frames import frame_of, overlaps
from articlesite.load.figures import FigureFile, load_figure
from articlesite.load.sourcefiles import digest
from articlesite.problems import Problems

PAIR = """title: t
caption: c
width: 400
height: 320
direction: down
nodes:
  - {id: a, box: [160, 80, 80, 50], text: a}
  - {id: b, box: [160, 200, 80, 50], text: b}
OTHER
edges:
  - {from: a, to: b, label: go, label_box: [100, 20]}
  - {from: b, to: a, label: back, label_box: [100, 20]}
groups:
  - {id: g, title: t, title_box: [40, 20], nodes: [a, b]}
"""


def _load(tmp_path: Path, other: str = ""):
    path = tmp_path / "pair.yaml"
    path.write_text(PAIR.replace("OTHER\n", other))
    problems = Problems(tmp_path)
    figure = load_figure(FigureFile("pair", path, digest(path.read_bytes())), problems)
    assert not problems, problems
    return figure


def _inside(box, frame) -> bool:
    return (frame[0] <= box[0] and frame[1] <= box[1] and box[0] + box[2] <= frame[0] + frame[2]
            and box[1] + box[3] <= frame[1] + frame[3])


def test_a_frame_grows_to_hold_its_members_labels(tmp_path):
    """Two narrow boxes joined both ways: each label wider than the frame's padding."""
    figure = _load(tmp_path)
    [group] = figure.groups
    labels = [(label.x, label.y, label.w, label.h) for label in figure.edge_labels]
    assert len(labels) == 2
    for box in labels:
        assert _inside(box, group.box), (box, group.box)
    # its title still at the frame's top-left corner, clear of the labels
    assert group.title_box[:2] == (group.box[0] + 6, group.box[1] + 6)
    assert not any(overlaps(group.title_box, box, 0.0) for box in labels)


def test_a_frame_does_not_grow_over_another_node(tmp_path):
    """A node hard left of the pair: the frame may grow to the right, never over it."""
    figure = _load(tmp_path, "  - {id: c, box: [30, 150, 70, 40], text: c}\n")
    [group] = figure.groups
    members = [(n.x, n.y, n.w, n.h) for n in figure.nodes if n.id in ("a", "b")]
    assert group.box[0] == frame_of(members, (40, 20)).box[0]
    assert not overlaps(group.box, next((n.x, n.y, n.w, n.h) for n in figure.nodes
                                        if n.id == "c"), 0.0)


def test_a_frame_does_not_grow_beyond_the_canvas(tmp_path):
    """The canvas 318 px wide: the right label fits it (to 314), its frame would not."""
    path = tmp_path / "pair.yaml"
    path.write_text(PAIR.replace("OTHER\n", "").replace("width: 400", "width: 318"))
    problems = Problems(tmp_path)
    figure = load_figure(FigureFile("pair", path, digest(path.read_bytes())), problems)
    [group] = figure.groups
    assert group.box[0] + group.box[2] <= 318


def test_a_frame_holds_a_loop_between_its_members(tmp_path):
    """An edge between two members that runs round beside them (right side to right
    side) stays inside their stage's frame, as a designer draws it."""
    path = tmp_path / "loop.yaml"
    path.write_text(PAIR.replace("OTHER\n", "").replace(
        "  - {from: c, to: d}\n", "").replace(
        "  - {from: a, to: b, label: go, label_box: [100, 20]}\n",
        "  - {from: a.right, to: b.right}\n"))
    problems = Problems(tmp_path)
    figure = load_figure(FigureFile("loop", path, digest(path.read_bytes())), problems)
    assert not problems, problems
    [group] = figure.groups
    loop = figure.edges[0].points
    x, y, w, h = group.box
    assert max(p[0] for p in loop) > 240 + 15   # it runs beyond the members' padding
    assert all(x < p[0] < x + w and y < p[1] < y + h for p in loop), (loop, group.box)
