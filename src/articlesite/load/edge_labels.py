"""Edge labels (`{from: a, to: b, label: KEY, label_box: [w, h]}`): each placed beside
its edge's route by geometry/labels.py, once per figure, in the spec's coordinates, after
the routes (which keep clear of the nodes, free labels and group titles; the edge labels
then keep clear of those and of every route).

`label_box` is the label's size, set by `figure layout` and `figure fit` from its texts
in every language; `label_at` (0 to 1), where along its route the figure editor's drag
put it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..geometry.labels import facing, place_labels

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class EdgeLabel:
    edge: int          # the index of its edge in the figure's edges
    x: float
    y: float
    w: float
    h: float
    text: str          # dictionary key
    line: int | None = None
    # the text's alignment in the box, toward its edge (geometry/labels.py `facing`):
    # a language shorter than the longest stays beside the edge
    align: str = "center"

    def moved(self, sx: Callable[[float], float], sy: Callable[[float], float],
              scale_w: float) -> EdgeLabel:
        return EdgeLabel(self.edge, sx(self.x), sy(self.y), self.w * scale_w,
                         sy(self.y + self.h) - sy(self.y), self.text, self.line, self.align)


def edge_labels(edges: Sequence, obstacles: Sequence[Rect], canvas: tuple[float, float],
                frames: Sequence[Rect] = ()) -> list[EdgeLabel]:
    """The labels of `edges` (the figure's Edge objects), placed; off the borders of
    `frames` (the groups') where they can."""
    sizes = [edge.label_size if edge.label and edge.label_size else None for edge in edges]
    if not any(sizes):   # no edge has a label: nothing to place
        return []
    borders = [((x1, y1), (x2, y2)) for x, y, w, h in frames
               for x1, y1, x2, y2 in ((x, y, x + w, y), (x + w, y, x + w, y + h),
                                      (x, y + h, x + w, y + h), (x, y, x, y + h))]
    boxes = place_labels([edge.points for edge in edges], sizes, obstacles,
                         at=[edge.label_at for edge in edges], bounds=(0.0, 0.0, *canvas),
                         lines=borders)
    return [EdgeLabel(i, *box, edges[i].label, edges[i].line, facing(edges[i].points, box))
            for i, box in enumerate(boxes) if box is not None]
