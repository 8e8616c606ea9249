"""Where edges leave and enter their boxes: the side of each end (named, or the one that
faces the other end) and the port on it (spread along a shared side, lined up with the
port it faces where it can)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .grid import OUT, Box, Point, Rect, box_of, half

SIDES = ("top", "right", "bottom", "left")


@dataclass(frozen=True)
class Ends:
    """What an edge joins: two node ids, each with a side or None (the facing side);
    `around`: a feedback edge, whose route goes round rather than across another
    (grid.AROUND)."""

    source: str
    target: str
    source_side: str | None = None
    target_side: str | None = None
    around: bool = False

    def answers(self, other: Ends) -> bool:
        """Whether this edge runs back along `other`, a call's answer (neither a feedback
        edge: a designer draws the two side by side)."""
        return (self.source, self.target) == (other.target, other.source) \
            and not (self.around or other.around)


def meeting(edges: Sequence[Ends], sides: Mapping[int, tuple[str, str]]
            ) -> list[tuple[int, int]]:
    """The pairs of edges (i, j) of which i enters a side of a box that j leaves (a
    reader takes the arrows on one side for one flow), by the sides each takes (by edge
    number: those `sides` gives), but j an answer to i (Ends.answers)."""
    leaving: dict[tuple[str, str], list[int]] = {}
    for j, (side, _) in sides.items():
        leaving.setdefault((edges[j].source, side), []).append(j)
    return [(i, j) for i, (_, side) in sides.items()
            for j in leaving.get((edges[i].target, side), ()) if not edges[j].answers(edges[i])]


def choose_sides(ends: Ends, nodes: Mapping[str, Rect]) -> tuple[str, str]:
    """The named sides, and for an end that names none the side facing the other end."""
    a, b = box_of(nodes[ends.source]), box_of(nodes[ends.target])
    side_a, side_b = ends.source_side, ends.target_side
    if side_a is None and side_b is None:
        side_a = _facing(a, b)
        return side_a, SIDES[(SIDES.index(side_a) + 2) % 4]
    if side_a is None:
        side_a = _facing(a, side_box(b, side_b))
    if side_b is None:
        side_b = _facing(b, side_box(a, side_a))
    return side_a, side_b


def _facing(box: Box, other: Box) -> str:
    """The side of `box` that faces `other`: the one with the widest gap between them
    (ties: right, bottom, left, top)."""
    gaps = {"right": other[0] - box[2], "bottom": other[1] - box[3],
            "left": box[0] - other[2], "top": box[1] - other[3]}
    return max(("right", "bottom", "left", "top"), key=lambda side: gaps[side])


def side_box(box: Box, side: str) -> Box:
    """The segment of a box's side, as a box of no width or height."""
    left, top, right, bottom = box
    return {"top": (left, top, right, top), "bottom": (left, bottom, right, bottom),
            "left": (left, top, left, bottom), "right": (right, top, right, bottom)}[side]


def place_ports(edges: Mapping[int, Ends], sides: Mapping[int, tuple[str, str]],
                nodes: Mapping[str, Rect], heading: Mapping[tuple[int, int], float] = {}
                ) -> dict[int, tuple[Point, Point]]:
    """Where each edge leaves and enters: the ends on one side spread evenly along it,
    ordered by the other end's centre along the side (or by `heading`, (edge, 0 for its
    source, 1 for its target) -> where along the side its route heads), then by edge
    order."""
    on_side: dict[tuple[str, str], list[tuple[tuple, int, int]]] = {}
    for i, ends in edges.items():
        for which, (node, other) in enumerate(((ends.source, ends.target),
                                               (ends.target, ends.source))):
            side = sides[i][which]
            ox, oy, ow, oh = nodes[other]
            centre = (ox + ow / 2, oy + oh / 2)
            order = centre if side in ("top", "bottom") else centre[::-1]
            order = (order[0], order[1] * _nesting(nodes[node], centre, side))
            if (i, which) in heading:
                order = (heading[i, which], order[1])
            on_side.setdefault((node, side), []).append((order, i, which))
    found: dict[int, list[Point]] = {i: [(0.0, 0.0), (0.0, 0.0)] for i in edges}
    for (node, side), members in on_side.items():
        left, top, right, bottom = box_of(nodes[node])
        members.sort()
        for k, (_, i, which) in enumerate(members):
            t = (k + 1) / (len(members) + 1)
            found[i][which] = {
                "top": (half(left + (right - left) * t), half(top)),
                "bottom": (half(left + (right - left) * t), half(bottom)),
                "left": (half(left), half(top + (bottom - top) * t)),
                "right": (half(right), half(top + (bottom - top) * t))}[side]
    paired = _pairs(on_side, edges, sides, found, nodes)
    alone = {members[0][1:] for members in on_side.values() if len(members) == 1}
    for i, ends in edges.items():
        if i not in paired:
            _align(found[i], ends, sides[i], [(i, 0) in alone, (i, 1) in alone], nodes)
    return {i: (a, b) for i, (a, b) in found.items()}


