"""Room made beside an edge label that finds none (pure geometry): `figure layout` tries
these after the sides are chosen, and keeps one where the build then places the label
clear of everything, with no more crossings.

    widenings(nodes, route, size) -> [nodes moved, ...]

For each run of the label's route, the longest first: if the run lies nearer the canvas's
left (or top) edge than the label's width (or height) and ROOM, every box moved right (or
down) until it does not (the label then fits on that side); then the boxes beyond the
run's line (right of a vertical run, below a horizontal one) are moved away from it by
the label's width (or height) and ROOM, on the layout's grid: first every box beyond the line
across the whole drawing (a gap opened from edge to edge, which keeps every alignment),
if no box straddles the line; else the boxes beside the run's stretch and those beyond
the line lined up with them (the same left or centre for a vertical run, top or middle
for a horizontal one: a row or column stays one); else only those beside the run's
stretch; each if none of the boxes moved then meets a box left where it was. Last, the
run made longer by the label's height (or width) and ROOM: every box beyond the line
through one of its ends moved along it (a tree down the page whose labelled edges run
side by side between two layers gets a taller gap, where their labels find room at
different heights).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

Point = tuple[float, float]
Rect = tuple[float, float, float, float]   # x, y, width, height

ROOM = 20.0   # px besides the label's size: its gaps to its route and what lies beyond
GRID = 10.0   # the layout's grid, twice over (a box centred on another stays on it)
CLEAR = 10.0  # px a moved box keeps from one left where it was


def widenings(nodes: Mapping[str, Rect], route: Sequence[Point],
              size: tuple[float, float]) -> list[dict[str, Rect]]:
    """Ways to make room for a label of `size` beside `route` (see the module's
    docstring), each the nodes' boxes with some moved; none twice."""
    ways: list[dict[str, Rect]] = []
    for (x1, y1), (x2, y2) in sorted(pairwise(route), key=lambda s: -_length(s)):
        if (x1, y1) == (x2, y2):
            continue
        axis = 0 if x1 == x2 else 1             # the axis the boxes move along
        line = x1 if axis == 0 else y1
        low, high = sorted((y1, y2) if axis == 0 else (x1, x2))
        shift = -(-(size[axis] + ROOM) // GRID) * GRID
        edge = -(-(size[axis] + ROOM - line) // GRID) * GRID   # too near the canvas's edge
        along = -(-(size[1 - axis] + ROOM) // GRID) * GRID     # the run made longer
        for way in (_moved(nodes, set(nodes), axis, edge) if edge > 0 else None,
                    _across(nodes, axis, line, shift),
                    _beside(nodes, axis, line, low, high, shift, lined_up=True),
                    _beside(nodes, axis, line, low, high, shift),
                    _longer(nodes, 1 - axis, low, along),
                    _longer(nodes, 1 - axis, high, along)):
            if way is not None and way not in ways:
                ways.append(way)
    return ways


def _across(nodes: Mapping[str, Rect], axis: int, line: float, shift: float
            ) -> dict[str, Rect] | None:
    """Every box beyond `line` moved by `shift`, if none straddles it."""
    if any(b[axis] < line < b[axis] + b[axis + 2] for b in nodes.values()):
        return None
    moved = {n for n, b in nodes.items() if b[axis] >= line}
    return _moved(nodes, moved, axis, shift) if moved else None


def _longer(nodes: Mapping[str, Rect], axis: int, end: float, shift: float
            ) -> dict[str, Rect] | None:
    """The run made longer: every box beyond the line through one of its ends moved
    along it by `shift` (a gap opened from edge to edge, as _across), if some box is
    not: labels of runs side by side then find room one above (or beside) another."""
    way = _across(nodes, axis, end, shift)
    return None if way is None or all(way[n] != b for n, b in nodes.items()) else way


def _beside(nodes: Mapping[str, Rect], axis: int, line: float, low: float, high: float,
            shift: float, lined_up: bool = False) -> dict[str, Rect] | None:
    """The boxes beyond `line` whose extent meets low..high (across `axis`), and with
    `lined_up` those beyond it lined up with them along `axis`, moved by `shift`, if they
    then meet no other box."""
    other = 1 - axis
    moved = {n for n, b in nodes.items() if b[axis] >= line
             and b[other] < high and b[other] + b[other + 2] > low}
    if not moved:
        return None
    if lined_up:
        lines = {at for n in moved for at in _lines(nodes[n], axis)}
        moved |= {n for n, b in nodes.items() if b[axis] >= line and _lines(b, axis) & lines}
    way = _moved(nodes, moved, axis, shift)
    if any(_near(way[a], way[b]) for a in moved for b in way if b not in moved):
        return None
    return way


def _lines(box: Rect, axis: int) -> set[float]:
    """Where a box starts and where its middle lies, along `axis`."""
    return {box[axis], box[axis] + box[axis + 2] / 2}


def _moved(nodes: Mapping[str, Rect], moved: set[str], axis: int, shift: float
           ) -> dict[str, Rect]:
    def one(box: Rect) -> Rect:
        x, y, w, h = box
        return (x + shift, y, w, h) if axis == 0 else (x, y + shift, w, h)
    return {n: one(b) if n in moved else b for n, b in nodes.items()}


def _near(a: Rect, b: Rect) -> bool:
    return (a[0] < b[0] + b[2] + CLEAR and b[0] < a[0] + a[2] + CLEAR
            and a[1] < b[1] + b[3] + CLEAR and b[1] < a[1] + a[3] + CLEAR)


def _length(segment: tuple[Point, Point]) -> float:
    (x1, y1), (x2, y2) = segment
    return abs(x2 - x1) + abs(y2 - y1)
