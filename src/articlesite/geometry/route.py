"""Orthogonal edge routing: each edge names its two boxes (and, if it likes, their sides)
and gets a polyline of horizontal and vertical segments between them.

Interface (stable: the build, `figure layout` and the figure editor call it)
---------------------------------------------------------------------------
    route_edges(nodes, edges, obstacles=(), *, bounds=None, margin=MARGIN) -> list[Route]

- `nodes`: {node id: (x, y, width, height)}, the boxes edges attach to, in any one
  coordinate system (the build uses the spec's own, before its transforms).
- `edges`: a sequence of `Ends(source, target, source_side=None, target_side=None)`;
  a side is one of SIDES ("top", "right", "bottom", "left") or None: then the side of
  the box that faces the other end is taken.
- `obstacles`: other boxes (x, y, width, height) no edge may cross: the labels.
- `bounds`: (x, y, width, height) the routes stay inside (the canvas), or None.
- `margin`: how far (px) a route keeps from every box it does not connect.

It returns one `Route` per edge, in the same order: `route.points`, a tuple of (x, y)
from the source's border to the target's, every coordinate a whole or half pixel, or
`route.error`, a sentence saying why there is none (the caller makes it a problem); the
sides used are `route.source_side` and `route.target_side`. Nothing is raised for bad
input: an end naming no node, an edge from a node to itself or an unknown side is a
Route with an error.

What a route is: it leaves the source at a right angle to its side and enters the target
at a right angle to its side, both on the border; in between it keeps `margin` px away
from every other node and every obstacle and never enters its own boxes. Ends that share
a side are spread evenly along it, ordered by where their other end lies (then by edge
order), so that they do not overlap. Among the routes that do this, the one found has
the least length plus BEND px for each bend; a segment another edge already runs along
costs SHARED times its length more, so parallel edges take neighbouring lines. The same
arguments give the same points, byte for byte (no randomness, no set order, ties broken
by a fixed order of the grid's points).

How: as diagram editors do it (libavoid; ELK's orthogonal router), a sparse grid of the
lines through every box's borders pushed out by the margin, the lines midway between
those, and the lines through the ports; the segments of the grid blocked by each box are
found once per call; then an A* search per edge over (grid point, heading) with the cost
above and, as heuristic, the Manhattan distance plus BEND times the fewest bends the
remaining turn needs. A figure of 15 nodes and 20 edges takes a few milliseconds
(bench/route.py).
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from .nudge import nudge

SIDES = ("top", "right", "bottom", "left")
MARGIN = 10.0   # px kept from every box an edge does not connect
BEND = 30.0     # what a bend costs, in px of length
SHARED = 2.0    # a segment already used by another edge costs this much more per px

Point = tuple[float, float]
Rect = tuple[float, float, float, float]        # x, y, width, height (as in a spec)
_Box = tuple[float, float, float, float]        # left, top, right, bottom

# Headings: 0 right (+x), 1 down (+y), 2 left, 3 up. A side's outward heading:
_OUT = {"right": 0, "bottom": 1, "left": 2, "top": 3}
_STEP = ((1, 0), (0, 1), (-1, 0), (0, -1))


@dataclass(frozen=True)
class Ends:
    """What an edge joins: two node ids, each with a side or None (the facing side)."""

    source: str
    target: str
    source_side: str | None = None
    target_side: str | None = None


@dataclass(frozen=True)
class Route:
    points: tuple[Point, ...] = ()
    error: str | None = None
    source_side: str | None = None
    target_side: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def route_edges(nodes: Mapping[str, Rect], edges: Sequence[Ends],
                obstacles: Sequence[Rect] = (), *, bounds: Rect | None = None,
                margin: float = MARGIN) -> list[Route]:
    """Every edge's route, or why it has none (see the module's docstring)."""
    ids = sorted(nodes)
    index = {node: i for i, node in enumerate(ids)}
    boxes = [_box(nodes[node]) for node in ids] + [_box(rect) for rect in obstacles]
    errors = [_refused(ends, nodes) for ends in edges]
    good = [i for i, error in enumerate(errors) if error is None]
    sides = {i: _sides(edges[i], nodes) for i in good}
    ports = _ports({i: edges[i] for i in good}, sides, nodes)
    grid = _Grid(boxes, margin, bounds, [p for pair in ports.values() for p in pair])
    found: dict[int, list[Point]] = {}
    for i in good:
        (a, b), (side_a, side_b) = ports[i], sides[i]
        points = grid.route(a, _OUT[side_a], b, _OUT[side_b],
                            (index[edges[i].source], index[edges[i].target]))
        if points is None:
            errors[i] = (f"no route from '{edges[i].source}' ({side_a}) to "
                         f"'{edges[i].target}' ({side_b}) keeps {margin:g} px from every "
                         "other box")
        else:
            found[i] = list(points)
    nudge(list(found.values()), boxes, margin, _box(bounds) if bounds is not None else None)
    return [Route(error=errors[i]) if i not in sides else
            Route(tuple(found.get(i, ())), errors[i], *sides[i]) for i in range(len(edges))]


def _refused(ends: Ends, nodes: Mapping[str, Rect]) -> str | None:
    for node in (ends.source, ends.target):
        if node not in nodes:
            return f"'{node}' names no node"
    for side in (ends.source_side, ends.target_side):
        if side is not None and side not in SIDES:
            return f"unknown side '{side}' (sides: {', '.join(SIDES)})"
    if ends.source == ends.target:
        return f"an edge from node '{ends.source}' to itself"
    return None


def _box(rect: Rect) -> _Box:
    x, y, w, h = (float(v) for v in rect)
    return (x, y, x + w, y + h)


def _half(value: float) -> float:
    """A coordinate on the half-pixel grid every route lies on."""
    return round(value * 2) / 2


# Sides and ports ------------------------------------------------------------------------

def _sides(ends: Ends, nodes: Mapping[str, Rect]) -> tuple[str, str]:
    """The named sides, and for an end that names none the side facing the other end."""
    a, b = _box(nodes[ends.source]), _box(nodes[ends.target])
    side_a, side_b = ends.source_side, ends.target_side
    if side_a is None and side_b is None:
        side_a = _facing(a, b)
        return side_a, SIDES[(SIDES.index(side_a) + 2) % 4]
    if side_a is None:
        side_a = _facing(a, _side_box(b, side_b))
    if side_b is None:
        side_b = _facing(b, _side_box(a, side_a))
    return side_a, side_b


def _facing(box: _Box, other: _Box) -> str:
    """The side of `box` that faces `other`: the one with the widest gap between them
    (ties: right, bottom, left, top)."""
    gaps = {"right": other[0] - box[2], "bottom": other[1] - box[3],
            "left": box[0] - other[2], "top": box[1] - other[3]}
    return max(("right", "bottom", "left", "top"), key=lambda side: gaps[side])


def _side_box(box: _Box, side: str) -> _Box:
    """The segment of a box's side, as a box of no width or height."""
    left, top, right, bottom = box
    return {"top": (left, top, right, top), "bottom": (left, bottom, right, bottom),
            "left": (left, top, left, bottom), "right": (right, top, right, bottom)}[side]


