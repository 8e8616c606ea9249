"""Geometry of a figure, on its transformed coordinates: what overlaps, what sticks out,
which edges end in mid-air and which pass through a node they do not connect.

A label's height depends on its text; here it is one line of the label's class as
`templates/figure.css` sets it (font size × line height 1.45 + 6 px padding). Whether
the real text fits is measured in a browser by `fit.py`.

An edge end must touch a node's border or another edge (within TOUCH px), or point at a
label from at most LABEL_REACH px away: in the author's design an arrow may start at a
label ("Preference label: A over B" → the loss) or end beside one ("A_t goes to the
Actor update").
"""

from __future__ import annotations

import math
from itertools import combinations

from ..geometry import PAGE_WIDTH
from ..geometry.crossings import crossings
from ..geometry.labels import crosses
from ..load.figures import LABEL_HEIGHT, Edge, Figure, Label, Node, Segment
from ..problems import Findings, command
from .annotations import check_annotations

TOUCH = 2.0      # px: an edge end this close to a node border or another edge touches it
LABEL_REACH = 12.0  # px: an edge end this close to a label's box points at the label
SLACK = 0.5      # px: overlaps smaller than this are rounding, not design

Box = tuple[float, float, float, float]  # left, top, right, bottom


def node_box(node: Node) -> Box:
    return (node.x, node.y, node.x + node.w, node.y + node.h)


def label_box(label: Label) -> Box:
    return (label.x, label.y, label.x + label.w, label.y + LABEL_HEIGHT[label.cls])


def overlap(a: Box, b: Box) -> tuple[float, float]:
    """Width and height of the intersection of two boxes (0 when they do not meet)."""
    return (max(0.0, min(a[2], b[2]) - max(a[0], b[0])),
            max(0.0, min(a[3], b[3]) - max(a[1], b[1])))


def outside(box: Box, width: float, height: float) -> float:
    """How far a box sticks out of the canvas, in px (0 when inside)."""
    return max(0.0, -box[0], -box[1], box[2] - width, box[3] - height)


def distance_to_box(x: float, y: float, box: Box) -> float:
    """Distance from a point to a box; 0 inside it."""
    left, top, right, bottom = box
    return math.hypot(max(left - x, 0.0, x - right), max(top - y, 0.0, y - bottom))


def distance_to_border(x: float, y: float, box: Box) -> float:
    left, top, right, bottom = box
    if left <= x <= right and top <= y <= bottom:
        return min(x - left, right - x, y - top, bottom - y)
    return distance_to_box(x, y, box)


def distance_to_segment(x: float, y: float, s: Segment) -> float:
    dx, dy = s.x2 - s.x1, s.y2 - s.y1
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - s.x1) * dx + (y - s.y1) * dy) / length2))
    return math.hypot(x - (s.x1 + t * dx), y - (s.y1 + t * dy))


def edge_through_nodes(figure: Figure, edge: Edge) -> list[tuple[Node, Box]]:
    """The nodes an edge's segments pass through (by more than SLACK) that it does not
    connect, each with the first segment that does. An edge connects the nodes it names,
    or, given by its points, the nodes its ends lie on or point at (LABEL_REACH px)."""
    if edge.source is not None:
        joined = {edge.source, edge.target}
    else:
        joined = {node.id for node in figure.nodes for x, y in (edge.points[0],
                  edge.points[-1]) if distance_to_box(x, y, node_box(node)) <= LABEL_REACH}
    found = []
    for node in figure.nodes:
        if node.id in joined:
            continue
        left, top, right, bottom = node_box(node)
        inner = (left + SLACK, top + SLACK, right - SLACK, bottom - SLACK)
        for s in edge.segments:
            if _segment_meets(s, inner):
                found.append((node, (s.x1, s.y1, s.x2, s.y2)))
                break
    return found


def _segment_meets(s: Segment, box: Box) -> bool:
    """Whether a segment passes through a box (its sides included)."""
    return crosses((s.x1, s.y1), (s.x2, s.y2), box, closed=True)


