"""One edge routed again from other sides, the other edges' routes kept where they are
(for geometry/untangle.py: a cheap look at which sides an edge should take before the
whole figure is routed again to make sure).

The routes given (the router's, nudged) are marked on one grid made of the figure's
boxes and every port, and of a free port on each side of the ends of the edges that may
be tried; an edge tried is taken off, then routed from each pair of its allowed sides
(free ports, as route.py's other-sides search takes them) or, of more than SKETCHED
pairs, from the SKETCHED whose sketch costs least (the cheaper of the two L-shaped
routes between the points just out from the ports, with no search: its length, bends
and SAVED for each crossing of the others' routes), in order of their ports' distance,
each search bounded by what the best so far costs (its length and bends, and SAVED px
for each crossing it has: a route may be that much longer for each crossing it saves;
a search costs as the router's do, so that it finds the route the router would take
from those sides). Crossings are counted as crossings.between counts them, each new
segment against the others' segments across it, found by their coordinates (sorted
once for the routes as they are). Pure and deterministic.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise

from .crossings import segments
from .grid import AROUND, BEND, OUT, STEP, Grid, Point, Rect, box_of
from .ports import SIDES, Ends, free_port, meeting

SKETCHED = 8    # pairs of sides of an edge searched at most, the best sketched
SAVED = 200.0   # px longer a route may be for each crossing it saves
SWAPPED = 100.0  # px longer for each end it takes off a side the others take the other way
                 # (`swapped`, where that weighs)



class Rerouter:
    """The figure's routes on one grid; `tried` tries an edge's other sides."""

    def __init__(self, nodes: Mapping[str, Rect], edges: Sequence[Ends],
                 routes: Mapping[int, Sequence[Point]], sides: Mapping[int, tuple[str, str]],
                 obstacles: Sequence[Rect], bounds: Rect | None, margin: float,
                 tried: Iterable[int], swapped: float = 0.0):
        ids = sorted(nodes)
        self.index = {node: k for k, node in enumerate(ids)}
        self.nodes, self.edges, self.sides = nodes, edges, dict(sides)
        self.margin, self.swapped = margin, swapped
        self.routes = {i: tuple(points) for i, points in routes.items()}
        self.taken = {p for points in self.routes.values() for p in (points[0], points[-1])}
        spare = [free_port(nodes[node], side, self.taken) for i in tried
                 for node in (edges[i].source, edges[i].target) for side in SIDES]
        boxes = [box_of(nodes[node]) for node in ids] + [box_of(rect) for rect in obstacles]
        self.grid = Grid(boxes, margin, bounds, sorted(self.taken) + spare)
        for points in self.routes.values():
            self.grid.use(points)
        self.segments = {i: segments(points) for i, points in self.routes.items()}
        self._index: tuple | None = None

    def crossed(self, i: int, points: Sequence[Point]) -> int:
        """How many times a route for edge i crosses the other edges' routes (each
        other route at each point once, as crossings.between counts them)."""
        (across, down), (rows, row_at, columns, column_at) = segments(points), self._indexed()
        found = set()
        for y, left, right in across:
            for k in range(bisect_right(column_at, left), bisect_left(column_at, right)):
                x, top, bottom, j = columns[k]
                if j != i and top < y < bottom:
                    found.add((j, x, y))
        for x, top, bottom in down:
            for k in range(bisect_right(row_at, top), bisect_left(row_at, bottom)):
                y, left, right, j = rows[k]
                if j != i and left < x < right:
                    found.add((j, x, y))
        return len(found)

    def _indexed(self) -> tuple:
        """Every route's horizontal segments (y, x from, x to, edge) by y and their ys,
        and its vertical ones (x, y from, y to, edge) by x and their xs."""
        if self._index is None:
            rows = sorted((*h, j) for j, (across, _) in self.segments.items() for h in across)
            columns = sorted((*v, j) for j, (_, down) in self.segments.items() for v in down)
            self._index = (rows, [r[0] for r in rows], columns, [c[0] for c in columns])
        return self._index

    def mixed(self, i: int, sides: tuple[str, str]) -> int:
        """How many ends of edge i, on these sides, lie on a side that another edge
        takes the other way (ports.meeting: enters where i leaves, or leaves where i
        enters)."""
        pairs = meeting(self.edges, {**self.sides, i: sides})
        return any(j == i for _, j in pairs) + any(k == i for k, _ in pairs)

    def tried(self, i: int, pairs: Iterable[tuple[str, str]],
              key: Callable[[Sequence[Point], tuple[str, str]], tuple]
              ) -> list[tuple[tuple, tuple[str, str]]]:
        """The pairs of sides (of `pairs`) whose routes for edge i have a lower `key`
        (of the route and its sides) than its route now, with their keys, the lowest
        first; the lowest one's route then replaces edge i's."""
        old = self.routes.pop(i, None)
        ends = self.edges[i]
        taken = set(self.taken)
        if old is not None:
            self.grid.use(old, -1)
            taken -= {old[0], old[-1]}
        # (the others' routes stay)
        before = key(old, self.sides[i]) if old is not None else None
        best = (before, self.sides.get(i), old) if old is not None else None
        limit, better = self._limit(i, best), []
        choices = []
        for a, b in pairs:
            if (a, b) != self.sides.get(i):
                pa = free_port(self.nodes[ends.source], a, taken)
                pb = free_port(self.nodes[ends.target], b, taken)
                choices.append((abs(pa[0] - pb[0]) + abs(pa[1] - pb[1]), SIDES.index(a),
                                SIDES.index(b), (a, b), (pa, pb)))
        own = (self.index[ends.source], self.index[ends.target])
        if len(choices) > SKETCHED:
            sketched = sorted((self._sketch(i, c[4][0], c[3][0], c[4][1], c[3][1]), c)
                              for c in choices)
            choices = [c for _, c in sketched[:SKETCHED]]
        for *_, (a, b), (pa, pb) in sorted(choices):
            points = self.grid.route(pa, OUT[a], pb, OUT[b], own, mark=False, limit=limit,
                                     around=ends.around)
            mine = key(points, (a, b)) if points is not None else None
            if mine is not None and (old is None or mine < before):
                better.append((mine, (a, b), points))
                if best is None or better[-1][0] < best[0]:
                    best = better[-1]
                    limit = min(limit, self._limit(i, best))
        better.sort(key=lambda item: (item[0], SIDES.index(item[1][0]),
                                      SIDES.index(item[1][1])))
        if better:
            self._keep(i, better[0][1], better[0][2], old)
        elif old is not None:
            self._keep(i, self.sides[i], old, old)
        return [item[:2] for item in better]

    def _limit(self, i: int, best: tuple | None) -> float:
        """_limit, `swapped` more for each end of the best route on a side another edge
        takes the other way."""
        if best is None:
            return math.inf
        return _limit(best, self.edges[i].around) + (
            self.swapped * self.mixed(i, best[1]) if self.swapped else 0.0)

    def _sketch(self, i: int, pa: Point, a: str, pb: Point, b: str) -> float:
        """What a route for edge i from port `pa` (side a) to `pb` (side b) would cost at
        least, roughly, with no search: the cheaper of the two L-shaped routes between
        the points just out from the ports, its length, BEND a bend and SAVED a crossing
        with the others' routes."""
        (ax, ay), (bx, by) = STEP[OUT[a]], STEP[OUT[b]]
        ea = (pa[0] + ax * self.margin, pa[1] + ay * self.margin)
        eb = (pb[0] + bx * self.margin, pb[1] + by * self.margin)
        costs = []
        for corner in ((eb[0], ea[1]), (ea[0], eb[1])):
            points = _corners([pa, ea, corner, eb, pb])
            costs.append(sum(abs(q[0] - p[0]) + abs(q[1] - p[1]) for p, q in pairwise(points))
                         + BEND * (len(points) - 2) + SAVED * self.crossed(i, points))
        return min(costs)

    def _keep(self, i: int, sides: tuple[str, str], points: Sequence[Point],
              old: Sequence[Point] | None) -> None:
        if old is not None:
            self.taken -= {old[0], old[-1]}
        self.routes[i], self.sides[i] = tuple(points), sides
        self.taken |= {points[0], points[-1]}
        self.segments[i] = segments(points)
        self._index = None
        self.grid.use(tuple(points))


def _corners(points: list[Point]) -> list[Point]:
    """The points of a polyline but those repeated or on a straight run."""
    kept = [points[0]]
    for point in points[1:]:
        if point == kept[-1]:
            continue
        if len(kept) > 1 and (kept[-2][0] == kept[-1][0] == point[0]
                              or kept[-2][1] == kept[-1][1] == point[1]):
            kept[-1] = point
        else:
            kept.append(point)
    return kept


def _limit(best: tuple | None, around: bool) -> float:
    """What a search may cost and still find a route better than `best`: its length and
    bends, and SAVED for each of its crossings (its key's first item), AROUND more for
    a feedback edge's (as its search pays)."""
    if best is None:
        return math.inf
    (crossed, *_), _, points = best
    length = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in pairwise(points))
    return length + BEND * (len(points) - 2) + (SAVED + AROUND * around) * crossed + 1