def _ports(edges: Mapping[int, Ends], sides: Mapping[int, tuple[str, str]],
           nodes: Mapping[str, Rect]) -> dict[int, tuple[Point, Point]]:
    """Where each edge leaves and enters: the ends on one side spread evenly along it,
    ordered by the other end's centre along the side, then by edge order."""
    on_side: dict[tuple[str, str], list[tuple[tuple, int, int]]] = {}
    for i, ends in edges.items():
        for which, (node, other) in enumerate(((ends.source, ends.target),
                                               (ends.target, ends.source))):
            side = sides[i][which]
            ox, oy, ow, oh = nodes[other]
            centre = (ox + ow / 2, oy + oh / 2)
            order = centre if side in ("top", "bottom") else centre[::-1]
            on_side.setdefault((node, side), []).append((order, i, which))
    found: dict[int, list[Point]] = {i: [(0.0, 0.0), (0.0, 0.0)] for i in edges}
    for (node, side), members in on_side.items():
        left, top, right, bottom = _box(nodes[node])
        members.sort()
        for k, (_, i, which) in enumerate(members):
            t = (k + 1) / (len(members) + 1)
            found[i][which] = {
                "top": (_half(left + (right - left) * t), _half(top)),
                "bottom": (_half(left + (right - left) * t), _half(bottom)),
                "left": (_half(left), _half(top + (bottom - top) * t)),
                "right": (_half(right), _half(top + (bottom - top) * t))}[side]
    return {i: (a, b) for i, (a, b) in found.items()}


