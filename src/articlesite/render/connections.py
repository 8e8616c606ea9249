"""What connects to what in a figure, read off its geometry, for readers who cannot see it.

An edge that names its ends (`from`, `to`) joins those nodes. Otherwise the edge is a
polyline whose ends are matched to the node or label they touch (in the transformed
coordinates the page shows). An end that touches no box but lies on another edge joins
that edge: a branch leaving a line starts where that line starts, a branch merging into
a line ends where that line ends.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup

from ..check.geometry import TOUCH as ON_EDGE
from ..check.geometry import Box, distance_to_box, distance_to_segment, label_box, node_box
from ..load.figures import Edge, Figure, Label, Node
from ..load.markup import quick_escape as escape

TOUCH = 12.0         # px: an edge end this close to a box touches it
_PLACEHOLDER = re.compile(r"\{(source|target|label)\}")


@dataclass(frozen=True)
class Connection:
    source: Node | Label
    target: Node | Label
    directed: bool  # the edge has an arrow (source -> target)
    label: str | None = None   # the edge label's dictionary key


def find_connections(figure: Figure) -> list[Connection]:
    """Every node-or-label pair an edge joins, in spec order, without repeats."""
    boxes = [(node, node_box(node)) for node in figure.nodes]
    boxes += [(label, label_box(label)) for label in figure.labels]
    found: dict[Connection, None] = {}   # a dict keeps the order they are found in
    for edge in figure.edges:
        targets = _ends(figure, boxes, edge, start=False, seen=set())
        for source in _ends(figure, boxes, edge, start=True, seen=set()):
            for target in targets:
                if source is not target:
                    found.setdefault(Connection(source, target, edge.arrow, edge.label))
    return list(found)


def describe(connections: list[Connection], name: Callable[[Node | Label], Markup],
             arrow: str, line: str, labelled: tuple[str, str] | None = None,
             text: Callable[[str], Markup] | None = None) -> list[Markup]:
    """One sentence per connection, from the plain-text pattern `arrow` (directed) or
    `line`, where `{source}` and `{target}` stand for the boxes' names; for an edge with
    a label, `labelled` (directed, undirected), where `{label}` stands for its text
    (`text(key)`). Each pattern is split once and each box named once: a figure has
    tens of sentences in every language."""
    patterns = {True: _pattern(arrow), False: _pattern(line)}
    if labelled is not None and text is not None:
        patterns.update({(True, 1): _pattern(labelled[0]), (False, 1): _pattern(labelled[1])})
    names: dict[int, str] = {}

    def named(box: Node | Label) -> str:
        found = names.get(id(box))
        if found is None:
            found = names[id(box)] = str(escape(name(box)))
        return found

    def sentence(connection: Connection) -> Markup:
        if connection.label and (connection.directed, 1) in patterns:
            parts = patterns[connection.directed, 1]
            label = str(escape(text(connection.label)))
        else:
            parts, label = patterns[connection.directed], None
        out = [parts[0]]
        for at in range(1, len(parts), 2):   # a placeholder, then the text after it
            part = parts[at]
            if part == "source":
                out.append(named(connection.source))
            elif part == "target":
                out.append(named(connection.target))
            elif label is not None:
                out.append(label)
            else:
                raise KeyError(part)
            out.append(parts[at + 1])
        return Markup("".join(out))
    return [sentence(c) for c in connections]


@lru_cache(maxsize=256)   # a site's few sentence patterns, in each language
def _pattern(text: str) -> tuple[str, ...]:
    """A sentence pattern split at its placeholders, the text between them escaped."""
    parts = _PLACEHOLDER.split(text)
    return tuple(part if i % 2 else str(escape(part)) for i, part in enumerate(parts))


def _ends(figure: Figure, boxes: list[tuple[Node | Label, Box]], edge: Edge, *,
          start: bool, seen: set[int]) -> list[Node | Label]:
    """The boxes one end of `edge` leads to, following edges it branches from or joins."""
    seen.add(id(edge))
    named = edge.source if start else edge.target
    if named is not None:
        return [node for node in figure.nodes if node.id == named][:1]
    point = edge.points[0] if start else edge.points[-1]
    box = _touched_box(boxes, point)
    if box is not None:
        return [box]
    found: list[Node | Label] = []
    for other in figure.edges:
        if id(other) not in seen and _on_edge(point, other):
            found.extend(b for b in _ends(figure, boxes, other, start=start, seen=seen)
                         if b not in found)
    return found


def _touched_box(boxes: list[tuple[Node | Label, Box]],
                 point: tuple[float, float]) -> Node | Label | None:
    x, y = point
    distance, found = math.inf, None
    for box, rect in boxes:   # the nearest of the near ones (the first, of equals)
        if rect[0] - TOUCH <= x <= rect[2] + TOUCH and rect[1] - TOUCH <= y <= rect[3] + TOUCH:
            near = distance_to_box(x, y, rect)
            if near < distance:
                distance, found = near, box
    return found if distance <= TOUCH else None


def _on_edge(point: tuple[float, float], edge: Edge) -> bool:
    return any(distance_to_segment(*point, segment) <= ON_EDGE for segment in edge.segments)


def connections_of(figure: Figure) -> list[Connection]:
    """What the figure's edges join: the same in every language, found once a figure."""
    if figure.connections is None:
        figure.connections = find_connections(figure)
    return figure.connections
