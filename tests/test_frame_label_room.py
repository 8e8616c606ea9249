"""`figure layout` leaves a group room across for the labels of the edges between its
members (geometry/frames.py `margins`), so that the build can grow its frame to hold
them (load/groups.py `holding_labels`): two stages side by side, the first a pair of
boxes joined both ways whose labels are wider than the boxes' spacing allows."""

from __future__ import annotations

import json

from filesite import make_site

from articlesite.cli import main
from articlesite.load.figures import FigureFile, load_figure
from articlesite.load.sourcefiles import digest
from articlesite.problems import Problems

SPEC = """title: t
caption: c
direction: down
nodes:
  - {id: a, text: a}
  - {id: b, text: b}
  - {id: c, text: c}
  - {id: d, text: d}
edges:
  - {from: a, to: b, label: go}
  - {from: b, to: a, label: back}
  - {from: c, to: d}
groups:
  - {id: g, title: g-title, nodes: [a, b]}
  - {id: h, title: h-title, nodes: [c, d]}
"""
WORDS = {"t": "Pair", "c": "Two stages", "a": "Act", "b": "Tools", "c-node": "Left",
         "go": "Calls the tools", "back": "Tool answers",
         "g-title": "G", "h-title": "H", "d": "Right"}


def test_a_stage_s_own_labels_lie_inside_its_frame(tmp_path, capsys):
    root = make_site(tmp_path / "site")
    texts = {key: {"en": text, "zh": text, "ja": text} for key, text in WORDS.items()}
    texts["c"] = {"en": "Left", "zh": "Left", "ja": "Left"}
    (root / "figures" / "figure-texts.json").write_text(json.dumps(texts), encoding="utf-8")
    path = root / "figures" / "pair.yaml"
    path.write_text(SPEC, encoding="utf-8")
    assert main(["--root", str(root), "figure", "layout", "pair", "--no-browser"]) == 0
    problems = Problems(root)
    figure = load_figure(FigureFile("pair", path, digest(path.read_bytes())), problems)
    assert figure is not None and figure.edge_labels, problems
    frame = next(group.box for group in figure.groups if group.id == "g")
    for label in figure.edge_labels:
        assert (frame[0] <= label.x and label.x + label.w <= frame[0] + frame[2]
                and frame[1] <= label.y and label.y + label.h <= frame[1] + frame[3]), \
            (label, frame)