# The grid and the search --------------------------------------------------------------

class _Grid:
    """The lines routes may run along, and which of their segments each box blocks."""

    def __init__(self, boxes: list[_Box], margin: float, bounds: Rect | None,
                 ports: list[Point]):
        self.boxes, self.margin = boxes, margin
        grown = [(b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin) for b in boxes]
        limits = _box(bounds) if bounds is not None else None
        self.xs = _lines([g[k] for g in grown for k in (0, 2)], [p[0] for p in ports],
                         limits and (limits[0], limits[2]))
        self.ys = _lines([g[k] for g in grown for k in (1, 3)], [p[1] for p in ports],
                         limits and (limits[1], limits[3]))
        self.nx = len(self.xs)
        # Segment s of a horizontal line: from point s to s + 1; of a vertical: s to s + nx.
        count = self.nx * len(self.ys)
        self.blocked_h, self.blocked_v = bytearray(count), bytearray(count)
        for box in grown:
            self._block(box)
        self.used: dict[tuple[int, int], int] = {}   # (vertical?, segment): edges on it
        self._parts: list[int] | None = None

    def _block(self, box: _Box) -> None:
        """Mark the segments whose inside crosses the inside of `box`."""
        xs, ys, nx = self.xs, self.ys, self.nx
        left, top, right, bottom = box
        rows = range(bisect_right(ys, top), bisect_left(ys, bottom))
        columns = range(max(bisect_right(xs, left) - 1, 0), min(bisect_left(xs, right),
                                                                 nx - 1))
        for j in rows:                       # horizontal segments inside the box
            self.blocked_h[j * nx + columns.start:j * nx + columns.stop] = \
                b"\x01" * len(columns)
        rows = range(max(bisect_right(ys, top) - 1, 0), min(bisect_left(ys, bottom),
                                                            len(ys) - 1))
        columns = range(bisect_right(xs, left), bisect_left(xs, right))
        for j in rows:                       # vertical segments inside the box
            self.blocked_v[j * nx + columns.start:j * nx + columns.stop] = \
                b"\x01" * len(columns)

    def parts(self) -> list[int]:
        """For each grid point, the number of the part of the free grid it lies in
        (found once, when first needed): a search between two parts is not started."""
        if self._parts is None:
            nx, count = self.nx, len(self.blocked_h)
            parts = [-1] * count
            for seed in range(count):
                if parts[seed] >= 0:
                    continue
                parts[seed], todo = seed, [seed]
                while todo:
                    point = todo.pop()
                    i = point % nx
                    for step, free in ((point + 1, i + 1 < nx and not self.blocked_h[point]),
                                       (point - 1, i > 0 and not self.blocked_h[point - 1]),
                                       (point + nx, point + nx < count
                                        and not self.blocked_v[point]),
                                       (point - nx, point >= nx
                                        and not self.blocked_v[point - nx])):
                        if free and parts[step] < 0:
                            parts[step] = seed
                            todo.append(step)
            self._parts = parts
        return self._parts

    def route(self, a: Point, out_a: int, b: Point, out_b: int,
              own: tuple[int, int]) -> tuple[Point, ...] | None:
        """The route from port `a` (leaving along heading `out_a`) to port `b` (entered
        against its outward heading `out_b`), or None."""
        if self._straight(a, out_a, b, out_b, own):
            points: tuple[Point, ...] = (a, b)
        else:
            start, goal = self._escape(a, out_a), self._escape(b, out_b)
            if start is None or goal is None:
                return None
            path = None
            if self.parts()[start] == self.parts()[goal]:
                path = self._search(start, out_a, goal, (out_b + 2) % 4)
            if path is None:
                return None
            points = _simplify([a] + [(self.xs[p % self.nx], self.ys[p // self.nx])
                                      for p in path] + [b])
        self._use(points)
        return points

    def _use(self, points: tuple[Point, ...]) -> None:
        """Count the grid segments a route runs along (later routes pay to share them)."""
        xs, ys, nx = self.xs, self.ys, self.nx
        for (x1, y1), (x2, y2) in pairwise(points):
            if y1 == y2:
                j = bisect_left(ys, y1)
                if j < len(ys) and ys[j] == y1:
                    for i in range(bisect_left(xs, min(x1, x2)), bisect_left(xs, max(x1, x2))):
                        key = (0, j * nx + i)
                        self.used[key] = self.used.get(key, 0) + 1
            else:
                i = bisect_left(xs, x1)
                if i < nx and xs[i] == x1:
                    for j in range(bisect_left(ys, min(y1, y2)), bisect_left(ys, max(y1, y2))):
                        key = (1, j * nx + i)
                        self.used[key] = self.used.get(key, 0) + 1

    def _escape(self, port: Point, out: int) -> int | None:
        """The grid point `margin` px out from a port, if nothing is in the way."""
        dx, dy = _STEP[out]
        x, y = _half(port[0] + dx * self.margin), _half(port[1] + dy * self.margin)
        i, j = bisect_left(self.xs, x), bisect_left(self.ys, y)
        if i == self.nx or j == len(self.ys) or self.xs[i] != x or self.ys[j] != y:
            return None   # outside the bounds
        if any(_crosses(port, (x, y), box) for box in self.boxes):
            return None
        return j * self.nx + i

    def _straight(self, a: Point, out_a: int, b: Point, out_b: int,
                  own: tuple[int, int]) -> bool:
        """Whether one segment joins the ports: they face each other on one line."""
        dx, dy = _STEP[out_a]
        if out_b != (out_a + 2) % 4 or (b[0] - a[0]) * dy != (b[1] - a[1]) * dx \
                or (b[0] - a[0]) * dx + (b[1] - a[1]) * dy <= 0:
            return False
        m = self.margin
        return not any(_crosses(a, b, box) or (number not in own and _crosses(
            a, b, (box[0] - m, box[1] - m, box[2] + m, box[3] + m)))
            for number, box in enumerate(self.boxes))

    def _search(self, start: int, heading: int, goal: int, arrive: int) -> list[int] | None:
        """A* over (point, heading) from `start` (reached along `heading`) to `goal`
        reached along `arrive`: the grid points of the cheapest path."""
        xs, ys, nx, ny = self.xs, self.ys, self.nx, len(self.ys)
        blocked = (self.blocked_h, self.blocked_v, self.blocked_h, self.blocked_v)
        used = self.used
        gx, gy = xs[goal % nx], ys[goal // nx]
        lower = _lower_bound(gx, gy, arrive)
        first = start * 4 + heading
        best = {first: 0.0}
        came: dict[int, int] = {}
        x0, y0 = xs[start % nx], ys[start // nx]
        todo = [(lower(x0, y0, heading), -0.0, first)]
        back = (arrive + 2) % 4
        while todo:
            _, cost, state = heapq.heappop(todo)
            cost = -cost
            if state < 0:                    # the goal, turned into if need be
                return _path(came, -1 - state)
            if cost > best[state]:
                continue
            point, d = divmod(state, 4)
            i, j = point % nx, point // nx
            for turn in (d, (d + 1) % 4, (d + 3) % 4):
                if turn == 0:
                    if i + 1 >= nx:
                        continue
                    segment, step = point, point + 1
                elif turn == 1:
                    if j + 1 >= ny:
                        continue
                    segment, step = point, point + nx
                elif turn == 2:
                    if i == 0:
                        continue
                    segment, step = point - 1, point - 1
                else:
                    if j == 0:
                        continue
                    segment, step = point - nx, point - nx
                if blocked[turn][segment]:
                    continue
                x, y = xs[step % nx], ys[step // nx]
                length = abs(x - xs[i]) + abs(y - ys[j])
                shared = used.get((turn & 1, segment), 0) if used else 0
                new = cost + length * (1 + SHARED * shared) + (BEND if turn != d else 0.0)
                state2 = step * 4 + turn
                if new < best.get(state2, float("inf")):
                    best[state2] = new
                    came[state2] = state
                    heapq.heappush(todo, (new + lower(x, y, turn), -new, state2))
                    if step == goal and turn != back:
                        done = new + (BEND if turn != arrive else 0.0)
                        heapq.heappush(todo, (done, -done, -1 - state2))
        return None


def _lower_bound(gx: float, gy: float, arrive: int):
    """The heuristic: from (x, y) heading `d`, the Manhattan distance to the goal plus
    BEND for each bend still needed to arrive along heading `arrive`."""
    def bends(dx: float, dy: float, d: int, last: int) -> int:
        """The fewest bends from heading `d` to the goal, reached along `last`."""
        vx, vy = _STEP[d]
        ahead, aside = dx * vx + dy * vy, dx * vy - dy * vx
        if d == last:
            return 0 if aside == 0 and ahead >= 0 else 2 if ahead > 0 else 4
        if d == (last + 2) % 4:
            return 2 if aside != 0 else 4
        lx, ly = _STEP[last]
        return 1 if ahead >= 0 and dx * lx + dy * ly > 0 else 3

    sideways = ((arrive + 1) % 4, (arrive + 3) % 4)

    def lower(x: float, y: float, d: int) -> float:
        dx, dy = gx - x, gy - y
        fewest = bends(dx, dy, d, arrive)
        if fewest > 1:   # or reach the goal sideways and turn there into the box
            fewest = min(fewest, 1 + min(bends(dx, dy, d, s) for s in sideways))
        return abs(dx) + abs(dy) + BEND * fewest
    return lower


def _path(came: dict[int, int], state: int) -> list[int]:
    points = [state // 4]
    while state in came:
        state = came[state]
        points.append(state // 4)
    return points[::-1]


def _simplify(points: list[Point]) -> tuple[Point, ...]:
    """The corners only: points on a straight run between two others are left out."""
    kept = [points[0]]
    for point, after in zip(points[1:], points[2:] + [None]):
        if point == kept[-1]:
            continue
        if after is not None and (kept[-1][0] == point[0] == after[0]
                                  or kept[-1][1] == point[1] == after[1]):
            continue
        kept.append(point)
    return tuple(kept)


def _crosses(a: Point, b: Point, box: _Box) -> bool:
    """Whether the axis-parallel segment a-b passes through the inside of `box`."""
    return (_meets(a[0], b[0], box[0], box[2]) and _meets(a[1], b[1], box[1], box[3]))


def _meets(u: float, v: float, low: float, high: float) -> bool:
    """Whether the span u-v (or the point u, if u == v) meets the open span low-high."""
    if u == v:
        return low < u < high
    return min(u, v) < high and max(u, v) > low


def _lines(borders: list[float], ports: list[float],
           limits: tuple[float, float] | None) -> list[float]:
    """The grid's lines on one axis: the borders pushed out by the margin and the
    ports', within the limits."""
    found = sorted({_half(v) for v in borders} | {_half(v) for v in ports})
    if limits is not None:
        found = [v for v in found if limits[0] <= v <= limits[1]]
    return found