def _nesting(box: Rect, other: Point, side: str) -> int:
    """How ends whose other ends lie level along a side are ordered by how far those lie
    across it (1: nearest first, -1: furthest first), so that their routes, turning
    toward them, nest rather than cross: on a box's right side, for ends below it the
    furthest first (its route turns furthest out), above it the nearest; level with it,
    the nearest first."""
    x, y, w, h = box
    axis = 1 if side in ("left", "right") else 0
    middle = (x + w / 2, y + h / 2)[axis]
    if other[axis] == middle:   # level with the box: as the edges are ordered
        return 1
    beyond = other[axis] > middle   # below it (right of it)
    return -1 if beyond == (side in ("right", "bottom")) else 1


def _pairs(on_side: dict, edges: Mapping[int, Ends], sides: Mapping[int, tuple[str, str]],
           found: dict[int, list[Point]], nodes: Mapping[str, Rect]) -> set[int]:
    """Two sides that face each other and hold only the ends of the edges between them:
    those edges are spread over the stretch the sides share, each straight across.
    The edges so placed."""
    placed: set[int] = set()
    for i, ends in edges.items():
        if i in placed or OUT[sides[i][1]] != (OUT[sides[i][0]] + 2) % 4:
            continue
        keys = ((ends.source, sides[i][0]), (ends.target, sides[i][1]))
        members = on_side[keys[0]]
        group = {j for _, j, _ in members}
        if group != {j for _, j, _ in on_side[keys[1]]}:
            continue
        axis = 0 if sides[i][0] in ("top", "bottom") else 1
        low, high = (f(r[k] for r in (_stretch(nodes, *keys[0], axis),
                                      _stretch(nodes, *keys[1], axis)))
                     for f, k in ((max, 0), (min, 1)))
        if low > high:
            continue
        for k, (_, j, _) in enumerate(members):   # the order of the first side's
            at = half(low + (high - low) * (k + 1) / (len(members) + 1))
            found[j] = [(at, p[1]) if axis == 0 else (p[0], at) for p in found[j]]
        placed |= group
    return placed


def _stretch(nodes: Mapping[str, Rect], node: str, side: str,
             axis: int) -> tuple[float, float]:
    """Where along a side a port may go: not nearer its corners than a quarter of it or
    10 px."""
    box = side_box(box_of(nodes[node]), side)
    inset = min(10.0, (box[axis + 2] - box[axis]) / 4)
    return box[axis] + inset, box[axis + 2] - inset


def _align(ports: list[Point], ends: Ends, sides: tuple[str, str], alone: list[bool],
           nodes: Mapping[str, Rect]) -> None:
    """Ports on sides that face each other, one of them the only end on its side: that
    one moves along its side (within its _stretch) to meet the other on one line."""
    if OUT[sides[1]] != (OUT[sides[0]] + 2) % 4 or alone[0] == alone[1]:
        return
    axis = 0 if sides[0] in ("top", "bottom") else 1     # the coordinate along the sides
    mover = 1 if alone[1] else 0
    low, high = _stretch(nodes, (ends.source, ends.target)[mover], sides[mover], axis)
    at = ports[1 - mover][axis]
    if low <= at <= high:
        ports[mover] = (at, ports[mover][1]) if axis == 0 else (ports[mover][0], at)


def free_port(rect: Rect, side: str, taken: set) -> Point:
    """The middle of a side, or a quarter along it (either way) if that is taken."""
    box = box_of(rect)
    left, top, right, bottom = side_box(box, side)
    for t in (0.5, 0.25, 0.75):
        point = (half(left + (right - left) * t), half(top + (bottom - top) * t))
        if point not in taken:
            return point
    return point


def headings(routes: Mapping[int, Sequence[Point]], sides: Mapping[int, tuple[str, str]]
             ) -> dict[tuple[int, int], float]:
    """For each end of a route, where along its side the route heads: the coordinate
    along the side at the end of its first run across (its port's own if it runs
    straight on), for ordering the ports of a shared side so that routes leaving it
    do not cross one another."""
    found = {}
    for i, points in routes.items():
        for which, path in ((0, list(points)), (1, list(points)[::-1])):
            axis = 0 if sides[i][which] in ("top", "bottom") else 1
            found[i, which] = path[2][axis] if len(path) > 2 else path[0][axis]
    return found