def check_geometry(figure: Figure, findings: Findings) -> None:
    check_annotations(figure, findings)   # edge labels and group frames
    def add(line: int | None, message: str, element: str, amount: float,
            key: str | None = None) -> None:
        findings.add(figure.path, line, message, key=key, check="geometry",
                     figure=figure.id, element=element, overflow=round(amount, 1))

    if figure.width > PAGE_WIDTH:   # (not certainly a mistake: a wide figure scrolls)
        findings.add(figure.path, figure.key_lines.get("width"),
                     f"figure '{figure.id}' is {figure.width:g} px wide, more than the "
                     f"{PAGE_WIDTH:g} px a page shows: readers scroll it sideways; shorter "
                     f"texts, or boxes moved where there is room (`{command()} figure layout "
                     f"{figure.id} --again` lays it out within the page), narrow it",
                     check="geometry", warning=True, figure=figure.id, element="canvas",
                     overflow=round(figure.width - PAGE_WIDTH, 1))
    size = (figure.width, figure.height)
    for a, b in combinations(figure.nodes, 2):
        w, h = overlap(node_box(a), node_box(b))
        if w > SLACK and h > SLACK:
            add(b.line, f"node '{b.id}' overlaps node '{a.id}' ({w:g} × {h:g} px)",
                f"node {b.id}", min(w, h), b.text)
    for node in figure.nodes:
        out = outside(node_box(node), *size)
        if out > SLACK:
            add(node.line, f"node '{node.id}' sticks out of the canvas by {out:g} px",
                f"node {node.id}", out, node.text)
    for label in figure.labels:
        out = outside(label_box(label), *size)
        if out > SLACK:
            add(label.line, f"label '{label.text}' sticks out of the canvas by {out:g} px",
                f"label {label.text}", out, label.text)
        for node in figure.nodes:
            w, h = overlap(label_box(label), node_box(node))
            if w > SLACK and h > SLACK:
                add(label.line, f"label '{label.text}' lies on node '{node.id}' "
                    f"({w:g} × {h:g} px)", f"label {label.text}", min(w, h), label.text)
    for number, edge in enumerate(figure.edges, start=1):
        element = f"edge {number}"
        xs = [x for x, _ in edge.points]
        ys = [y for _, y in edge.points]
        out = outside((min(xs), min(ys), max(xs), max(ys)), *size)
        if out > SLACK:
            add(edge.line, f"edge {number} sticks out of the canvas by {out:g} px", element, out)
        others = [s for other in figure.edges if other is not edge for s in other.segments]
        for end, (x, y) in (("start", edge.points[0]), ("end", edge.points[-1])):
            gap = min([distance_to_border(x, y, node_box(n)) for n in figure.nodes]
                      + [distance_to_segment(x, y, s) for s in others] or [math.inf])
            if gap > TOUCH and not any(distance_to_box(x, y, label_box(lb)) <= LABEL_REACH
                                       for lb in figure.labels):
                add(edge.line, f"edge {number} {end}s at ({x:g}, {y:g}), touching neither a "
                    f"node border nor another edge (nearest: {gap:.1f} px)", element, gap)
    for number, edge in enumerate(figure.edges, start=1):
        for node, (x1, y1, x2, y2) in edge_through_nodes(figure, edge):
            add(edge.line, f"edge {number} passes through node '{node.id}', which it does "
                f"not connect (from ({x1:g}, {y1:g}) to ({x2:g}, {y2:g}))",
                f"edge {number}", 0.0)
    for rule in figure.rules:
        box = (rule.x, rule.y, rule.x, rule.y + rule.length) if rule.vertical else (
            rule.x, rule.y, rule.x + rule.length, rule.y)
        out = outside(box, *size)
        if out > SLACK:
            kind = "lifeline" if rule.vertical else "divider"
            add(rule.line, f"a {kind} at ({rule.x:g}, {rule.y:g}) sticks out of the canvas by "
                f"{out:g} px", kind, out)


def _edge_name(number: int, edge: Edge) -> str:
    if edge.source is None:
        return f"edge {number}"
    return f"edge {number} (from '{edge.source}' to '{edge.target}')"


def check_crossings(figure: Figure, findings: Findings) -> int:
    """Each pair of edges that cross, as a warning at the first one's line (crossings
    hinder the reader most; `figure layout` and the router avoid what they can). The
    number of crossings."""
    found: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for a, b, point in crossings([edge.points for edge in figure.edges]):
        found.setdefault((a, b), []).append(point)
    for (a, b), points in sorted(found.items()):
        first, second = figure.edges[a], figure.edges[b]
        times = "" if len(points) == 1 else f" {len(points)} times"
        findings.add(figure.path, first.line, f"figure '{figure.id}': "
                     f"{_edge_name(a + 1, first)} crosses {_edge_name(b + 1, second)}{times}"
                     " (crossing edges hinder readers)",
                     check="geometry",
                     warning=True, figure=figure.id, element=f"edge {a + 1} × edge {b + 1}",
                     overflow=float(len(points)))
    return sum(len(points) for points in found.values())
