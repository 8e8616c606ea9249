"""Geometry of a figure's edge labels and group frames, on its transformed coordinates:
an edge label on a node, a free label, a group title or another edge label; a frame
round a node that is not its member, two frames that overlap, either outside the canvas.
The build places edge labels clear of all that where it finds room
(geometry/labels.py); a crowded figure, or a group whose members lie apart, is found
here."""

from __future__ import annotations

from itertools import combinations, pairwise

from ..geometry.frames import overlaps
from ..geometry.labels import crosses
from ..load.figures import LABEL_HEIGHT, Figure
from ..problems import Findings

SLACK = 0.5


def _outside(box: tuple[float, float, float, float], figure: Figure) -> float:
    x, y, w, h = box
    return max(0.0, -x, -y, x + w - figure.width, y + h - figure.height)


def lying_on(box: tuple[float, float, float, float], near: list) -> list:
    """The names of what `box` (an edge label's) lies on, of `near`: (name, box) pairs
    (the figure editor marks such a label as `check` reports it)."""
    return [name for name, other in near if overlaps(box, other, SLACK)]


def check_annotations(figure: Figure, findings: Findings) -> None:
    def add(line: int | None, message: str, element: str, key: str | None = None,
            warning: bool = False) -> None:
        findings.add(figure.path, line, message, key=key, check="geometry",
                     figure=figure.id, element=element, warning=warning)

    nodes = {node.id: (node.x, node.y, node.w, node.h) for node in figure.nodes}
    others = [(f"label '{lb.text}'", (lb.x, lb.y, lb.w, LABEL_HEIGHT[lb.cls]))
              for lb in figure.labels]
    others += [(f"the title of group '{g.id}'", g.title_box) for g in figure.groups]
    placed = []
    for label in figure.edge_labels:
        number = label.edge + 1
        box, element = (label.x, label.y, label.w, label.h), f"edge-label {number}"
        what = f"the label of edge {number}"
        near = [(f"node '{name}'", other) for name, other in nodes.items()] + others + placed
        for name in lying_on(box, near):
            add(label.line, f"{what} lies on {name}: no room beside its route; move "
                "the boxes apart, or slide it (label_at)", element, label.text)
        inner = (box[0] + SLACK, box[1] + SLACK, box[0] + box[2] - SLACK,
                 box[1] + box[3] - SLACK)
        hidden = [n for n, edge in enumerate(figure.edges, start=1) if n != number
                  and any(crosses(a, b, inner) for a, b in pairwise(edge.points))]
        if hidden:
            add(label.line, f"{what} hides a stretch of edge{'s' * (len(hidden) > 1)} "
                f"{', '.join(map(str, hidden))}: no room beside its route", element,
                label.text, warning=True)
        if _outside(box, figure) > SLACK:
            add(label.line, f"{what} sticks out of the canvas by "
                f"{_outside(box, figure):g} px", element, label.text)
        placed.append((what, box))
    for group in figure.groups:
        for name, box in nodes.items():
            if name not in group.members and overlaps(group.box, box, SLACK):
                add(group.line, f"group '{group.id}' frames node '{name}', which is not one "
                    "of its nodes: move it out, or add it to the group", f"group {group.id}")
        if _outside(group.box, figure) > SLACK:
            add(group.line, f"group '{group.id}''s frame sticks out of the canvas by "
                f"{_outside(group.box, figure):g} px", f"group {group.id}")
    for a, b in combinations(figure.groups, 2):
        if overlaps(a.box, b.box, SLACK):
            add(b.line, f"the frames of groups '{a.id}' and '{b.id}' overlap",
                f"group {b.id}")
